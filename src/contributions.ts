// The commands package.json contributes, one table for every place that names one: the entry module registers each
// id once, main's start() returns a handler for each, and views, notifications and tests refer to them through it
// (test/unit/contributions.test.ts keeps the table, package.json's commands and its menus in step).
export const COMMANDS = {
  setApiKey: 'hostedReasoning.setApiKey',
  clearApiKey: 'hostedReasoning.clearApiKey',
  configureBaseUrl: 'hostedReasoning.configureBaseUrl',
  openProxySettings: 'hostedReasoning.openProxySettings',
  refreshModels: 'hostedReasoning.refreshModels',
  refreshJobs: 'hostedReasoning.refreshJobs',
  finetune: 'hostedReasoning.finetune',
  evaluate: 'hostedReasoning.evaluate',
  download: 'hostedReasoning.download',
  copyModelName: 'hostedReasoning.copyModelName',
  removeJob: 'hostedReasoning.removeJob',
  stopFollowingJob: 'hostedReasoning.stopFollowingJob',
  clearFinishedJobs: 'hostedReasoning.clearFinishedJobs',
  showJobs: 'hostedReasoning.showJobs',
  showLog: 'hostedReasoning.showLog',
  openPlayground: 'hostedReasoning.openPlayground',
  askAboutSelection: 'hostedReasoning.askAboutSelection',
  runLocally: 'hostedReasoning.runLocally',
  openEvaluationReport: 'hostedReasoning.openEvaluationReport',
  forgetApiKeys: 'hostedReasoning.forgetApiKeys',
  discardPartialDownloads: 'hostedReasoning.discardPartialDownloads',
  clearStoredRecords: 'hostedReasoning.clearStoredRecords',
  showChatReasoning: 'hostedReasoning.showChatReasoning',
  askInChat: 'hostedReasoning.askInChat',
  showServiceProfile: 'hostedReasoning.showServiceProfile',
  chooseHowToRead: 'hostedReasoning.chooseHowToRead',
  compareOnQuestions: 'hostedReasoning.compareOnQuestions',
  cancelComparison: 'hostedReasoning.cancelComparison',
  resumeComparison: 'hostedReasoning.resumeComparison',
  retryFailedComparison: 'hostedReasoning.retryFailedComparison',
  openComparisonResult: 'hostedReasoning.openComparisonResult',
  removeComparison: 'hostedReasoning.removeComparison',
} as const;

export type CommandId = (typeof COMMANDS)[keyof typeof COMMANDS];

/** What the main module runs for each command; the entry module's registration forwards its arguments as given. */
export type CommandHandlers = Record<CommandId, (...args: unknown[]) => unknown>;

/** The playground panel's view type: createWebviewPanel, the serializer and `onWebviewPanel:` activation all use it. */
export const PLAYGROUND_VIEW_TYPE = 'hostedReasoning.playground';

/** The evaluation report panel's view type: createWebviewPanel, the serializer and `onWebviewPanel:` activation. */
export const REPORT_VIEW_TYPE = 'hostedReasoning.evaluationReport';

/** The vendor of the models this extension offers to VS Code's Chat and `vscode.lm` (contributes.languageModelChatProviders). */
export const CHAT_VENDOR = 'hostedReasoning';

/**
 * The scheme of the read-only documents that hold a Chat answer's reasoning (src/features/chat/chatReasoning.ts), and
 * their language (contributes.languages: long lines of prose wrap, by configurationDefaults, in those documents only).
 */
export const REASONING_SCHEME = 'hosted-reasoning-thought';

/** The scheme of the read-only document Show How the Service Is Read opens (src/features/models/showServiceProfile.ts). */
export const PROFILE_SCHEME = 'hosted-reasoning-profile';

/** The chat participant (`@hosted`), as contributed in contributes.chatParticipants. */
export const CHAT_PARTICIPANT = 'hostedReasoning.hosted';
/** Its name, what a person types after `@`. */
export const CHAT_PARTICIPANT_NAME = 'hosted';

/**
 * The language-model tools package.json contributes (contributes.languageModelTools), by what each does: the entry
 * registers each name once, forwarding to the main module's tool of that name (src/features/tools/). Names are
 * `hosted_<verb>_<noun>`: a prefix instead of a tool set (a proposed API), so a person or an agent finds them together.
 */
export const LM_TOOLS = {
  listModels: 'hosted_list_models',
  listJobs: 'hosted_list_jobs',
  getJob: 'hosted_get_job',
  startFinetune: 'hosted_start_finetune',
  startEvaluation: 'hosted_start_evaluation',
  getEvaluationReport: 'hosted_get_evaluation_report',
  downloadModel: 'hosted_download_model',
  askModel: 'hosted_ask_model',
  compareModels: 'hosted_compare_models',
} as const;

export type LmToolName = (typeof LM_TOOLS)[keyof typeof LM_TOOLS];
