// The job poller: which active job to ask about when, backoff, and what to write. No vscode: the clock, the timers,
// the service, the job list and the notify-once marker are handed in, so plain mocha drives it with fake time.
//
// Rules (the why of each):
//  - One timer for all jobs, and none at all when no job is active: an idle extension costs nothing.
//  - Rounds never overlap and poll a job at most once, so a job never has two requests in flight and gets at most
//    one request per interval (measured from the start of its last request). A round runs a few requests at a time,
//    so 100 jobs do not open 100 connections at once.
//  - All jobs together get at most REQUEST_BUDGET requests in any span of one interval (requestBudget.ts says why).
//    Past that many jobs, a round asks those whose last answer is oldest first (a job never answered, such as one just
//    submitted, before all others), so each is asked every ceil(jobs / budget) intervals. "Refresh" (pollNow) asks
//    all at once, as the user asked; its requests count, so timed polling resumes once they leave the span.
//  - A round waits for the jobs that come due shortly after the first (ROUND_GATHER_MS): the requests of one round
//    start a few ms apart, so their next due times drift apart, and without this each job would soon get a round, a
//    timer and a list scan of its own.
//  - Network, timeout, 5xx and 429 are the service's trouble, not the job's: the round stops, and the next one waits
//    what the service said in Retry-After (any status, capped, no jitter), else min(interval * 2^n, maxBackoff) with
//    jitter. Due times and backoff are on the monotonic clock: a wall clock stepped back must not hold polling.
//  - An answer that cannot be read (or another 4xx) is that job's trouble: only that job backs off (doubling up to
//    maxBackoff). An unreadable answer never fails the job, however many come in a row: it says nothing about the
//    job, and a job failed for it would be reported failed while it runs (issue 27). The record says since when its
//    status is unreadable, with the answer's words; the person can Stop Following it. Only the service fails a job.
//  - 404 on a status means the service forgot the job: it is marked failed, since asking again would never end.
//  - 401/403: polling pauses until the key changes (reconnect()); asking again with the same key cannot help.
//  - The look at the model list (a finetune also ends when its model is listed) is one of the poller's requests: it
//    takes a slot of the budget, is asked once (no retries inside the round, which a Refresh would wait behind), and
//    the service's trouble there backs the poller off as a status request's does. It is asked at most once per
//    MADE_MODEL_LOOK_MS (Refresh: at once), not every round: it is the largest answer the poller asks for, a finetune
//    runs for minutes to hours, and its status usually ends it first; a model seen 30 s later costs nobody anything.
//  - A finetune whose status says completed without naming the model it made (a service that names it under a key
//    the status reader rightly does not take, such as `published_as`) is not ended under the name asked for at once:
//    the service may have made another (`<asked>.v1`), and a row, a notification and its actions naming a model that
//    does not exist send the person nowhere. Its end waits for one look at the model list, in the same round when the
//    budget has a slot left (the timed look's, or one the round did not use), else in the next round, which sets a
//    slot aside for it and asks its status no more. The list names it as madeModel.ts names a running job's model;
//    a list that fails, or names no such model, leaves the name asked for, as before: the end is written either way.
//  - Each window polls the jobs it sees: two windows may both ask about a job (a duplicate GET is harmless), and one
//    may write a record over the other's for a moment (the next poll heals it). Its records also change when another
//    window writes them: `onExternalChange` tells the caller so views can catch up.
//  - Only the end is told once across windows: the window whose notify-once marker claim succeeds (notifyOnce.ts). A
//    marker that cannot be written (folder not writable) lets this window tell it: twice beats never.
//  - The stored record is re-read just before each request: another window may have ended the job meanwhile.
//  - Errors are told apart by their `kind` and `status` fields, not instanceof: in-editor tests load these sources
//    beside the bundled extension, whose client throws its own copies of the error classes.
import { isCancellation } from '../api/errors';
import type { EvaluationStatus, FinetuneStatus, ModelInfo } from '../api/types';
import { isTerminal } from '../api/types';
import { waitText } from '../api/waitText';
import { classifyError } from '../util/classifyError';
import { isActive, isFollowed, jobKey, type JobRecord } from './jobRecord';
import type { ClaimNotice } from './notifyOnce';
import { REQUEST_BUDGET, SendWindow } from './requestBudget';
import { unreadableWords } from './unreadableWords';
import { findMadeModel } from './madeModel';
import { watchUnmoved, type UnmovedWatch } from './unmovedReading';
import {
  changes,
  evaluationPatch,
  finetunePatch,
  gonePatch,
  endsUnnamed,
  madeModelPatch,
  unreadablePatch,
  visibleSignature,
  withMadeName,
  type JobPatch,
} from './statusPatch';

