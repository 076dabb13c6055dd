// The comparison tool through vscode.lm.invokeTool against the emulator: a 50-question set of the workspace whose
// expected answers are the emulator's own answers of one model or the other, so the buckets are known (the first
// model fixed 14, regressed 3, both wrong 33), and the result's words and the requests the emulator received are read;
// then the same comparison in the evaluation report's page, read through the runner's browser (webviewPage.ts).
import * as assert from 'node:assert/strict';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { COMMANDS, LM_TOOLS } from '../../src/contributions';
import type { ReportPanel } from '../../src/features/evaluate/report/host/reportPanel';
import { composeAnswer } from '../service/inference';
import { waitFor } from './helpers';
import { useRig } from './rig';
import { webviewPage } from './webviewPage';
import { EVERY_HOST_TAG } from './suiteResult';

const rig = useRig();
const TUNED = 'oss-reasoner-70b';
const BASE = 'oss-reasoner-8b';
const INFER_PATH = '/cr/provider_predict_platform_base_oss';
/** The last question carries markdown and HTML: the page must show it as the characters it is. */
const UNTRUSTED_QUESTION = 'Comparison question 49 [see](https://example.com/x) <img src=x onerror=alert(1)> **bold**?';

function textOf(result: vscode.LanguageModelToolResult): string {
  return result.content
    .map((part) => (typeof (part as { value?: unknown }).value === 'string' ? (part as { value: string }).value : ''))
    .join('');
}

describe(`compare models on questions: the tool ${EVERY_HOST_TAG}`, () => {
  let file: string;
  before(async () => {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(folder, 'no workspace folder');
    // The Chat settings' knobs (temperature 0.7, budgets 8 × 1, no RAG) are what the emulator's answer depends on.
    const answer = (modelName: string, prompt: string) =>
      composeAnswer({ prompt, modelName, stream: false, useRag: false, sequentialBudget: 8, parallelBudget: 1, temperature: 0.7 });
    const lines = Array.from({ length: 50 }, (_, i) => {
      const question = i === 49 ? UNTRUSTED_QUESTION : `Comparison question ${i}?`;
      const expected = i < 14 ? answer(TUNED, question) : i < 17 ? answer(BASE, question) : 'no model says this';
      return JSON.stringify({ question, expected });
    });
    file = path.join(folder, 'compare-questions.jsonl');
    await fsp.writeFile(file, lines.join('\n') + '\n');
  });
  after(async () => fsp.rm(file, { force: true }));
  afterEach(() => {
    for (const panel of rig.api.report.panels) panel.dispose();
  });

  it('confirms the count of requests, then returns the buckets and the exact McNemar test in words', async function () {
    this.timeout(120_000);
    await rig.useKey('demo-key');
    const input = { file: 'compare-questions.jsonl', models: [TUNED, BASE] };
    const cancel = new vscode.CancellationTokenSource();
    const prepared = await rig.api.tools[LM_TOOLS.compareModels].prepareInvocation?.({ input }, cancel.token);
    cancel.dispose();
    const message = prepared?.confirmationMessages?.message;
    assert.match(typeof message === 'string' ? message : (message?.value ?? ''), /^100 requests to the service: 50 questions × 2 models\./);
    const since = Date.now();
    const text = textOf(await vscode.lm.invokeTool(LM_TOOLS.compareModels, { input, toolInvocationToken: undefined }));
    assert.equal(rig.emu.received.filter((r) => r.origin === 'api' && r.path.startsWith(INFER_PATH) && r.time >= since).length, 100);
    assert.match(text, /Accuracy of "?oss-reasoner-70b"?: 14 of 50 \(95% Wilson interval 17\.5% to 41\.7%\)\./);
    assert.match(
      text,
      /oss-reasoner-70b"? fixed 14 and regressed 3 of 50 against "?oss-reasoner-8b"?; a difference this large by chance: p = 0\.013\./,
    );
    assert.match(text, /Buckets: fixed 14, regressed 3, both right 0, both wrong 33\./);
    assert.match(text, /first 17 of 17:/);
  });

  it('shows in the evaluation report: the buckets, McNemar p, the paired difference, each question, the filter, and inert text', async function () {
    this.timeout(120_000);
    await rig.useKey('demo-key');
    const input = { file: 'compare-questions.jsonl', models: [TUNED, BASE] };
    await vscode.lm.invokeTool(LM_TOOLS.compareModels, { input, toolInvocationToken: undefined });
    const panel = await vscode.commands.executeCommand<ReportPanel | undefined>(COMMANDS.openEvaluationReport, TUNED);
    assert.ok(panel, 'the command returned no panel');
    await panel.ready;
    const comparisons = panel.view?.questionComparisons ?? [];
    const newest = comparisons[0];
    assert.ok(newest, 'no comparison in the report of the first model');
    assert.deepEqual(newest.models, [TUNED, BASE]);
    assert.deepEqual(newest.pairs[0]?.buckets, { fixed: 14, regressed: 3, bothRight: 0, bothWrong: 33 });
    assert.equal(newest.pairs[0]?.p?.toFixed(3), '0.013');
    assert.equal(newest.pairs[0]?.estimate?.toFixed(4), '0.2200');
    assert.equal(newest.rows.filter((r) => r.differs).length, 17);
    const base = await vscode.commands.executeCommand<ReportPanel | undefined>(COMMANDS.openEvaluationReport, BASE);
    await base?.ready;
    assert.ok(
      base?.view?.questionComparisons.some((c) => c.createdAt === newest.createdAt),
      'the base’s report shows it too',
    );
    base?.dispose();

    const page = webviewPage('question-table');
    if (!page) return; // a runner without its own browser (test:electron): the view-model above is what it can check
    await vscode.commands.executeCommand(COMMANDS.openEvaluationReport, TUNED);
    const shown = await waitFor('the comparison in the page', async () => {
      const v = await page.read();
      return (v['question-row']?.length ?? 0) === 50 * comparisons.length ? v : undefined;
    });
    // The newest comparison comes first: its cells are the first of each kind.
    const first = (id: string) => shown[id]?.[0]?.text;
    assert.deepEqual(
      ['fixed', 'regressed', 'bothRight', 'bothWrong'].map((b) => first(`question-bucket-${b}`)),
      ['14', '3', '0', '33'],
    );
    assert.equal(first('question-p'), 'p = 0.013');
    assert.equal(first('question-difference'), '+22.0 pts');
    assert.match(first('question-interval') ?? '', /^[+−]\d+\.\d pts to \+\d+\.\d pts$/);
    assert.match(first('question-verdict') ?? '', /fixed 14 and regressed 3 of 50 .* p = 0\.013\./);
    assert.equal(shown['question-text']?.[49]?.text, UNTRUSTED_QUESTION, 'the question as text, its markdown and HTML not rendered');
    assert.equal(shown['question-differ-filter']?.[0]?.value, 'off');

    await page.check('question-differ-filter', true);
    const filtered = await waitFor('only the questions where they differ', async () => {
      const v = await page.read();
      return (v['question-row']?.length ?? 0) === 17 + 50 * (comparisons.length - 1) ? v : undefined;
    });
    assert.deepEqual(
      filtered['question-row-bucket']?.slice(0, 17).map((e) => e.text),
      [...Array.from({ length: 14 }, () => 'fixed'), ...Array.from({ length: 3 }, () => 'regressed')],
    );
    assert.equal(filtered['question-differ-filter']?.[0]?.value, 'on');
  });
});
