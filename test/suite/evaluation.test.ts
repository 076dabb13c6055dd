// An evaluation started from the command ends as the model's description in the Models view and as a completed job
// (with the judge model) in the job store, the poller carrying it from "queued" to "completed".
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { COMMANDS } from '../../src/contributions';
import { JUDGE_MODEL } from '../service/emulator';
import { scoreFor } from '../service/evaluation';
import { recentDatasetsKey } from '../../src/features/evaluate/datasetItems';
import { isActive } from '../../src/jobs/jobRecord';
import { capturingQuickPicks, modelNode, waitFor } from './helpers';
import { EMULATOR_SETTINGS, useRig } from './rig';

const rig = useRig();
const MODEL = 'oss-reasoner-8b';
const DATASET = 'demo-qa';

describe('evaluation', () => {
  afterEach(async () => {
    rig.emu.configure({ evaluationDurationMs: EMULATOR_SETTINGS.evaluationDurationMs });
    await rig.clearKey();
  });

  it('shows the finished evaluation’s accuracy on the model and keeps the completed job', async function () {
    this.timeout(30_000);
    await rig.useKey('demo-key');
    const dataset = rig.emu.options.datasets[DATASET];
    assert.ok(dataset, `the emulator has no dataset ${DATASET}`);
    assert.ok(rig.emu.options.keys['demo-key']?.models.includes(MODEL), `${MODEL} is not a base model of demo-key`);
    // The emulator's own scoring (deterministic per model and dataset): what the view must show.
    const correct = scoreFor(MODEL, false, DATASET, dataset);
    const total = dataset.total;
    const expected = `${((correct / total) * 100).toFixed(1)}% (${correct}/${total})`;

    const jobId = await rig.api.evaluate(MODEL, DATASET);
    assert.ok(jobId, 'the evaluate command returned no job id');

    const node = await waitFor(
      `the Models view to show the result of evaluation ${jobId}`,
      async () => {
        const n = await modelNode(rig.api, MODEL);
        return n?.latest?.id === jobId && n.latest.result ? n : undefined;
      },
      {
        timeoutMs: 20_000,
        intervalMs: 100,
        describe: async () => {
          const scope = await rig.api.services.session.scope();
          return scope ? rig.api.services.jobs.list(scope).find((j) => j.id === jobId) : 'no scope';
        },
      },
    );
    const item = rig.api.models.getTreeItem(node);
    assert.match(String(item.description), /^\d{1,3}\.\d% \(\d+\/\d+\)$/);
    assert.equal(item.description, expected);

    const scope = await rig.api.services.session.scope();
    assert.ok(scope);
    const job = rig.api.services.jobs.list(scope).find((j) => j.id === jobId);
    assert.ok(job, 'the job store lost the evaluation');
    assert.equal(job.kind, 'evaluation');
    assert.equal(job.state, 'completed');
    assert.equal(job.modelName, MODEL);
    assert.equal(job.datasetName, DATASET);
    assert.ok(job.result);
    assert.equal(job.result.judgeModel, JUDGE_MODEL);
    assert.equal(job.result.correct, correct);
    assert.equal(job.result.total, total);
    assert.ok(Math.abs(job.result.accuracy - correct / total) < 1e-9, `accuracy ${job.result.accuracy}`);
  });

  it('says "Evaluating…" in the status bar until the evaluation ends, not for a fixed time', async function () {
    this.timeout(30_000);
    // Long enough to see the message while the job runs; shorter than the message's longest stay (5 s), so its end,
    // not that limit, takes it away.
    rig.emu.configure({ evaluationDurationMs: 3000 });
    await rig.useKey('demo-key');
    // The extension host hands the extension and its tests the same `vscode` API object: its calls land here.
    const window = vscode.window as unknown as { setStatusBarMessage: (text: string, hide?: unknown) => vscode.Disposable };
    const original = window.setStatusBarMessage;
    const shown: { text: string; hide: unknown; gone: boolean }[] = [];
    window.setStatusBarMessage = (text: string, hide?: unknown) => {
      const message = { text, hide, gone: false };
      shown.push(message);
      if (hide && typeof (hide as Thenable<unknown>).then === 'function') {
        (hide as Thenable<unknown>).then(
          () => (message.gone = true),
          () => (message.gone = true),
        );
      }
      return new vscode.Disposable(() => (message.gone = true));
    };
    let jobId: string | undefined;
    try {
      jobId = await rig.api.evaluate(MODEL, DATASET);
    } finally {
      window.setStatusBarMessage = original;
    }
    assert.ok(jobId);
    const message = shown.find((m) => m.text.includes(`Evaluating ${MODEL} on ${DATASET}`));
    assert.ok(message, `no "Evaluating…" message: ${JSON.stringify(shown.map((m) => m.text))}`);
    // A fixed time said "Evaluating…" beside a job that had already finished (a quick one), and hid it while a long
    // one still ran: the message goes with the job.
    assert.notEqual(typeof message.hide, 'number', 'the message is hidden after a fixed time, whatever the job does');
    const scope = await rig.api.services.session.scope();
    assert.ok(scope);
    const { jobs } = rig.api.services;
    const current = () => jobs.get(scope, `evaluation:${jobId}`);
    // While the job runs the message stays (a message tied to the wrong job, or to none, went at once).
    await new Promise((r) => setTimeout(r, 0));
    const running = current();
    assert.ok(running && isActive(running), `the evaluation is not running right after it started: ${running?.state}`);
    assert.equal(message.gone, false, 'the message went while the evaluation was still running');
    // The moment the store records the end, the message goes with it (a fixed time would still be showing it).
    let goneAtEnd: boolean | undefined;
    const listener = jobs.onDidChange(() => {
      const record = current();
      if (goneAtEnd === undefined && record && !isActive(record)) setTimeout(() => (goneAtEnd ??= message.gone), 0);
    });
    try {
      await waitFor(`evaluation ${jobId} to complete`, () => goneAtEnd !== undefined || undefined, { timeoutMs: 20_000, intervalMs: 50 });
    } finally {
      listener.dispose();
    }
    assert.equal(current()?.state, 'completed');
    assert.equal(goneAtEnd, true, 'the message stayed after the evaluation ended');
  });

  it('offers a dataset evaluated before in the dataset picker, with its last result beside it', async function () {
    this.timeout(30_000);
    await rig.useKey('demo-key');
    const dataset = rig.emu.options.datasets[DATASET];
    assert.ok(dataset);
    const correct = scoreFor(MODEL, false, DATASET, dataset);
    const jobId = await rig.api.evaluate(MODEL, DATASET);
    assert.ok(jobId);
    const scope = await rig.api.services.session.scope();
    assert.ok(scope);
    await waitFor(`evaluation ${jobId} to complete`, () => rig.api.services.jobs.get(scope, `evaluation:${jobId}`)?.result, {
      timeoutMs: 20_000,
      intervalMs: 100,
    });

    await capturingQuickPicks(async (picks) => {
      const done = vscode.commands.executeCommand(COMMANDS.evaluate, { modelName: MODEL });
      const pick = await waitFor('the dataset picker', () => picks.find((p) => /dataset/i.test(p.title ?? '')));
      const item = pick.items.find((i) => i.label === DATASET);
      assert.ok(item, `${DATASET} is not offered: ${JSON.stringify(pick.items)}`);
      const result = `${((correct / dataset.total) * 100).toFixed(1)}% (${correct}/${dataset.total})`;
      assert.ok(item.description?.startsWith(`${result} · ${MODEL} · `), `the description is ${String(item.description)}`);
      assert.match(item.description ?? '', / · (just now|\d+ (min|h|d) ago)$/);
      pick.hide();
      assert.equal(await done, undefined);
    });
  });
  it('offers a dataset chosen lately only with the service and key it was chosen with', async function () {
    this.timeout(40_000);
    const only = `recent-demo-${Date.now().toString(36)}`;
    rig.emu.configure({ datasets: { ...rig.emu.options.datasets, [only]: { total: 10 } } });
    await rig.useKey('demo-key');
    const demoScope = await rig.api.services.session.scope();
    assert.ok(demoScope);
    const jobId = await rig.api.evaluate(MODEL, only);
    assert.ok(jobId);
    await waitFor(`evaluation ${jobId} to complete`, () => rig.api.services.jobs.get(demoScope, `evaluation:${jobId}`)?.result, {
      timeoutMs: 20_000,
      intervalMs: 100,
    });
    const offered = () =>
      capturingQuickPicks(async (picks) => {
        const done = vscode.commands.executeCommand(COMMANDS.evaluate, { modelName: MODEL });
        const pick = await waitFor('the dataset picker', () => picks.find((p) => /dataset/i.test(p.title ?? '')));
        const items = pick.items.map((i) => i.label);
        pick.hide();
        assert.equal(await done, undefined);
        return items;
      });
    assert.ok((await offered()).includes(only), 'not offered with the key it was chosen with');

    await rig.useKey('other-key');
    const otherScope = await rig.api.services.session.scope();
    assert.ok(otherScope && otherScope !== demoScope);
    const items = await offered();
    assert.ok(!items.includes(only), `offered with another key: ${JSON.stringify(items)}`);
    const state = rig.api.services.context.globalState;
    assert.equal(state.get<string[]>(recentDatasetsKey(demoScope))?.[0], only);
    assert.ok(!(state.get<string[]>(recentDatasetsKey(otherScope)) ?? []).includes(only));
    assert.equal(state.get('hostedReasoning.recentDatasets'), undefined, 'the list shared by every service is gone');
  });
});
