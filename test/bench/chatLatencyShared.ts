// Shared by the chat first-token figure (test/bench/figures/chatLatency.ts), its probe in the extension host
// (chatLatencyProbe.ts) and the bare provider's helper extension (bareChatProvider.ts).

/** The probe writes its JSON result here. */
export const CHAT_RESULT_ENV = 'HR_BENCH_CHAT_RESULT';
/** Runs per path. */
export const CHAT_RUNS_ENV = 'HR_BENCH_CHAT_RUNS';
/** The emulator's pace, ms per token (the bare provider keeps the same). */
export const CHAT_TOKEN_MS_ENV = 'HR_BENCH_CHAT_TOKEN_MS';
export const CHAT_MODEL = 'oss-reasoner-8b';
export const CHAT_PROMPT = 'What does a cache buy you?';

/** The helper extension that registers the bare provider (installed in the server's extensions folder). */
export const BARE_EXTENSION_ID = 'hr-bench.bench-bare-chat';
/** Its vendor (declared in its package.json, as VS Code requires) and its one model. */
export const BARE_VENDOR = 'hrBenchBare';
export const BARE_MODEL = 'bare';

/**
 * A `globalThis` property through which the probe and the bare provider, both in the one extension host process,
 * share the answer to give and the provider's stamps (performance.now() of that process, one clock for both).
 */
export const BARE_GLOBAL = '__hrBenchBareChat';
export interface BareChatSeam {
  /** The parts the bare provider reports: the emulator's answer in the emulator's tokens, so every path delivers the same. */
  parts: string[];
  /** Its pace after the first part, the emulator's (token i is due i intervals after the call). */
  intervalMs: number;
  /** Set by the bare provider per request: when it was called and when it reported its first part. */
  calledAt?: number;
  firstReportAt?: number;
}

export type ChatPath = 'lm' | 'bare' | 'playground';

export interface ChatRun {
  path: ChatPath;
  /** From the caller's start (sendRequest, or the playground's run) to the first piece of answer text. */
  firstTokenMs: number;
  totalMs: number;
  chars: number;
  sameAnswer: boolean;
  /** vscode.lm paths: when sendRequest resolved. */
  resolvedMs?: number;
  /** vscode.lm paths: when the provider (the main module's method for ours) was called, after sendRequest. */
  providerCalledMs?: number;
  /** vscode.lm paths: when the provider reported its first text part, after sendRequest. */
  providerFirstReportMs?: number;
  /** Ours and the playground: how long `session.connect()` (settings, the key from SecretStorage, the client) took. */
  connectMs?: number;
  /** Pieces the caller received, and how many of them within 2 ms of the first (a burst). */
  pieces?: number;
  piecesWithFirst?: number;
}

export interface ChatLatencyResult {
  vscodeVersion: string;
  /** Per run, in the order run (interleaved). */
  runs: ChatRun[];
  error?: string;
}
