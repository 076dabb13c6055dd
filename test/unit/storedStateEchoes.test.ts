// The stores that read-modify-write globalState keep every change when VS Code echoes a flush back over a newer write
// (one window writing two keys close together: a preset saved while the poller writes the job list) and when two
// windows write the same list, one before the other's write has reached it (echoingState.ts models both). Each store
// goes through globalStateEdit.ts: a change that did not stick is read back and made again on what is there.
import { strict as assert } from 'node:assert';
import { rememberDataset } from '../../src/features/evaluate/recentDatasets';
import { readRecentDatasets, recentDatasetsKey } from '../../src/features/evaluate/datasetItems';
import { pendingDownloads, setPending, type PendingDownload } from '../../src/features/download/pendingDownloads';
import { deletePreset, PRESETS_KEY, readPresets, savePreset } from '../../src/features/playground/host/presetList';
import type { Preset } from '../../src/features/playground/protocol';
import { JOBS_KEY_PREFIX } from '../../src/storageKeys';
import { EchoingWorkbench, servicesOver, type WindowState } from './echoingState';

const SCOPE = 'http://127.0.0.1:1#0123456789abcdef';

const preset = (name: string): Preset => ({
  name,
  settings: { temperature: 0.5, useRag: false, sequentialBudget: 8, parallelBudget: 1, stream: true },
});

const download = (modelName: string): PendingDownload => ({ modelName, directory: '/tmp/hr-downloads', scope: SCOPE });

/**
 * Starts `first`, and `second` once the first write's flush is on its way to the workbench (written, not yet echoed):
 * the moment an echo of the first lands over the second.
 */
async function overlapping(workbench: EchoingWorkbench, first: () => Promise<unknown>, second: () => Promise<unknown>): Promise<void> {
  const one = first();
  await workbench.flushInFlight();
  await Promise.all([one, second()]);
}

/** As the poller does: the job list of a scope written (another key of the same state). */
const pollerWrites = (state: WindowState) => () => state.update(JOBS_KEY_PREFIX + SCOPE, [{ id: 'job-1' }]);

describe('globalState read-modify-write: every change kept through echoes and a second window', () => {
  describe('playground presets', () => {
    it('keeps a preset saved while the job list is being written (an echo of that write lands over it)', async () => {
      const workbench = new EchoingWorkbench();
      const state = workbench.window();
      await overlapping(workbench, pollerWrites(state), () => savePreset(state, preset('fast')));
      assert.deepEqual(
        readPresets(state).map((p) => p.name),
        ['fast'],
      );
      assert.deepEqual(
        (workbench.stored[PRESETS_KEY] as Preset[]).map((p) => p.name),
        ['fast'],
        'what a reload reads',
      );
      assert.ok(workbench.stored[JOBS_KEY_PREFIX + SCOPE], 'the job list was lost instead');
    });

    it('keeps a preset deleted while the job list is being written (the echo does not bring it back)', async () => {
      const workbench = new EchoingWorkbench();
      const state = workbench.window();
      await savePreset(state, preset('old'));
      await savePreset(state, preset('kept'));
      await overlapping(workbench, pollerWrites(state), () => deletePreset(state, 'old'));
      assert.deepEqual(
        (workbench.stored[PRESETS_KEY] as Preset[]).map((p) => p.name),
        ['kept'],
      );
    });

    it('keeps both presets when two windows save one each', async () => {
      const workbench = new EchoingWorkbench();
      const [one, two] = [workbench.window(), workbench.window()];
      await overlapping(
        workbench,
        () => savePreset(one, preset('from one')),
        () => savePreset(two, preset('from two')),
      );
      for (const state of [one, two]) {
        assert.deepEqual(
          readPresets(state).map((p) => p.name),
          ['from one', 'from two'],
        );
      }
      assert.deepEqual(
        (workbench.stored[PRESETS_KEY] as Preset[]).map((p) => p.name),
        ['from one', 'from two'],
      );
    });
  });

  describe('playground presets that do not stick', () => {
    it('says a preset was not saved when another window kept writing the list over it', async () => {
      // Another window that always writes last: every read finds its list, whatever this window wrote.
      const theirs = [preset('theirs')];
      const state = { get: <T>() => theirs as T, update: () => Promise.resolve() };
      const result = await savePreset(state, preset('ours'));
      assert.equal(result.saved, false);
      assert.match(result.saved ? '' : result.reason, /could not be stored/);
    });
  });

  describe('pending downloads', () => {
    it('keeps both downloads when two windows record one each', async () => {
      const workbench = new EchoingWorkbench();
      const [one, two] = [workbench.window(), workbench.window()];
      await overlapping(
        workbench,
        () => setPending(servicesOver(one), download('model-a'), true),
        () => setPending(servicesOver(two), download('model-b'), true),
      );
      for (const state of [one, two]) {
        assert.deepEqual(
          pendingDownloads(servicesOver(state))
            .map((d) => d.modelName)
            .sort(),
          ['model-a', 'model-b'],
        );
      }
    });

    it('keeps a download recorded while the job list is being written, and forgets one forgotten meanwhile', async () => {
      const workbench = new EchoingWorkbench();
      const state = workbench.window();
      await setPending(servicesOver(state), download('finished'), true);
      await overlapping(workbench, pollerWrites(state), () => setPending(servicesOver(state), download('started'), true));
      await overlapping(workbench, pollerWrites(state), () => setPending(servicesOver(state), download('finished'), false));
      assert.deepEqual(
        pendingDownloads(servicesOver(state)).map((d) => d.modelName),
        ['started'],
      );
      assert.deepEqual(
        (workbench.stored['hostedReasoning.pendingDownloads'] as PendingDownload[]).map((d) => d.modelName),
        ['started'],
      );
    });
  });

  describe('recent datasets', () => {
    it('keeps both datasets when two windows each start an evaluation on one', async () => {
      const workbench = new EchoingWorkbench();
      const [one, two] = [workbench.window(), workbench.window()];
      await overlapping(
        workbench,
        () => rememberDataset(one, SCOPE, 'squad'),
        () => rememberDataset(two, SCOPE, 'trivia'),
      );
      for (const state of [one, two]) {
        assert.deepEqual(readRecentDatasets(state.get(recentDatasetsKey(SCOPE))).sort(), ['squad', 'trivia']);
      }
    });

    it('keeps a dataset chosen while the job list is being written (the evaluation it starts is written then)', async () => {
      const workbench = new EchoingWorkbench();
      const state = workbench.window();
      await overlapping(workbench, pollerWrites(state), () => rememberDataset(state, SCOPE, 'squad'));
      assert.deepEqual(readRecentDatasets(workbench.stored[recentDatasetsKey(SCOPE)]), ['squad']);
    });
  });
});
