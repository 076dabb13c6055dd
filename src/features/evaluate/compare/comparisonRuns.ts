// The comparisons this window runs now, so a run is a job like the others: the Jobs view and the status bar list them
// with done/total and time left, a row's Cancel stops one, and an open report refreshes while one runs. Every run of
// this window goes through run() (the command, its Resume and Retry Failed, the agent's tool). Only this window's
// runs are here; a finished, cancelled or interrupted comparison is read from its kept log (comparisonRows.ts).
// Listeners hear a run start and end at once and its progress at most once per PROGRESS_EVENT_MS (the last reading
// always comes): a set answered by a fast service ends hundreds of requests a second, and each listener redraws.
// No vscode: plain mocha runs it with a handed-in inference.
import { ComparisonRunningError } from './comparisonHold';
import type { ComparisonLog, ComparisonSpec } from './comparisonLog';
import { runComparison, type RunOptions, type RunResult } from './compareRun';
import { comparisonRowLabel } from './comparisonRowText';

export const PROGRESS_EVENT_MS = 1_000;

/** One run of this window, as its listeners read it (its row counts its failures as they come, not at its end). */
export interface RunningComparison {
  readonly dir: string;
  readonly spec: ComparisonSpec;
  /** Requests done of all (failed ones count as done), as the last progress said. */
  done: number;
  total: number;
  /** Failed requests of all so far, as the last progress said: kept ones not sent again, and this run's. */
  failed: number;
  /** When this run began, and how many were done then (a resumed run's rate counts only its own). */
  readonly startedAt: number;
  doneAtStart?: number;
}

export type RunChange = { run: RunningComparison; ended: boolean };

interface Listener {
  (change: RunChange): void;
}

export class ComparisonRuns {
  private readonly runs = new Map<string, { run: RunningComparison; stop: AbortController }>();
  private readonly listeners = new Set<Listener>();
  /** The folders whose last run in this window was cancelled (their rows say "cancelled", not "interrupted"). */
  private readonly cancelled = new Set<string>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly progressEveryMs = PROGRESS_EVENT_MS,
  ) {}

  onDidChange(listener: Listener): { dispose: () => void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  running(): RunningComparison[] {
    return [...this.runs.values()].map((r) => r.run);
  }

  get(dir: string): RunningComparison | undefined {
    return this.runs.get(dir)?.run;
  }

  /** Whether this window's last run of the comparison ended by a cancel. */
  wasCancelled(dir: string): boolean {
    return this.cancelled.has(dir);
  }

  /** Stops this window's run of the comparison (what finished stays kept); false when none runs here. */
  cancel(dir: string): boolean {
    const entry = this.runs.get(dir);
    if (!entry) return false;
    entry.stop.abort();
    return true;
  }

  /**
   * Runs the comparison (compareRun.ts) as one of this window's runs. `signal` (a notification's or a tool's cancel)
   * stops it as a row's Cancel does. A ComparisonRunningError, before anything is sent, when it runs already.
   */
  async run(log: ComparisonLog, options: Omit<RunOptions, 'log' | 'signal'> & { signal?: AbortSignal }): Promise<RunResult> {
    if (this.runs.has(log.dir)) throw new ComparisonRunningError(true);
    const stop = new AbortController();
    const outer = options.signal;
    const onOuterAbort = () => stop.abort();
    if (outer?.aborted) stop.abort();
    else outer?.addEventListener('abort', onOuterAbort, { once: true });
    const run: RunningComparison = { dir: log.dir, spec: log.spec, done: 0, total: 0, failed: 0, startedAt: this.now() };
    this.runs.set(log.dir, { run, stop });
    this.cancelled.delete(log.dir);
    let timer: ReturnType<typeof setTimeout> | undefined;
    let lastFired = 0;
    const fire = (ended: boolean) => {
      lastFired = this.now();
      for (const l of [...this.listeners]) l({ run, ended });
    };
    fire(false);
    try {
      return await runComparison({
        ...options,
        log,
        signal: stop.signal,
        onProgress: (done, total, failed) => {
          // The first call says what was done before this run, and the total: heard at once.
          const first = run.doneAtStart === undefined;
          run.doneAtStart ??= done;
          run.done = done;
          run.total = total;
          run.failed = failed;
          options.onProgress?.(done, total, failed);
          if (timer) return;
          const wait = lastFired + this.progressEveryMs - this.now();
          if (first || wait <= 0) {
            fire(false);
            return;
          }
          timer = setTimeout(() => {
            timer = undefined;
            if (this.runs.get(log.dir)?.run === run) fire(false);
          }, wait);
        },
      });
    } finally {
      if (timer) clearTimeout(timer);
      outer?.removeEventListener('abort', onOuterAbort);
      if (stop.signal.aborted) this.cancelled.add(log.dir);
      this.runs.delete(log.dir);
      fire(true);
    }
  }
}

/** This window's runs as the status bar counts them: what each compares, done/total and time left. */
export function runningCounts(runs: ComparisonRuns, now: number): { label: string; done: number; total: number; leftMs?: number }[] {
  return runs.running().map((run) => {
    const leftMs = comparisonLeftMs(run, now);
    return { label: comparisonRowLabel(run.spec), done: run.done, total: run.total, ...(leftMs !== undefined && { leftMs }) };
  });
}

/** The time left of a run, in ms, at its own rate so far; undefined before it has finished one request. */
export function comparisonLeftMs(
  run: Pick<RunningComparison, 'done' | 'total' | 'startedAt' | 'doneAtStart'>,
  now: number,
): number | undefined {
  const doneHere = run.done - (run.doneAtStart ?? run.done);
  const elapsed = now - run.startedAt;
  if (doneHere <= 0 || elapsed <= 0) return undefined;
  return ((run.total - run.done) * elapsed) / doneHere;
}
