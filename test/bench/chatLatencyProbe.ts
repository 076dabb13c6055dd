// Loaded by the VS Code extension host as `extensionTestsPath` (test/bench/figures/chatLatency.ts), with the working
// tree's extension under development and the bare provider's helper extension installed (bareChatProvider.ts): asks
// the same question, for the same emulator answer, through `vscode.lm` to our provider (selectChatModels,
// sendRequest, the first piece of `response.text` as another extension reads it), through `vscode.lm` to the bare
// provider (the same calls; it answers at once, with no HTTP), and through the playground (a panel's run, its own
// first-token time), interleaved, and writes every run to HR_BENCH_CHAT_RESULT.
// Our provider is instrumented from here, not in the product: the main module's provider method (what the entry's
// registered provider forwards to) and the session's connect() are wrapped on their live objects to stamp when they
// are called and when the first part is reported. A wrapper is a function call, microseconds.
import * as fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/main';
import type { ExtensionExports } from '../../src/extension';
import { CHAT_VENDOR, COMMANDS } from '../../src/contributions';
import { tokenize } from '../service/inference';
import type { ChunkMessage, HostToWebview, RunSettings } from '../../src/features/playground/protocol';
import {
  BARE_EXTENSION_ID,
  BARE_GLOBAL,
  BARE_MODEL,
  BARE_VENDOR,
  CHAT_MODEL,
  CHAT_PROMPT,
  CHAT_RESULT_ENV,
  CHAT_RUNS_ENV,
  CHAT_TOKEN_MS_ENV,
  type BareChatSeam,
  type ChatLatencyResult,
  type ChatPath,
  type ChatRun,
} from './chatLatencyShared';

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
/** Pieces that reach the caller within this long of the first came with it (a burst). */
const BURST_MS = 2;

/** Stamps of the current run (one run at a time), filled by the wrappers below. */
interface Stamps {
  providerCalledAt?: number;
  providerFirstReportAt?: number;
  connectMs?: number;
}
let stamps: Stamps = {};

function instrument(api: ExtensionApi): void {
  const provider = api.chat.models;
  const provide = provider.provideLanguageModelChatResponse.bind(provider);
  provider.provideLanguageModelChatResponse = (model, messages, options, progress, token) => {
    stamps.providerCalledAt = performance.now();
    const stamped: vscode.Progress<vscode.LanguageModelResponsePart> = {
      report: (part) => {
        if (stamps.providerFirstReportAt === undefined && part instanceof vscode.LanguageModelTextPart) {
          stamps.providerFirstReportAt = performance.now();
        }
        progress.report(part);
      },
    };
    return provide(model, messages, options, stamped, token);
  };
  const session = api.services.session;
  const connect = session.connect.bind(session);
  session.connect = async () => {
    const t = performance.now();
    try {
      return await connect();
    } finally {
      stamps.connectMs ??= performance.now() - t;
    }
  };
}

async function viaLm(model: vscode.LanguageModelChat, path: 'lm' | 'bare', expected: string): Promise<ChatRun> {
  const seam = (globalThis as { [BARE_GLOBAL]?: BareChatSeam })[BARE_GLOBAL];
  if (seam) {
    seam.calledAt = undefined;
    seam.firstReportAt = undefined;
  }
  stamps = {};
  const t0 = performance.now();
  const response = await model.sendRequest([vscode.LanguageModelChatMessage.User(CHAT_PROMPT)], {});
  const resolvedMs = performance.now() - t0;
  let first: number | undefined;
  let text = '';
  let pieces = 0;
  let withFirst = 0;
  for await (const piece of response.text) {
    const at = performance.now() - t0;
    first ??= at;
    pieces++;
    if (at - first <= BURST_MS) withFirst++;
    text += piece;
  }
  const since = (at: number | undefined) => (at === undefined ? undefined : at - t0);
  return {
    path,
    firstTokenMs: first ?? NaN,
    totalMs: performance.now() - t0,
    chars: text.length,
    sameAnswer: text === expected,
    resolvedMs,
    providerCalledMs: since(path === 'lm' ? stamps.providerCalledAt : seam?.calledAt),
    providerFirstReportMs: since(path === 'lm' ? stamps.providerFirstReportAt : seam?.firstReportAt),
    ...(path === 'lm' && stamps.connectMs !== undefined ? { connectMs: stamps.connectMs } : {}),
    pieces,
    piecesWithFirst: withFirst,
  };
}

