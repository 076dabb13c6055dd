// This window's running comparisons (comparisonRuns.ts), as the Jobs view, the status bar and an open report hear
// them: a run is listed while it runs with done/total, its listeners hear progress at most once per interval with the
// last reading always said, a Cancel ends it keeping every finished request, and a second run of it is refused.
// The words of its row (comparisonRowText.ts) and its time left are checked here too.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ComparisonLog, type ComparisonSpec } from '../../src/features/evaluate/compare/comparisonLog';
import { ComparisonRunningError } from '../../src/features/evaluate/compare/comparisonHold';
import { comparisonLeftMs, ComparisonRuns, type RunChange } from '../../src/features/evaluate/compare/comparisonRuns';
import {
  comparisonContextValue,
  comparisonRowDescription,
  comparisonRowState,
} from '../../src/features/evaluate/compare/comparisonRowText';

function spec(id: string, n: number): ComparisonSpec {
  return {
    id,
    setName: 'questions.jsonl',
    createdAt: 1,
    models: ['tuned', 'base'],
    scoring: 'normalized',
    knobs: { useRag: false, sequentialBudget: 8, parallelBudget: 1, temperature: 0 },
    items: Array.from({ length: n }, (_, i) => ({ question: `Q${i}?`, expected: `${i}`, line: i + 1 })),
  };
}

/** An inference whose answers the test lets through one by one (each waits until released or aborted). */
function gate() {
  const waiting: ((error?: Error) => void)[] = [];
  let sent = 0;
  return {
    get sent() {
      return sent;
    },
    get waiting() {
      return waiting.length;
    },
    release(n: number) {
      for (let i = 0; i < n; i++) waiting.shift()?.(undefined);
    },
    /** Lets the next `n` waiting requests fail with the service's words. */
    fail(n: number) {
      for (let i = 0; i < n; i++) waiting.shift()?.(new Error('The service refused this one.'));
    },
    infer: (_r: { modelName: string; prompt: string }, signal: AbortSignal) => {
      sent++;
      return new Promise<{ answer: string; reasoning: string }>((resolve, reject) => {
        waiting.push((error?: Error) => (error ? reject(error) : resolve({ answer: 'an answer', reasoning: '' })));
        signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
      });
    },
  };
}

async function until(what: string, holds: () => boolean): Promise<void> {
  for (let i = 0; i < 3_000 && !holds(); i++) await new Promise((r) => setTimeout(r, 5));
  assert.ok(holds(), what);
}

