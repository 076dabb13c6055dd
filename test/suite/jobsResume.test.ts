// Jobs outlive the extension instance: after a deactivate/activate in the same extension host (what a window reload
// does to the extension), the new instance finds the persisted job and polls it to completion.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { RecordedRequest } from '../service/emulator';
import { activateAgain, deactivate, modelNode, waitFor } from './helpers';
import { useRig } from './rig';
import { COMMANDS } from '../../src/contributions';

const rig = useRig();
const MODEL = 'oss-reasoner-70b';
const DATASET = 'arith-small';
/** Long enough that the job is still running when the first instance goes away. */
const SLOW_EVALUATION_MS = 4_000;

function statusRequestsFor(jobId: string, since = 0): RecordedRequest[] {
  return rig.emu.received.filter(
    (r) =>
      r.origin === 'api' &&
      r.path.startsWith('/cr/finetune_model/evaluate_status') &&
      r.path.includes(encodeURIComponent(jobId)) &&
      r.time >= since,
  );
}

describe('jobs across a restart', () => {
  afterEach(async () => {
    rig.emu.configure({ evaluationDurationMs: 500 });
    await rig.clearKey();
  });

  it('resumes polling a persisted job after deactivate/activate and completes it', async function () {
    this.timeout(45_000);
    rig.emu.configure({ evaluationDurationMs: SLOW_EVALUATION_MS });
    await rig.useKey('demo-key');
    const old = rig.api;
    const jobId = await rig.api.evaluate(MODEL, DATASET);
    assert.ok(jobId, 'the evaluate command returned no job id');

    // The first instance follows the job...
    await waitFor(`a status request for ${jobId} from the first instance`, () => (statusRequestsFor(jobId).length > 0 ? true : undefined), {
      timeoutMs: 5_000,
    });
    const scope = await old.services.session.scope();
    assert.ok(scope);
    assert.ok(
      ['queued', 'running'].includes(old.services.jobs.list(scope).find((j) => j.id === jobId)?.state ?? ''),
      'the job ended too early for this test',
    );

    // ...and goes away. The persisted record survives in globalState.
    const context = old.services.context;
    deactivate(context);
    const restarted = Date.now();

    const exports = activateAgain(rig.extension.extensionPath, context);
    // Nothing asks for the main module here (no view, no command): the running job alone must bring the poller back.
    await waitFor(
      `a status request for ${jobId} from the new instance, unprompted`,
      () => (statusRequestsFor(jobId, restarted).length > 0 ? true : undefined),
      {
        timeoutMs: 10_000,
      },
    );
    const api = await exports.main();
    rig.replaceApi(api);
    assert.notEqual(api, old);
    const persisted = api.services.jobs.list(scope).find((j) => j.id === jobId);
    assert.ok(persisted, 'the new instance does not see the persisted job');

    const done = await waitFor(
      `the new instance to complete ${jobId}`,
      () => {
        const j = api.services.jobs.list(scope).find((x) => x.id === jobId);
        if (j?.state === 'failed') throw new Error(`the job failed: ${j.error ?? '?'}`);
        return j?.state === 'completed' ? j : undefined;
      },
      {
        timeoutMs: SLOW_EVALUATION_MS + 15_000,
        intervalMs: 100,
        describe: () => api.services.jobs.list(scope).find((x) => x.id === jobId),
      },
    );
    assert.ok(done.result, 'completed without a result');
    assert.ok(statusRequestsFor(jobId, restarted).length > 0, 'no status request reached the emulator after the restart');

    // The new instance's view shows it too (its commands and views are the live ones now).
    const node = await waitFor(`the result on ${MODEL} in the new Models view`, async () => {
      const n = await modelNode(api, MODEL);
      return n?.latest?.id === jobId ? n : undefined;
    });
    assert.ok(node.latest?.result);
    const commands = await vscode.commands.getCommands(true);
    assert.ok(commands.includes(COMMANDS.evaluate), 'the new instance did not register its commands');
  });
});
