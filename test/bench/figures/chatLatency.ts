// Figure 9: first-token time through `vscode.lm` (another extension's sendRequest, the provider answering through
// VS Code's own request plumbing) beside the playground's, for the same emulator answer, in one run. The emulator runs
// in this process (paced at 1 token/ms, no silence before the first byte); VS Code's server build (the newest host), opened in headless
// Chromium, runs the working tree's extension under development and the probe (test/bench/chatLatencyProbe.ts) as its
// tests entry. The vscode.lm time is the caller's: from sendRequest to the first piece of response.text, which crosses
// from the calling extension host to the workbench and back to the provider's. The playground's is its own: from the
// run's start to the first piece of text read in the extension host (the chunk's ttfbMs), before the webview.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { startEmulator } from '../../service/emulator';
import { describeMissing, missingBrowser } from '../../runners/hostPrerequisites';
import { HOSTS, NEWEST_HOST, repoRoot, testOutputDir, testWorkspacePath } from '../../runners/vscodeServerLayout';
import { startVscodeServer, type VscodeServer } from '../../runners/vscodeServerProcess';
import { launchBrowser, openWorkbench, workbenchUrl } from '../../runners/workbenchBrowser';
import { withTemporaryHome } from '../../runners/temporaryHome';
import type { FigureOptions } from '../figure';
import { CHAT_RESULT_ENV, CHAT_RUNS_ENV, type ChatLatencyResult } from '../chatLatencyShared';
import { runsTable, type FigureResult } from '../report';
import { fmt, range, summarize } from '../stats';

/** Through vscode.lm, the first token may come later than in the playground by VS Code's two hops, a few ms. */
const GOAL_OVER_PLAYGROUND_MS = 20;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function run(options: FigureOptions): Promise<FigureResult> {
  const missing = missingBrowser();
  if (missing.length > 0) throw new Error(describeMissing(missing));
  const host = process.env.HR_VSCODE_HOST === 'minimum' ? HOSTS.minimum : NEWEST_HOST;
  if (!fs.existsSync(host.installMarkerPath)) {
    throw new Error('The VS Code server is not installed: run `node out/test/runners/setupVscodeServer.js`.');
  }
  const runs = options.quick ? 3 : 15;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hr-bench-chat-'));
  const resultFile = path.join(tmp, 'result.json');
  // The server's output and the workbench's console, for a run that fails.
  const logFile = path.join(testOutputDir, 'bench-chat-latency.log');
  fs.mkdirSync(testOutputDir, { recursive: true });
  fs.writeFileSync(logFile, '');
  const emu = await startEmulator({ tokenIntervalMs: Number(process.env.HR_BENCH_CHAT_TOKEN_MS ?? 1) });
  let server: VscodeServer | undefined;
  let browser: BrowserContext | undefined;
  try {
    const env: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('VSCODE_')) env[k] = v;
    Object.assign(env, {
      HOSTED_REASONING_BASE_URL: emu.url,
      HOSTED_REASONING_API_KEY: 'demo-key',
      [CHAT_RESULT_ENV]: resultFile,
      [CHAT_RUNS_ENV]: String(runs),
    });
    server = startVscodeServer({
      // HR_VSCODE_HOST=minimum measures on the oldest supported VS Code instead.
      vscode: host,
      payload: true,
      userDataDir: path.join(tmp, 'server-data'),
      extensionsDir: path.join(tmp, 'extensions'),
      env: withTemporaryHome(env, path.join(tmp, 'home')),
      log: (line) => fs.appendFileSync(logFile, `${line}\n`),
      startTimeoutMs: 60_000,
    });
    const port = await server.listening;
    browser = await launchBrowser(path.join(tmp, 'chromium'), withTemporaryHome(process.env, path.join(tmp, 'browser-home')));
    const probe = path.join(repoRoot, 'out', 'test', 'bench', 'chatLatencyProbe.js');
    await openWorkbench(browser, workbenchUrl({ port, workspace: testWorkspacePath, extensionRoot: repoRoot, suiteIndex: probe }), (line) =>
      fs.appendFileSync(logFile, `${line}\n`),
    );
    const deadline = Date.now() + 120_000;
    while (!fs.existsSync(resultFile)) {
      if (Date.now() > deadline) throw new Error('the probe did not report within 120 s (see test-output/bench-chat-latency.log)');
      await sleep(200);
    }
    const result = JSON.parse(fs.readFileSync(resultFile, 'utf8')) as ChatLatencyResult;
    if (result.error) throw new Error(`the probe failed: ${result.error}`);
    return report(result);
  } finally {
    await browser?.close().catch(() => undefined);
    await server?.stop().catch(() => undefined);
    await emu.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

function report(result: ChatLatencyResult): FigureResult {
  const of = (p: 'lm' | 'playground') => result.runs.filter((r) => r.path === p);
  const lm = summarize(of('lm').map((r) => r.firstTokenMs));
  const pg = summarize(of('playground').map((r) => r.firstTokenMs));
  const whole = result.runs.every((r) => r.sameAnswer);
  const over = lm.median - pg.median;
  return {
    rows: [
      {
        figure: `9. First token through vscode.lm vs the playground (VS Code ${result.vscodeVersion})`,
        subject: `${fmt(lm.median, 1)} ms`,
        reference: `${fmt(pg.median, 1)} ms`,
        ratio: `${fmt(lm.median / pg.median, 2)}× (+${fmt(over, 1)} ms)`,
        spread: `${range(lm, ' ms', 1)} / ${range(pg, ' ms', 1)}`,
        goal: `≤ playground + ${GOAL_OVER_PLAYGROUND_MS} ms, same answer`,
        met: whole && over <= GOAL_OVER_PLAYGROUND_MS,
      },
    ],
    section: [
      'Method: test/bench/figures/chatLatency.ts. The same question to the same model, for the same emulator answer',
      `(every run's text compared: ${whole ? 'all equal' : '**not all equal**'}), ${of('lm').length} runs per path, interleaved.`,
      '',
      runsTable(
        ['run', 'path', 'sendRequest resolved (ms)', 'first token (ms)', 'whole answer (ms)', 'chars'],
        result.runs.map((r, i) => [
          i,
          r.path,
          r.resolvedMs === undefined ? '—' : fmt(r.resolvedMs, 1),
          fmt(r.firstTokenMs, 1),
          fmt(r.totalMs, 1),
          r.chars,
        ]),
      ),
    ].join('\n'),
  };
}
