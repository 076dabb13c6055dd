// Context keys the Get Started walkthrough's steps complete on (package.json `onContext:` completion events): each is
// set once the user has done what its step teaches, not when the step's button was clicked. No vscode import: the
// manifest test reads these names under plain mocha. Set them with markWalkthroughStep (src/util/walkthroughStep.ts).
export const WALKTHROUGH_CONTEXT = {
  /** A key is set for the service, stored or from the environment (the session sets this one: it also goes false). */
  hasApiKey: 'hostedReasoning.hasApiKey',
  /** The Models view listed at least one model. */
  modelsListed: 'hostedReasoning.modelsListed',
  /** A playground run ended with an answer (not an error, not stopped). */
  inferenceFinished: 'hostedReasoning.inferenceFinished',
  /** The service accepted a finetuning job. */
  finetuneStarted: 'hostedReasoning.finetuneStarted',
} as const;

export type WalkthroughContextKey = (typeof WALKTHROUGH_CONTEXT)[keyof typeof WALKTHROUGH_CONTEXT];

/** The walkthrough as VS Code names it: `<publisher>.<name>#<walkthrough id>` (package.json). */
export const WALKTHROUGH_ID = 'hosted-reasoning.hosted-reasoning#hostedReasoning.gettingStarted';

/** The step that completes on each key (package.json's completionEvents; walkthroughManifest.test.ts keeps them in step). */
export const WALKTHROUGH_STEP_OF: Record<WalkthroughContextKey, string> = {
  [WALKTHROUGH_CONTEXT.hasApiKey]: 'setApiKey',
  [WALKTHROUGH_CONTEXT.modelsListed]: 'seeModels',
  [WALKTHROUGH_CONTEXT.inferenceFinished]: 'runFirstInference',
  [WALKTHROUGH_CONTEXT.finetuneStarted]: 'createFirstFinetunedModel',
};