/** The two status calls of the service client (ServiceClient satisfies this). */
export interface StatusSource {
  getFinetuneStatus(jobId: string, opts?: { signal?: AbortSignal }): Promise<FinetuneStatus>;
  getEvaluationStatus(jobId: string, opts?: { signal?: AbortSignal }): Promise<EvaluationStatus>;
  /** A job ended otherwise (its made model listed) while its status said `word`, read as no state: learn it as an end. */
  learnEndWord?(kind: JobRecord['kind'], word: string): void;
}

export interface PollTarget {
  /** Which stored jobs are ours to follow (Session's scope: base URL + key identity). */
  scope: string;
  source: StatusSource;
}

/** The part of JobStore the poller needs (JobStore satisfies it; tests use a Map). */
export interface PollJobs {
  /** The jobs to poll: active and followed. */
  active(scope: string): JobRecord[];
  /** Every job of the scope (the names other finetunes made, which a made model is never taken for); active() without it. */
  list?(scope: string): JobRecord[];
  get(scope: string, key: string): JobRecord | undefined;
  update(scope: string, key: string, patch: Partial<JobRecord>): Promise<JobRecord | undefined>;
}

export type TimerHandle = unknown;

export interface PollClock {
  /** Wall time, for what is stored and shared with other windows (finishedAt). */
  now(): number;
  /**
   * Time that only moves forward, for due times, backoff and the request budget: a wall clock stepped back an hour
   * (NTP, a resumed laptop, a user fixing the date) would otherwise hold every poll for that hour.
   */
  monotonic(): number;
  setTimer(fn: () => void, ms: number): TimerHandle;
  clearTimer(handle: TimerHandle): void;
}

