// hosted_list_models: the models the key allows, base and tuned, each with its kind, its parent and its last accuracy
// here. The list is asked for anew (a finished finetune adds a model) as a person's request (a refused connection
// fails at once, said with its fix), without touching the Models view's rows; the caller's cancellation aborts it.
import * as vscode from 'vscode';
import type { Services } from '../../services';
import { abortOn, runTool, textResult } from './toolShared';
import { modelLines } from './toolText';

export function listModelsTool(services: Services): vscode.LanguageModelTool<unknown> {
  return {
    prepareInvocation: () => ({ invocationMessage: vscode.l10n.t('Listing the hosted models') }),
    invoke: (_options, token) =>
      runTool('Listing the models', async () => {
        const { client, scope } = await services.session.connect();
        const cancel = abortOn(token);
        try {
          const list = await client.listModels({ interactive: true, signal: cancel.signal });
          return textResult(modelLines(list, services.jobs.list(scope)));
        } finally {
          cancel.dispose();
        }
      }),
  };
}
