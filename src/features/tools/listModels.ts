// hosted_list_models: the models the key allows, base and tuned, each with its kind, its parent and its last accuracy
// here. The list is asked for again (a finished finetune adds a model), through the Models view's own load, so one
// request serves both.
import * as vscode from 'vscode';
import type { Services } from '../../services';
import type { ModelsTreeProvider } from '../models/modelsTree';
import { runTool, textResult } from './toolShared';
import { modelLines } from './toolText';

export function listModelsTool(services: Services, models: ModelsTreeProvider): vscode.LanguageModelTool<unknown> {
  return {
    prepareInvocation: () => ({ invocationMessage: vscode.l10n.t('Listing the hosted models') }),
    invoke: (_options, token) =>
      runTool('Listing the models', async () => {
        const { scope } = await services.session.connect();
        await models.refresh();
        if (token.isCancellationRequested) return textResult(['Cancelled.']);
        // The view keeps the list or its failure: a failure is asked once more to have its error in words.
        const list = models.models ?? (await (await services.session.connect()).client.listModels({ interactive: true }));
        return textResult(modelLines(list, services.jobs.list(scope)));
      }),
  };
}
