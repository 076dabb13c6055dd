// Composition root, loaded by the entry module (extension.ts) on first use: builds the services, connects the views
// the entry registered and registers the real commands, nothing else. No network, no axios here (the client module
// loads on first use).
import * as vscode from 'vscode';
import { ApiKeyStore } from './auth/apiKeyStore';
import { registerApiKeyCommands } from './commands/apiKey';
import { offerPendingDownloads, registerDownloadCommand } from './commands/download';
import { registerEvaluateCommand, startEvaluation } from './commands/evaluate';
import { finetuneWithoutWizard, registerFinetuneCommand, type FinetuneOutcome, type FinetuneProgrammaticArgs } from './commands/finetune';
import { registerJobCommands } from './commands/jobCommands';
import { JobNotifier } from './jobs/jobNotifier';
import { JobPoller } from './jobs/jobPoller';
import { registerModelCommands } from './commands/modelCommands';
import { registerPlayground } from './commands/playground';
import { JobStore } from './jobs/jobStore';
import type { PlaygroundManager } from './playground/playgroundManager';
import { Log } from './log';
import { Session } from './session';
import type { Services } from './services';
import { showConnection } from './views/connectionDescription';
import { JobsView, type JobNode } from './views/jobsTree';
import { ModelsTreeProvider } from './views/modelsTree';
import { JobsStatusBar } from './views/statusBar';

export interface ExtensionApi {
  /** For the in-editor tests: the live services and views. Not a public API. */
  services: Services;
  models: ModelsTreeProvider;
  modelsView: vscode.TreeView<unknown>;
  poller: JobPoller;
  jobsView: JobsView;
  statusBar: JobsStatusBar;
  playground: PlaygroundManager;
  /** Offers to resume downloads a reload interrupted (the entry module calls it a moment after startup). */
  offerPendingDownloads(): Promise<void>;
  /** For the in-editor tests: what the commands do once the user has answered their questions (never a command). */
  evaluate(modelName: string, datasetName: string): Promise<string | undefined>;
  finetune(args: FinetuneProgrammaticArgs): Promise<FinetuneOutcome>;
}

/** What the entry module registered at activation, handed over to the main module. */
export interface Shell {
  modelsView: vscode.TreeView<unknown>;
  jobsView: vscode.TreeView<unknown>;
  connectModels(provider: vscode.TreeDataProvider<unknown>): void;
  connectJobs(provider: vscode.TreeDataProvider<unknown>): void;
  /** Disposes the stand-in commands so the real ones can be registered under the same ids. */
  releaseCommands(): void;
}

export function start(context: vscode.ExtensionContext, shell: Shell): ExtensionApi {
  // Everything made here is owned by this list until the end: if anything throws, it is all disposed and the entry
  // module's stand-in commands stay in place (they are released only once every object exists), so a later use can
  // try again instead of meeting "command not found".
  const owned: vscode.Disposable[] = [];
  try {
    const log = new Log();
    const keys = new ApiKeyStore(context.secrets);
    const session = new Session(keys, log);
    const jobs = new JobStore(context.globalState, (message) => log.warn(message));
    owned.push(log, keys, session, jobs);
    const services: Services = { context, log, session, jobs };
    const models = new ModelsTreeProvider(services);
    const poller = new JobPoller(services);
    const notifier = new JobNotifier(poller, log);
    const jobsView = new JobsView(services, shell.jobsView as vscode.TreeView<JobNode>);
    const statusBar = new JobsStatusBar(services);
    owned.push(
      models,
      poller,
      notifier,
      jobsView,
      statusBar,
      // A finished finetune adds a model: every window that followed it refreshes its list.
      poller.onDidFinishJob((e) => {
        if (e.job.kind === 'finetune' && e.job.state === 'completed') void models.refresh();
      }),
    );

    shell.releaseCommands();
    owned.push(
      ...registerApiKeyCommands(services),
      ...registerModelCommands(services, models),
      registerEvaluateCommand(services, models),
      registerDownloadCommand(services, models),
      registerFinetuneCommand(services),
      ...registerJobCommands(services, { poller, view: jobsView }),
    );
    const playground = registerPlayground(services);
    context.subscriptions.push(...owned);
    context.subscriptions.push(showConnection(session, shell.modelsView));
    shell.connectModels(models);
    shell.connectJobs(jobsView);

    void poller.start();
    void session.updateContext();
    return {
      services,
      models,
      modelsView: shell.modelsView,
      poller,
      jobsView,
      statusBar,
      playground,
      evaluate: (modelName, datasetName) => startEvaluation(services, modelName, datasetName),
      finetune: (args) => finetuneWithoutWizard(services, args),
      offerPendingDownloads: () => offerPendingDownloads(services).catch((e: unknown) => log.warn(`Pending downloads: ${String(e)}`)),
    };
  } catch (error) {
    for (const d of owned.reverse()) d.dispose();
    throw error;
  }
}
