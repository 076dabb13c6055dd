// Fakes for the poller core: a clock with manual timers, an in-memory job list, a scripted status source.
import type { EvaluationStatus, FinetuneStatus, JobState } from '../../src/api/types';
import { isActive, jobKey, type JobKind, type JobRecord } from '../../src/jobs/jobRecord';
import type { PollClock, PollJobs, StatusSource } from '../../src/jobs/jobPoller';

export const SCOPE = 'http://127.0.0.1:1#abc';

/** Timers that fire only when the test moves time; `advance` lets the async work each one starts finish. */
export class FakeClock implements PollClock {
  private t = 1_000_000;
  private seq = 0;
  private readonly timers = new Map<number, { at: number; fn: () => void }>();
  /** Every delay ever asked for, in order. */
  readonly requested: number[] = [];

  /** Wall time minus monotonic time: moved only by stepWall, as NTP or a user changing the date moves it. */
  private wallOffset = 0;

  now = (): number => this.t + this.wallOffset;

  /**
   * Timers run on this one (as setTimeout does), whatever the wall clock does. With `creep`, each read moves it on a
   * microsecond, as performance.now() does between two reads; a code path that reads it in a loop then never settles,
   * so reads are counted and a runaway fails fast instead of hanging the test.
   */
  monotonic = (): number => {
    if (!this.creep) return this.t;
    if (++this.readsSinceAdvance > 10_000) throw new Error('runaway clock reads: more than 10,000 without time passing');
    this.t += 0.001;
    return this.t;
  };

  /** Whether each monotonic read moves time on (see monotonic). */
  creep = false;
  private readsSinceAdvance = 0;

  /** Steps the wall clock (negative: back) without time passing. */
  stepWall(ms: number): void {
    this.wallOffset += ms;
  }

  setTimer = (fn: () => void, ms: number): number => {
    const id = ++this.seq;
    this.requested.push(ms);
    this.timers.set(id, { at: this.t + ms, fn });
    return id;
  };

  clearTimer = (handle: unknown): void => {
    this.timers.delete(handle as number);
  };

  /** Time passing without firing timers: what a request takes while the round that sent it waits. */
  pass(ms: number): void {
    this.t += ms;
  }

  get pending(): number {
    return this.timers.size;
  }

  /**
   * Moves time forward by `ms`, firing due timers in order and waiting for `settle` after each instant. Timers due at
   * the same instant fire together, so two "windows" armed for the same moment really race.
   */
  async advance(ms: number, settle: () => Promise<void>): Promise<void> {
    const end = this.t + ms;
    // A poller that re-arms a zero-delay timer forever is a bug: fail fast instead of spinning until mocha gives up.
    for (let fired = 0; ; fired++) {
      if (fired > 10_000) throw new Error('runaway timers: more than 10,000 fired in one advance()');
      await settle();
      let at = Infinity;
      for (const timer of this.timers.values()) if (timer.at <= end) at = Math.min(at, timer.at);
      if (at === Infinity) break;
      this.t = Math.max(this.t, at);
      const due = [...this.timers].filter(([, timer]) => timer.at === at);
      for (const [id] of due) this.timers.delete(id);
      this.readsSinceAdvance = 0;
      for (const [, timer] of due) timer.fn();
    }
    this.t = Math.max(this.t, end);
    this.readsSinceAdvance = 0;
    await settle();
  }
}

/** One list shared by every "window", as globalState is. */
export class FakeJobs implements PollJobs {
  readonly records = new Map<string, JobRecord>();
  writes = 0;

  constructor(private readonly clock: FakeClock) {}

  add(kind: JobKind, id: string, extra: Partial<JobRecord> = {}): JobRecord {
    const job: JobRecord = {
      id,
      kind,
      scope: SCOPE,
      state: 'queued',
      createdAt: this.clock.now(),
      updatedAt: this.clock.now(),
      modelName: `model-${id}`,
      ...(kind === 'evaluation' ? { datasetName: 'squad' } : {}),
      ...extra,
    };
    this.records.set(jobKey(job), job);
    return job;
  }

  active(scope: string): JobRecord[] {
    return [...this.records.values()].filter((j) => j.scope === scope && isActive(j) && j.unfollowedAt === undefined);
  }

  list(scope: string): JobRecord[] {
    return [...this.records.values()].filter((j) => j.scope === scope);
  }

  get(scope: string, key: string): JobRecord | undefined {
    const j = this.records.get(key);
    return j && j.scope === scope ? j : undefined;
  }

  async update(scope: string, key: string, patch: Partial<JobRecord>): Promise<JobRecord | undefined> {
    await Promise.resolve();
    const current = this.get(scope, key);
    if (!current) return undefined;
    const next = { ...current, ...patch, updatedAt: this.clock.now() };
    this.records.set(key, next);
    this.writes++;
    return next;
  }

  byId(id: string): JobRecord {
    const j = [...this.records.values()].find((r) => r.id === id);
    if (!j) throw new Error(`no job ${id}`);
    return j;
  }
}

export interface Call {
  kind: JobKind;
  id: string;
  at: number;
  by: string;
}

export type Answer =
  | { state: JobState; rawState?: string; progress?: number; error?: string; modelName?: string; result?: EvaluationStatus['result'] }
  | Error;

/** Answers from a script; records who asked what when, and how many requests were in flight at once. */
export class FakeSource {
  readonly calls: Call[] = [];
  inFlight = 0;
  maxInFlight = 0;
  /** Per job id, or for every job. */
  answer: (id: string, kind: JobKind) => Answer | Promise<Answer> = () => ({ state: 'running' });

  constructor(private readonly clock: FakeClock) {}

  /** The StatusSource one window sees (`by` names the window in `calls`). */
  as(by: string): StatusSource {
    return {
      getFinetuneStatus: (id) => this.ask(by, 'finetune', id),
      getEvaluationStatus: (id) => this.ask(by, 'evaluation', id),
    };
  }

  callsFor(id: string): Call[] {
    return this.calls.filter((c) => c.id === id);
  }

  private async ask(by: string, kind: JobKind, id: string): Promise<FinetuneStatus | EvaluationStatus> {
    this.calls.push({ kind, id, at: this.clock.now(), by });
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      const a = await this.answer(id, kind);
      if (a instanceof Error) throw a;
      return { jobId: id, ...a, raw: a };
    } finally {
      this.inFlight--;
    }
  }
}

/** A promise the test resolves by hand. */
export function deferred<T>(): { promise: Promise<T>; resolve(v: T): void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
