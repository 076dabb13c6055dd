// A started job whose id cannot be read (issue 27, item 2; item 3: no journey hangs on one answer): the emulator
// answers a finetune's start with the job's ref beside a batch's (answerShapes.start 'two-ids'), so the client cannot
// tell them apart. The message says the job may have started and offers Choose How to Read…; the command offers the
// answer's fields, the person accepts the job's ref, and the job is followed to its end with nothing uploaded again.
// The next start is then read by the chosen place at once, and Show How the Service Is Read names it "as you chose it".
import * as assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { COMMANDS } from '../../src/contributions';
import type { FinetuneAnswers } from '../../src/features/finetune/finetuneCommand';
import type { JobRecord } from '../../src/jobs/jobRecord';
import { jobKey } from '../../src/jobs/jobRecord';
import { writePdf } from '../service/fixtures';
import { capturingQuickPicks, recordingMessages, waitFor } from './helpers';
import { useRig } from './rig';

const rig = useRig();
const START = '/cr/generate_questions';

/** Whether the emulator knows a finetuning job by this id (its status answer is a 200, not a 404). */
async function emulatorHasJob(id: string): Promise<boolean> {
  const res = await fetch(`${rig.emu.url}${START}_status?job_id=${encodeURIComponent(id)}`, { headers: { 'X-API-Key': 'demo-key' } });
  await res.arrayBuffer();
  return res.status === 200;
}

