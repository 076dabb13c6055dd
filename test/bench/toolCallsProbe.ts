// Loaded by the VS Code extension host as `extensionTestsPath` (test/bench/figures/toolCalls.ts), with the working
// tree's extension under development: times hosted_list_models and hosted_ask_model (a short prompt) three ways, each
// against the emulator, interleaved in one run, and writes every call to HR_BENCH_TOOL_RESULT:
//   invokeTool: vscode.lm.invokeTool, as an agent or another extension calls our tools (through the workbench);
//   tool: our tool's own invoke, called in this extension host (what the entry's registered tool forwards to);
//   direct: the same service calls the tool makes, made here without the tool (session.connect() and the client's
//           listModels; the one inference call Chat and the playground make, askModel).
// invokeTool beyond tool is VS Code's plumbing; tool beyond direct is ours (input checks, the result's text).
import * as fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/main';
import type { ExtensionExports } from '../../src/extension';
import { LM_TOOLS } from '../../src/contributions';
import { askModel } from '../../src/features/chat/chatInference';
import { knobsFor, renderConversation } from '../../src/features/chat/chatRequest';
import { modelLines } from '../../src/features/tools/toolText';
import { CHAT_MODEL, CHAT_PROMPT } from './chatLatencyShared';
import { TOOL_RESULT_ENV, TOOL_RUNS_ENV, type ToolCallsResult, type ToolOperation, type ToolPath, type ToolRun } from './toolCallsShared';

const EXTENSION_ID = 'hosted-reasoning.hosted-reasoning';
const ASK_INPUT = { modelName: CHAT_MODEL, prompt: CHAT_PROMPT };
const OPERATIONS: readonly ToolOperation[] = ['listModels', 'askModel'];
const PATHS: readonly ToolPath[] = ['invokeTool', 'tool', 'direct'];

function resultText(result: vscode.LanguageModelToolResult): string {
  return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

/** One call of an operation through a path; its text, to compare with the warm-up's. */
async function call(api: ExtensionApi, operation: ToolOperation, path: ToolPath): Promise<string> {
  const input = operation === 'listModels' ? {} : ASK_INPUT;
  const name = operation === 'listModels' ? LM_TOOLS.listModels : LM_TOOLS.askModel;
  const cancel = new vscode.CancellationTokenSource();
  try {
    if (path === 'invokeTool') {
      return resultText(await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, cancel.token));
    }
    if (path === 'tool') {
      const result = await api.tools[name].invoke({ input, toolInvocationToken: undefined }, cancel.token);
      if (!result) throw new Error(`${name} returned no result`);
      return resultText(result);
    }
    const { services } = api;
    if (operation === 'listModels') {
      const { client, scope } = await services.session.connect();
      const list = await client.listModels({ interactive: true });
      return modelLines(list, services.jobs.list(scope)).join('\n');
    }
    let answer = '';
    const knobs = knobsFor({}, services.session.settings().chat);
    const conversation = renderConversation([{ role: 'user', text: CHAT_PROMPT }]);
    for await (const piece of askModel(services, CHAT_MODEL, conversation, knobs, new AbortController().signal)) {
      if (piece.kind !== 'reasoning') answer += piece.text;
    }
    return answer;
  } finally {
    cancel.dispose();
  }
}

export async function run(): Promise<void> {
  const file = process.env[TOOL_RESULT_ENV];
  if (!file) throw new Error(`${TOOL_RESULT_ENV} is not set`);
  const runs = Number(process.env[TOOL_RUNS_ENV] ?? 15);
  const result: ToolCallsResult = { vscodeVersion: vscode.version, runs: [] };
  try {
    const ext = vscode.extensions.getExtension<ExtensionExports>(EXTENSION_ID);
    if (!ext) throw new Error(`${EXTENSION_ID} is not loaded`);
    const api = await (await ext.activate()).main();
    // A warm-up of every operation and path, not counted: the first connection, the first tool resolution; its text
    // is what every later call of the same path must give (the emulator's answers are deterministic).
    const expected = new Map<string, string>();
    for (const operation of OPERATIONS) {
      for (const path of PATHS) {
        const text = await call(api, operation, path);
        if (text.trim() === '') throw new Error(`${operation} through ${path} gave no text`);
        if (/failed:/.test(text)) throw new Error(`${operation} through ${path} failed: ${text}`);
        expected.set(`${operation}/${path}`, text);
      }
    }
    for (let i = 0; i < runs; i++) {
      for (const operation of OPERATIONS) {
        // Interleaved, the order rotating, so drift of a shared machine hits every path alike.
        const order = PATHS.map((_, k) => PATHS[(i + k) % PATHS.length]!);
        for (const path of order) {
          const t0 = performance.now();
          const text = await call(api, operation, path);
          const run: ToolRun = {
            operation,
            path,
            ms: performance.now() - t0,
            sameResult: text === expected.get(`${operation}/${path}`),
          };
          result.runs.push(run);
        }
      }
    }
  } catch (error) {
    result.error = error instanceof Error ? (error.stack ?? error.message) : String(error);
  }
  fs.writeFileSync(file, JSON.stringify(result));
}
