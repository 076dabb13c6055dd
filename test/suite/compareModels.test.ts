// The comparison tool through vscode.lm.invokeTool against the emulator: a 50-question set of the workspace whose
// expected answers are the emulator's own answers of one model or the other, so the buckets are known (the first
// model fixed 14, regressed 3, both wrong 33), and the result's words and the requests the emulator received are read.
import * as assert from 'node:assert/strict';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { LM_TOOLS } from '../../src/contributions';
import { composeAnswer } from '../service/inference';
import { useRig } from './rig';
import { EVERY_HOST_TAG } from './suiteResult';

const rig = useRig();
const TUNED = 'oss-reasoner-70b';
const BASE = 'oss-reasoner-8b';
const INFER_PATH = '/cr/provider_predict_platform_base_oss';

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
      const question = `Comparison question ${i}?`;
      const expected = i < 14 ? answer(TUNED, question) : i < 17 ? answer(BASE, question) : 'no model says this';
      return JSON.stringify({ question, expected });
    });
    file = path.join(folder, 'compare-questions.jsonl');
    await fsp.writeFile(file, lines.join('\n') + '\n');
  });
  after(async () => fsp.rm(file, { force: true }));

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
});