export const systemClock: PollClock = {
  now: () => Date.now(),
  monotonic: () => performance.now(),
  setTimer: (fn, ms) => setTimeout(fn, ms),
  clearTimer: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

export type PollLogLevel = 'debug' | 'info' | 'warn' | 'error';

/** How polling is going, for a status line or a context key. */
export type PollHealth = 'ok' | 'unreachable' | 'rateLimited' | 'authRefused' | 'notConfigured';

export interface JobFinished {
  /** The record as stored after the end. */
  job: JobRecord;
  /** The record before (when this window saw it). */
  previous?: JobRecord;
  /** This window observed the end with its own request (rather than reading another window's write). */
  observedHere: boolean;
  /** This window won the job's notify-once marker: it, and no other window, tells the user. */
  notify: boolean;
}

export interface PollRound {
  /** Requests sent in this round. */
  requests: number;
  /** Jobs that answered. */
  answered: number;
  /** The error that stopped the round early, if any. */
  stoppedBy?: Error;
  /** When the next round is due, on the monotonic clock (undefined: no timer, idle or paused). */
  nextAt?: number;
}

export interface JobPollerOptions {
  /** The service and scope to poll; throws when not configured (polling then idles until reconnect()). */
  connect(): Promise<PollTarget>;
  jobs: PollJobs;
  /** Decides which window tells the user a job ended (notifyOnce.ts). */
  claimNotice: ClaimNotice;
  /** Read at each scheduling, so a settings change applies to the next poll. */
  intervalMs(): number;
  /**
   * The service's model list (the fetch the Models view shows): asked at most once per MADE_MODEL_LOOK_MS, and only
   * in a round that asked about a finetune that did not end, since a finetune also ends when the model it makes is
   * listed (madeModel.ts); and in the round a finetune's status ended it without naming the model it made, whatever
   * the last look, to name it (the header says why). Without it, only the status ends a finetune, and names its model
   * or leaves the name asked for. `retries` is 0: the poller waits out failures.
   */
  listModels?(opts: { signal: AbortSignal; retries: number }): Promise<readonly ModelInfo[]>;
  clock?: PollClock;
  /** Jitter source in [0, 1). */
  random?: () => number;
  log?: (level: PollLogLevel, message: string) => void;
  /** Requests in flight at once within a round. */
  concurrency?: number;
  maxBackoffMs?: number;
  /** Retry-After beyond this is not waited for in full (a wrong header must not stop polling for a day). */
  maxRetryAfterMs?: number;
  onDidPoll?(round: PollRound): void;
  onDidFinishJob?(e: JobFinished): void;
  onDidChangeHealth?(health: PollHealth): void;
  /** A followed job's record was changed by someone else (another window): views should re-read. */
  onExternalChange?(): void;
}

export const DEFAULT_MAX_BACKOFF_MS = 60_000;
export const DEFAULT_MAX_RETRY_AFTER_MS = 10 * 60_000;
/**
 * A round waits this long at most for jobs that come due after the first due one, so they share it. Small next to
 * any interval (1 s at least), large next to the few ms by which the requests of one round start apart.
 */
export const ROUND_GATHER_MS = 250;
/** The least time between two timed looks at the model list (the header says why). */
export const MADE_MODEL_LOOK_MS = 30_000;
/** The wait after `failures` consecutive failures: doubling from the interval, capped, with jitter, never below the interval. */
export function backoffDelay(failures: number, intervalMs: number, random: number, maxBackoffMs = DEFAULT_MAX_BACKOFF_MS): number {
  const base = Math.min(intervalMs * 2 ** Math.max(0, failures), Math.max(maxBackoffMs, intervalMs));
  // "Equal jitter": half fixed, half random, so windows and jobs that failed together do not retry together.
  return Math.max(intervalMs, Math.round(base / 2 + (random * base) / 2));
}

interface Tracked {
  key: string;
  kind: JobRecord['kind'];
  id: string;
  /** When this job may be asked about next. */
  dueAt: number;
  /** When this window last had an answer about it (undefined: never); the oldest goes first when the budget is short. */
  answeredAt: number | undefined;
  /** When this window started following it: among jobs never answered, the newest (just submitted) goes first. */
  since: number;
  /** Consecutive job-specific failures (unreadable answers, refused requests). */
  failures: number;
  inFlight: boolean;
  /** What the record showed when we last read or wrote it: a difference means someone else wrote. */
  signature: string;
  last: JobRecord;
  /**
   * A finetune end its status said (completed) without naming the made model: written once the model list was looked
   * at (the header says why); until then the job is not asked about again.
   */
  unnamedEnd?: JobPatch;
  /** Whether its reading moves while the answers change (unmovedReading.ts). */
  unmoved?: UnmovedWatch;
}

export class JobPoller {
  private readonly clock: PollClock;
  private readonly random: () => number;
  private readonly concurrency: number;
  private readonly maxBackoffMs: number;
  private readonly maxRetryAfterMs: number;

  private target: PollTarget | undefined;
  private connecting: Promise<PollTarget | undefined> | undefined;
  private readonly tracked = new Map<string, Tracked>();
  /** Status requests sent, for the request budget. */
  private readonly sent = new SendWindow();
  /** Jobs whose end is being written: still "active" in storage for a moment, and must not be picked up again. */
  private readonly ending = new Set<string>();
  private timer?: TimerHandle;
  private timerAt: number | undefined;
  private round: Promise<void> | undefined;
  private syncing: Promise<void> | undefined;
  private resync = false;
  private readonly abort = new AbortController();
  private disposed = false;

  private authPaused = false;
  private serviceFailures = 0;
  private serviceBackoffUntil = 0;
  /** Until when the service itself asked us to wait (Retry-After): even Refresh waits for it. */
  private retryAfterUntil = 0;
  private health: PollHealth = 'ok';
  private markerTrouble = false;
  /** When the model list was last asked for (monotonic); undefined: not yet. */
  private lastLookAt: number | undefined;

  constructor(private readonly options: JobPollerOptions) {
    this.clock = options.clock ?? systemClock;
    this.random = options.random ?? Math.random;
    this.concurrency = Math.max(1, options.concurrency ?? 6);
    this.maxBackoffMs = options.maxBackoffMs ?? DEFAULT_MAX_BACKOFF_MS;
    this.maxRetryAfterMs = options.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS;
  }

  // ------------------------------------------------------------------------------------------------ public

  /** Re-reads the job list (a job was added, removed or changed) and (re)arms or drops the timer. */
  sync(): Promise<void> {
    if (this.disposed) return Promise.resolve();
    if (this.syncing) {
      this.resync = true;
      return this.syncing;
    }
    this.syncing = (async () => {
      do {
        this.resync = false;
        const target = await this.ensureTarget();
        if (this.disposed) return;
        if (target) this.reconcile(target.scope);
        this.reschedule();
      } while (this.resync && !this.disposed);
    })().finally(() => {
      this.syncing = undefined;
    });
    return this.syncing;
  }

  /**
   * The key or settings changed: connect again, lift an auth pause and the backoff, keep following the same jobs when
   * the scope is unchanged, drop them otherwise.
   */
  async reconnect(): Promise<void> {
    if (this.disposed) return;
    const before = this.target?.scope;
    this.target = undefined;
    this.connecting = undefined;
    this.authPaused = false;
    this.serviceFailures = 0;
    this.serviceBackoffUntil = 0;
    this.retryAfterUntil = 0;
    const target = await this.ensureTarget();
    if (this.disposed) return;
    if (!target || target.scope !== before) {
      this.tracked.clear();
    } else {
      // A shorter interval applies now, not after the longer one that was scheduled.
      const latest = this.clock.monotonic() + this.options.intervalMs();
      for (const t of this.tracked.values()) t.dueAt = Math.min(t.dueAt, latest);
    }
    this.setHealth(target ? 'ok' : 'notConfigured');
    await this.sync();
  }

  /**
   * Polls every active job now (the user asked): ignores the regular interval and error backoff, but still waits for
   * a round in flight and still honours a Retry-After.
   */
  async pollNow(): Promise<PollRound | undefined> {
    if (this.disposed) return undefined;
    this.authPaused = false;
    while (this.round) await this.round;
    return this.runRound(true);
  }

  /** Resolves when no sync or round is in flight (tests and in-editor tests wait on this). */
  async settled(): Promise<void> {
    while (this.syncing || this.round) {
      await this.syncing;
      await this.round;
    }
  }

  /** Keys of the jobs being followed (active in the current scope). */
  followed(): string[] {
    return [...this.tracked.keys()];
  }

  get hasTimer(): boolean {
    return this.timer !== undefined;
  }

  get currentHealth(): PollHealth {
    return this.health;
  }

  get isAuthPaused(): boolean {
    return this.authPaused;
  }

  /** Stops everything: the timer, requests in flight (aborted). */
  dispose(): void {
    this.disposed = true;
    this.clearTimer();
    this.abort.abort();
    this.tracked.clear();
  }

  // ------------------------------------------------------------------------------------------------ connection

  private ensureTarget(): Promise<PollTarget | undefined> {
    if (this.target) return Promise.resolve(this.target);
    this.connecting ??= this.options.connect().then(
      (t) => {
        this.target = t;
        return t;
      },
      (e: unknown) => {
        // Not configured (no URL or key) or a URL the client refuses: nothing to poll until settings or key change.
        this.log('debug', `Job polling idle: ${messageOf(e)}`);
        this.setHealth('notConfigured');
        return undefined;
      },
    );
    return this.connecting;
  }

  // ------------------------------------------------------------------------------------------------ job list

  /** Brings `tracked` in line with the stored active jobs; reports ends and changes other windows wrote. */
  private reconcile(scope: string): void {
    const active = this.options.jobs.active(scope);
    const now = this.clock.monotonic();
    const seen = new Set<string>();
    let external = false;
    for (const job of active) {
      const key = jobKey(job);
      if (this.ending.has(key)) continue;
      seen.add(key);
      const t = this.tracked.get(key);
      const signature = visibleSignature(job);
      if (!t) {
        this.tracked.set(key, {
          key,
          kind: job.kind,
          id: job.id,
          dueAt: now,
          answeredAt: undefined,
          since: now,
          failures: 0,
          inFlight: false,
          signature,
          last: job,
        });
      } else if (t.signature !== signature) {
        external = true;
        t.signature = signature;
        t.last = job;
      }
    }
    for (const [key, t] of this.tracked) {
      if (seen.has(key)) continue;
      // No longer active: removed by the user, or ended by another window's poll (ours untrack before writing).
      this.tracked.delete(key);
      const stored = this.options.jobs.get(scope, key);
      if (stored && isTerminal(stored.state)) {
        external = true;
        this.options.onDidFinishJob?.({ job: stored, previous: t.last, observedHere: false, notify: false });
      }
    }
    if (external) this.options.onExternalChange?.();
  }

  // ------------------------------------------------------------------------------------------------ timer

  private reschedule(): void {
    this.clearTimer();
    if (this.disposed || this.authPaused || !this.target || this.round || this.tracked.size === 0) return;
    const next = Math.max(this.nextRoundAt(), this.serviceBackoffUntil);
    const delay = Math.max(0, next - this.clock.monotonic());
    this.timerAt = this.clock.monotonic() + delay;
    this.timer = this.clock.setTimer(() => {
      this.timer = undefined;
      this.timerAt = undefined;
      void this.runRound(false);
    }, delay);
  }

  /**
   * When the next timed round should start: once the first job is due, joined by those due within ROUND_GATHER_MS
   * after it, and once the budget has room for as many of the jobs due then as it allows (waiting for a single free
   * slot would split a full round into many small ones as the previous round's sends leave the span one by one).
   */
  private nextRoundAt(): number {
    let first = Infinity;
    for (const t of this.tracked.values()) first = Math.min(first, t.dueAt);
    let at = first;
    for (const t of this.tracked.values()) if (t.dueAt <= first + ROUND_GATHER_MS) at = Math.max(at, t.dueAt);
    const interval = this.options.intervalMs();
    // Read once: a monotonic clock moves on between two reads, so a clock read in the loop below would never let
    // `roomAt <= at` hold once the first job is overdue (it hung the extension host).
    const now = this.clock.monotonic();
    for (;;) {
      let due = 0;
      for (const t of this.tracked.values()) if (t.dueAt <= at) due++;
      const need = Math.max(1, Math.min(due, REQUEST_BUDGET));
      const roomAt = this.sent.roomAt(Math.max(at, now), interval, REQUEST_BUDGET, need);
      if (roomAt <= at) return at;
      at = roomAt;
    }
  }

  private clearTimer(): void {
    if (this.timer !== undefined) this.clock.clearTimer(this.timer);
    this.timer = undefined;
    this.timerAt = undefined;
  }

  // ------------------------------------------------------------------------------------------------ rounds

  private runRound(force: boolean): Promise<PollRound | undefined> {
    if (this.round || this.disposed) return Promise.resolve(undefined);
    this.clearTimer();
    const done = this.roundBody(force)
      .catch((e: unknown): PollRound => {
        this.log('error', `Job polling: ${describe(e)}`);
        return { requests: 0, answered: 0 };
      })
      .then((result) => {
        this.round = undefined;
        if (this.disposed) return undefined;
        this.reschedule();
        result.nextAt = this.timerAt;
        this.options.onDidPoll?.(result);
        return result;
      });
    this.round = done.then(() => undefined);
    return done;
  }

  private async roundBody(force: boolean): Promise<PollRound> {
    const result: PollRound = { requests: 0, answered: 0 };
    const target = await this.ensureTarget();
    if (!target || this.disposed) return result;
    this.reconcile(target.scope);
    const now = this.clock.monotonic();
    // A 429 says "not now" even without Retry-After; any status with Retry-After says until when.
    const askedToWaitUntil = Math.max(this.retryAfterUntil, this.health === 'rateLimited' ? this.serviceBackoffUntil : 0);
    if (force && askedToWaitUntil > now) {
      this.log('info', `Jobs not refreshed: the service asked to wait ${waitText(askedToWaitUntil - now)} more.`);
      return result;
    }
    const queue = [...this.tracked.values()].filter((t) => !t.inFlight && (force || t.dueAt <= now)).sort(oldestAnswerFirst);
    const budget = force ? Infinity : REQUEST_BUDGET - this.sent.count(now, this.options.intervalMs());
    // The list look's slot is set aside first, so that rounds full of status requests (REQUEST_BUDGET jobs or more)
    // still leave it room; only beside at least one status request, so that a round always asks about a job. An end
    // left waiting for its name by a full round gets the slot even alone: that look is the only request it needs.
    const waitingEnd = queue.some((t) => t.unnamedEnd !== undefined);
    const look = (this.lookDue(force, now, queue) && budget > 1) || (waitingEnd && budget >= 1);
    // Requests this round may still send: a slot is taken before the job is re-read and given back when no request
    // follows (ended meanwhile), so concurrent workers never overrun the budget.
    let room = budget - (look ? 1 : 0);
    const asked: Tracked[] = [];
    const worker = async () => {
      while (room > 0) {
        const t = queue.shift();
        if (!t || result.stoppedBy || this.authPaused || this.disposed) return;
        room--;
        if (await this.pollOne(target, t, result)) asked.push(t);
        else room++;
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.concurrency, queue.length) }, worker));
    const unnamed = [...this.tracked.values()].filter((t) => t.unnamedEnd !== undefined);
    // An end waiting for its name takes the look's slot, or one this round left unused; with neither it waits for the
    // next round, so the list never goes over the budget.
    if (look || (unnamed.length > 0 && room > 0)) await this.lookForMadeModels(target, asked, unnamed, result);
    return result;
  }

  /** Whether this round may look at the model list: a finetune is among the jobs to ask, and the last look is old. */
  private lookDue(force: boolean, now: number, queue: readonly Tracked[]): boolean {
    if (!this.options.listModels || !queue.some((t) => t.kind === 'finetune')) return false;
    return force || this.lastLookAt === undefined || now - this.lastLookAt >= MADE_MODEL_LOOK_MS;
  }

  /**
   * One model list for every finetune this round asked about that has not ended (its status unreadable or not
   * finished): a job whose model is listed ended, whatever its status says (madeModel.ts says which names count); and
   * for the ends waiting for their name (`unnamed`), written here under the listed name, else the name asked for. Not
   * when the service is in trouble (the round stopped): the list would be asked of a service that just failed, and
   * the ends wait for the next round.
   */
  private async lookForMadeModels(
    target: PollTarget,
    asked: readonly Tracked[],
    unnamed: readonly Tracked[],
    round: PollRound,
  ): Promise<void> {
    const running = asked.filter((t) => t.kind === 'finetune' && this.tracked.get(t.key) === t && t.unnamedEnd === undefined);
    if (!this.options.listModels || (running.length === 0 && unnamed.length === 0) || round.stoppedBy || this.disposed) return;
    let listed: readonly ModelInfo[] | undefined;
    const startedAt = this.clock.monotonic();
    this.lastLookAt = startedAt;
    round.requests++;
    this.sent.record(startedAt);
    try {
      listed = await this.options.listModels({ signal: this.abort.signal, retries: 0 });
    } catch (e) {
      if (isCancellation(e) && this.disposed) return;
      // The service's trouble (429, 5xx, unreachable, refused key): the same backoff or pause as a status request's.
      if (!this.serviceTrouble('the model list', e, round)) this.log('debug', `Looking for made models: ${describe(e)}`);
    }
    if (this.disposed) return;
    // The ends first: the status said they ended, so the name they take is claimed before a running job's look.
    for (const t of unnamed) {
      const patch = t.unnamedEnd!;
      t.unnamedEnd = undefined;
      const current = this.options.jobs.get(target.scope, t.key);
      // Removed, or ended by another window, while the list was on its way: that window wrote and told the end.
      if (this.tracked.get(t.key) !== t || !current || !isActive(current)) continue;
      // No list (it failed) or no such model in it: the name asked for, as the status left it.
      const made = listed && this.madeModelOf(target, t, current, listed);
      if (made !== undefined && made !== current.modelName) {
        this.log('info', `finetune job ${t.id} ended without naming its model; the model list shows it as ${made}.`);
      }
      await this.write(target, t, current, made === undefined ? patch : withMadeName(current, patch, made));
    }
    if (!listed) return;
    for (const t of running) {
      const current = this.options.jobs.get(target.scope, t.key);
      if (this.tracked.get(t.key) !== t || !current || !isFollowed(current)) continue;
      const made = this.madeModelOf(target, t, current, listed);
      if (made === undefined) continue;
      this.log('info', `finetune job ${t.id}: its model ${made} is in the model list, so the job ended.`);
      // The word its status said then, which nothing read, only came last: the next job that says it ends at once.
      if (current.state === 'unknown' && current.rawState !== undefined) target.source.learnEndWord?.(t.kind, current.rawState);
      await this.write(target, t, current, madeModelPatch(current, made, this.clock.now()));
    }
  }

  /**
   * The listed model the finetune made (madeModel.ts), never a name another finetune of the scope made or is making.
   * The job list is read again for each job: an end written just before may have claimed a name.
   */
  private madeModelOf(target: PollTarget, t: Tracked, current: JobRecord, listed: readonly ModelInfo[]): string | undefined {
    const all = this.options.jobs.list?.(target.scope) ?? this.options.jobs.active(target.scope);
    const claimed = new Set(
      all.filter((j) => j.kind === 'finetune' && jobKey(j) !== t.key && j.state !== 'failed').map((j) => j.modelName),
    );
    return findMadeModel({ requested: current.requestedName ?? current.modelName, baseModel: current.baseModel, claimed }, listed);
  }

  /** Asks about one job if it is still active; returns whether a request was sent. */
  private async pollOne(target: PollTarget, t: Tracked, round: PollRound): Promise<boolean> {
    // Removed, or ended by another window, while this round's earlier requests were out.
    if (this.tracked.get(t.key) !== t || this.disposed) return false;
    const stored = this.options.jobs.get(target.scope, t.key);
    if (!stored || !isActive(stored)) {
      this.reconcile(target.scope); // untracks it, and reports an end another window wrote
      return false;
    }
    // Its status already said it ended: it waits only for the model list (the header says why).
    if (t.unnamedEnd !== undefined) return false;
    const startedAt = this.clock.monotonic();
    t.inFlight = true;
    round.requests++;
    this.sent.record(startedAt);
    let status: FinetuneStatus | EvaluationStatus | undefined;
    let failure: unknown;
    try {
      const opts = { signal: this.abort.signal };
      status =
        t.kind === 'finetune' ? await target.source.getFinetuneStatus(t.id, opts) : await target.source.getEvaluationStatus(t.id, opts);
    } catch (e) {
      failure = e;
    } finally {
      t.inFlight = false;
    }
    if (this.disposed) return true;
    if (status) {
      round.answered++;
      this.succeeded();
      t.failures = 0;
      t.dueAt = startedAt + this.options.intervalMs();
      t.answeredAt = startedAt;
      const current = this.options.jobs.get(target.scope, t.key);
      if (!current) return true;
      const now = this.clock.now();
      const patch = t.kind === 'finetune' ? finetunePatch(current, status, now) : evaluationPatch(current, status, now);
      const { watch, unmovedSince } = watchUnmoved(t.unmoved, status, now);
      t.unmoved = watch;
      if (unmovedSince !== undefined || current.unmovedSince !== undefined) patch.unmovedSince = unmovedSince;
      if (t.kind === 'finetune' && this.options.listModels && endsUnnamed(current, status)) {
        // Written after this round's look at the model list (the header says why), not now under the name asked for.
        t.unnamedEnd = patch;
        return true;
      }
      await this.write(target, t, current, patch);
      return true;
    }
    await this.failed(target, t, failure, round);
    return true;
  }

  private async failed(target: PollTarget, t: Tracked, e: unknown, round: PollRound): Promise<void> {
    const what = `${t.kind} job ${t.id}`;
    if (isCancellation(e) && this.disposed) return;
    const { kind } = classifyError(e);
    const { status } = apiErrorFields(e);
    if (kind === 'request' && status === 404) {
      this.succeeded(); // the service answered: it is up
      const current = this.options.jobs.get(target.scope, t.key);
      this.log('warn', `Polling ${what}: ${messageOf(e)} Marked failed.`);
      if (current) await this.write(target, t, current, gonePatch(current, this.clock.now()));
      return;
    }
    if (this.serviceTrouble(what, e, round)) return;
    // The job's own trouble (an answer we cannot read, a refused request): only this job backs off.
    t.failures++;
    const now = this.clock.monotonic();
    t.dueAt = now + backoffDelay(t.failures, this.options.intervalMs(), this.random(), this.maxBackoffMs);
    this.log(t.failures === 1 ? 'warn' : 'debug', `Polling ${what}: ${describe(e)} Retrying in ${waitText(t.dueAt - now)}.`);
    if (kind === 'contract') {
      const current = this.options.jobs.get(target.scope, t.key);
      const { detail } = apiErrorFields(e);
      if (current) await this.write(target, t, current, unreadablePatch(current, unreadableWords(detail), this.clock.now()));
    }
  }

  /**
   * When `e` is the service's trouble, not one request's (auth refused, rate limited, 5xx, unreachable, a proxy
   * wanting credentials): stops the round, pauses or backs off the whole poller, and returns true.
   */
  private serviceTrouble(what: string, e: unknown, round: PollRound): boolean {
    const { kind, retryable } = classifyError(e);
    const { retryAfterMs } = apiErrorFields(e);
    if (kind === 'auth') {
      round.stoppedBy ??= e as Error;
      if (!this.authPaused) {
        this.authPaused = true;
        this.log('warn', `Job polling paused: ${messageOf(e)} It resumes when the API key changes.`);
        this.setHealth('authRefused');
      }
      return true;
    }
    // A proxy that wants credentials stops every request, not this job's: the whole poller backs off until it is set.
    if (!retryable && kind !== 'proxy') return false;
    round.stoppedBy ??= e as Error;
    this.serviceFailures++;
    const now = this.clock.monotonic();
    // What the server said (on a 503 as on a 429), capped, without jitter; our own backoff only when it said nothing.
    const delay =
      retryAfterMs !== undefined
        ? Math.max(this.options.intervalMs(), Math.min(retryAfterMs, this.maxRetryAfterMs))
        : backoffDelay(this.serviceFailures, this.options.intervalMs(), this.random(), this.maxBackoffMs);
    if (retryAfterMs !== undefined) this.retryAfterUntil = Math.max(this.retryAfterUntil, now + delay);
    this.serviceBackoffUntil = Math.max(this.serviceBackoffUntil, now + delay);
    // The first failure of an outage is worth a warning; the rest of it only repeats that.
    this.log(
      this.serviceFailures === 1 ? 'warn' : 'debug',
      `Polling ${what}: ${messageOf(e)} Next attempt in ${waitText(this.serviceBackoffUntil - now)}.`,
    );
    this.setHealth(kind === 'rateLimit' ? 'rateLimited' : 'unreachable');
    return true;
  }

  private succeeded(): void {
    if (this.serviceFailures > 0) this.log('info', `Job polling recovered after ${this.serviceFailures} failed attempt(s).`);
    this.serviceFailures = 0;
    this.serviceBackoffUntil = 0;
    this.retryAfterUntil = 0;
    this.setHealth('ok');
  }

  /** Writes what changed; on an end, reports it (notifying if this window wins the marker). */
  private async write(target: PollTarget, t: Tracked, current: JobRecord, patch: JobPatch): Promise<void> {
    const ended = patch.state !== undefined && isTerminal(patch.state);
    if (!ended) {
      if (!changes(current, patch)) return;
      // Recorded before writing, so the store's change event does not read our own write as another window's.
      t.signature = visibleSignature({ ...current, ...patch });
      const updated = await this.options.jobs.update(target.scope, t.key, patch);
      if (updated) t.last = updated;
      return;
    }
    // Untracked before writing, and kept out of the list until written, so it is neither polled again nor taken for
    // a job another window ended.
    this.tracked.delete(t.key);
    this.ending.add(t.key);
    let updated: JobRecord | undefined;
    try {
      updated = await this.options.jobs.update(target.scope, t.key, patch);
    } finally {
      this.ending.delete(t.key);
    }
    if (!updated) return; // removed meanwhile
    let notify = true;
    try {
      notify = await this.options.claimNotice(`${target.scope}\n${t.key}`);
    } catch (e) {
      if (!this.markerTrouble) {
        this.markerTrouble = true;
        this.log('warn', `Job end markers unavailable (${messageOf(e)}): other windows may announce the same end.`);
      }
    }
    this.log('info', `${t.kind} job ${t.id} ended: ${updated.state}${updated.error ? ` (${updated.error})` : ''}.`);
    this.options.onDidFinishJob?.({ job: updated, previous: current, observedHere: true, notify });
  }

  // ------------------------------------------------------------------------------------------------ misc

  private setHealth(health: PollHealth): void {
    if (this.health === health) return;
    this.health = health;
    this.options.onDidChangeHealth?.(health);
  }

  private log(level: PollLogLevel, message: string): void {
    this.options.log?.(level, message);
  }
}

