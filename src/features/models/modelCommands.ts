// Small commands on the Models view: refresh, copy a model's name, show the log.
import * as vscode from 'vscode';
import { COMMANDS } from '../../contributions';
import type { Services } from '../../services';
import type { ModelsTreeProvider } from './modelsTree';
import { modelNameFromArgument } from './modelArgument';

export function modelCommands(services: Services, models: ModelsTreeProvider) {
  return {
    [COMMANDS.refreshModels]: () => models.refresh(),
    [COMMANDS.copyModelName]: async (arg?: unknown) => {
      const name = modelNameFromArgument(arg);
      if (name) await vscode.env.clipboard.writeText(name);
    },
    [COMMANDS.showLog]: () => services.log.show(),
  };
}
