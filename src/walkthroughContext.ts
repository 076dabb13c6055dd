// Context keys the Get Started walkthrough's steps complete on (package.json `onContext:` completion events): each is
// set once the user has done what its step teaches, not when the step's button was clicked. No vscode import: the
// manifest test reads these names under plain mocha. Set them with markWalkthroughStep (src/util/walkthroughStep.ts).
export const WALKTHROUGH_CONTEXT = {
  /** The Models view listed at least one model. */
  modelsListed: 'hostedReasoning.modelsListed',
  /** A playground run ended with an answer (not an error, not stopped). */
  inferenceFinished: 'hostedReasoning.inferenceFinished',
  /** The service accepted a finetuning job. */
  finetuneStarted: 'hostedReasoning.finetuneStarted',
} as const;

export type WalkthroughContextKey = (typeof WALKTHROUGH_CONTEXT)[keyof typeof WALKTHROUGH_CONTEXT];
