// What the activation probe (run inside the extension host, where `vscode` exists) and the figure share.

export const RESULT_ENV = 'HR_BENCH_ACTIVATION';
/** Debugging: when set, each activate() is CPU-profiled into this folder (the timing then includes the profiler). */
export const PROFILE_ENV = 'HR_BENCH_ACTIVATION_PROFILE';
/** With PROFILE_ENV: profile only the run with this index (default: every run). */
export const PROFILE_RUN_ENV = 'HR_BENCH_ACTIVATION_PROFILE_RUN';
export const SUBJECT_ID = 'hosted-reasoning.hosted-reasoning';
export const EMPTY_ID = 'hr-bench.bench-empty';
/** The same registrations as the extension, with handlers that do nothing (floorExtension.ts). */
export const FLOOR_ID = 'hr-bench.bench-floor';
/** Timed in every host, in each of their six orders in turn. */
export const TIMED_IDS = [SUBJECT_ID, EMPTY_ID, FLOOR_ID] as const;
/** Another empty extension, activated first and not counted: it pays what the host does once per process. */
export const PRIMER_ID = 'hr-bench.bench-primer';
/** How long the probe waits before timing, so the activations of a starting window are over. */
export const SETTLE_MS = 3000;
/** How long the probe waits after each timed activation, so its deferred work is over before the next is timed. */
export const BETWEEN_MS = 1000;

export interface ProbeLine {
  run: number;
  first: string;
  /** ms from activate() to resolved, per extension id; undefined when it was already active or missing. */
  ms: Record<string, number | undefined>;
  alreadyActive: string[];
  missing: string[];
  /** ms of loading the extension's main module after activation (what its first use adds). */
  firstUseMs?: number;
  /** ms of the primer's activation (the host's first one). */
  primerMs?: number;
  /** Ids of the non-builtin extensions the host knows (to tell why one is missing). */
  known: string[];
  vscodeVersion: string;
}
