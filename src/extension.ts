// Composition root: builds the services, registers views and commands, nothing else. Activation stays cheap:
// no network, no axios (the client module loads on first use).
import * as vscode from 'vscode';
import { ApiKeyStore } from './auth/apiKeyStore';
import { registerApiKeyCommands } from './commands/apiKey';
import { offerPendingDownloads, registerDownloadCommand } from './commands/download';
import { registerEvaluateCommand } from './commands/evaluate';
import { registerFinetuneCommand } from './commands/finetune';
import { registerJobCommands } from './commands/jobCommands';
import { JobNotifier } from './jobs/jobNotifier';
import { JobPoller } from './jobs/jobPoller';
import { registerModelCommands } from './commands/modelCommands';
import { registerPlayground } from './commands/playground';
import { JobStore } from './jobs/jobStore';
import type { PlaygroundManager } from './playground/playgroundManager';
import { Log } from './log';
import { Session } from './session';
import { VIEW_MODELS, type Services } from './services';
import { JobsView } from './views/jobsTree';
import { ModelsTreeProvider } from './views/modelsTree';
import { JobsStatusBar } from './views/statusBar';

export interface ExtensionApi {
  /** For the in-editor tests: the live services and views. Not a public API. */
  services: Services;
  models: ModelsTreeProvider;
  poller: JobPoller;
  jobsView: JobsView;
  statusBar: JobsStatusBar;
  playground: PlaygroundManager;
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
    ...registerApiKeyCommands(services),
    ...registerModelCommands(services, models),
    registerEvaluateCommand(services, models),
    registerDownloadCommand(services, models),
    registerFinetuneCommand(services),
  );

  const poller = new JobPoller(services);
  const notifier = new JobNotifier(poller, log);
  const jobsView = new JobsView(services);
  const statusBar = new JobsStatusBar(services);
  context.subscriptions.push(
    poller,
    notifier,
    jobsView,
    statusBar,
    ...registerJobCommands(services, { poller, view: jobsView }),
    // A finished finetune adds a model: every window that followed it refreshes its list.
    poller.onDidFinishJob((e) => {
      if (e.job.kind === 'finetune' && e.job.state === 'completed') void models.refresh();
    }),
  );
  void poller.start();
  const playground = registerPlayground(services);

  void session.updateContext();
  // Off the activation path: offer to resume downloads a reload interrupted.
  const pending = setTimeout(() => void offerPendingDownloads(services).catch((e: unknown) => log.warn(`Pending downloads: ${String(e)}`)), 3000);
  context.subscriptions.push({ dispose: () => clearTimeout(pending) });
  return { services, models, poller, jobsView, statusBar, playground };
}

export function deactivate(): void {}
