// Composition root: builds the services, registers views and commands, nothing else. Activation stays cheap:
// no network, no axios (the client module loads on first use).
import * as vscode from 'vscode';
import { ApiKeyStore } from './auth/apiKeyStore';
import { registerApiKeyCommands } from './commands/apiKey';
import { offerPendingDownloads, registerDownloadCommand } from './commands/download';
import { registerEvaluateCommand } from './commands/evaluate';
import { registerFinetuneCommand } from './commands/finetune';
import { registerModelCommands } from './commands/modelCommands';
import { JobStore } from './jobs/jobStore';
import { Log } from './log';
import { Session } from './session';
import { VIEW_MODELS, type Services } from './services';
import { ModelsTreeProvider } from './views/modelsTree';

export interface ExtensionApi {
  /** For the in-editor tests: the live services and views. Not a public API. */
  services: Services;
  models: ModelsTreeProvider;
}

export function activate(context: vscode.ExtensionContext): ExtensionApi {
  const log = new Log();
  const keys = new ApiKeyStore(context.secrets);
  const session = new Session(keys, log);
  const jobs = new JobStore(context.globalState);
  const services: Services = { context, log, session, jobs };

  const models = new ModelsTreeProvider(services);
  context.subscriptions.push(
    log,
    keys,
    session,
    jobs,
    models,
    vscode.window.createTreeView(VIEW_MODELS, { treeDataProvider: models, showCollapseAll: false }),
    ...registerApiKeyCommands(services, () => void models.refresh()),
    ...registerModelCommands(services, models),
    registerEvaluateCommand(services, models),
    registerDownloadCommand(services, models),
    registerFinetuneCommand(services),
  );

  void session.updateContext();
  // Off the activation path: offer to resume downloads a reload interrupted.
  const pending = setTimeout(() => void offerPendingDownloads(services).catch((e: unknown) => log.warn(`Pending downloads: ${String(e)}`)), 3000);
  context.subscriptions.push({ dispose: () => clearTimeout(pending) });
  return { services, models };
}

export function deactivate(): void {}
