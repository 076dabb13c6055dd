// The "Evaluating…" status bar message lasts as long as its job, at most a few seconds: it goes when the job ends,
// when it is removed, or at the bound, and stops listening to the store then.
import { strict as assert } from 'node:assert';
import * as FakeTimers from '@sinonjs/fake-timers';
import type { JobState } from '../../src/api/types';
import type { JobRecord } from '../../src/jobs/jobRecord';
import { untilJobEnds } from '../../src/jobs/untilJobEnds';

/** A job store of one job, with the store's change event. */
function watched(state: JobState | undefined) {
  const listeners = new Set<() => void>();
  let record: JobRecord | undefined =
    state === undefined ? undefined : { id: 'e1', kind: 'evaluation', scope: 's', state, createdAt: 0, updatedAt: 0, modelName: 'm' };
  return {
    listeners,
    set(next: JobState | undefined): void {
      record = next === undefined || record === undefined ? undefined : { ...record, state: next };
      for (const listener of [...listeners]) listener();
    },
    job: {
      onDidChange: (listener: () => void) => {
        listeners.add(listener);
        return { dispose: () => listeners.delete(listener) };
      },
      current: () => record,
    },
  };
}

describe('untilJobEnds (how long "Evaluating…" stays)', () => {
  let clock: ReturnType<typeof FakeTimers.install>;
  beforeEach(() => (clock = FakeTimers.install({ toFake: ['setTimeout', 'clearTimeout'] })));
  afterEach(() => clock.uninstall());

  /** Whether `p` has settled once pending callbacks ran. */
  async function settled(p: Promise<void>): Promise<boolean> {
    let done = false;
    void p.then(() => (done = true));
    await clock.tickAsync(0);
    return done;
  }

  it('stays while the job is queued or running, and goes as soon as it completes', async () => {
    const w = watched('queued');
    const until = untilJobEnds(w.job, 5_000);
    w.set('running');
    await clock.tickAsync(1_000);
    assert.equal(await settled(until), false, 'still running');
    w.set('completed');
    assert.equal(await settled(until), true);
    assert.equal(w.listeners.size, 0, 'stopped listening');
  });

  it('goes when the job fails, is cancelled or is removed', async () => {
    for (const end of ['failed', 'cancelled', undefined] as const) {
      const w = watched('running');
      const until = untilJobEnds(w.job, 5_000);
      w.set(end);
      assert.equal(await settled(until), true, `after ${String(end)}`);
      assert.equal(w.listeners.size, 0);
    }
  });

  it('goes at the bound while a long job still runs (the jobs item follows it from then)', async () => {
    const w = watched('running');
    const until = untilJobEnds(w.job, 5_000);
    await clock.tickAsync(4_999);
    assert.equal(await settled(until), false);
    await clock.tickAsync(1);
    assert.equal(await settled(until), true);
    assert.equal(w.listeners.size, 0, 'stopped listening');
  });

  it('is over at once for a job that already ended or is not stored', async () => {
    assert.equal(await settled(untilJobEnds(watched('completed').job, 5_000)), true);
    assert.equal(await settled(untilJobEnds(watched(undefined).job, 5_000)), true);
  });

  it('an unknown state counts as still running (the service may finish it later)', async () => {
    const w = watched('running');
    const until = untilJobEnds(w.job, 5_000);
    w.set('unknown');
    assert.equal(await settled(until), false);
    w.set('completed');
    assert.equal(await settled(until), true);
  });
});
