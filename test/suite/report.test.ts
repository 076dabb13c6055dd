// The evaluation report: opened from a model's row, one panel per model; the verdicts it posts for a tuned model
// against its base (the emulator's per-model scores make it win on one dataset and lose on another); "Evaluate base
// on this dataset" starting the missing evaluation and the report filling in; export writing the file the save
// dialog named. The tests drive the panel through handleMessage, the same guard the page's messages pass.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { COMMANDS } from '../../src/contributions';
import { ReportPanel } from '../../src/features/evaluate/report/host/reportPanel';
import { webviewOptions } from '../../src/util/webviewPanel';
import { REPORT_VIEW_TYPE } from '../../src/contributions';
import { DROPPED_EVALUATIONS_KEY_PREFIX } from '../../src/storageKeys';
import { MAX_EVALUATIONS } from '../../src/jobs/evaluationHistory';
import { jobKey, type JobRecord } from '../../src/jobs/jobRecord';
import type { ReportView } from '../../src/features/evaluate/report/protocol';
import { modelNode, recordingMessages, waitFor, type ShownMessage } from './helpers';
import { useRig } from './rig';

const rig = useRig();
const KEY = 'demo-key';
const BASE = 'oss-reasoner-8b';
const TUNED = 'report-tuned';
const OTHER = 'oss-reasoner-70b';

async function completed(modelName: string, datasetName: string): Promise<void> {
  const jobId = await rig.api.evaluate(modelName, datasetName);
  assert.ok(jobId, `the evaluation of ${modelName} on ${datasetName} did not start`);
  const scope = await rig.api.services.session.scope();
  assert.ok(scope);
  await waitFor(`evaluation ${jobId} to complete`, () => rig.api.services.jobs.get(scope, `evaluation:${jobId}`)?.result, {
    timeoutMs: 20_000,
    intervalMs: 100,
  });
}

async function openFromModelRow(modelName: string): Promise<ReportPanel> {
  const node = await modelNode(rig.api, modelName);
  assert.ok(node, `${modelName} is not in the Models view`);
  const panel = await vscode.commands.executeCommand<ReportPanel | undefined>(COMMANDS.openEvaluationReport, node);
  assert.ok(panel, 'the command returned no panel');
  await panel.ready;
  return panel;
}

function dataset(view: ReportView | undefined, name: string) {
  return view?.datasets.find((d) => d.datasetName === name);
}