describe('compare: this window’s running comparisons', () => {
  let root: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'hr-runs-'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('lists a run with done/total while it runs; a Cancel ends it with every finished request kept; Resume sends only the rest', async () => {
    const runs = new ComparisonRuns(Date.now, 0);
    const heard: RunChange[] = [];
    const listening = runs.onDidChange((c) => heard.push({ run: c.run, ended: c.ended }));
    const log = ComparisonLog.create(root, spec('a', 5));
    const g = gate();
    const running = runs.run(log, { infer: g.infer, concurrency: 2 });
    for (let i = 0; i < 3; i++) {
      await until('a request waiting', () => g.waiting > 0);
      g.release(1);
    }
    await until('three done', () => runs.get(log.dir)?.done === 3);
    assert.equal(runs.get(log.dir)?.total, 10);
    assert.deepEqual(
      runs.running().map((r) => r.dir),
      [log.dir],
    );
    await assert.rejects(runs.run(log, { infer: g.infer }), (e) => e instanceof ComparisonRunningError && e.here);

    assert.equal(runs.cancel(log.dir), true);
    const result = await running;
    assert.equal(result.cancelled, true);
    assert.equal(log.entries().size, 3);
    assert.equal(runs.get(log.dir), undefined);
    assert.equal(runs.wasCancelled(log.dir), true);
    assert.equal(heard.at(-1)?.ended, true);
    assert.equal(heard.filter((h) => h.ended).length, 1);

    const again = gate();
    const resumed = runs.run(log, { infer: again.infer, concurrency: 2 });
    assert.equal(runs.wasCancelled(log.dir), false, 'a new run is not a cancelled one');
    for (let i = 0; i < 7; i++) {
      await until('a request waiting', () => again.waiting > 0);
      again.release(1);
    }
    assert.equal((await resumed).sent, 7);
    assert.equal(again.sent, 7);
    assert.equal(log.entries().size, 10);
    listening.dispose();
  });

  it('counts failed requests as they fail while it runs, those kept from before included unless sent again', async () => {
    const runs = new ComparisonRuns(Date.now, 0);
    const log = ComparisonLog.create(root, spec('f', 4));
    const g = gate();
    const running = runs.run(log, { infer: g.infer, concurrency: 1 });
    await until('a request waiting', () => g.waiting === 1);
    g.release(1);
    await until('one done', () => runs.get(log.dir)?.done === 1);
    assert.equal(runs.get(log.dir)?.failed, 0);
    for (let i = 1; i <= 2; i++) {
      await until('a request waiting', () => g.waiting === 1);
      g.fail(1);
      await until(`failure ${i} counted while it runs`, () => runs.get(log.dir)?.failed === i);
      assert.equal(runs.get(log.dir)?.done, 1 + i);
    }
    runs.cancel(log.dir);
    await running;

    // Resumed: the two kept failures are counted from the start (they stay failed), and a new one adds to them.
    const again = gate();
    const resumed = runs.run(log, { infer: again.infer, concurrency: 1 });
    await until('a request waiting', () => again.waiting === 1);
    assert.equal(runs.get(log.dir)?.failed, 2);
    again.fail(1);
    await until('the third failure counted', () => runs.get(log.dir)?.failed === 3);
    runs.cancel(log.dir);
    await resumed;

    // Retry Failed: the failures are being sent again, so none is counted until one fails again.
    const retry = gate();
    const retried = runs.run(log, { infer: retry.infer, concurrency: 1, retryFailed: true });
    await until('a request waiting', () => retry.waiting === 1);
    assert.equal(runs.get(log.dir)?.failed, 0);
    retry.fail(1);
    await until('the failure counted again', () => runs.get(log.dir)?.failed === 1);
    runs.cancel(log.dir);
    await retried;
  });

  it('says progress at most once per interval, the first reading and the last always', async () => {
    let now = 0;
    const runs = new ComparisonRuns(() => now, 1_000);
    const heard: number[] = [];
    runs.onDidChange((c) => heard.push(c.ended ? -1 : c.run.done));
    const log = ComparisonLog.create(root, spec('b', 4));
    const g = gate();
    const running = runs.run(log, { infer: g.infer, concurrency: 8 });
    await until('eight in flight', () => g.waiting === 8);
    // The start (0 of 0), then the first reading at once (0 of 8); the next ones within the second are held.
    assert.deepEqual(heard, [0, 0]);
    g.release(5);
    await until('five done', () => runs.get(log.dir)?.done === 5);
    assert.deepEqual(heard, [0, 0]);
    now = 1_000;
    await until('the held reading said', () => heard.length === 3);
    assert.deepEqual(heard, [0, 0, 5]);
    g.release(3);
    await running;
    assert.equal(heard.at(-1), -1, 'its end is heard at once');
  });

  it('an aborted outer signal (a notification’s or a tool’s cancel) stops the run as Cancel does', async () => {
    const runs = new ComparisonRuns(Date.now, 0);
    const log = ComparisonLog.create(root, spec('c', 3));
    const g = gate();
    const stop = new AbortController();
    const running = runs.run(log, { infer: g.infer, concurrency: 1, signal: stop.signal });
    await until('one in flight', () => g.waiting === 1);
    g.release(1);
    await until('one done', () => runs.get(log.dir)?.done === 1);
    stop.abort();
    assert.equal((await running).cancelled, true);
    assert.equal(log.entries().size, 1);
    assert.equal(runs.wasCancelled(log.dir), true);
  });

  it('time left: the rest at the run’s own rate, counting only what this run did', () => {
    assert.equal(comparisonLeftMs({ done: 0, total: 40, startedAt: 0, doneAtStart: 0 }, 10_000), undefined);
    assert.equal(comparisonLeftMs({ done: 10, total: 40, startedAt: 0, doneAtStart: 0 }, 10_000), 30_000);
    // Resumed at 20 of 40: 5 more in 10 s, 15 left.
    assert.equal(comparisonLeftMs({ done: 25, total: 40, startedAt: 0, doneAtStart: 20 }, 10_000), 30_000);
  });

  it('a row’s state and words: running, in another window, cancelled, interrupted, done', () => {
    const state = (p: Partial<Parameters<typeof comparisonRowState>[0]>) =>
      comparisonRowState({ runningHere: false, runningElsewhere: false, cancelledHere: false, missing: 0, ...p });
    assert.equal(state({ runningHere: true, missing: 3 }), 'running');
    assert.equal(state({ runningElsewhere: true, missing: 3 }), 'elsewhere');
    assert.equal(state({ cancelledHere: true, missing: 3 }), 'cancelled');
    assert.equal(state({ missing: 3 }), 'interrupted');
    assert.equal(state({}), 'done');
    assert.equal(comparisonRowDescription({ state: 'running', done: 6, total: 40, failed: 0 }), 'running · 6 of 40');
    assert.equal(
      comparisonRowDescription({ state: 'running', done: 6, total: 40, failed: 0, leftMs: 90_000 }),
      'running · 6 of 40 · about 2 min left',
    );
    assert.equal(
      comparisonRowDescription({ state: 'running', done: 12, total: 40, failed: 2, leftMs: 60_000 }),
      'running · 12 of 40 · 2 failed · about 1 min left',
    );
    assert.equal(comparisonRowDescription({ state: 'running', done: 12, total: 40, failed: 1 }), 'running · 12 of 40 · 1 failed');
    assert.equal(comparisonRowDescription({ state: 'elsewhere', done: 6, total: 40, failed: 0 }), 'running in another window · 6 of 40');
    assert.equal(
      comparisonRowDescription({ state: 'interrupted', done: 6, total: 40, failed: 1 }),
      'interrupted · 6 of 40 done, 34 missing, 1 failed',
    );
    assert.equal(comparisonRowDescription({ state: 'done', done: 40, total: 40, failed: 2 }), 'done · 40 requests, 2 failed');
    assert.equal(comparisonContextValue({ state: 'running', done: 6, total: 40, failed: 1 }), 'comparison running');
    assert.equal(comparisonContextValue({ state: 'cancelled', done: 6, total: 40, failed: 1 }), 'comparison cancelled idle missing failed');
    assert.equal(comparisonContextValue({ state: 'done', done: 40, total: 40, failed: 0 }), 'comparison done idle');
  });
});
