// Small commands on the Models view: refresh, copy a model's name, show the log.
import * as vscode from 'vscode';
import type { Services } from '../services';
import type { ModelsTreeProvider } from '../views/modelsTree';
import { modelNameFromArgument } from './modelArgument';

export function registerModelCommands(services: Services, models: ModelsTreeProvider): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('hostedReasoning.refreshModels', () => models.refresh()),
    vscode.commands.registerCommand('hostedReasoning.copyModelName', async (arg?: unknown) => {
      const name = modelNameFromArgument(arg);
      if (name) await vscode.env.clipboard.writeText(name);
    }),
    vscode.commands.registerCommand('hostedReasoning.showLog', () => services.log.show()),
  ];
}
