// The job store against globalState as VS Code's extension host keeps it (extHostMemento.ts, extHostStorage.ts):
// `update` changes the window's copy at once and flushes the whole copy on the next tick; the workbench stores it and
// echoes it back, which replaces the window's copy, before it answers. An echo of an earlier flush that lands between
// a write and its own flush puts the older list back; three evaluations started at once lost one that way in CI.
import * as assert from 'node:assert/strict';
import type { StoredState } from '../../src/globalStateEdit';
import { JobStore } from '../../src/jobs/jobStore';
import { jobKey, type JobRecord } from '../../src/jobs/jobRecord';
import { JOBS_KEY_PREFIX } from '../../src/storageKeys';

const SCOPE = 'http://127.0.0.1:1#echo';

class EchoingMemento implements StoredState {
  private copy: Record<string, unknown> = {};
  private waiting: Array<() => void> = [];
  private flushScheduled = false;

  constructor(private readonly echoDelayMs: number) {}

  get<T>(key: string): T | undefined {
    return this.copy[key] as T | undefined;
  }

  update(key: string, value: unknown): Promise<void> {
    this.copy[key] = JSON.parse(JSON.stringify(value)) as unknown;
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      if (this.flushScheduled) return;
      this.flushScheduled = true;
      setTimeout(() => this.flush(), 0);
    });
  }

  private flush(): void {
    this.flushScheduled = false;
    const sent = JSON.stringify(this.copy);
    const answered = this.waiting.splice(0);
    setTimeout(() => {
      this.copy = JSON.parse(sent) as Record<string, unknown>;
      for (const resolve of answered) resolve();
    }, this.echoDelayMs);
  }
}

function evaluation(n: number): JobRecord {
  return {
    id: `job-${n}`,
    kind: 'evaluation',
    scope: SCOPE,
    state: 'queued',
    createdAt: 1_000 + n,
    updatedAt: 1_000 + n,
    modelName: 'm',
    datasetName: `set-${n}`,
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('job store', () => {
  it('keeps every job started at once and every poll update, though VS Code echoes each flushed write back', async function () {
    this.timeout(20_000);
    const memento = new EchoingMemento(4);
    const logged: string[] = [];
    const store = new JobStore(memento, (m) => logged.push(m));
    try {
      // As "Add a model" does: jobs put a few milliseconds apart, each followed by the poller's update.
      const jobs = Array.from({ length: 12 }, (_, n) => evaluation(n));
      await Promise.all(
        jobs.map(async (job, n) => {
          await pause(n * 2);
          await store.put(job);
          await store.update(SCOPE, jobKey(job), { state: 'running' });
        }),
      );
      await pause(20);
      const stored = store.list(SCOPE);
      assert.deepEqual(stored.map((j) => j.id).sort(), jobs.map((j) => j.id).sort());
      assert.ok(
        stored.every((j) => j.state === 'running'),
        JSON.stringify(stored.map((j) => [j.id, j.state])),
      );
      // What the workbench keeps, too: a reload reads the same list.
      const reloaded = new JobStore(memento);
      assert.equal(reloaded.list(SCOPE).length, jobs.length);
      reloaded.dispose();
    } finally {
      store.dispose();
    }
  });

  it('makes a removal on the list another window wrote meanwhile, without putting back what it removed', async () => {
    const memento = new EchoingMemento(2);
    const store = new JobStore(memento);
    try {
      await store.put(evaluation(1));
      await store.put(evaluation(2));
      // Another window adds a job: its write reaches this window's copy as an echo does.
      await memento.update(JOBS_KEY_PREFIX + SCOPE, [evaluation(3), ...(memento.get<JobRecord[]>(JOBS_KEY_PREFIX + SCOPE) ?? [])]);
      await store.remove(SCOPE, [jobKey(evaluation(1))]);
      assert.deepEqual(
        store.list(SCOPE).map((j) => j.id),
        ['job-3', 'job-2'],
      );
    } finally {
      store.dispose();
    }
  });
});
