// The poller core with fake time, a scripted service and real notify-once markers in a temp folder.
import { strict as assert } from 'node:assert';
import { AuthError, ContractError, NetworkError, RateLimitError, RequestError, ServerError } from '../../src/api/errors';
import type { ModelInfo } from '../../src/api/types';
import { markerFiles } from '../../src/jobs/notifyOnce';
import {
  backoffDelay,
  MADE_MODEL_LOOK_MS,
  JobPoller,
  ROUND_GATHER_MS,
  type JobFinished,
  type PollLogLevel,
  type JobPollerOptions,
} from '../../src/jobs/jobPoller';
import { REQUEST_BUDGET } from '../../src/jobs/requestBudget';
import { GONE_ERROR } from '../../src/jobs/statusPatch';
import { tempDir } from './helpers';
import { deferred, FakeClock, FakeJobs, FakeSource, SCOPE, type Answer } from './pollRig';
import { whileObjectWalksThrow } from './throwingBuiltin';
import { decodeEvaluationStatus, decodeFinetuneStatus } from './readers';

const INTERVAL = 1_000;

describe('job poller core', () => {
  const tmp = tempDir('hr-poll-');
  let clock: FakeClock;
  let jobs: FakeJobs;
  let source: FakeSource;
  let pollers: JobPoller[];
  let finished: (JobFinished & { by: string })[];
  let logs: { level: PollLogLevel; message: string; by: string }[];
  let connects: number;

  beforeEach(() => {
    clock = new FakeClock();
    jobs = new FakeJobs(clock);
    source = new FakeSource(clock);
    pollers = [];
    finished = [];
    logs = [];
    connects = 0;
  });

  afterEach(() => {
    for (const p of pollers) p.dispose();
  });

  function poller(by = 'A', options: Partial<JobPollerOptions> = {}): JobPoller {
    const p = new JobPoller({
      connect: async () => {
        connects++;
        return { scope: SCOPE, source: source.as(by) };
      },
      jobs,
      claimNotice: markerFiles(tmp.dir),
      intervalMs: () => INTERVAL,
      clock,
      random: () => 0.5,
      log: (level, message) => logs.push({ level, message, by }),
      onDidFinishJob: (e) => finished.push({ ...e, by }),
      ...options,
    });
    pollers.push(p);
    return p;
  }

  const settle = async () => {
    await Promise.all(pollers.map((p) => p.settled()));
  };
  const advance = (ms: number) => clock.advance(ms, settle);
  const answerFor = (script: Record<string, Answer>, fallback: Answer = { state: 'running' }) => {
    source.answer = (id) => script[id] ?? fallback;
  };
  /** Moves time an interval at a time until `done` holds; fails (instead of spinning) after a simulated day. */
  const advanceUntil = async (what: string, done: () => boolean) => {
    for (let ms = 0; !done(); ms += INTERVAL) {
      if (ms > 86_400_000) assert.fail(`a simulated day passed without ${what}`);
      await advance(INTERVAL);
    }
  };

  it('with no active job keeps no timer and sends no request', async () => {
    jobs.add('finetune', 'done', { state: 'completed' });
    jobs.add('evaluation', 'gone', { state: 'failed' });
    const p = poller();
    assert.equal(connects, 0, 'constructing connects to nothing');
    await p.sync();
    await advance(0);
    assert.equal(clock.pending, 0);
    assert.equal(p.hasTimer, false);
    await p.pollNow();
    await advance(3_600_000);
    assert.equal(source.calls.length, 0);
    assert.equal(clock.pending, 0);
    assert.equal(clock.requested.length, 0, 'no timer was ever armed');
  });

  it('wakes when a job is added and goes idle when the last one ends', async () => {
    const p = poller();
    await p.sync();
    assert.equal(clock.pending, 0);
    jobs.add('finetune', 'j1');
    await p.sync();
    assert.equal(clock.pending, 1);
    answerFor({ j1: { state: 'completed' } });
    await advance(0);
    assert.equal(source.calls.length, 1);
    assert.equal(clock.pending, 0);
  });

  it('polls each of up to REQUEST_BUDGET jobs once per interval, a few at a time, with one timer', async () => {
    for (let i = 0; i < REQUEST_BUDGET; i++) jobs.add(i % 2 ? 'finetune' : 'evaluation', `j${i}`);
    const p = poller();
    await p.sync();
    await advance(0);
    assert.equal(source.calls.length, REQUEST_BUDGET);
    for (let round = 2; round <= 4; round++) {
      await advance(INTERVAL - 1);
      assert.equal(source.calls.length, REQUEST_BUDGET * (round - 1), 'nothing before the interval is up');
      await advance(1);
      assert.equal(source.calls.length, REQUEST_BUDGET * round, 'every job, every interval');
      assert.ok(clock.pending <= 1);
    }
    for (let i = 0; i < REQUEST_BUDGET; i++) {
      const at = source.callsFor(`j${i}`).map((c) => c.at);
      assert.equal(at.length, 4);
      for (let k = 1; k < at.length; k++) assert.ok(at[k]! - at[k - 1]! >= INTERVAL);
    }
    assert.ok(source.maxInFlight <= 6, `at most 6 requests at once, saw ${source.maxInFlight}`);
    assert.deepEqual(new Set(source.calls.map((c) => c.kind)), new Set(['finetune', 'evaluation']));
  });

  it('asks 100 jobs at most REQUEST_BUDGET at a time per interval, round-robin, oldest answer first', async () => {
    const n = 100;
    const turns = Math.ceil(n / REQUEST_BUDGET);
    for (let i = 0; i < n; i++) jobs.add('finetune', `j${i}`);
    const p = poller();
    await p.sync();
    await advance(0);
    const intervals = 4 * turns;
    for (let k = 1; k < intervals; k++) await advance(INTERVAL);
    const times = source.calls.map((c) => c.at);
    for (const at of times) {
      const inSpan = times.filter((t) => t > at - INTERVAL && t <= at).length;
      assert.ok(inSpan <= REQUEST_BUDGET, `${inSpan} requests in the interval ending ${at}`);
    }
    assert.equal(source.calls.length, intervals * REQUEST_BUDGET, 'the budget is used in full every interval');
    const start = times[0]!;
    for (let i = 0; i < n; i++) {
      const at = source.callsFor(`j${i}`).map((c) => c.at);
      assert.ok(at[0]! - start < turns * INTERVAL, `j${i} first asked within ${turns} intervals`);
      for (let k = 1; k < at.length; k++) {
        assert.ok(at[k]! - at[k - 1]! >= INTERVAL, 'at most once per interval');
        assert.ok(at[k]! - at[k - 1]! <= turns * INTERVAL, `j${i} asked again within ceil(n / budget) intervals`);
      }
    }
    // Oldest answer first: the jobs of a round are those of the round `turns` intervals before, and the rounds in
    // between asked the others.
    const round = (k: number) => new Set(source.calls.filter((c) => c.at === start + k * INTERVAL).map((c) => c.id));
    const firstTurn = new Set<string>();
    for (let k = 0; k < turns; k++) for (const id of round(k)) firstTurn.add(id);
    assert.equal(firstTurn.size, n, 'every job once in the first ceil(n / budget) rounds');
    for (let k = turns; k < intervals; k++) assert.deepEqual(round(k), round(k - turns));
    assert.ok(clock.pending <= 1);
  });

  it('keeps rounds full under the budget when requests take time (their sends, and so their due times, spread)', async () => {
    for (let i = 0; i < 100; i++) jobs.add('finetune', `j${i}`);
    source.answer = () => {
      clock.pass(3);
      return { state: 'running' };
    };
    const rounds: number[] = [];
    const p = poller('A', { onDidPoll: (r) => void (r.requests && rounds.push(r.requests)) });
    await p.sync();
    const intervals = 12;
    for (let k = 0; k < intervals; k++) await advance(INTERVAL);
    assert.ok(rounds.length <= intervals, `${rounds.length} rounds in ${intervals} intervals`);
    assert.ok(
      rounds.every((r) => r === REQUEST_BUDGET),
      `rounds of ${rounds.join(', ')}`,
    );
    const times = source.calls.map((c) => c.at);
    for (const at of times) assert.ok(times.filter((t) => t > at - INTERVAL && t <= at).length <= REQUEST_BUDGET);
    for (let i = 0; i < 100; i++) {
      const at = source.callsFor(`j${i}`).map((c) => c.at);
      for (let k = 1; k < at.length; k++) assert.ok(at[k]! - at[k - 1]! >= INTERVAL);
    }
  });

  it('asks a job just submitted first when the budget is short, and not before the budget has room', async () => {
    for (let i = 0; i < 2 * REQUEST_BUDGET; i++) jobs.add('finetune', `j${i}`);
    const p = poller();
    await p.sync();
    await advance(0);
    const start = clock.now();
    assert.equal(source.calls.length, REQUEST_BUDGET);
    await advance(INTERVAL / 2);
    jobs.add('finetune', 'new');
    await p.sync();
    await advance(INTERVAL / 2 - 1);
    assert.equal(source.calls.length, REQUEST_BUDGET, 'the budget of this interval is spent');
    await advance(1);
    const second = source.calls.filter((c) => c.at === start + INTERVAL);
    assert.equal(second.length, REQUEST_BUDGET);
    // Never answered: the 20 left over and the new one, for 20 requests; the new one is among them (without its
    // priority it would be the one left out, being the last in the list).
    assert.ok(
      second.some((c) => c.id === 'new'),
      'the new job is asked first',
    );
    assert.ok(
      second.every((c) => source.callsFor(c.id).length === 1),
      'then the jobs never answered',
    );
    await advance(INTERVAL);
    const asked = new Set(source.calls.map((c) => c.id));
    assert.equal(asked.size, 2 * REQUEST_BUDGET + 1, 'every job within ceil(n / budget) intervals');
  });

  it('Refresh asks every job at once past the budget; timed polling resumes when those requests leave the span', async () => {
    const n = REQUEST_BUDGET + 10;
    for (let i = 0; i < n; i++) jobs.add('finetune', `j${i}`);
    const p = poller();
    await p.sync();
    await advance(0);
    assert.equal(source.calls.length, REQUEST_BUDGET);
    await advance(100);
    const refreshed = await p.pollNow();
    const at = clock.now();
    assert.equal(refreshed?.requests, n, 'the user asked: all of them');
    await advance(INTERVAL - 1);
    assert.equal(source.calls.length, REQUEST_BUDGET + n, 'no timed request while the refresh fills the budget');
    await advance(1);
    assert.equal(source.calls.filter((c) => c.at === at + INTERVAL).length, REQUEST_BUDGET);
  });

  it('gathers jobs that come due shortly after each other into one round, and only those', async () => {
    const rounds: number[] = [];
    const p = poller('A', { onDidPoll: (r) => void (r.requests && rounds.push(r.requests)) });
    jobs.add('finetune', 'a');
    await p.sync();
    await advance(0);
    const gap = ROUND_GATHER_MS - 50;
    await advance(gap);
    jobs.add('finetune', 'b');
    await p.sync();
    await advance(0);
    assert.deepEqual(rounds, [1, 1]);
    for (let k = 0; k < 5; k++) await advance(INTERVAL);
    assert.deepEqual(rounds, [1, 1, 2, 2, 2, 2, 2], 'a waits for b, so one round serves both');
    const a = source.callsFor('a').map((c) => c.at);
    for (let k = 1; k < a.length; k++) assert.ok(a[k]! - a[k - 1]! >= INTERVAL && a[k]! - a[k - 1]! <= INTERVAL + gap);
    // A job due further apart than ROUND_GATHER_MS keeps a round of its own rather than delaying the others.
    await advance(ROUND_GATHER_MS + 100);
    jobs.add('finetune', 'c');
    await p.sync();
    await advance(0);
    rounds.length = 0;
    await advance(INTERVAL);
    assert.deepEqual(rounds, [2, 1]);
  });

  it('never has two requests for the same job in flight, even when asked to poll now', async () => {
    jobs.add('finetune', 'slow');
    const gate = deferred<Answer>();
    const asked = deferred<void>();
    source.answer = () => {
      asked.resolve();
      return gate.promise;
    };
    const p = poller();
    await p.sync();
    clock.advance(0, async () => undefined).catch(() => undefined); // fire the first round, do not wait for it
    await asked.promise;
    assert.equal(source.calls.length, 1);
    const now = p.pollNow();
    await new Promise((r) => setImmediate(r));
    assert.equal(source.calls.length, 1, 'pollNow waits for the request in flight');
    gate.resolve({ state: 'running', progress: 10 });
    const round = await now;
    assert.equal(round?.requests, 1, 'then asks again itself');
    assert.equal(source.calls.length, 2);
    assert.equal(source.maxInFlight, 1);
  });

  it('backs off with jitter on service errors, doubling up to about a minute, and recovers', async () => {
    jobs.add('finetune', 'j');
    let failing = true;
    source.answer = () => (failing ? new NetworkError('Checking the finetuning job: cannot reach the service.') : { state: 'running' });
    const randoms = [0, 1, 0.5, 0.25, 0.75, 0, 1, 0.5, 0.5, 0.5];
    let r = 0;
    const p = poller('A', { random: () => randoms[r++ % randoms.length]! });
    await p.sync();
    await advance(0);
    const gaps: number[] = [];
    for (let i = 0; i < 9; i++) {
      const before = source.calls.length;
      const from = clock.now();
      while (source.calls.length === before) await advance(250);
      gaps.push(source.calls.at(-1)!.at - from);
    }
    for (let i = 0; i < gaps.length; i++) {
      const base = Math.min(INTERVAL * 2 ** (i + 1), 60_000);
      const expected = Math.max(INTERVAL, base / 2 + (randoms[i]! * base) / 2);
      assert.ok(Math.abs(gaps[i]! - expected) <= 250, `gap ${i}: ${gaps[i]} vs ${expected}`);
    }
    assert.ok(gaps[2]! > gaps[0]!, 'grows');
    assert.ok(Math.max(...gaps) <= 60_000, 'capped at a minute');
    assert.ok(
      gaps.slice(5).some((g) => g !== gaps[5]),
      'jittered, not a fixed sequence',
    );
    assert.equal(logs.filter((l) => l.level === 'warn').length, 1, 'one warning per outage; the rest at debug');
    failing = false;
    while (source.calls.length === 10) await advance(1_000);
    const recovered = source.calls.length;
    await advance(INTERVAL);
    assert.equal(source.calls.length, recovered + 1, 'back to the regular interval');
    assert.ok(logs.some((l) => /recovered/.test(l.message)));
  });

  it('honours Retry-After, and caps an absurd one', async () => {
    jobs.add('evaluation', 'e');
    source.answer = () => new RateLimitError('too many requests', { status: 429, retryAfterMs: 45_000 });
    const p = poller('A', { random: () => 0 });
    await p.sync();
    await advance(0);
    assert.equal(source.calls.length, 1);
    assert.equal(p.currentHealth, 'rateLimited');
    await advance(44_999);
    assert.equal(source.calls.length, 1, 'waits the whole Retry-After');
    await advance(1);
    assert.equal(source.calls.length, 2);

    source.answer = () => new RateLimitError('too many requests', { status: 429, retryAfterMs: 86_400_000 });
    await advance(45_000);
    // Typed again: the assertions above narrowed calls.length to a literal across the awaits.
    const n: number = source.calls.length;
    await advance(10 * 60_000);
    assert.equal(source.calls.length, n + 1, 'a day-long Retry-After is capped at ten minutes');
  });

  it('honours Retry-After on a 503 as on a 429, without jitter, and Refresh waits for it too', async () => {
    jobs.add('finetune', 'j');
    let down = true;
    source.answer = () =>
      down ? new ServerError('the service failed (503)', { status: 503, retryAfterMs: 30_000 }) : { state: 'running' };
    const p = poller('A', { random: () => 1 });
    await p.sync();
    await advance(0);
    assert.equal(source.calls.length, 1);
    await p.pollNow();
    assert.equal(source.calls.length, 1, 'Refresh does not override what the service asked');
    await advance(29_999);
    assert.equal(source.calls.length, 1, 'waits the whole Retry-After');
    await advance(1);
    assert.equal(source.calls.length, 2, "and not a moment longer (no jitter on the server's word)");
    assert.ok(
      logs.some((l) => /Next attempt in 30 s\./.test(l.message)),
      logs.map((l) => l.message).join('\n'),
    );
    down = false;
    await advance(30_000);
    assert.equal(source.calls.length, 3);
    await advance(INTERVAL);
    assert.equal(source.calls.length, 4, 'back to the interval once answered');
  });

  it('keeps polling on time when the wall clock steps back an hour', async () => {
    jobs.add('finetune', 'j');
    const p = poller();
    await p.sync();
    await advance(0);
    await advance(INTERVAL);
    assert.equal(source.calls.length, 2);
    clock.stepWall(-3_600_000);
    await advance(INTERVAL);
    assert.equal(source.calls.length, 3, 'the next poll is one interval later, not an hour');
    await advance(INTERVAL);
    assert.equal(source.calls.length, 4);
    clock.stepWall(+7_200_000);
    await advance(INTERVAL - 1);
    assert.equal(source.calls.length, 4, 'a step forward does not poll early either');
    await advance(1);
    assert.equal(source.calls.length, 5);
  });

  it('schedules an overdue job with a clock that moves on between two reads, as performance.now() does', async () => {
    clock.creep = true;
    jobs.add('finetune', 'j');
    const p = poller();
    await p.sync();
    await advance(0);
    await advance(INTERVAL);
    // The job is due while the round that asks it is planned: the plan must settle although the clock moved on.
    clock.pass(INTERVAL * 3);
    await advance(INTERVAL);
    assert.ok(source.calls.length >= 3, `polled ${source.calls.length} times`);
  });

  it('keeps a service backoff on time when the wall clock steps back', async () => {
    jobs.add('finetune', 'j');
    let down = true;
    source.answer = () =>
      down ? new ServerError('the service failed (503)', { status: 503, retryAfterMs: 20_000 }) : { state: 'running' };
    const p = poller();
    await p.sync();
    await advance(0);
    down = false;
    clock.stepWall(-3_600_000);
    await advance(20_000);
    assert.equal(source.calls.length, 2);
  });

  // No journey hangs on one answer (issue 27): an answer the extension cannot read says nothing about the job, so
  // only the service's own word (a failure state, an error, the job gone) fails it.
  for (const n of [3, 10, 50]) {
    it(`keeps a job whose status is unreadable ${n} times in a row running, backing off, and polls on`, async () => {
      jobs.add('finetune', 'odd', { state: 'running' });
      jobs.add('finetune', 'fine', { state: 'running' });
      let unreadable = 0;
      source.answer = (id) => {
        if (id !== 'odd') return { state: 'running' };
        unreadable++;
        return new ContractError('The service sent an answer the extension cannot read (finetune status).', {
          detail: '{"phase":"TRAINING_STEP","pct":"40%"}',
        });
      };
      const p = poller();
      await p.sync();
      await advanceUntil(`${n} unreadable answers`, () => unreadable >= n);
      const job = jobs.byId('odd');
      assert.equal(job.state, 'running', `failed after ${n} unreadable answers: ${job.error ?? ''}`);
      assert.equal(job.error, undefined);
      assert.equal(job.finishedAt, undefined);
      assert.equal(finished.length, 0, 'no end reported');
      assert.ok(p.followed().includes('finetune:odd'), 'still followed');
      assert.ok(clock.pending >= 1, 'a timer is still armed');
    });
  }

  it('backs off an unreadable job, growing to a cap, while the others keep the interval', async () => {
    jobs.add('finetune', 'odd', { state: 'running' });
    jobs.add('finetune', 'fine', { state: 'running' });
    answerFor({ odd: new ContractError('unreadable') });
    const p = poller();
    await p.sync();
    await advanceUntil('20 polls of the unreadable job', () => source.callsFor('odd').length >= 20);
    const at = source.callsFor('odd').map((c) => c.at);
    const gaps = at.slice(1).map((t, i) => t - at[i]!);
    assert.ok(gaps[3]! > gaps[0]!, `grows: ${gaps.join(', ')}`);
    assert.ok(
      gaps.every((g) => g <= 60_000 + INTERVAL),
      `capped at about a minute: ${gaps.join(', ')}`,
    );
    assert.ok(
      gaps.slice(-5).every((g) => g >= 30_000),
      `reaches the cap: ${gaps.join(', ')}`,
    );
    const fine = source.callsFor('fine').map((c) => c.at);
    assert.ok(
      fine.slice(1).every((t, i) => t - fine[i]! === INTERVAL),
      'the readable job keeps its interval',
    );
  });

  it('keeps "unreadable since" from the first unreadable answer, with the service words, and a readable one clears it', async () => {
    jobs.add('finetune', 'j', { state: 'running' });
    let readable = false;
    source.answer = () =>
      readable
        ? { state: 'running', progress: 30 }
        : new ContractError('The service sent an answer the extension cannot read (finetune status).', {
            detail: '{"phase":"VALIDATING_FILES","pct":"40%"}',
          });
    const p = poller();
    await p.sync();
    await advance(0);
    const first = clock.now();
    assert.equal(jobs.byId('j').unreadableSince, first);
    assert.match(jobs.byId('j').unreadableWords ?? '', /Validating files/);
    await advanceUntil('5 polls', () => source.calls.length >= 5);
    assert.equal(jobs.byId('j').unreadableSince, first, 'kept from the first unreadable answer');
    readable = true;
    const n = source.calls.length;
    await advanceUntil('another poll', () => source.calls.length > n);
    const job = jobs.byId('j');
    assert.equal(job.unreadableSince, undefined, 'a readable answer clears it');
    assert.equal(job.unreadableWords, undefined);
    assert.equal(job.progress, 30);
    readable = false;
    const m = source.calls.length;
    await advanceUntil('another poll', () => source.calls.length > m);
    assert.equal(jobs.byId('j').unreadableSince, source.calls.at(-1)!.at, 'a new unreadable spell starts anew');
  });

  it('ends a job whose status was unreadable when a later answer says completed', async () => {
    jobs.add('finetune', 'j', { state: 'running' });
    let unreadable = 12;
    source.answer = () => (unreadable-- > 0 ? new ContractError('unreadable') : { state: 'completed' });
    const p = poller();
    await p.sync();
    await advanceUntil('the end', () => finished.length > 0);
    const job = jobs.byId('j');
    assert.equal(job.state, 'completed');
    assert.equal(job.unreadableSince, undefined);
    assert.equal(finished[0]!.notify, true);
    assert.equal(p.followed().length, 0);
  });

  it('ends an evaluation the service says completed whose result cannot be read, failed with why (was: polled forever)', async () => {
    jobs.add('evaluation', 'e', { state: 'running' });
    const body = { job_id: 'e', status: 'completed', result: { accuracy: 'n/a', note: 'judge model unavailable' } };
    source.answer = (id) => {
      try {
        return decodeEvaluationStatus(id, body);
      } catch (e) {
        return e as Error;
      }
    };
    const p = poller();
    await p.sync();
    for (let i = 0; i < 30 && finished.length === 0; i++) await advance(INTERVAL);
    const job = jobs.byId('e');
    assert.equal(job.state, 'failed', `still ${job.state} after ${source.callsFor('e').length} polls`);
    assert.match(job.error ?? '', /completed, but its result could not be read .*judge model unavailable/);
    assert.equal(p.followed().length, 0, 'no longer polled');
  });

  it('fails a job whose status was unreadable when the service says failed, or forgot it (404)', async () => {
    jobs.add('finetune', 'says-failed', { state: 'running' });
    jobs.add('evaluation', 'gone', { state: 'running' });
    let unreadable = 10;
    source.answer = (id) => {
      if (unreadable > 0) {
        unreadable--;
        return new ContractError('unreadable');
      }
      return id === 'gone'
        ? new RequestError("Checking the evaluation: the service refused the request (404): Evaluation job 'gone' not found.", {
            status: 404,
          })
        : { state: 'failed', error: 'No text found in the PDF' };
    };
    const p = poller();
    await p.sync();
    await advanceUntil('both ends', () => finished.length >= 2);
    assert.equal(jobs.byId('says-failed').state, 'failed');
    assert.equal(jobs.byId('says-failed').error, 'No text found in the PDF');
    assert.equal(jobs.byId('gone').state, 'failed');
    assert.equal(jobs.byId('gone').error, GONE_ERROR);
  });

  describe('a finetune ends when its model appears in the model list', () => {
    let lists: number;
    let listed: ModelInfo[];
    const listModels = async () => {
      lists++;
      return listed;
    };
    const model = (name: string, kind: ModelInfo['kind'] = 'unknown'): ModelInfo => ({ name, kind, raw: name });
    beforeEach(() => {
      lists = 0;
      listed = [model('oss-reasoner-8b', 'base')];
    });

    it('adopts the derived name with the lineage kept, while its status is unreadable', async () => {
      const lineage = { baseModel: 'oss-reasoner-8b', files: [], numQs: 5, mode: 'pretraining', useCase: 'u', jobId: 'ft', startedAt: 1 };
      jobs.add('finetune', 'ft', { state: 'running', modelName: 'support-bot', baseModel: 'oss-reasoner-8b', lineage });
      source.answer = () => new ContractError('unreadable', { detail: '{"phase":"TRAINING"}' });
      const p = poller('A', { listModels });
      await p.sync();
      await advance(5 * INTERVAL);
      assert.equal(jobs.byId('ft').state, 'running', 'not before the model is listed');
      listed = [...listed, model('ft:oss-reasoner-8b:support-bot:3f9a1c2e')];
      await advanceUntil('the end', () => finished.length > 0);
      const job = jobs.byId('ft');
      assert.equal(job.state, 'completed');
      assert.equal(job.modelName, 'ft:oss-reasoner-8b:support-bot:3f9a1c2e');
      assert.equal(job.requestedName, 'support-bot');
      assert.deepEqual(job.lineage, lineage);
      assert.equal(job.unreadableSince, undefined);
      assert.equal(job.finishedAt !== undefined && job.progress === 100, true);
      assert.equal(finished[0]!.notify, true);
      const n = source.calls.length + lists;
      await advance(60 * INTERVAL);
      assert.equal(source.calls.length + lists, n, 'nothing asked after the end');
    });

    it('never ends a job the person stopped following while the list was being asked for', async () => {
      jobs.add('finetune', 'ft', { state: 'running', modelName: 'support-bot', baseModel: 'oss-reasoner-8b' });
      answerFor({ ft: new ContractError('unreadable') });
      const p = poller('A', {
        listModels: async () => {
          lists++;
          // Stop Following, clicked while this round's list is on its way.
          jobs.records.set('finetune:ft', { ...jobs.byId('ft'), unfollowedAt: 1 });
          return [model('support-bot')];
        },
      });
      await p.sync();
      await advance(3 * INTERVAL);
      assert.ok(lists >= 1);
      assert.notEqual(jobs.byId('ft').state, 'completed');
      assert.equal(finished.length, 0);
    });

    it('asks for the list once per look for all running finetunes, only while one runs', async () => {
      for (let i = 0; i < 5; i++) jobs.add('finetune', `f${i}`, { state: 'running' });
      jobs.add('evaluation', 'e', { state: 'running' });
      answerFor({ f0: new ContractError('unreadable') });
      const p = poller('A', { listModels });
      await p.sync();
      await advance(2 * MADE_MODEL_LOOK_MS);
      assert.ok(source.callsFor('f1').length > 60, 'a round every interval');
      assert.equal(lists, 3, 'one list request per look (at 0, 30 and 60 s) for all five finetunes');
      for (let i = 0; i < 5; i++) jobs.records.set(`finetune:f${i}`, { ...jobs.byId(`f${i}`), state: 'completed' });
      await p.sync();
      const before = lists;
      await advance(10 * INTERVAL);
      assert.ok(source.callsFor('e').length > 10, 'the evaluation is still polled');
      assert.equal(lists, before, 'no list request without a running finetune');
    });

    it('keeps polling when the list cannot be had, and never takes an unrelated or base model', async () => {
      jobs.add('finetune', 'ft', { state: 'running', modelName: 'support-bot', baseModel: 'oss-reasoner-8b' });
      answerFor({ ft: new ContractError('unreadable') });
      let fail = true;
      const p = poller('A', {
        listModels: async () => {
          lists++;
          if (fail) throw new ContractError('The service sent an answer the extension cannot read (model list).');
          return [model('support'), model('support-bot-large'), model('oss-reasoner-8b'), model('support-bot', 'base')];
        },
      });
      await p.sync();
      await advance(20 * INTERVAL);
      fail = false;
      await advance(200 * INTERVAL);
      assert.ok(lists >= 4);
      assert.equal(jobs.byId('ft').state, 'running');
      assert.equal(finished.length, 0);
    });
  });

  // A status may end a finetune completed without naming the model it made (nested-phase's `published_as`, a key that
  // says neither made nor model): the end is then written and announced under the model the list shows, found as
  // madeModel.ts finds it while the job runs, else under the name asked for (issue 27).
  describe('a finetune its status ends without naming the made model is named from the model list', () => {
    let listCalls: { at: number; opts: unknown }[];
    let listAnswer: () => Promise<ModelInfo[]>;
    const listModels: JobPollerOptions['listModels'] = (opts) => {
      listCalls.push({ at: clock.now(), opts });
      return listAnswer();
    };
    const model = (name: string, kind: ModelInfo['kind'] = 'unknown'): ModelInfo => ({ name, kind, raw: name });
    const lineage = { baseModel: 'oss-reasoner-8b', files: [], numQs: 5, mode: 'pretraining', useCase: 'u', jobId: 'ft', startedAt: 1 };
    beforeEach(() => {
      listCalls = [];
      listAnswer = async () => [model('oss-reasoner-8b', 'base'), model('support-bot.v1')];
    });

    it('writes and announces the end under the made name, with the lineage, after one list request', async () => {
      jobs.add('finetune', 'ft', { state: 'running', modelName: 'support-bot', baseModel: 'oss-reasoner-8b', lineage });
      let done = false;
      source.answer = () => (done ? { state: 'completed', rawState: 'ready', progress: 100 } : { state: 'running', progress: 40 });
      listAnswer = async () => [model('oss-reasoner-8b', 'base'), ...(done ? [model('support-bot.v1')] : [])];
      const p = poller('A', { listModels });
      await p.sync();
      await advance(2 * INTERVAL);
      const looks = listCalls.length;
      done = true;
      await advanceUntil('the end', () => finished.length > 0);
      assert.equal(finished.length, 1);
      const job = jobs.byId('ft');
      assert.equal(job.state, 'completed');
      assert.equal(job.modelName, 'support-bot.v1', 'the job names the model the service made');
      assert.equal(job.requestedName, 'support-bot');
      assert.deepEqual(job.lineage, lineage);
      assert.equal(finished[0]!.job.modelName, 'support-bot.v1', 'the end is announced under the made name');
      assert.equal(finished[0]!.notify, true);
      assert.equal(listCalls.length, looks + 1, 'one list request for the end, though the timed look was not due');
      assert.equal((listCalls.at(-1)!.opts as { retries?: number }).retries, 0, 'asked once, as the timed look is');
      const n = source.calls.length + listCalls.length;
      await advance(60 * INTERVAL);
      assert.equal(source.calls.length + listCalls.length, n, 'nothing asked after the end');
    });

    it('asks no list when the status named the made model', async () => {
      jobs.add('finetune', 'ft', { state: 'running', modelName: 'support-bot', baseModel: 'oss-reasoner-8b' });
      source.answer = () => ({ state: 'completed', modelName: 'acme/support-bot:7' });
      const p = poller('A', { listModels });
      await p.sync();
      await advance(0);
      assert.equal(jobs.byId('ft').modelName, 'acme/support-bot:7');
      assert.equal(listCalls.length, 0, 'the status said it all');
    });

    // The other finetune of the scope made `support-bot.v1` in the third case only.
    const keptCases: [string, () => Promise<ModelInfo[]>][] = [
      ['the list holds no such model', async () => [model('oss-reasoner-8b', 'base'), model('support-bot-large')]],
      ['the list holds two derived names', async () => [model('support-bot.v2'), model('support-bot.v3')]],
      ["the only such name is another finetune's", async () => [model('support-bot.v1')]],
      [
        'the list cannot be read',
        () => Promise.reject(new ContractError('The service sent an answer the extension cannot read (model list).')),
      ],
      [
        'the list is refused for now (429)',
        () => Promise.reject(new RateLimitError('Listing models: too many requests.', { status: 429 })),
      ],
    ];
    for (const [what, answer] of keptCases) {
      it(`keeps the name asked for when ${what}`, async () => {
        jobs.add('finetune', 'ft', { state: 'running', modelName: 'support-bot', baseModel: 'oss-reasoner-8b', lineage });
        jobs.add('finetune', 'other', { state: 'completed', modelName: 'support-bot.v1', baseModel: 'oss-reasoner-8b' });
        listAnswer = answer;
        source.answer = () => ({ state: 'completed' });
        const p = poller('A', { listModels });
        await p.sync();
        await advanceUntil('the end', () => finished.length > 0);
        const job = jobs.byId('ft');
        assert.equal(job.state, 'completed');
        assert.equal(job.modelName, 'support-bot');
        assert.equal(job.requestedName, undefined);
        assert.equal(finished.length, 1);
        assert.equal(listCalls.length, 1);
      });
    }

    it('keeps within REQUEST_BUDGET: in a full round the end waits for the next round, whose look names it, asking no status again', async () => {
      for (let i = 0; i < 2 * REQUEST_BUDGET; i++) jobs.add('finetune', `f${i}`, { state: 'running', modelName: `bot-${i}` });
      let doneAt: number | undefined = undefined;
      listAnswer = async () => [model('oss-reasoner-8b', 'base'), ...(doneAt === undefined ? [] : [model('bot-7.v1')])];
      source.answer = (id) => (id === 'f7' && doneAt !== undefined ? { state: 'completed' } : { state: 'running' });
      const p = poller('A', { listModels });
      await p.sync();
      await advance(0);
      await advance(3 * INTERVAL);
      doneAt = clock.now();
      await advanceUntil('the end', () => finished.length > 0);
      assert.equal(jobs.byId('f7').modelName, 'bot-7.v1');
      assert.equal(source.callsFor('f7').filter((c) => c.at >= doneAt).length, 1, 'the status that said completed, once');
      await advance(2 * MADE_MODEL_LOOK_MS);
      const times = [...source.calls.map((c) => c.at), ...listCalls.map((c) => c.at)];
      for (const at of times) {
        const inSpan = times.filter((t) => t > at - INTERVAL && t <= at).length;
        assert.ok(inSpan <= REQUEST_BUDGET, `${inSpan} requests in the interval ending ${at}`);
      }
    });

    it('never takes the end from another window: one that wrote it meanwhile is reported, not written again', async () => {
      jobs.add('finetune', 'ft', { state: 'running', modelName: 'support-bot', baseModel: 'oss-reasoner-8b' });
      source.answer = () => ({ state: 'completed' });
      listAnswer = async () => {
        // Another window writes the end while this one's list is on its way.
        jobs.records.set('finetune:ft', { ...jobs.byId('ft'), state: 'completed', modelName: 'support-bot.v1', finishedAt: 5 });
        return [model('support-bot.v1')];
      };
      const p = poller('A', { listModels });
      await p.sync();
      await advance(0);
      const writes = jobs.writes;
      await advance(3 * INTERVAL);
      assert.equal(jobs.writes, writes);
      assert.equal(jobs.byId('ft').finishedAt, 5);
      assert.ok(
        finished.every((f) => !f.notify),
        'this window announces nothing it did not write',
      );
    });
  });

  // The list look is a request of the poller like a status request: it counts against the budget, is not retried
  // inside the round (a Refresh would wait behind the retries), and the service's trouble there backs the poller off.
  describe("the model list look is one of the poller's requests", () => {
    let listCalls: { at: number; opts: unknown }[];
    let listAnswer: () => Promise<ModelInfo[]>;
    const listModels: JobPollerOptions['listModels'] = (opts) => {
      listCalls.push({ at: clock.now(), opts });
      return listAnswer();
    };
    beforeEach(() => {
      listCalls = [];
      listAnswer = async () => [{ name: 'oss-reasoner-8b', kind: 'base', raw: 'oss-reasoner-8b' }];
    });

    it('keeps within REQUEST_BUDGET per interval with the status requests, and still looks when every round is full', async () => {
      for (let i = 0; i < 2 * REQUEST_BUDGET; i++) jobs.add('finetune', `f${i}`, { state: 'running' });
      const p = poller('A', { listModels });
      await p.sync();
      await advance(0);
      for (let k = 0; k < 120; k++) await advance(INTERVAL);
      const times = [...source.calls.map((c) => c.at), ...listCalls.map((c) => c.at)];
      for (const at of times) {
        const inSpan = times.filter((t) => t > at - INTERVAL && t <= at).length;
        assert.ok(inSpan <= REQUEST_BUDGET, `${inSpan} requests in the interval ending ${at}`);
      }
      assert.ok(listCalls.length >= 2, `looked ${listCalls.length} times in 2 minutes`);
    });

    it("asks the list once per look: the client's retries are off (its failures are the poller's to wait out)", async () => {
      jobs.add('finetune', 'f', { state: 'running' });
      const p = poller('A', { listModels });
      await p.sync();
      await advance(0);
      assert.equal(listCalls.length, 1);
      assert.equal((listCalls[0]!.opts as { retries?: number }).retries, 0);
    });

    it("waits out a 429's Retry-After from the list before the next round, and Refresh waits for it too", async () => {
      jobs.add('finetune', 'f', { state: 'running' });
      listAnswer = () => Promise.reject(new RateLimitError('Listing models: too many requests.', { status: 429, retryAfterMs: 45_000 }));
      const p = poller('A', { listModels, random: () => 0 });
      await p.sync();
      await advance(0);
      assert.deepEqual([source.calls.length, listCalls.length], [1, 1]);
      assert.equal(p.currentHealth, 'rateLimited');
      await p.pollNow();
      assert.equal(source.calls.length, 1, 'Refresh does not override what the service asked');
      await advance(44_999);
      assert.equal(source.calls.length, 1, 'no request before the Retry-After is over');
      await advance(1);
      assert.equal(source.calls.length, 2);
    });

    const troubles: [string, Error][] = [
      ['a 503', new ServerError('Listing models: the service failed (503).', { status: 503 })],
      ['an unreachable service', new NetworkError('Listing models: cannot reach the service.')],
    ];
    for (const [what, error] of troubles) {
      it(`backs off on ${what} from the list as on one from a status request, warns once, and recovers`, async () => {
        jobs.add('finetune', 'f', { state: 'running' });
        let down = true;
        listAnswer = async () => {
          if (down) throw error;
          return [];
        };
        const p = poller('A', { listModels, random: () => 0.5 });
        await p.sync();
        await advance(0);
        assert.equal(p.currentHealth, 'unreachable');
        const wait = backoffDelay(1, INTERVAL, 0.5);
        assert.ok(wait > INTERVAL);
        await advance(wait - 1);
        assert.equal(source.calls.length, 1, 'the next round waits the backoff, not the interval');
        await advance(1);
        assert.equal(source.calls.length, 2);
        assert.equal(p.currentHealth, 'ok', 'the status answered: the service is back');
        assert.equal(logs.filter((l) => l.level === 'warn').length, 1, logs.map((l) => l.message).join('\n'));
        assert.match(logs.find((l) => l.level === 'warn')!.message, /model list/);
        down = false;
        await advance(2 * MADE_MODEL_LOOK_MS);
        assert.ok(listCalls.length >= 2);
        assert.equal(p.currentHealth, 'ok');
      });
    }

    it(`looks at most once per ${MADE_MODEL_LOOK_MS / 1000} s while a finetune runs for many rounds, and at once on Refresh`, async () => {
      jobs.add('finetune', 'f', { state: 'running' });
      const p = poller('A', { listModels });
      await p.sync();
      await advance(0);
      await advance(59 * INTERVAL);
      assert.equal(source.calls.length, 60, 'a status request every round');
      assert.deepEqual(
        listCalls.map((c) => c.at - listCalls[0]!.at),
        [0, MADE_MODEL_LOOK_MS],
        'not one list in each of 60 rounds',
      );
      await p.pollNow();
      assert.equal(listCalls.length, 3, 'the person asked');
    });
  });

  it("takes a decoder's own error (a RangeError, as a list of 200,000 records gave) as unreadable, not unexpected", async () => {
    jobs.add('finetune', 'large');
    jobs.add('finetune', 'thrown');
    // No status beside 200,000 records (1.3 MB); and a builtin throwing while a readable answer is read.
    const large = { items: Array.from({ length: 200_000 }, (_, i) => ({ i })) };
    const read = (body: () => Answer) => {
      try {
        return body();
      } catch (e) {
        return e as Error;
      }
    };
    // Read once: each round would read the same 1.3 MB again, seconds of CPU on a loaded machine for the same answer.
    const largeAnswer = read(() => decodeFinetuneStatus('large', large));
    source.answer = (id) =>
      id === 'large' ? largeAnswer : read(() => whileObjectWalksThrow(() => decodeFinetuneStatus(id, { status: 'running' })));
    const p = poller();
    await p.sync();
    await advance(60 * INTERVAL);
    for (const id of ['large', 'thrown']) {
      // Unreadable, not a bug of ours: the job stays as it was, says since when it is unreadable, and is asked again.
      assert.equal(jobs.byId(id).state, 'queued', `${id}: not failed, as it was`);
      assert.notEqual(jobs.byId(id).unreadableSince, undefined, `${id}: shown as unreadable`);
      assert.ok(source.callsFor(id).length >= 3, `${id}: asked again`);
    }
    assert.deepEqual(
      logs.filter((l) => l.level === 'error'),
      [],
      'nothing taken for a bug of the poller',
    );
  });

  it('does not fail a job whose unreadable answers are not in a row', async () => {
    jobs.add('finetune', 'j');
    const script: Answer[] = [];
    for (let i = 0; i < 10; i++) script.push(new ContractError('unreadable'), new ContractError('unreadable'), { state: 'running' });
    let n = 0;
    source.answer = () => script[n++] ?? { state: 'running' };
    const p = poller();
    await p.sync();
    await advance(600 * INTERVAL);
    assert.ok(n >= script.length, `all ${script.length} answers were given (${n})`);
    assert.equal(jobs.byId('j').state, 'running');
  });

  it('stops a round at the first service error instead of sending the rest', async () => {
    for (let i = 0; i < 10; i++) jobs.add('finetune', `j${i}`);
    source.answer = () => new ServerError('the service failed (503)', { status: 503 });
    const p = poller('A', { concurrency: 1 });
    await p.sync();
    await advance(0);
    assert.equal(source.calls.length, 1);
  });

  it('writes progress, stops polling a job at its end and reports the end once', async () => {
    jobs.add('finetune', 'f', { state: 'queued' });
    jobs.add('finetune', 'g', { state: 'queued' });
    const script: Record<string, Answer> = { f: { state: 'running', progress: 40 }, g: { state: 'running' } };
    answerFor(script);
    const p = poller();
    await p.sync();
    await advance(0);
    assert.equal(jobs.byId('f').state, 'running');
    assert.equal(jobs.byId('f').progress, 40);
    script.f = { state: 'completed' };
    await advance(INTERVAL);
    const f = jobs.byId('f');
    assert.equal(f.state, 'completed');
    assert.equal(f.progress, 100);
    assert.equal(f.finishedAt, clock.now());
    await advance(5 * INTERVAL);
    assert.equal(source.callsFor('f').length, 2, 'no poll after the end');
    assert.equal(source.callsFor('g').length, 7);
    assert.equal(finished.length, 1);
    assert.equal(finished[0]!.job.id, 'f');
    assert.equal(finished[0]!.notify, true);
    assert.equal(finished[0]!.observedHere, true);
    assert.equal(finished[0]!.previous?.state, 'running');
  });

  it('does not write when an answer changes nothing', async () => {
    jobs.add('finetune', 'f', { state: 'running', progress: 5 });
    source.answer = () => ({ state: 'running', progress: 5 });
    const p = poller();
    await p.sync();
    await advance(5 * INTERVAL);
    assert.equal(source.calls.length, 6);
    assert.equal(jobs.writes, 0);
  });

  it('keeps polling a job in an unknown state, showing the service word', async () => {
    jobs.add('finetune', 'u');
    source.answer = () => ({ state: 'unknown', rawState: 'frobnicating' });
    const p = poller();
    await p.sync();
    await advance(3 * INTERVAL);
    assert.equal(source.calls.length, 4);
    assert.equal(jobs.byId('u').state, 'unknown');
    assert.equal(jobs.byId('u').rawState, 'frobnicating');
    assert.equal(clock.pending, 1);
  });

  it('marks a job the service answers 404 for as failed, unseen, and stops', async () => {
    jobs.add('evaluation', 'lost', { state: 'running' });
    source.answer = () =>
      new RequestError("Checking the evaluation: the service refused the request (404): Evaluation job 'lost' not found.", { status: 404 });
    const p = poller();
    await p.sync();
    await advance(3 * INTERVAL);
    const lost = jobs.byId('lost');
    assert.equal(lost.state, 'failed');
    assert.equal(lost.error, GONE_ERROR);
    assert.equal(lost.unseenFailure, true);
    assert.equal(source.calls.length, 1);
    assert.equal(finished.length, 1);
    assert.equal(clock.pending, 0);
  });

  it('records a failure with its error and the unseen flag', async () => {
    jobs.add('finetune', 'bad', { state: 'running' });
    source.answer = () => ({ state: 'failed', error: 'No text found in the PDF' });
    const p = poller();
    await p.sync();
    await advance(0);
    assert.equal(jobs.byId('bad').error, 'No text found in the PDF');
    assert.equal(jobs.byId('bad').unseenFailure, true);
  });

  it('stores an evaluation result', async () => {
    jobs.add('evaluation', 'e');
    const result = { datasetName: 'squad', modelName: 'm', correct: 42, total: 50, accuracy: 0.84, judgeModel: 'judge-1' };
    source.answer = () => ({ state: 'completed', result });
    const p = poller();
    await p.sync();
    await advance(0);
    assert.deepEqual(jobs.byId('e').result, result);
    assert.equal(finished[0]!.job.result?.accuracy, 0.84);
  });

  it('backs off only the job whose answer cannot be read', async () => {
    jobs.add('finetune', 'odd');
    jobs.add('finetune', 'fine');
    answerFor({ odd: new ContractError('finetune status: no status field') });
    const p = poller();
    await p.sync();
    await advance(8 * INTERVAL);
    assert.equal(source.callsFor('fine').length, 9);
    assert.ok(source.callsFor('odd').length <= 4, `odd backs off: ${source.callsFor('odd').length}`);
    assert.ok(source.callsFor('odd').length >= 2, 'but keeps trying');
  });

  it('pauses on an auth error until the key changes, logging once', async () => {
    jobs.add('finetune', 'a');
    jobs.add('finetune', 'b');
    source.answer = () => new AuthError('The service refused the API key (401). Set a valid key.', { status: 401 });
    const p = poller('A', { concurrency: 1 });
    await p.sync();
    await advance(0);
    assert.equal(source.calls.length, 1);
    assert.equal(p.isAuthPaused, true);
    assert.equal(clock.pending, 0);
    await advance(10 * INTERVAL);
    await p.sync();
    assert.equal(source.calls.length, 1, 'no request while paused');
    assert.equal(logs.filter((l) => /paused/.test(l.message)).length, 1);
    source.answer = () => ({ state: 'running' });
    await p.reconnect();
    await advance(0);
    assert.equal(source.calls.length, 3);
    assert.equal(p.isAuthPaused, false);
  });

  it('goes idle when not configured and starts when connected', async () => {
    jobs.add('finetune', 'a');
    let configured = false;
    const p = poller('A', {
      connect: async () => {
        if (!configured) throw new Error('No API key is set.');
        return { scope: SCOPE, source: source.as('A') };
      },
    });
    await p.sync();
    assert.equal(clock.pending, 0);
    assert.equal(p.currentHealth, 'notConfigured');
    configured = true;
    await p.reconnect();
    await advance(0);
    assert.equal(source.calls.length, 1);
  });

  it('stops following jobs of another scope after a reconnect', async () => {
    jobs.add('finetune', 'a');
    let scope = SCOPE;
    const p = poller('A', { connect: async () => ({ scope, source: source.as('A') }) });
    await p.sync();
    await advance(0);
    scope = 'http://other#key';
    await p.reconnect();
    await advance(5 * INTERVAL);
    assert.equal(source.calls.length, 1);
    assert.equal(clock.pending, 0);
  });

  describe('two windows', () => {
    it('each poll every job they see once per interval, and only one of them tells each end', async () => {
      for (let i = 0; i < 20; i++) jobs.add(i % 2 ? 'finetune' : 'evaluation', `j${i}`);
      const script: Record<string, Answer> = {};
      answerFor(script);
      const a = poller('A');
      const b = poller('B');
      await Promise.all([a.sync(), b.sync()]);
      await advance(0);
      for (let i = 0; i < 5; i++) await advance(INTERVAL);
      for (let i = 0; i < 20; i++) {
        for (const by of ['A', 'B']) {
          const calls = source.callsFor(`j${i}`).filter((c) => c.by === by);
          assert.equal(calls.length, 6, `j${i} polled by ${by} once per interval: ${calls.length}`);
          for (let k = 1; k < calls.length; k++) assert.ok(calls[k]!.at - calls[k - 1]!.at >= INTERVAL);
        }
      }
      for (let i = 0; i < 20; i++) {
        script[`j${i}`] = { state: 'completed', result: { datasetName: 'squad', modelName: 'm', correct: 1, total: 2, accuracy: 0.5 } };
      }
      await advance(INTERVAL);
      await Promise.all([a.sync(), b.sync()]);
      await settle();
      const notified = finished.filter((f) => f.notify);
      assert.equal(notified.length, 20, 'each end announced once');
      assert.equal(new Set(notified.map((f) => f.job.id)).size, 20);
      assert.ok(notified.every((f) => f.observedHere));
      assert.equal(clock.pending, 0);
    });

    it('both asking about a job as it ends tell the user once', async () => {
      jobs.add('finetune', 'j', { state: 'running' });
      source.answer = () => ({ state: 'completed' });
      const a = poller('A');
      const b = poller('B');
      await Promise.all([a.sync(), b.sync()]);
      await advance(0);
      assert.deepEqual(source.calls.map((c) => c.by).sort(), ['A', 'B'], 'both saw it running and asked');
      assert.equal(finished.filter((f) => f.observedHere).length, 2, 'both saw the end');
      assert.equal(finished.filter((f) => f.notify).length, 1, 'one tells the user');
      assert.equal(jobs.byId('j').state, 'completed');
    });

    // In VS Code each window has its own copy of globalState, updated a moment after another window writes.
    it("announce an end once when one window's copy of the list is behind", async () => {
      jobs.add('finetune', 'j', { state: 'running' });
      const jobsB = new FakeJobs(clock); // B's copy of globalState has not received A's write yet
      jobsB.add('finetune', 'j', { state: 'running' });
      source.answer = () => ({ state: 'completed' });
      const a = poller('A');
      await a.sync();
      await advance(0);
      assert.equal(jobs.byId('j').state, 'completed');
      const b = poller('B', { jobs: jobsB });
      await b.sync();
      await advance(0);
      assert.equal(source.calls.length, 2, 'B still saw it running and asked');
      assert.equal(finished.filter((f) => f.observedHere).length, 2);
      assert.equal(finished.filter((f) => f.notify).length, 1, 'but only A tells the user');
      assert.equal(finished.find((f) => f.notify)?.by, 'A');
    });

    it('tell the user when the end marker cannot be written, warning once', async () => {
      jobs.add('finetune', 'j1', { state: 'running' });
      jobs.add('finetune', 'j2', { state: 'running' });
      source.answer = () => ({ state: 'completed' });
      const p = poller('A', {
        claimNotice: async () => {
          throw new Error('EACCES: permission denied');
        },
      });
      await p.sync();
      await advance(0);
      assert.equal(finished.filter((f) => f.notify).length, 2, 'twice across windows beats never');
      assert.equal(logs.filter((l) => /markers unavailable/.test(l.message)).length, 1);
    });

    it('re-read a job just before asking, so one the other window ended meanwhile is not asked about', async () => {
      jobs.add('finetune', 'x', { state: 'running' });
      jobs.add('finetune', 'y', { state: 'running' });
      source.answer = (id) => {
        // While this window waits for x, the other window writes y's end.
        if (id === 'x') jobs.records.set('finetune:y', { ...jobs.byId('y'), state: 'completed' });
        return { state: 'running' };
      };
      const p = poller('A', { concurrency: 1 });
      await p.sync();
      await advance(0);
      assert.deepEqual(
        source.calls.map((c) => c.id),
        ['x'],
      );
      await advance(INTERVAL);
      assert.deepEqual(source.callsFor('y'), [], 'never asked: it ended before its turn');
      assert.deepEqual(
        finished.map((f) => [f.job.id, f.observedHere, f.notify]),
        [['y', false, false]],
      );
    });

    it('tell the caller when the other window changed a job, and when it ended one', async () => {
      jobs.add('finetune', 'j');
      const script: Record<string, Answer> = { j: { state: 'running', progress: 10 } };
      answerFor(script);
      const a = poller('A');
      await a.sync();
      await advance(0);
      let external = 0;
      // B polls far less often, so it hears of A's writes before it asks again.
      const b = poller('B', { onExternalChange: () => external++, intervalMs: () => 100 * INTERVAL });
      await b.sync();
      await advance(0);
      script.j = { state: 'running', progress: 20 };
      await advance(INTERVAL);
      await b.sync();
      assert.ok(external >= 1, 'progress written by A is reported to B');
      script.j = { state: 'completed' };
      await advance(INTERVAL);
      await b.sync();
      const inB = finished.filter((f) => f.by === 'B');
      assert.equal(inB.length, 1);
      assert.equal(inB[0]!.notify, false);
      assert.equal(inB[0]!.observedHere, false);
      assert.equal(finished.filter((f) => f.notify).length, 1);
      assert.equal(source.callsFor('j').filter((c) => c.by === 'B').length, 1, 'B asked only once, at its start');
    });
  });
});

describe('backoffDelay', () => {
  it('doubles from the interval, caps, jitters within half, never below the interval', () => {
    assert.equal(backoffDelay(1, 1000, 1), 2000);
    assert.equal(backoffDelay(1, 1000, 0), 1000);
    assert.equal(backoffDelay(3, 1000, 1), 8000);
    assert.equal(backoffDelay(3, 1000, 0), 4000);
    assert.equal(backoffDelay(20, 1000, 1), 60_000);
    assert.equal(backoffDelay(20, 1000, 0), 30_000);
    assert.equal(backoffDelay(1, 120_000, 0), 120_000, 'an interval above the cap is kept');
  });
});
