// Loaded by the VS Code extension host as `extensionTestsPath` (test/bench/figures/chatLatency.ts), with the working
// tree's extension under development: asks the same question, for the same emulator answer, through `vscode.lm`
// (selectChatModels, sendRequest, the first piece of `response.text` as another extension reads it) and through the
// playground (a panel's run, its own first-token time), interleaved, and writes every run to HR_BENCH_CHAT_RESULT.
import * as fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import type { ExtensionExports } from '../../src/extension';
import { CHAT_VENDOR, COMMANDS } from '../../src/contributions';
import type { ChunkMessage, HostToWebview, RunSettings } from '../../src/webviews/playground/protocol';
import { CHAT_MODEL, CHAT_PROMPT, CHAT_RESULT_ENV, CHAT_RUNS_ENV, type ChatLatencyResult } from './chatLatencyShared';

const EXTENSION_ID = 'hosted-reasoning.hosted-reasoning';
const SETTINGS: RunSettings = {
  modelName: CHAT_MODEL,
  prompt: CHAT_PROMPT,
  temperature: 0.7,
  useRag: false,
  sequentialBudget: 8,
  parallelBudget: 1,
  stream: true,
};

async function viaLm(model: vscode.LanguageModelChat, expected: string | undefined): Promise<ChatLatencyResult['runs'][number]> {
  const t0 = performance.now();
  const response = await model.sendRequest([vscode.LanguageModelChatMessage.User(CHAT_PROMPT)], {});
  const resolvedMs = performance.now() - t0;
  let first: number | undefined;
  let text = '';
  for await (const piece of response.text) {
    first ??= performance.now() - t0;
    text += piece;
  }
  return {
    path: 'lm',
    firstTokenMs: first ?? NaN,
    totalMs: performance.now() - t0,
    chars: text.length,
    sameAnswer: text === expected,
    resolvedMs,
  };
}

async function viaPlayground(api: Awaited<ReturnType<ExtensionExports['main']>>, run: number, expected: string | undefined) {
  const panel = api.playground.panels[0];
  if (!panel) throw new Error('no playground panel');
  const runId = `bench-${run}`;
  const posted: HostToWebview[] = [];
  const t0 = performance.now();
  const ended = new Promise<void>((resolve) => {
    const sub = panel.onDidPostMessage((m) => {
      posted.push(m);
      if ((m.type === 'done' || m.type === 'error') && m.runId === runId) {
        sub.dispose();
        resolve();
      }
    });
  });
  if (!panel.handleMessage({ type: 'run', runId, settings: SETTINGS })) throw new Error('the panel refused the run');
  await ended;
  const totalMs = performance.now() - t0;
  const chunks = posted.filter((m): m is ChunkMessage => m.type === 'chunk' && m.runId === runId && !m.reasoning);
  const text = chunks.map((c) => c.text).join('');
  return {
    path: 'playground' as const,
    firstTokenMs: chunks[0]?.ttfbMs ?? NaN,
    totalMs,
    chars: text.length,
    sameAnswer: text === expected,
  };
}

export async function run(): Promise<void> {
  const file = process.env[CHAT_RESULT_ENV];
  if (!file) throw new Error(`${CHAT_RESULT_ENV} is not set`);
  const runs = Number(process.env[CHAT_RUNS_ENV] ?? 15);
  const result: ChatLatencyResult = { vscodeVersion: vscode.version, runs: [] };
  try {
    const ext = vscode.extensions.getExtension<ExtensionExports>(EXTENSION_ID);
    if (!ext) throw new Error(`${EXTENSION_ID} is not loaded`);
    const api = await (await ext.activate()).main();
    await vscode.commands.executeCommand(COMMANDS.openPlayground);
    // Nothing is posted to the page before it said `ready`.
    const panel = api.playground.panels[0];
    if (!panel) throw new Error('the command opened no playground panel');
    await Promise.race([
      panel.ready,
      new Promise((_, reject) => setTimeout(() => reject(new Error('the playground page never said ready')), 60_000)),
    ]);
    const [model] = await vscode.lm.selectChatModels({ vendor: CHAT_VENDOR, id: CHAT_MODEL });
    if (!model) throw new Error(`vscode.lm has no ${CHAT_MODEL}`);
    // A warm-up of each path, not counted; its answer through vscode.lm is what every run must deliver (the
    // emulator's answer is deterministic), through either path.
    let answer = '';
    const response = await model.sendRequest([vscode.LanguageModelChatMessage.User(CHAT_PROMPT)], {});
    for await (const piece of response.text) answer += piece;
    const warm = await viaPlayground(api, -1, answer);
    if (!warm.sameAnswer) throw new Error(`the two paths answered differently (${warm.chars} vs ${answer.length} chars)`);
    for (let i = 0; i < runs; i++) {
      // Interleaved, the order alternating, so drift of a shared machine hits both alike.
      const order = i % 2 === 0 ? (['lm', 'playground'] as const) : (['playground', 'lm'] as const);
      for (const p of order) result.runs.push(p === 'lm' ? await viaLm(model, answer) : await viaPlayground(api, i, answer));
    }
  } catch (error) {
    result.error = error instanceof Error ? (error.stack ?? error.message) : String(error);
  }
  fs.writeFileSync(file, JSON.stringify(result));
}
