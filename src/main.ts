// Composition root, loaded by the entry module (extension.ts) on first use: builds the services, connects the views
// the entry registered and returns the handlers of the commands the entry registered, nothing else. No network here:
// the first request waits for the first command or view that needs one.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ApiKeyStore, originOf } from './connection/apiKeyStore';
import { KnownModelNames } from './connection/knownModelNames';
import { apiKeyCommands } from './features/apiKey/apiKeyCommands';
import { forgetApiKeysCommand } from './features/apiKey/forgetApiKeys';
import { discardDownloadsCommand } from './features/download/discardDownloads';
import { clearRecordsCommand } from './features/cleanup/clearRecordsCommand';
import { downloadCommand, offerPendingDownloads } from './features/download/downloadCommand';
import { evaluateCommand, startEvaluation } from './features/evaluate/evaluateCommand';
import { compareCommand, comparisonsRoot } from './features/evaluate/compare/compareCommand';
import { ComparisonRuns, runningCounts } from './features/evaluate/compare/comparisonRuns';
import { comparisonRowCommands } from './features/evaluate/compare/comparisonRowCommands';
import { ComparisonRowSource } from './features/evaluate/compare/comparisonRows';
import { finetuneCommand, finetuneWithoutWizard, type FinetuneProgrammaticArgs } from './features/finetune/finetuneCommand';
import { jobCommands } from './features/jobs/jobCommands';
import { UnreadableStarts } from './jobs/unreadableStarts';
import { StartingJobs } from './jobs/startingJobs';
import { JobNotifier } from './features/jobs/jobNotifier';
import { EditorJobPoller } from './jobs/editorJobPoller';
import { modelCommands } from './features/models/modelCommands';
import { runLocallyCommand } from './features/runLocally/runLocallyCommand';
import { playgroundCommands } from './features/playground/host/playgroundCommands';
import { COMMANDS, type CommandHandlers } from './contributions';
import { JobStore } from './jobs/jobStore';
import { PlaygroundManager } from './features/playground/host/playgroundManager';
import { ReportManager } from './features/evaluate/report/host/reportManager';
import { KeptComparisons } from './features/evaluate/report/host/keptComparisons';
import { reportCommands } from './features/evaluate/report/host/reportCommands';
import { pickModel } from './features/models/modelArgument';
import { Log } from './log';
import { LocalModels } from './local/localModels';
import { createLocalRuntime } from './local/localRuntime';
import { readLocalRuntimeSettings } from './local/localRuntimeSettings';
import { Session } from './connection/session';
import { ServiceProfiles } from './connection/serviceProfiles';
import { chooseHowToReadCommand } from './features/reading/chooseHowToRead';
import { showServiceProfileCommand } from './features/models/showServiceProfile';
import type { Services } from './services';
import { showConnection } from './features/apiKey/connectionDescription';
import { JobsView, type JobNode } from './features/jobs/jobsTree';
import { JobsWithComparisons } from './features/evaluate/compare/jobsWithComparisons';
import { ModelsTreeProvider } from './features/models/modelsTree';
import { JobsStatusBar } from './features/jobs/statusBar';
import { useTranslations } from './l10n';
import { completeWalkthroughStep } from './util/walkthroughStep';
import { WALKTHROUGH_CONTEXT } from './walkthroughContext';
import { ChatModelProvider } from './features/chat/chatModelProvider';
import { chatParticipantHandler } from './features/chat/chatParticipant';
import { askInChatCommand } from './features/chat/askInChat';
import { ChatReasoningStore } from './features/chat/chatReasoning';
import { languageModelTools } from './features/tools/tools';

/** What start() returns: for the in-editor tests, the live services and views (not a public API), and for the entry
 * module, the handler of each command it registered and the panels to restore. */
export type ExtensionApi = ReturnType<typeof start>;

/** What the entry module registered at activation, handed over to the main module. */
export interface Shell {
  modelsView: vscode.TreeView<unknown>;
  jobsView: vscode.TreeView<unknown>;
  connectModels(provider: vscode.TreeDataProvider<unknown>): void;
  connectJobs(provider: vscode.TreeDataProvider<unknown>): void;
  /** Fires the language-model provider's change event (the list of models offered to Chat and `vscode.lm`). */
  announceChatModels(): void;
}