describe('Choose How to Read… a started job whose id cannot be read', () => {
  const followed: string[] = [];
  let folder: string | undefined;

  afterEach(async () => {
    rig.emu.configure({ answerShapes: {} });
    // The chosen place is kept for the emulator's origin, which the other tests share: it goes with the test.
    await rig.api.services.profiles.forgetAll();
    const scope = await rig.api.services.session.scope();
    if (scope) {
      await rig.api.services.jobs.remove(
        scope,
        followed.map((id) => jobKey({ kind: 'finetune', id })),
      );
    }
    followed.length = 0;
    if (folder) await fsp.rm(folder, { recursive: true, force: true });
    await rig.clearKey();
  });

  it('offers the choice, follows the job to its end without uploading again, and reads the next start by the place chosen', async function () {
    this.timeout(90_000);
    const workspace = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(workspace, 'no workspace folder');
    folder = await fsp.mkdtemp(path.join(workspace, 'suite-unreadable-start-'));
    const pdf = path.join(folder, 'notes.pdf');
    await writePdf(pdf, ['Returns are accepted within thirty days of delivery.']);
    await rig.useKey('demo-key');
    await rig.api.services.profiles.forgetAll();
    rig.emu.configure({ answerShapes: { start: 'two-ids' } });
    const baseModel = rig.emu.options.keys['demo-key']?.models[0];
    assert.ok(baseModel);
    const modelName = `suite-start-${Date.now().toString(36)}`;
    const answers: FinetuneAnswers = { baseModel, modelName, numQs: 3, mode: 'pretraining', useCase: '' };
    const uploads = () => rig.emu.received.filter((r) => r.method === 'POST' && r.path === START).length;
    const uploadsBefore = uploads();

    // The start: its answer cannot be read; the message says the job may have started and offers the choice.
    const { outcome, shown } = await recordingMessages(async (shown) => ({
      outcome: await rig.api.finetune({ files: [pdf], answers }),
      shown,
    }));
    assert.ok(outcome?.status === 'failed' && outcome.kind === 'contract', `outcome: ${JSON.stringify(outcome)}`);
    const message = shown.find((m) => m.severity === 'error');
    assert.ok(message, `messages: ${JSON.stringify(shown)}`);
    assert.match(message.text, /may have started/);
    assert.deepEqual(message.actions, ['Choose How to Read…', 'Show Log']);
    assert.equal(uploads(), uploadsBefore + 1);

    // The command offers the answer's fields, the job's ref first; accepting it follows the job.
    const job = await capturingQuickPicks(async (picks) => {
      // As the message's action runs it: the place waiting, never a path.
      const done = vscode.commands.executeCommand<JobRecord | undefined>(COMMANDS.chooseHowToRead, { place: 'startedJob' });
      const pick = await waitFor('the quick pick of the answer’s fields', () => picks.find((p) => p.items.length > 0));
      assert.deepEqual(
        pick.items.map((i) => i.label),
        ['result.job.ref', 'result.batch.ref'],
      );
      pick.activeItems = [pick.items[0]!];
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      return done;
    });
    assert.ok(job, 'a job is followed');
    followed.push(jobKey(job));
    assert.ok(await emulatorHasJob(job.id), `the emulator started ${job.id}`);
    assert.equal(job.modelName, modelName);
    assert.equal(job.baseModel, baseModel);
    assert.equal(job.files?.length, 1);
    assert.equal(path.basename(job.files?.[0] ?? ''), 'notes.pdf', 'the files as the start named them');
    assert.equal(job.lineage?.jobId, job.id);

    // Polled as any job, to its end; nothing was uploaded again.
    const scope = job.scope;
    const done = await waitFor(
      'the followed job to end',
      () => {
        const j = rig.api.services.jobs.get(scope, jobKey(job));
        if (j?.state === 'failed') throw new Error(`the job failed: ${j.error ?? ''}`);
        return j?.state === 'completed' ? j : undefined;
      },
      { timeoutMs: 30_000 },
    );
    assert.equal(done.id, job.id);
    assert.ok(rig.emu.madeModel(job.id), 'the emulator finished that job');
    assert.ok(rig.emu.received.some((r) => r.path.startsWith(`${START}_status?job_id=${encodeURIComponent(job.id)}`)));
    assert.equal(uploads(), uploadsBefore + 1, 'one upload');

    // Kept as chosen: named so, and the next start of a finetune is read by it at once.
    const profileText = await vscode.commands.executeCommand<string>(COMMANDS.showServiceProfile);
    assert.match(profileText, /Started finetuning job: the id at result\.job\.ref\n {2}\(as you chose it\)/);
    const again = await recordingMessages(() => rig.api.finetune({ files: [pdf], answers: { ...answers, modelName: `${modelName}-2` } }));
    assert.ok(again?.status === 'started', `second start: ${JSON.stringify(again)}`);
    followed.push(jobKey(again.job));
    assert.ok(await emulatorHasJob(again.job.id), 'the id read at the chosen place is the job');
    assert.equal(rig.api.services.profiles.profile((await rig.api.services.session.current()).origin!, 'startedJob')?.by, 'chosen');
  });

  it('an evaluation: the message’s Choose How to Read… follows it to its result', async function () {
    this.timeout(60_000);
    await rig.useKey('demo-key');
    await rig.api.services.profiles.forgetAll();
    rig.emu.configure({ answerShapes: { start: 'two-ids' } });
    const baseModel = rig.emu.options.keys['demo-key']?.models[0];
    assert.ok(baseModel);
    const starts = () => rig.emu.received.filter((r) => r.method === 'POST' && r.path === '/cr/finetune_model/evaluate_async').length;
    const before = starts();
    const scope = await rig.api.services.session.scope();
    assert.ok(scope);
    const earlier = new Set(rig.api.services.jobs.list(scope).map(jobKey));
    const { shown, labels } = await capturingQuickPicks((picks) =>
      recordingMessages(
        async (shown) => {
          const started = rig.api.evaluate(baseModel, 'demo-qa');
          const pick = await waitFor('the quick pick of the answer’s fields', () => picks.find((p) => p.items.length > 0));
          const labels = pick.items.map((i) => i.label);
          pick.activeItems = [pick.items[0]!];
          await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
          assert.equal(await started, undefined, 'the start itself reports no job');
          return { shown, labels };
        },
        { answer: (m) => (m.actions.includes('Choose How to Read…') ? 'Choose How to Read…' : undefined) },
      ),
    );
    assert.match(shown[0]?.text ?? '', /it may have started/);
    assert.deepEqual(labels, ['result.job.ref', 'result.batch.ref']);
    const job = await waitFor(
      'the evaluation to end with its result',
      () => {
        const j = rig.api.services.jobs.list(scope).find((r) => r.kind === 'evaluation' && !earlier.has(jobKey(r)));
        if (j?.state === 'failed') throw new Error(`the evaluation failed: ${j.error ?? ''}`);
        return j?.state === 'completed' ? j : undefined;
      },
      { timeoutMs: 30_000 },
    );
    followed.push(jobKey(job));
    assert.equal(job.modelName, baseModel);
    assert.equal(job.datasetName, 'demo-qa');
    assert.ok(job.result, 'its result is read');
    assert.equal(starts(), before + 1, 'started once');
  });

  it('says there is nothing to choose when no start waits to be read', async () => {
    await rig.useKey('demo-key');
    // None waits, whatever an earlier test of this window (a tool's, say) left.
    const scope = await rig.api.services.session.scope();
    assert.ok(scope);
    for (let start = rig.api.services.starts.latest(scope); start; start = rig.api.services.starts.latest(scope)) {
      rig.api.services.starts.forget(start);
    }
    const shown = await recordingMessages(async (shown) => {
      assert.equal(await vscode.commands.executeCommand(COMMANDS.chooseHowToRead, { place: 'startedJob' }), undefined);
      return shown;
    });
    assert.match(shown[0]?.text ?? '', /No started job waits to be read/);
  });
});