async function viaPlayground(api: ExtensionApi, run: number, expected: string): Promise<ChatRun> {
  const panel = api.playground.panels[0];
  if (!panel) throw new Error('no playground panel');
  const runId = `bench-${run}`;
  const posted: HostToWebview[] = [];
  stamps = {};
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
    path: 'playground',
    firstTokenMs: chunks[0]?.ttfbMs ?? NaN,
    totalMs,
    chars: text.length,
    sameAnswer: text === expected,
    ...(stamps.connectMs !== undefined ? { connectMs: stamps.connectMs } : {}),
  };
}

async function selectOne(vendor: string, id: string): Promise<vscode.LanguageModelChat> {
  const [model] = await vscode.lm.selectChatModels({ vendor, id });
  if (!model) throw new Error(`vscode.lm has no ${vendor}/${id}`);
  return model;
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
    instrument(api);
    const bareExt = vscode.extensions.getExtension(BARE_EXTENSION_ID);
    if (!bareExt) throw new Error(`${BARE_EXTENSION_ID} is not installed`);
    await bareExt.activate();
    await vscode.commands.executeCommand(COMMANDS.openPlayground);
    // Nothing is posted to the page before it said `ready`.
    const panel = api.playground.panels[0];
    if (!panel) throw new Error('the command opened no playground panel');
    await Promise.race([
      panel.ready,
      new Promise((_, reject) => setTimeout(() => reject(new Error('the playground page never said ready')), 60_000)),
    ]);
    const ours = await selectOne(CHAT_VENDOR, CHAT_MODEL);
    const bare = await selectOne(BARE_VENDOR, BARE_MODEL);
    // A warm-up of each path, not counted; our provider's answer through vscode.lm is what every run must deliver
    // (the emulator's answer is deterministic), through any path; the bare provider is given it to answer with.
    let answer = '';
    const response = await ours.sendRequest([vscode.LanguageModelChatMessage.User(CHAT_PROMPT)], {});
    for await (const piece of response.text) answer += piece;
    const parts = tokenize(answer);
    const intervalMs = Number(process.env[CHAT_TOKEN_MS_ENV] ?? 1);
    (globalThis as { [BARE_GLOBAL]?: BareChatSeam })[BARE_GLOBAL] = { parts, intervalMs };
    const warm = await viaPlayground(api, -1, answer);
    if (!warm.sameAnswer) throw new Error(`the two paths answered differently (${warm.chars} vs ${answer.length} chars)`);
    const warmBare = await viaLm(bare, 'bare', answer);
    if (!warmBare.sameAnswer) throw new Error(`the bare provider's answer differs (${warmBare.chars} vs ${answer.length} chars)`);
    const paths: readonly ChatPath[] = ['lm', 'bare', 'playground'];
    for (let i = 0; i < runs; i++) {
      // Interleaved, the order rotating, so drift of a shared machine hits all three alike.
      const order = paths.map((_, k) => paths[(i + k) % paths.length]!);
      for (const p of order) {
        result.runs.push(p === 'playground' ? await viaPlayground(api, i, answer) : await viaLm(p === 'lm' ? ours : bare, p, answer));
      }
    }
  } catch (error) {
    result.error = error instanceof Error ? (error.stack ?? error.message) : String(error);
  }
  fs.writeFileSync(file, JSON.stringify(result));
}
