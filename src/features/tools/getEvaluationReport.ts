// hosted_get_evaluation_report: the evaluation report of a model in words, from the job records here (the report
// panel's own view-model, buildReportView): per dataset its accuracy and its base model's, each with its 95 % interval,
// the difference with its interval and the verdict, and the model's lineage (files, base, answers).
import * as vscode from 'vscode';
import type { Services } from '../../services';
import type { ModelsTreeProvider } from '../models/modelsTree';
import { isNamed } from '../../api/modelIdentifiers';
import { buildReportView } from '../evaluate/report/host/reportView';
import { fields, requiredString, runTool, textResult } from './toolShared';
import { reportLines } from './toolText';

export function getEvaluationReportTool(services: Services, models: ModelsTreeProvider): vscode.LanguageModelTool<unknown> {
  return {
    prepareInvocation: () => ({ invocationMessage: vscode.l10n.t('Reading an evaluation report') }),
    invoke: (options) =>
      runTool('Reading the evaluation report', async () => {
        const modelName = requiredString(fields(options.input), 'modelName');
        const { scope } = await services.session.connect();
        // The base the service lists, for a model tuned elsewhere (no finetune job here recorded it); a list that
        // cannot be read only leaves that out.
        await models.load();
        const view = buildReportView({
          records: services.jobs.list(scope),
          modelName,
          // The model by any of its identifiers, as a finished job finds its made model (findMadeModel).
          listedBase: models.models?.find((m) => isNamed(m, modelName))?.baseModel,
          droppedByModel: services.jobs.droppedEvaluations(scope),
        });
        return textResult(reportLines(view));
      }),
  };
}
