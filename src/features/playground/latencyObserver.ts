// The one seam through which the token-latency benchmark (test/bench/figures/latency.ts) watches a playground run:
// set only by test/bench (in the extension host by a helper extension it installs, in the page through Playwright),
// never by the product. With none set, each chunk and frame costs one property read.
/** Every method is called synchronously at the moment it names; the observer takes its own timestamps. */
export interface PlaygroundObserver {
  /** Extension host: a delta of the run's answer was read from the response. */
  deltaRead?(runId: string): void;
  /** Extension host: a piece of the run's reasoning was read from the response. */
  reasoningRead?(runId: string): void;
  /** Extension host: chunk `seq` of the run is about to be handed to `webview.postMessage`. */
  chunkPosted?(runId: string, seq: number): void;
  /** Page: chunk `seq` arrived, bringing the answer to `chars` characters. */
  chunkArrived?(runId: string, seq: number, chars: number): void;
  /** Page: a frame put the answer's first `chars` characters in the DOM and laid them out; it began at `startedAt` (performance.now()). */
  frameRendered?(runId: string, chars: number, startedAt: number): void;
  /** Page: the run's reasoning, `chars` characters of it, is in the DOM and laid out (its Thinking section). */
  reasoningRendered?(runId: string, chars: number): void;
}

export const OBSERVER_GLOBAL = '__hrPlaygroundObserver';

export function playgroundObserver(): PlaygroundObserver | undefined {
  return (globalThis as { [OBSERVER_GLOBAL]?: PlaygroundObserver })[OBSERVER_GLOBAL];
}
