// The four journeys through the extension's commands in a real VS Code, against the emulator in each whole-service
// style (option `shape`, issue 27): key and models (Models view), playground (a run through the panel), finetune
// (two PDFs, the poller to the end, the made model listed), evaluate and download. Each style gets an emulator of its
// own (its own origin, so its own service profile and stored key); the rig's emulator is left as it was.
//
// Cases marked `it.skip` fail against today's readers (the reason is in the comment beside each); they are un-skipped
// once the rewritten readers are merged. No assertion is loosened to make a case pass.
import * as assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { COMMANDS } from '../../src/contributions';
import type { FinetuneAnswers } from '../../src/features/finetune/finetuneCommand';
import type { PlaygroundPanel } from '../../src/features/playground/host/playgroundPanel';
import { DEFAULT_DATASETS, JUDGE_MODEL, startEmulator, type Emulator } from '../service/emulator';
import { scoreFor } from '../service/evaluation';
import { writePdf } from '../service/fixtures';
import { composeAnswer, composeReasoning } from '../service/inference';
import type { ServiceShape } from '../service/styles';
import { modelsView, recordingMessages, waitFor, whenPanelReady } from './helpers';
import { modelTooltip } from '../../src/features/models/modelsTree';
import { chunks, record, runSettings, waitForEnd } from './playgroundMessages';
import { EMULATOR_SETTINGS, useRig } from './rig';

const rig = useRig();
const BASE = 'oss-reasoner-8b';
const OTHER = 'oss-reasoner-70b';
const DATASET = 'demo-qa';
const KEY = 'styles-key';

type Styled = Exclude<ServiceShape, 'default'>;

/** How each style names things, and the framing its key streams in (its native one). */
const STYLE: Record<Styled, { baseName: (n: string) => string; seeded: string; framing: 'sse' | 'ndjson' | 'text' }> = {
  'openai-like': { baseName: (n) => n, seeded: `ft:${BASE}:seeded:0a1b2c3d`, framing: 'sse' },
  'google-like': { baseName: (n) => `models/${n}`, seeded: 'tunedModels/seeded-0a1b2', framing: 'text' },
  'nested-phase': { baseName: (n) => n, seeded: 'seeded.v1', framing: 'sse' },
};

/** Cases known to fail on main at this commit (style -> case -> the commit); the reason is the comment beside each. */
const FAILS_ON_MAIN = 'd57534b';
const KNOWN_FAILURES: Partial<Record<Styled, Record<string, string>>> = {};