/** The budget's order: never answered first (the newest of those first), then the oldest answer first. */
function oldestAnswerFirst(a: Tracked, b: Tracked): number {
  if (a.answeredAt === undefined || b.answeredAt === undefined) {
    if (a.answeredAt !== b.answeredAt) return a.answeredAt === undefined ? -1 : 1;
    return b.since - a.since;
  }
  return a.answeredAt - b.answeredAt;
}

function messageOf(e: unknown): string {
  return classifyError(e).message;
}

/**
 * The fields of an ApiError, read by shape rather than instanceof: a client built by another copy of the api module
 * (the bundle, while tests load the compiled sources) throws errors of other classes with the same fields.
 */
function apiErrorFields(e: unknown): { status?: number; retryAfterMs?: number; detail?: string } {
  if (typeof e !== 'object' || e === null) return {};
  const o = e as Record<string, unknown>;
  return {
    status: typeof o.status === 'number' ? o.status : undefined,
    retryAfterMs: typeof o.retryAfterMs === 'number' ? o.retryAfterMs : undefined,
    detail: typeof o.detail === 'string' ? o.detail : undefined,
  };
}

/** The message, and for the log the redacted excerpt an ApiError carries (what the service actually said). */
function describe(e: unknown): string {
  const { detail } = apiErrorFields(e);
  return detail ? `${messageOf(e)} — ${detail}` : messageOf(e);
}
