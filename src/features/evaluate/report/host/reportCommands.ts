// "Open Evaluation Report": from a model's context menu (Models view), an evaluation's row (Jobs view), the
// notification of an evaluation that ended, or the palette (then a pick of the models). It takes a model name only.
import * as vscode from 'vscode';
import { COMMANDS } from '../../../../contributions';
import type { ReportManager } from './reportManager';
import { modelNameFromArgument } from '../../../models/modelArgument';

export function reportCommands(manager: ReportManager, pickModel: (title: string) => Promise<string | undefined>) {
  return {
    // Returns the panel (for tests and other commands).
    [COMMANDS.openEvaluationReport]: async (arg?: unknown) => {
      const modelName = modelNameFromArgument(arg) ?? (await pickModel(vscode.l10n.t('Open the evaluation report of which model?')));
      return modelName ? manager.openReport(modelName) : undefined;
    },
  };
}