describe('evaluation report', () => {
  before(async function () {
    this.timeout(60_000);
    await rig.useKey(KEY);
    await rig.emu.addCustomModel(KEY, TUNED, { baseModel: BASE });
    rig.emu.configure({
      datasets: {
        ...rig.emu.options.datasets,
        'report-wins': { total: 80, scores: { [TUNED]: 0.85, [BASE]: 0.6 } },
        'report-loses': { total: 40, scores: { [TUNED]: 0.25, [BASE]: 0.75 } },
        'report-tuned-only': { total: 50, scores: { [TUNED]: 0.8, [BASE]: 0.5 } },
      },
    });
    await rig.api.models.refresh();
    for (const [model, set] of [
      [TUNED, 'report-wins'],
      [BASE, 'report-wins'],
      [TUNED, 'report-loses'],
      [BASE, 'report-loses'],
      [TUNED, 'report-tuned-only'],
    ] as const) {
      await completed(model, set);
    }
  });

  afterEach(() => {
    for (const panel of rig.api.report.panels) panel.dispose();
  });

  after(() => rig.clearKey());

  it('opens from the model’s row with the base beside it and a verdict per dataset; opening again reveals the same panel', async function () {
    this.timeout(30_000);
    const panel = await openFromModelRow(TUNED);
    const view = panel.view;
    assert.ok(view);
    assert.equal(view.modelName, TUNED);
    assert.equal(view.baseModel, BASE);
    const wins = dataset(view, 'report-wins');
    const loses = dataset(view, 'report-loses');
    assert.deepEqual(
      wins?.columns.map((c) => [c.name, c.evaluations[0]?.correct, c.evaluations[0]?.total]),
      [
        [TUNED, 68, 80],
        [BASE, 48, 80],
      ],
    );
    assert.deepEqual([wins?.comparisons[0]?.verdict, loses?.comparisons[0]?.verdict], ['better', 'worse']);
    assert.equal(wins?.comparisons[0]?.judgesDiffer, false);
    assert.deepEqual(dataset(view, 'report-tuned-only')?.comparisons, []);
    assert.equal(dataset(view, 'report-tuned-only')?.canEvaluateBase, true);

    const again = await vscode.commands.executeCommand<ReportPanel>(COMMANDS.openEvaluationReport, TUNED);
    assert.equal(again, panel, 'a second panel for the same model');
    assert.equal(rig.api.report.panels.length, 1);
  });

  it('“Evaluate base on this dataset” starts the missing evaluation, and the report fills in when it finishes', async function () {
    this.timeout(30_000);
    const panel = await openFromModelRow(TUNED);
    const row = dataset(panel.view, 'report-tuned-only');
    assert.ok(row?.canEvaluateBase);
    assert.equal(
      panel.handleMessage({ type: 'evaluateBase', datasetId: row.id, datasetName: 'report-wins' }),
      false,
      'a name from the page',
    );
    assert.equal(panel.handleMessage({ type: 'evaluateBase', datasetId: row.id }), true);
    const filled = await waitFor(
      'the base’s result on report-tuned-only in the report',
      () => {
        const d = dataset(panel.view, 'report-tuned-only');
        return d?.comparisons[0] ? d : undefined;
      },
      { timeoutMs: 20_000, intervalMs: 100, describe: () => JSON.stringify(dataset(panel.view, 'report-tuned-only')) },
    );
    assert.deepEqual(
      filled.columns.map((c) => [c.name, c.evaluations.map((e) => e.correct)]),
      [
        [TUNED, [40]],
        [BASE, [25]],
      ],
    );
    assert.equal(filled.comparisons[0]?.verdict, 'better');
    assert.equal(filled.canEvaluateBase, false);
  });

  it('“Add a model…” evaluates the picked model on the report’s datasets and shows it compared', async function () {
    this.timeout(40_000);
    const started: string[] = [];
    const webviewPanel = vscode.window.createWebviewPanel(
      REPORT_VIEW_TYPE,
      'Report',
      vscode.ViewColumn.Active,
      webviewOptions(rig.api.services.context.extensionUri),
    );
    // The user's pick stands in for the quick pick; the evaluations start through the evaluate command's own path.
    const panel = new ReportPanel(webviewPanel, rig.api.services, TUNED, [], {
      startEvaluation: async (model, set) => {
        started.push(`${model} on ${set}`);
        return rig.api.evaluate(model, set);
      },
      pickModel: async () => OTHER,
      listedBase: () => BASE,
    });
    try {
      await panel.ready;
      const datasets = panel.view?.datasets.map((d) => d.datasetName) ?? [];
      assert.ok(datasets.length >= 3, JSON.stringify(datasets));
      assert.equal(panel.handleMessage({ type: 'addModel' }), true);
      const view = await waitFor(
        `${OTHER} compared on every dataset`,
        () => (panel.view?.datasets.every((d) => d.comparisons.some((c) => c.otherModel === OTHER)) ? panel.view : undefined),
        {
          timeoutMs: 30_000,
          intervalMs: 200,
          describe: () => JSON.stringify(panel.view?.datasets.map((d) => [d.datasetName, d.columns.at(-1), started])),
        },
      );
      assert.deepEqual(started.sort(), datasets.map((d) => `${OTHER} on ${d}`).sort());
      assert.deepEqual(view.addedModels, [OTHER]);
      for (const d of view.datasets) {
        assert.deepEqual(d.columns.map((c) => [c.name, c.role]).at(-1), [OTHER, 'added']);
      }
    } finally {
      panel.dispose();
    }
  });

  it('exports the report as CSV and Markdown to the file the save dialog names', async function () {
    this.timeout(30_000);
    const panel = await openFromModelRow(TUNED);
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'report-export-'));
    const window = vscode.window as unknown as { showSaveDialog: typeof vscode.window.showSaveDialog };
    const original = window.showSaveDialog;
    const asked: vscode.SaveDialogOptions[] = [];
    let target = '';
    window.showSaveDialog = async (options) => {
      asked.push(options ?? {});
      return vscode.Uri.file(target);
    };
    try {
      await recordingMessages(async (shown) => {
        target = path.join(folder, 'report.csv');
        assert.equal(panel.handleMessage({ type: 'export', format: 'csv' }), true);
        const csv = await waitFor('the CSV file', () => (fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : undefined));
        const lines = csv.split('\r\n');
        assert.match(lines[0]!, /^dataset,model,role,accuracy,/);
        assert.ok(
          lines.some((l) => l.startsWith(`report-wins,${TUNED},model,0.85,`)),
          csv,
        );
        assert.ok(
          lines.some((l) => l.startsWith(`report-wins,${BASE},base,0.6,`) && l.includes(',better,false')),
          csv,
        );

        target = path.join(folder, 'report.md');
        assert.equal(panel.handleMessage({ type: 'export', format: 'markdown' }), true);
        const md = await waitFor('the Markdown file', () => (fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : undefined));
        assert.match(md, new RegExp(`^# Evaluation report: ${TUNED}\n`));
        assert.ok(md.includes('| better | same |'), md);
        await waitFor('the export notifications', () => (shown.length === 2 ? true : undefined));
      });
      assert.deepEqual(
        asked.map((o) => Object.keys(o.filters ?? {})),
        [['CSV'], ['Markdown']],
      );
      assert.match(asked[0]!.defaultUri?.path ?? '', /evaluation-report-report-tuned-.*\.csv$/);
    } finally {
      window.showSaveDialog = original;
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  it('opens from an evaluation’s row in the Jobs view, the row its context menu entry applies to', async function () {
    this.timeout(30_000);
    // The entry package.json puts on the Jobs view's rows, and the rows its `when` clause takes.
    const menus = (rig.extension.packageJSON as { contributes: { menus: Record<string, { command?: string; when?: string }[]> } })
      .contributes.menus;
    const entry = menus['view/item/context']?.find(
      (m) => m.command === COMMANDS.openEvaluationReport && m.when?.includes('view == hostedReasoning.jobs'),
    );
    assert.ok(entry?.when, 'no "Open Evaluation Report" entry on the Jobs view’s rows');
    const viewItem = /viewItem =~ \/(.+?)\/(?:\s|$)/.exec(entry.when)?.[1];
    assert.ok(viewItem, entry.when);
    const takes = (contextValue: string | undefined) => new RegExp(viewItem).test(contextValue ?? '');

    const node = (await rig.api.jobsView.getChildren()).find(
      (n) => n.job.kind === 'evaluation' && n.job.modelName === TUNED && n.job.state === 'completed',
    );
    assert.ok(node, `no finished evaluation of ${TUNED} in the Jobs view`);
    const item = rig.api.jobsView.getTreeItem(node);
    assert.ok(takes(item.contextValue), `the entry does not apply to the row (${item.contextValue})`);
    assert.ok(!takes('job finetune completed'), 'the entry applies to a finetune row');

    const panel = await vscode.commands.executeCommand<ReportPanel | undefined>(COMMANDS.openEvaluationReport, node);
    assert.ok(panel, 'the command returned no panel');
    await panel.ready;
    assert.equal(panel.modelName, TUNED);
    assert.equal(panel.view?.modelName, TUNED);
    assert.equal(panel.view?.baseModel, BASE);
    assert.ok(dataset(panel.view, node.job.datasetName ?? '?'), `the report lacks ${node.job.datasetName}`);
    assert.deepEqual(
      rig.api.report.panels.map((p) => p.modelName),
      [TUNED],
    );
  });

  it('opens from the “Open Report” button of the notification an ended evaluation shows', async function () {
    this.timeout(40_000);
    const set = 'report-notified';
    rig.emu.configure({ datasets: { ...rig.emu.options.datasets, [set]: { total: 20, scores: { [TUNED]: 0.7, [BASE]: 0.5 } } } });
    const ours = (m: ShownMessage) => m.severity === 'information' && m.text.startsWith(`${TUNED} on ${set}: `);
    assert.deepEqual(rig.api.report.panels, [], 'a report is open already');
    await recordingMessages(
      async (shown) => {
        await completed(TUNED, set);
        const panel = await waitFor(
          'the report the notification’s button opened',
          () => rig.api.report.panels.find((p) => p.modelName === TUNED),
          { timeoutMs: 10_000, intervalMs: 50, describe: () => JSON.stringify(shown) },
        );
        await panel.ready;
        assert.deepEqual(
          shown.filter(ours).map((m) => m.actions),
          [['Open Report', 'Show in Jobs']],
        );
        assert.deepEqual(
          dataset(panel.view, set)?.columns[0]?.evaluations.map((e) => [e.correct, e.total]),
          [[14, 20]],
        );
      },
      { answer: (m) => (ours(m) ? 'Open Report' : undefined) },
    );
  });

  it('keeps at most MAX_EVALUATIONS finished evaluations per scope, counting the dropped ones per model in storage', async function () {
    this.timeout(60_000);
    // A scope of its own, so the suite's real job list is untouched.
    const scope = 'report-history-test';
    const jobs = rig.api.services.jobs;
    const record = (i: number, kind: JobRecord['kind'] = 'evaluation'): JobRecord => ({
      id: `h${i}`,
      kind,
      scope,
      state: 'completed',
      createdAt: 1_000 + i,
      updatedAt: 1_000 + i,
      modelName: i % 2 ? 'odd' : 'even',
      datasetName: 'squad',
    });
    try {
      await jobs.put(record(-1, 'finetune'));
      for (let i = 0; i < MAX_EVALUATIONS + 3; i++) await jobs.put(record(i));
      const kept = jobs.list(scope);
      assert.equal(kept.filter((j) => j.kind === 'evaluation').length, MAX_EVALUATIONS);
      assert.ok(!kept.some((j) => ['h0', 'h1', 'h2'].includes(j.id)), 'the oldest went');
      assert.ok(
        kept.some((j) => j.kind === 'finetune'),
        'the finetune (its lineage) stays',
      );
      assert.deepEqual(jobs.droppedEvaluations(scope), { even: 2, odd: 1 });
    } finally {
      await jobs.remove(scope, jobs.list(scope).map(jobKey));
      await rig.api.services.context.globalState.update(DROPPED_EVALUATIONS_KEY_PREFIX + scope, undefined);
    }
  });
});
