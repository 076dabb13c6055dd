// The ids the extension contributes in package.json, for the entry module that registers them before the rest of
// the extension is loaded (test/unit/contributions.test.ts keeps this list and package.json in step).
export const COMMAND_IDS = [
  'hostedReasoning.setApiKey',
  'hostedReasoning.clearApiKey',
  'hostedReasoning.configureBaseUrl',
  'hostedReasoning.refreshModels',
  'hostedReasoning.refreshJobs',
  'hostedReasoning.finetune',
  'hostedReasoning.evaluate',
  'hostedReasoning.download',
  'hostedReasoning.copyModelName',
  'hostedReasoning.removeJob',
  'hostedReasoning.clearFinishedJobs',
  'hostedReasoning.showJobs',
  'hostedReasoning.showLog',
  'hostedReasoning.openPlayground',
  'hostedReasoning.askAboutSelection',
] as const;

/** The playground panel's view type: createWebviewPanel, the serializer and `onWebviewPanel:` activation all use it. */
export const PLAYGROUND_VIEW_TYPE = 'hostedReasoning.playground';
