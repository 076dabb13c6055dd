// Figure 13: a language-model tool call through `vscode.lm.invokeTool` beside the same operation made directly, for
// hosted_list_models and hosted_ask_model (a short prompt), in one run. The emulator runs in this process (paced at
// 1 token/ms, as in figure 9); VS Code's server build (the newest host; HR_VSCODE_HOST=minimum for 1.104), opened in
// headless Chromium, runs the working tree's extension under development and the probe (test/bench/toolCallsProbe.ts)
// as its tests entry. Each call is timed in the extension host from the call to its result: through invokeTool (to the
// workbench's tool service and back to our tool), through our tool's own invoke (no VS Code plumbing), and as the
// service calls the tool makes without it. The ratio invokeTool/direct is context: no goal is set for it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startEmulator } from '../../service/emulator';
import { repoRoot, testWorkspacePath } from '../../runners/vscodeServerLayout';
import { askOnce } from '../askOnce';
import { CHAT_MODEL, CHAT_PROMPT } from '../chatLatencyShared';
import { bySize, notMeasuredTiny, type FigureOptions } from '../figure';
import { runsTable, type FigureResult, type Row } from '../report';
import { fmt, range, summarize, type Summary } from '../stats';
import { TOOL_RESULT_ENV, TOOL_RUNS_ENV, type ToolCallsResult, type ToolOperation, type ToolPath } from '../toolCallsShared';
import { runProbeInVscode } from '../vscodeProbe';

/** The extension host's tests entry: times the tool calls (toolCallsProbe.ts). */
const PROBE = path.join(repoRoot, 'out', 'test', 'bench', 'toolCallsProbe.js');
const TITLE = '13. Tool calls through vscode.lm.invokeTool';
const LABEL: Record<ToolOperation, string> = { listModels: 'hosted_list_models', askModel: 'hosted_ask_model' };

/** A tiny run, no VS Code: the probe and the test workspace present, the emulator answering the probe's question. */
async function tiny(): Promise<FigureResult> {
  for (const file of [PROBE, testWorkspacePath]) {
    if (!fs.existsSync(file)) throw new Error(`the tool-call figure needs ${file}, which is missing`);
  }
  const emu = await startEmulator({ tokenIntervalMs: 1 });
  try {
    const answer = await askOnce(emu.url, 'demo-key', CHAT_PROMPT, CHAT_MODEL);
    if (answer === '') throw new Error("the emulator answered the probe's question with no text");
  } finally {
    await emu.close();
  }
  return {
    rows: [notMeasuredTiny(`${TITLE}, invokeTool / direct`, 'probe, test workspace, the emulator answering the question', '(context)')],
    section: `## ${TITLE}\n\nTiny run: the harness checked without VS Code.`,
  };
}

export async function run(options: FigureOptions): Promise<FigureResult> {
  if (options.size === 'tiny') return tiny();
  const runs = bySize(options, { full: 15, quick: 3, tiny: 0 });
  const result = await runProbeInVscode<ToolCallsResult>({
    probe: PROBE,
    tokenIntervalMs: 1,
    env: (resultFile) => ({ [TOOL_RESULT_ENV]: resultFile, [TOOL_RUNS_ENV]: String(runs) }),
    logName: 'bench-tool-calls.log',
  });
  return report(result);
}

function report(result: ToolCallsResult): FigureResult {
  const host = `VS Code ${result.vscodeVersion}`;
  const of = (op: ToolOperation, p: ToolPath) => result.runs.filter((r) => r.operation === op && r.path === p).map((r) => r.ms);
  const same = result.runs.every((r) => r.sameResult);
  const ms = (s: Summary) => `${fmt(s.median, 1)} ms`;
  const signed = (n: number) => `${n >= 0 ? '+' : ''}${fmt(n, 1)} ms`;
  const rows: Row[] = [];
  const stages: (string | number)[][] = [];
  for (const op of ['listModels', 'askModel'] as const) {
    const invoke = of(op, 'invokeTool');
    const tool = of(op, 'tool');
    const direct = of(op, 'direct');
    const rounds = Math.min(invoke.length, tool.length, direct.length);
    // Round i holds the i-th call of each path, made back to back: the added time round by round.
    const perRound = (a: number[], b: number[]) => summarize(Array.from({ length: rounds }, (_, i) => a[i]! - b[i]!));
    const [si, st, sd] = [summarize(invoke), summarize(tool), summarize(direct)];
    const added = perRound(invoke, direct);
    const plumbing = perRound(invoke, tool);
    const ours = perRound(tool, direct);
    rows.push({
      figure: `${TITLE}: ${LABEL[op]}, invokeTool vs the same service calls made directly (${host}, ${rounds} rounds)`,
      subject: `${ms(si)} invokeTool`,
      reference: `${ms(sd)} direct`,
      ratio: `${fmt(si.median / sd.median, 2)}× (${signed(added.median)} median per round)`,
      spread: `${range(si, ' ms', 1)} / ${range(sd, ' ms', 1)}; added per round ${range(added, ' ms', 1)}`,
      goal: same ? '(context)' : '(context) — **results differed between calls**',
      met: undefined,
    });
    stages.push([
      LABEL[op],
      fmt(si.median, 1),
      fmt(st.median, 1),
      fmt(sd.median, 1),
      signed(plumbing.median),
      signed(ours.median),
      `${fmt(si.median / sd.median, 2)}×`,
    ]);
  }
  return {
    rows,
    section: [
      `## ${TITLE}`,
      '',
      'Method: test/bench/figures/toolCalls.ts. In one extension host, each operation three ways against the emulator:',
      '`vscode.lm.invokeTool` (VS Code’s tool service in the workbench, back to our tool), our tool’s own `invoke` called',
      'directly (no VS Code plumbing), and the service calls the tool makes without it. Calls interleaved, the order',
      `rotating; every call's text compared with its path's warm-up: ${same ? 'all equal' : '**not all equal**'}.`,
      '',
      runsTable(
        [
          'operation (median, ms)',
          'invokeTool',
          'tool.invoke',
          'direct',
          'VS Code plumbing (per round)',
          'ours (per round)',
          'invokeTool / direct',
        ],
        stages,
      ),
      '',
      runsTable(
        ['call', 'operation', 'path', 'ms', 'same result'],
        result.runs.map((r, i) => [i, LABEL[r.operation], r.path, fmt(r.ms, 1), r.sameResult ? 'yes' : '**no**']),
      ),
    ].join('\n'),
  };
}
