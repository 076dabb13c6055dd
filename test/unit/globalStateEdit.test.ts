// The echo-safe read-modify-write every store of globalState uses (src/globalStateEdit.ts), against globalState as
// VS Code keeps it (echoingState.ts). The stores themselves: storedStateEchoes.test.ts and test/suite/jobStore.test.ts.
import { strict as assert } from 'node:assert';
import { editGlobalState, UNCHANGED, type StoredState } from '../../src/globalStateEdit';
import { EchoingWorkbench } from './echoingState';

const count = (stored: unknown) => (typeof stored === 'number' ? stored : 0) + 1;

describe('globalStateEdit: read-modify-write that keeps its change', () => {
  it('makes a change an echo undid again, on what is stored then, and keeps the write the echo carried', async () => {
    const workbench = new EchoingWorkbench();
    const state = workbench.window();
    const other = state.update('other', 'written first');
    await workbench.flushInFlight();
    const seen: unknown[] = [];
    const kept = await editGlobalState(state, 'counter', (stored) => {
      seen.push(stored);
      return count(stored);
    });
    await other;
    assert.equal(kept, true);
    assert.deepEqual(seen, [undefined, undefined], 'the edit ran once, then again after the echo took its change away');
    assert.deepEqual(workbench.stored, { other: 'written first', counter: 1 });
    assert.equal(state.get('counter'), 1);
  });

  it('keeps every entry of two windows that each add one while the other’s flush is on its way', async () => {
    const workbench = new EchoingWorkbench();
    const [one, two] = [workbench.window(), workbench.window()];
    const add = (entry: string) => (stored: unknown) => [...(Array.isArray(stored) ? (stored as string[]) : []), entry];
    const expected: string[] = [];
    for (let i = 0; i < 5; i++) {
      const first = editGlobalState(one, 'list', add(`one-${i}`));
      await workbench.flushInFlight();
      await Promise.all([first, editGlobalState(two, 'list', add(`two-${i}`))]);
      expected.push(`one-${i}`, `two-${i}`);
    }
    assert.deepEqual(workbench.stored.list, expected);
    assert.deepEqual(one.get('list'), expected);
    assert.deepEqual(two.get('list'), expected);
  });

  // How the API key index can lose an entry (seen once in the in-editor suite): the job list written twice (one key, two
  // edits one after the other) and the index once while the job list's first flush was on its way. That flush's echo
  // took the index entry out of the window's copy; the job list's second flush left before the index's own echo was
  // back, so it carried the copy without the entry; the index was read back between the two echoes (it held), and the
  // second flush then stored the copy without it.
  for (const turnsEachWay of [1, 2, 3, 5]) {
    it(`keeps a change of one key made while another key's flushes cross it (trips of ${turnsEachWay} turns each way)`, async () => {
      const workbench = new EchoingWorkbench({ turnsEachWay });
      const state = workbench.window();
      const add = (entry: string) => (stored: unknown) => [...(Array.isArray(stored) ? (stored as string[]) : []), entry];
      const jobs = [editGlobalState(state, 'jobs', add('job-1')), editGlobalState(state, 'jobs', add('job-2'))];
      await workbench.flushInFlight();
      const index = editGlobalState(state, 'index', add('https://b.example'));
      assert.deepEqual(await Promise.all([...jobs, index]), [true, true, true]);
      await workbench.settled();
      assert.deepEqual(workbench.stored, { jobs: ['job-1', 'job-2'], index: ['https://b.example'] }, 'what a reload reads');
      assert.deepEqual(state.get('index'), ['https://b.example']);
    });
  }

  it('runs one window’s edits of a key one after another, each on what the one before left', async () => {
    const workbench = new EchoingWorkbench();
    const state = workbench.window();
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        editGlobalState(state, 'list', (stored) => {
          order.push(i);
          return [...(Array.isArray(stored) ? (stored as number[]) : []), i];
        }),
      ),
    );
    assert.deepEqual(workbench.stored.list, [0, 1, 2, 3, 4, 5]);
    assert.deepEqual(order, [0, 1, 2, 3, 4, 5], 'an edit ran before the one before it had been read back');
  });

  it('removes the key when the edit gives undefined, and the removal survives an echo', async () => {
    const workbench = new EchoingWorkbench();
    const state = workbench.window();
    await state.update('gone', ['a']);
    const other = state.update('other', 1);
    await workbench.flushInFlight();
    assert.equal(await editGlobalState(state, 'gone', () => undefined), true);
    await other;
    assert.equal(state.get('gone'), undefined);
    assert.ok(!('gone' in workbench.stored), JSON.stringify(workbench.stored));
  });

  it('writes nothing when the edit leaves the value as it is (UNCHANGED, or an equal value)', async () => {
    const workbench = new EchoingWorkbench();
    const state = workbench.window();
    await state.update('list', ['a', 'b']);
    const before = state.updates;
    assert.equal(await editGlobalState(state, 'list', () => UNCHANGED), true);
    assert.equal(await editGlobalState(state, 'list', (stored) => [...(stored as string[])]), true);
    assert.equal(state.updates, before);
  });

  it('gives up after three writes that do not stick, says so in the log by name (never the value), and resolves false', async () => {
    let writes = 0;
    // Another window that always writes last.
    const state: StoredState = {
      get: <T>() => 'theirs' as T,
      update: () => {
        writes++;
        return Promise.resolve();
      },
    };
    const logged: string[] = [];
    const kept = await editGlobalState(state, 'hostedReasoning.secretish', () => 'ours', { log: (m) => logged.push(m), what: 'The list' });
    assert.equal(kept, false);
    assert.equal(writes, 3);
    assert.deepEqual(logged, ['The list did not keep a change after 3 writes (another window kept writing it).']);
  });

  it('an edit that throws rejects that change only; the next change of the key runs', async () => {
    const workbench = new EchoingWorkbench();
    const state = workbench.window();
    const failing = editGlobalState(state, 'k', () => {
      throw new Error('bad edit');
    });
    const next = editGlobalState(state, 'k', () => 'fine');
    await assert.rejects(failing, /bad edit/);
    assert.equal(await next, true);
    assert.equal(workbench.stored.k, 'fine');
  });
});
