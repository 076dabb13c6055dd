// Shared by the chat first-token figure (test/bench/figures/chatLatency.ts) and its probe in the extension host.

/** The probe writes its JSON result here. */
export const CHAT_RESULT_ENV = 'HR_BENCH_CHAT_RESULT';
/** Runs per path. */
export const CHAT_RUNS_ENV = 'HR_BENCH_CHAT_RUNS';
export const CHAT_MODEL = 'oss-reasoner-8b';
export const CHAT_PROMPT = 'What does a cache buy you?';

export interface ChatLatencyResult {
  vscodeVersion: string;
  /** Per run, in the order run (interleaved): which path, its first-token time, and whether the answer was whole. */
  runs: { path: 'lm' | 'playground'; firstTokenMs: number; totalMs: number; chars: number; sameAnswer: boolean; resolvedMs?: number }[];
  error?: string;
}
