// A comparison on a person's questions as a job: its row in the Jobs view with done/total and time left while it runs,
// the status bar's summary, an open report filling in as requests end, Cancel keeping every finished request, Resume
// sending only the missing ones (counted at the emulator), Retry Failed sending only the failed ones, a comparison
// left unfinished by a reload shown as interrupted, and Clear Finished Jobs taking the done and cancelled ones off the
// list (their results staying in the report). The emulator holds its answers (holdInferenceAfter), so each step
// waits on what the run did, never on a clock.
import * as assert from 'node:assert/strict';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { COMMANDS, LM_TOOLS } from '../../src/contributions';
import type { ReportPanel } from '../../src/features/evaluate/report/host/reportPanel';
import { comparisonsRoot } from '../../src/features/evaluate/compare/compareCommand';
import { ComparisonLog } from '../../src/features/evaluate/compare/comparisonLog';
import type { ComparisonNode } from '../../src/features/evaluate/compare/comparisonRows';
import { STREAM_ERROR_MARKER } from '../service/inference';
import { waitFor } from './helpers';
import { useRig } from './rig';
import { EVERY_HOST_TAG } from './suiteResult';

const rig = useRig();
const TUNED = 'oss-reasoner-70b';
const BASE = 'oss-reasoner-8b';
const INFER_PATH = '/cr/provider_predict_platform_base_oss';
const QUESTIONS = 20;
const REQUESTS = QUESTIONS * 2;
const WAIT = { timeoutMs: 90_000 };

function inferenceSince(since: number): number {
  return rig.emu.received.filter((r) => r.origin === 'api' && r.path.startsWith(INFER_PATH) && r.time >= since).length;
}

/** The newest comparison row on `setName`, as the Jobs view lists it now. */
async function rowOf(setName: string): Promise<{ node: ComparisonNode; item: vscode.TreeItem } | undefined> {
  await rig.api.jobsRows.getChildren();
  const node = rig.api.jobsRows.comparisonRows
    .filter((n) => n.row.setName === setName)
    .sort((a, b) => b.row.createdAt - a.row.createdAt)[0];
  return node && { node, item: rig.api.jobsRows.getTreeItem(node) };
}

async function rowMatching(setName: string, description: RegExp): Promise<{ node: ComparisonNode; item: vscode.TreeItem }> {
  let seen: string | undefined;
  return waitFor(
    `the row of ${setName} to say ${String(description)}`,
    async () => {
      const r = await rowOf(setName);
      seen = r && String(r.item.description);
      return r && description.test(String(r.item.description)) ? r : undefined;
    },
    { ...WAIT, describe: () => seen },
  );
}

