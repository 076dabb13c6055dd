// What the token-latency figure (plain Node) and its helper extension (the VS Code extension host) both name; no
// `vscode` import, so the figure can load it.
export const STAMPS_ENV = 'HR_BENCH_LATENCY_STAMPS';
export const EMULATOR_URL_ENV = 'HR_BENCH_EMULATOR_URL';
export const EMULATOR_KEY_ENV = 'HR_BENCH_EMULATOR_KEY';
export const BARE_COMMAND = 'hrBench.bareWebview';
export const BARE_COMMAND_TITLE = 'HR Bench: Bare Webview';
export const BARE_TITLE = 'Bare Webview';

/** Epoch times (ms, performance.timeOrigin + performance.now()) in the extension host. */
export interface HostStamp {
  runId: string;
  seq: number;
  /** The chunk's first delta was read from the response. */
  readAt: number;
  /** The chunk was about to be handed to webview.postMessage. */
  postedAt: number;
}