for (const shape of Object.keys(STYLE) as Styled[]) {
  describe(`whole-service style ${shape}: the four journeys in the editor`, function () {
    this.timeout(40_000);
    const style = STYLE[shape];
    const base = style.baseName(BASE);
    const known = KNOWN_FAILURES[shape] ?? {};
    const test = (name: string, fn: () => Promise<void>) =>
      known[name] ? it.skip(`${name} [fails on main at ${FAILS_ON_MAIN}]`, fn) : it(name, fn);
    let emu: Emulator;
    let folder: string | undefined;

    before(async function () {
      this.timeout(30_000);
      emu = await startEmulator({ ...EMULATOR_SETTINGS, shape, reasoning: 'field' });
      emu.setKey(KEY, { models: [BASE, OTHER], framing: style.framing });
      await emu.addCustomModel(KEY, style.seeded, { baseModel: BASE });
      await rig.clearKey();
      await rig.setSetting('baseUrl', emu.url);
    });
    afterEach(async () => {
      for (const panel of rig.api.playground.panels) panel.dispose();
      if (folder) await fsp.rm(folder, { recursive: true, force: true });
      folder = undefined;
      await rig.setSetting('downloadFolder', '');
      await rig.clearKey();
      // The journeys' messages ("API key saved…") stay as toasts over the workbench: a later test's click in a webview
      // was taken by one (1.104).
      await vscode.commands.executeCommand('notifications.clearAll');
    });
    after(async function () {
      this.timeout(30_000);
      await rig.clearKey();
      await rig.setSetting('baseUrl', rig.emu.url);
      await emu?.close();
    });

    /** Stores the key without the command's check (the journeys after the first do not depend on its list reader). */
    async function storeKey(): Promise<void> {
      await rig.api.services.session.keys.set(new URL(emu.url).origin, KEY);
      assert.equal((await rig.api.services.session.current()).key?.key, KEY);
    }

    async function scope(): Promise<string> {
      const s = await rig.api.services.session.scope();
      assert.ok(s, 'no job scope');
      return s;
    }

    test('key and models: the key is checked and stored, the Models view lists the models by kind', async () => {
      await rig.useKey(KEY);
      let last: Awaited<ReturnType<typeof modelsView>> | undefined;
      const groups = () => Object.fromEntries((last?.groups ?? []).map((g) => [g.kind, g.models.map((m) => m.model.name).sort()]));
      await waitFor(
        'the Models view to list the style’s three models',
        async () => {
          last = await modelsView(rig.api);
          return last.models.length === 3 ? true : undefined;
        },
        { describe: () => ({ roots: last?.roots.map((r) => r.type), groups: groups() }) },
      );
      assert.deepEqual(groups(), { base: [base, style.baseName(OTHER)].sort(), custom: [style.seeded] });
      // A resource name (google-like) shows as its id in the row, whole in the tooltip; other names as they are.
      const id = (name: string) => (shape === 'google-like' ? name.replace(/^(models|tunedModels)\//, '') : name);
      for (const node of last!.groups.flatMap((g) => g.models)) {
        assert.equal(rig.api.models.getTreeItem(node).label, id(node.model.name));
        assert.equal(modelTooltip(node).split('\n')[0], node.model.name);
      }
    });

    test('playground: a streamed run shows the answer and the reasoning apart', async () => {
      await storeKey();
      const before = new Set(rig.api.playground.panels);
      await vscode.commands.executeCommand(COMMANDS.openPlayground, { modelName: base });
      const panel: PlaygroundPanel | undefined = rig.api.playground.panels.find((p) => !before.has(p));
      assert.ok(panel, 'the command opened no panel');
      await whenPanelReady(panel);
      const log = record(panel);
      try {
        const settings = runSettings(base, { prompt: 'What does a cache buy you?', temperature: 0.7, useRag: true, sequentialBudget: 8 });
        assert.equal(panel.handleMessage({ type: 'run', runId: 'style-run', settings }), true);
        const end = await waitForEnd(log.posted, 'style-run');
        assert.equal(end.type, 'done', JSON.stringify(end));
        const got = chunks(log.posted, 'style-run');
        const request = { ...settings, queryOnly: settings.prompt };
        assert.equal(
          got
            .filter((c) => !c.reasoning)
            .map((c) => c.text)
            .join(''),
          composeAnswer(request),
        );
        assert.equal(
          got
            .filter((c) => c.reasoning)
            .map((c) => c.text)
            .join(''),
          composeReasoning(request),
        );
      } finally {
        log.dispose();
      }
    });

    test('finetune: two PDFs, the poller to the end, the made model listed as custom', async () => {
      await storeKey();
      const workspace = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
      assert.ok(workspace, 'no workspace folder');
      folder = await fsp.mkdtemp(path.join(workspace, 'suite-styles-'));
      const files = [path.join(folder, 'handbook.pdf'), path.join(folder, 'returns.pdf')];
      await writePdf(files[0]!, ['The handbook says the office opens at nine.']);
      await writePdf(files[1]!, ['Returns are accepted within thirty days.']);
      const answers: FinetuneAnswers = {
        baseModel: base,
        modelName: `styles-${Date.now().toString(36)}`,
        numQs: 4,
        mode: 'pretraining',
        useCase: 'style journey',
      };
      const { outcome, shown } = await recordingMessages(async (shown) => ({ outcome: await rig.api.finetune({ files, answers }), shown }));
      assert.ok(outcome?.status === 'started', `outcome: ${JSON.stringify(outcome)}; shown: ${JSON.stringify(shown)}`);
      const jobs = rig.api.services.jobs;
      const job = await waitFor(
        `finetune job ${outcome.job.id} to complete in the job store`,
        () => {
          const j = jobs.list(outcome.job.scope).find((x) => x.id === outcome.job.id && x.kind === 'finetune');
          if (j?.state === 'failed') throw new Error(`the job failed: ${j.error ?? j.message ?? '?'}`);
          return j?.state === 'completed' ? j : undefined;
        },
        { timeoutMs: 20_000, intervalMs: 100, describe: () => jobs.list(outcome.job.scope).find((x) => x.id === outcome.job.id) },
      );
      const made = emu.madeModel(outcome.job.id);
      assert.ok(made, 'the emulator made no model for this job');
      assert.equal(job.modelName, made, 'the job names the model the service made');
      let custom: string[] = [];
      await waitFor(
        `${made} under "Custom models"`,
        async () => {
          const { groups } = await modelsView(rig.api);
          custom = groups.find((g) => g.kind === 'custom')?.models.map((m) => m.model.name) ?? [];
          return custom.includes(made) ? true : undefined;
        },
        { timeoutMs: 10_000, intervalMs: 100, describe: () => custom },
      );
    });

    test('evaluate: accuracy, correct/total and judge on the job', async () => {
      await storeKey();
      const { jobId, shown } = await recordingMessages(async (shown) => ({ jobId: await rig.api.evaluate(base, DATASET), shown }));
      assert.ok(jobId, `the evaluate command returned no job id; shown: ${JSON.stringify(shown)}`);
      const s = await scope();
      const job = await waitFor(
        `evaluation ${jobId} to complete`,
        () => {
          const j = rig.api.services.jobs.list(s).find((x) => x.id === jobId);
          if (j?.state === 'failed') throw new Error(`the evaluation failed: ${j.error ?? '?'}`);
          return j?.state === 'completed' && j.result ? j : undefined;
        },
        { timeoutMs: 20_000, intervalMs: 100, describe: () => rig.api.services.jobs.list(s).find((x) => x.id === jobId) },
      );
      const correct = scoreFor(BASE, false, DATASET, DEFAULT_DATASETS[DATASET]!);
      const total = DEFAULT_DATASETS[DATASET]!.total;
      assert.equal(job.result?.correct, correct);
      assert.equal(job.result?.total, total);
      assert.ok(Math.abs((job.result?.accuracy ?? -1) - correct / total) < 1e-9);
      assert.equal(job.result?.judgeModel, JUDGE_MODEL);
    });

    test('download: the tuned model’s artifact, byte for byte', async () => {
      await storeKey();
      folder = await fsp.mkdtemp(path.join(os.tmpdir(), 'hr-suite-styles-'));
      await rig.setSetting('downloadFolder', folder);
      const { result, shown } = await recordingMessages(async (shown) => ({
        result: await vscode.commands.executeCommand<string | undefined>(COMMANDS.download, { modelName: style.seeded }),
        shown,
      }));
      assert.ok(result, `the download command returned no path: ${JSON.stringify(shown)}`);
      const [got, want] = await Promise.all([fsp.readFile(result), fsp.readFile(emu.artifactPath(style.seeded, KEY)!)]);
      assert.ok(got.equals(want), 'the bytes differ from the emulator’s artifact');
    });
  });
}