export function start(context: vscode.ExtensionContext, shell: Shell) {
  // The modules that run without VS Code translate through src/l10n.ts: before any of them writes a word.
  useTranslations((message, ...args) => vscode.l10n.t(message, ...args));
  // Everything made here is owned by this list until the end: if anything throws, it is all disposed and the entry
  // module loads nothing, so the next use of a command or view tries again.
  const owned: vscode.Disposable[] = [];
  try {
    const log = new Log();
    const keys = new ApiKeyStore(context.secrets, process.env, context.globalState);
    const profiles = new ServiceProfiles(context.globalState, log);
    const session = new Session(keys, log, profiles);
    const jobs = new JobStore(context.globalState, (message) => log.warn(message));
    const local = new LocalModels(
      context.globalState,
      (message) => log.warn(message),
      createLocalRuntime(readLocalRuntimeSettings, (line) => log.info(line)),
    );
    const knownModels = new KnownModelNames(context.globalState, (message) => log.warn(message));
    owned.push(log, keys, profiles, session, jobs, local);
    const starting = new StartingJobs(path.join(context.globalStorageUri.fsPath, 'starting-jobs'), (message) => log.warn(message));
    const services: Services = {
      context,
      log,
      session,
      jobs,
      local,
      profiles,
      knownModels,
      starts: new UnreadableStarts(),
      starting,
      comparisons: new ComparisonRuns(),
    };
    const models = new ModelsTreeProvider(services);
    // The poller looks for a running finetune's model in the list the Models view fetches, not in one of its own.
    const poller = new EditorJobPoller(services, (opts) => models.latest(opts));
    const notifier = new JobNotifier(poller, log, () => services.local.runtime.available());
    const keptComparisons = new KeptComparisons(comparisonsRoot(services));
    const comparisonRows = new ComparisonRowSource(services.comparisons, keptComparisons);
    const jobsView = new JobsView(services, shell.jobsView as vscode.TreeView<JobNode>);
    const jobsRows = new JobsWithComparisons(services, jobsView, comparisonRows);
    const statusBar = new JobsStatusBar(services, Date.now, {
      running: (now) => runningCounts(services.comparisons, now),
      onDidChange: (listener) => services.comparisons.onDidChange(listener),
    });
    const playground = new PlaygroundManager(services);
    const pickAnyModel = (title: string) => pickModel(services, models, title);
    const report = new ReportManager(services, {
      startEvaluation: (modelName, datasetName) => startEvaluation(services, modelName, datasetName, { revealJobs: false }),
      pickModel: pickAnyModel,
      listedBase: (modelName) => models.models?.find((m) => m.name === modelName)?.baseModel,
      questionComparisons: (modelName, scope) => keptComparisons.forModel(modelName, scope),
      onDidChangeComparisons: (listener) =>
        new vscode.Disposable(services.comparisons.onDidChange(({ run }) => listener(run.spec.models)).dispose),
    });
    const chatModels = new ChatModelProvider(services, models, () => shell.announceChatModels());
    const chatReasonings = new ChatReasoningStore();
    const serviceProfile = showServiceProfileCommand(services);
    owned.push(
      serviceProfile.provider,
      // A profile written in the setting: the list is read by it at once.
      profiles.onDidChange(() => void models.refresh()),
      models,
      chatModels,
      poller,
      notifier,
      comparisonRows,
      jobsView,
      jobsRows,
      statusBar,
      playground,
      report,
      // A finished finetune adds a model: every window that followed it refreshes its list.
      poller.onDidFinishJob((e) => {
        if (e.job.kind !== 'finetune' || e.job.state !== 'completed') return;
        void models.refresh();
        // Kept for when the list cannot be read: the name the job made (the service's own, once it gave one).
        const origin = originOf(e.job.scope.slice(0, e.job.scope.lastIndexOf('#')));
        if (origin) void knownModels.remember(origin, e.job.modelName, 'job');
      }),
    );

    const commands: CommandHandlers = {
      ...apiKeyCommands(services),
      ...modelCommands(services, models),
      ...evaluateCommand(services, models),
      ...compareCommand(services, models),
      ...comparisonRowCommands(services, comparisonRows),
      ...downloadCommand(services, models),
      ...finetuneCommand(services),
      ...jobCommands(services, { poller, view: jobsView, comparisons: comparisonRows }),
      ...playgroundCommands(playground),
      ...runLocallyCommand(services, playground),
      ...reportCommands(report, pickAnyModel),
      ...forgetApiKeysCommand(services),
      ...discardDownloadsCommand(services),
      ...clearRecordsCommand(services, playground),
      [COMMANDS.showChatReasoning]: (id) => chatReasonings.show(id),
      ...askInChatCommand(),
      ...serviceProfile.commands,
      ...chooseHowToReadCommand({ services, refreshModels: () => models.refresh(), pollNow: () => poller.pollNow() }),
    };
    context.subscriptions.push(...owned);
    context.subscriptions.push(showConnection(session, shell.modelsView));
    shell.connectModels(models);
    shell.connectJobs(jobsRows);

    void poller.start();
    void session.updateContext();
    // The walkthrough's first step: a key for this service, stored or from the environment.
    const keyStep = async () => {
      if ((await session.current()).key) completeWalkthroughStep(WALKTHROUGH_CONTEXT.hasApiKey);
    };
    context.subscriptions.push(session.onDidChange(() => void keyStep()));
    void keyStep();
    return {
      services,
      models,
      modelsView: shell.modelsView,
      poller,
      jobsView,
      /** What the Jobs view shows: the jobs' rows and the comparisons'. */
      jobsRows,
      statusBar,
      playground,
      report,
      commands,
      /** What the entry's language-model provider and chat participant forward to. */
      chat: {
        models: chatModels,
        participant: chatParticipantHandler(services, models, chatReasonings),
        reasonings: chatReasonings,
      },
      /** What the entry's language-model tools forward to, by name. */
      tools: languageModelTools(services, models, poller),
      evaluate: (modelName: string, datasetName: string) => startEvaluation(services, modelName, datasetName),
      finetune: (args: FinetuneProgrammaticArgs) => finetuneWithoutWizard(services, args),
      offerPendingDownloads: () => offerPendingDownloads(services).catch((e: unknown) => log.warn(`Pending downloads: ${String(e)}`)),
    };
  } catch (error) {
    for (const d of owned.reverse()) d.dispose();
    throw error;
  }
}