describe(`compare models on questions: the run as a job ${EVERY_HOST_TAG}`, () => {
  let folder: string;
  const written: string[] = [];
  async function writeSet(name: string, questions: string[]): Promise<void> {
    const file = path.join(folder, name);
    await fsp.writeFile(file, questions.map((question) => JSON.stringify({ question, expected: 'no model says this' })).join('\n') + '\n');
    written.push(file);
  }

  before(() => {
    const f = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(f, 'no workspace folder');
    folder = f;
  });
  afterEach(() => {
    rig.emu.configure({ holdInferenceAfter: -1 });
    for (const panel of rig.api.report.panels) panel.dispose();
  });
  after(async () => {
    for (const file of written) await fsp.rm(file, { force: true });
    // The comparisons made here would show in the models' reports beside those the next files count on.
    for (const log of ComparisonLog.list(comparisonsRoot(rig.api.services))) {
      if (log.spec.setName.startsWith('compare-job')) log.remove();
    }
  });

  it('shows done/total and time left in its row and the status bar, fills an open report in, and Cancel then Resume send each request once', async function () {
    this.timeout(240_000);
    await rig.useKey('demo-key');
    // Jobs other tests left failed would warn first on the status bar ("$(warning) 2 jobs failed  …", seen on 1.104
    // where the tests run in another order): Show Jobs counts them as seen, as a person looking at them would.
    await vscode.commands.executeCommand(COMMANDS.showJobs);
    const setName = 'compare-job.jsonl';
    await writeSet(
      setName,
      Array.from({ length: QUESTIONS }, (_, i) => `Job question ${i}?`),
    );
    // Nothing is answered until the test lets some requests through.
    rig.emu.configure({ holdInferenceAfter: 0 });
    const started = Date.now();
    const input = { file: setName, models: [TUNED, BASE] };
    const invocation = Promise.resolve(vscode.lm.invokeTool(LM_TOOLS.compareModels, { input, toolInvocationToken: undefined }));

    const running = await rowMatching(setName, /^running · 0 of 40$/);
    assert.equal(running.item.label, `Compare ${TUNED} vs ${BASE} on ${setName}`);
    assert.equal((running.item.iconPath as vscode.ThemeIcon).id, 'loading~spin');
    assert.equal(running.item.contextValue, 'comparison running');
    assert.equal(running.item.accessibilityInformation?.label, `Compare ${TUNED} vs ${BASE} on ${setName}, running · 0 of 40`);

    // The report of the first model, open before any request ends: it fills in by itself as they do.
    const panel = await vscode.commands.executeCommand<ReportPanel | undefined>(COMMANDS.openEvaluationReport, TUNED);
    assert.ok(panel, 'no report panel');
    await panel.ready;
    const mine = () => panel.view?.questionComparisons.find((c) => c.setName === setName && c.createdAt >= started);
    await waitFor('the report to show the comparison with every request missing', () => (mine()?.missing === REQUESTS ? true : undefined), {
      ...WAIT,
      describe: () => mine()?.missing,
    });

    rig.emu.configure({ holdInferenceAfter: 6 });
    const partway = await rowMatching(setName, /^running · 6 of 40 · (under a minute|about \d+ min|about \d+ h( \d+ min)?) left$/);
    await waitFor('the report to show 6 requests done', () => (mine()?.missing === REQUESTS - 6 ? true : undefined), {
      ...WAIT,
      describe: () => mine()?.missing,
    });
    const bar = await waitFor(
      'the status bar to count the comparison',
      () => (rig.api.statusBar.isVisible && rig.api.statusBar.item.text.includes('15%') ? rig.api.statusBar.item : undefined),
      { ...WAIT, describe: () => rig.api.statusBar.item.text },
    );
    assert.match(bar.text, /^\$\(sync~spin\) 1 job · 15% · (under a minute|about \d+ min|about \d+ h( \d+ min)?) left$/);
    assert.match(String(bar.accessibilityInformation?.label), /^Hosted Reasoning: 1 job running, at 15%, .* left\. Show jobs\.$/);
    assert.match(bar.tooltip as string, new RegExp(`Compare ${TUNED} vs ${BASE} on ${setName.replace('.', '\\.')}: 6 of 40`));

    // Cancel on the row: the run ends, the 6 finished requests stay kept, the held ones are simply missing.
    assert.equal(await vscode.commands.executeCommand(COMMANDS.cancelComparison, partway.node), true);
    const said = await invocation;
    assert.match(said.content.map((p) => (p as { value?: unknown }).value).join(''), /Cancelled: 34 requests missing/);
    const cancelled = await rowMatching(setName, /^cancelled · 6 of 40 done, 34 missing$/);
    assert.equal(cancelled.item.contextValue, 'comparison cancelled idle missing');
    assert.equal((cancelled.item.iconPath as vscode.ThemeIcon).id, 'debug-pause');
    const log = ComparisonLog.open(path.join(comparisonsRoot(rig.api.services), cancelled.node.row.id));
    assert.equal(log?.entries().size, 6);
    await waitFor('the status bar to hide', () => (rig.api.statusBar.isVisible ? undefined : true), WAIT);

    // Resume on the row: only the 34 missing requests are sent, and the row ends done.
    rig.emu.configure({ holdInferenceAfter: -1 });
    const since = Date.now();
    assert.equal(await vscode.commands.executeCommand(COMMANDS.resumeComparison, cancelled.node), true);
    const done = await rowMatching(setName, /^done · 40 requests$/);
    assert.equal(done.item.contextValue, 'comparison done idle');
    assert.equal(inferenceSince(since), REQUESTS - 6);
    assert.equal(log?.entries().size, REQUESTS);
    await waitFor('the report to show the comparison whole', () => (mine()?.missing === 0 ? true : undefined), {
      ...WAIT,
      describe: () => mine()?.missing,
    });

    // Remove: off the list; the result stays in the report.
    assert.equal(await vscode.commands.executeCommand(COMMANDS.removeComparison, done.node), true);
    await waitFor('the row to go', async () => ((await rowOf(setName)) ? undefined : true), WAIT);
    await panel.render();
    assert.ok(mine(), 'the report still shows the removed comparison');
  });

  it('keeps failed requests with their words and sends only them again on Retry Failed', async function () {
    this.timeout(180_000);
    await rig.useKey('demo-key');
    const setName = 'compare-job-failing.jsonl';
    // The emulator fails a non-streamed answer whose prompt holds the marker: both models' answers to question 1.
    await writeSet(setName, ['Failing question 0?', `Failing question 1 ${STREAM_ERROR_MARKER}?`, 'Failing question 2?']);
    await vscode.lm.invokeTool(LM_TOOLS.compareModels, { input: { file: setName, models: [TUNED, BASE] }, toolInvocationToken: undefined });
    const failed = await rowMatching(setName, /^done · 6 requests, 2 failed$/);
    assert.equal(failed.item.contextValue, 'comparison done idle failed');
    assert.match(failed.item.tooltip as string, /2 failed requests are kept with the service's words/);
    const since = Date.now();
    assert.equal(await vscode.commands.executeCommand(COMMANDS.retryFailedComparison, failed.node), true);
    await waitFor('the two failed requests to be sent again', () => (inferenceSince(since) >= 2 ? true : undefined), WAIT);
    await rowMatching(setName, /^done · 6 requests, 2 failed$/);
    assert.equal(inferenceSince(since), 2);
  });

  it('counts failed requests in its row as they fail, while it runs, and says them aloud', async function () {
    this.timeout(180_000);
    await rig.useKey('demo-key');
    const setName = 'compare-job-counting.jsonl';
    // Questions 0 and 1 fail for both models; the first four requests (the concurrency) are theirs, and the emulator
    // answers only those four until the test lets the rest through.
    await writeSet(setName, [
      `Counting question 0 ${STREAM_ERROR_MARKER}?`,
      `Counting question 1 ${STREAM_ERROR_MARKER}?`,
      'Counting question 2?',
    ]);
    rig.emu.configure({ holdInferenceAfter: 4 });
    const invocation = Promise.resolve(
      vscode.lm.invokeTool(LM_TOOLS.compareModels, { input: { file: setName, models: [TUNED, BASE] }, toolInvocationToken: undefined }),
    );
    const running = await rowMatching(setName, /^running · 4 of 6 · 4 failed( · .+ left)?$/);
    assert.equal(running.item.contextValue, 'comparison running');
    assert.equal(
      running.item.accessibilityInformation?.label,
      `Compare ${TUNED} vs ${BASE} on ${setName}, ${String(running.item.description)}`,
    );
    rig.emu.configure({ holdInferenceAfter: -1 });
    await invocation;
    await rowMatching(setName, /^done · 6 requests, 4 failed$/);
  });

  it('shows a comparison a reload left unfinished as interrupted, with Resume', async function () {
    this.timeout(120_000);
    await rig.useKey('demo-key');
    const scope = await rig.api.services.session.scope();
    const log = ComparisonLog.create(comparisonsRoot(rig.api.services), {
      id: `${Date.now().toString(36)}-reload`,
      setName: 'compare-job-reloaded.jsonl',
      createdAt: Date.now(),
      ...(scope !== undefined && { scope }),
      models: [TUNED, BASE],
      scoring: 'normalized',
      knobs: { useRag: false, sequentialBudget: 8, parallelBudget: 1, temperature: 0.7 },
      items: [
        { question: 'Reloaded 0?', expected: 'x', line: 1 },
        { question: 'Reloaded 1?', expected: 'y', line: 2 },
      ],
    });
    // What a run killed by a reload leaves: one request kept, no run, no lock.
    log.append({ kind: 'answer', item: 0, model: TUNED, text: 'kept', at: Date.now() });
    const interrupted = await rowMatching('compare-job-reloaded.jsonl', /^interrupted · 1 of 4 done, 3 missing$/);
    assert.equal(interrupted.item.contextValue, 'comparison interrupted idle missing');
    assert.match(interrupted.item.tooltip as string, /Resume sends only the 3 missing/);
    const since = Date.now();
    assert.equal(await vscode.commands.executeCommand(COMMANDS.resumeComparison, interrupted.node), true);
    await rowMatching('compare-job-reloaded.jsonl', /^done · 4 requests$/);
    assert.equal(inferenceSince(since), 3);
  });

  it('Clear Finished Jobs takes done and cancelled comparisons off the list, keeps running and interrupted ones, and the results stay in the report', async function () {
    this.timeout(120_000);
    await rig.useKey('demo-key');
    const scope = await rig.api.services.session.scope();
    const root = comparisonsRoot(rig.api.services);
    const make = (name: string) =>
      ComparisonLog.create(root, {
        id: `${Date.now().toString(36)}-${name.replace(/[^a-z]/g, '')}`,
        setName: `compare-job-clear-${name}.jsonl`,
        createdAt: Date.now(),
        ...(scope !== undefined && { scope }),
        models: [TUNED, BASE],
        scoring: 'normalized',
        knobs: { useRag: false, sequentialBudget: 8, parallelBudget: 1, temperature: 0.7 },
        items: [
          { question: `${name} 0?`, expected: 'x', line: 1 },
          { question: `${name} 1?`, expected: 'y', line: 2 },
        ],
      });
    const at = Date.now();
    const done = make('done');
    for (const item of [0, 1]) for (const model of [TUNED, BASE]) done.append({ kind: 'answer', item, model, text: 'x', at });
    const interrupted = make('interrupted');
    interrupted.append({ kind: 'answer', item: 0, model: TUNED, text: 'kept', at });
    // A run of this window that never gets an answer: cancelled at once, or left running until the end of the test.
    const unanswered = (_r: unknown, signal: AbortSignal) =>
      new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }));
    const cancelledLog = make('cancelled');
    const stopped = new AbortController();
    stopped.abort();
    await rig.api.services.comparisons.run(cancelledLog, { infer: unanswered, signal: stopped.signal });
    const runningLog = make('running');
    const stopRunning = new AbortController();
    const run = rig.api.services.comparisons.run(runningLog, { infer: unanswered, signal: stopRunning.signal });
    try {
      await rowMatching('compare-job-clear-done.jsonl', /^done · 4 requests$/);
      await rowMatching('compare-job-clear-interrupted.jsonl', /^interrupted · 1 of 4 done, 3 missing$/);
      await rowMatching('compare-job-clear-cancelled.jsonl', /^cancelled · 0 of 4 done, 4 missing$/);
      await rowMatching('compare-job-clear-running.jsonl', /^running · 0 of 4$/);

      const cleared = await vscode.commands.executeCommand<number>(COMMANDS.clearFinishedJobs);
      assert.equal(typeof cleared, 'number');
      assert.ok(cleared >= 2, `cleared ${cleared}`);
      await waitFor(
        'the done and cancelled rows to go',
        async () =>
          (await rowOf('compare-job-clear-done.jsonl')) || (await rowOf('compare-job-clear-cancelled.jsonl')) ? undefined : true,
        WAIT,
      );
      assert.ok(await rowOf('compare-job-clear-interrupted.jsonl'), 'the interrupted comparison was cleared');
      assert.ok(await rowOf('compare-job-clear-running.jsonl'), 'the running comparison was cleared');
      assert.ok(rig.api.services.comparisons.get(runningLog.dir), 'the running comparison stopped');

      // Off the list only: the done comparison's result is still in its model's report, and its log is whole.
      const panel = await vscode.commands.executeCommand<ReportPanel | undefined>(COMMANDS.openEvaluationReport, TUNED);
      assert.ok(panel, 'no report panel');
      await panel.ready;
      await panel.render();
      const shown = panel.view?.questionComparisons.find((c) => c.setName === 'compare-job-clear-done.jsonl');
      assert.ok(shown, 'the report no longer shows the cleared comparison');
      assert.equal(shown.missing, 0);
      assert.equal(done.entries().size, 4);
    } finally {
      stopRunning.abort();
      await run;
    }
  });
});
