// Figure 3: token latency in the playground. The emulator (this process) streams a known sequence of numbered tokens
// at 2,000 tokens/s (tokenIntervalMs 0.5) and records when it writes each; the playground, in VS Code's server build
// opened in headless Chromium (the e2e harness, with the working tree's dist/ as the development extension), records
// when each frame is rendered and how many characters it shows (HR_PLAYGROUND_BENCH=1 -> window.__hrRenderLog).
// A token's latency is the render time of the first frame whose character count includes it minus its write time,
// both on the epoch clock (performance.timeOrigin + performance.now() on each side, same machine).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { BrowserContext, Frame } from 'playwright-core';
import { writeDemoWorkspace } from '../../../scripts/demoWorkspace';
import { PlaygroundPage } from '../../e2e/playgroundPage';
import { eventually, Workbench } from '../../e2e/workbench';
import { startEmulator, type Emulator } from '../../service/emulator';
import { tokensOf } from '../../service/inference';
import { describeMissing, missingBrowser } from '../../runners/hostPrerequisites';
import { extensionBundlePath, installMarkerPath, repoRoot } from '../../runners/vscodeServerLayout';
import { startVscodeServer, type VscodeServer } from '../../runners/vscodeServerProcess';
import { launchBrowser, openWorkbench, workbenchUrl } from '../../runners/workbenchBrowser';
import type { FigureOptions } from '../figure';
import { runsTable, type FigureResult } from '../report';
import { fmt } from '../stats';

const KEY = 'demo-key';
const MODEL = 'oss-reasoner-8b';
const TOKEN_INTERVAL_MS = 0.5;
const GOAL_P99_MS = 50;

interface RenderLogEntry {
  runId: string;
  seq: number;
  receivedAt: number;
  renderedAt: number;
  chars: number;
}

/** Tokens " w000000", " w000001"…: every one 8 characters, so the rendered character count says which tokens are shown. */
function numberedText(count: number): { text: string; ends: number[] } {
  const tokens = Array.from({ length: count }, (_, i) => ` w${String(i).padStart(6, '0')}`);
  const text = tokens.join('');
  const split = tokensOf(text);
  if (split.length !== count || split.some((t, i) => t !== tokens[i])) throw new Error('the emulator does not split the numbered text into the numbered tokens');
  let end = 0;
  return { text, ends: tokens.map((t) => (end += t.length)) };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

interface RunResult {
  tokens: number;
  lost: number;
  rate: number;
  frames: number;
  p50: number;
  p99: number;
  max: number;
  latencies: number[];
  clockCheck: string;
}

async function oneRun(emu: Emulator, pg: PlaygroundPage, count: number): Promise<RunResult> {
  const { text, ends } = numberedText(count);
  emu.configure({ responseText: text, recordTokenWrites: true });
  emu.tokenWrites.length = 0;
  const { content } = await pg.frames();
  await content.evaluate(() => {
    (window as unknown as { __hrRenderLog: unknown[] }).__hrRenderLog.length = 0;
  });
  await pg.ask('Count for the latency benchmark');
  await eventually('the answer to finish', async () => ((await pg.status.innerText()) === 'Done.' ? true : undefined), 120_000, 100);
  emu.configure({ recordTokenWrites: false });
  const writes = [...emu.tokenWrites];
  const { log, origin } = await content.evaluate(() => ({
    log: (window as unknown as { __hrRenderLog: RenderLogEntry[] }).__hrRenderLog.slice(),
    origin: performance.timeOrigin,
  }));
  const clockCheck = await checkClock(content);
  const runId = log[log.length - 1]?.runId;
  const frames = log.filter((e) => e.runId === runId);
  const shown = await pg.output.innerText();
  const seen = new Set(shown.match(/w\d{6}/g) ?? []);
  let lost = 0;
  for (let i = 0; i < count; i++) if (!seen.has(`w${String(i).padStart(6, '0')}`)) lost++;
  if (writes.length !== count) throw new Error(`the emulator wrote ${writes.length} tokens, not ${count}`);
  const latencies: number[] = [];
  let f = 0;
  for (let i = 0; i < count; i++) {
    while (f < frames.length && frames[f].chars < ends[i]) f++;
    if (f === frames.length) {
      lost++;
      continue;
    }
    latencies.push(origin + frames[f].renderedAt - writes[i]);
  }
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    tokens: count,
    lost,
    rate: (count - 1) / ((writes[count - 1] - writes[0]) / 1000),
    frames: frames.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1],
    latencies,
    clockCheck,
  };
}

/** Reads the page's epoch clock between two readings of ours: it must lie between them (less the round trip). */
async function checkClock(content: Frame): Promise<string> {
  let best = { before: 0, page: 0, after: Infinity };
  for (let i = 0; i < 5; i++) {
    const before = performance.timeOrigin + performance.now();
    const page = await content.evaluate(() => performance.timeOrigin + performance.now());
    const after = performance.timeOrigin + performance.now();
    if (after - before < best.after - best.before) best = { before, page, after };
  }
  return `page clock ${fmt(best.page - best.before)} ms after our reading before, ${fmt(best.after - best.page)} ms before our reading after`;
}

export async function run(options: FigureOptions): Promise<FigureResult> {
  const missing = missingBrowser();
  if (missing.length > 0) throw new Error(describeMissing(missing, 'measure the playground latency'));
  if (!fs.existsSync(installMarkerPath)) throw new Error('The VS Code server is not installed: run `node out/test/runners/setupVscodeServer.js`.');
  if (!fs.existsSync(extensionBundlePath)) throw new Error('dist/extension.js is missing: run `npm run build`.');
  const runs = options.quick ? 1 : 5;
  const count = options.quick ? 1_000 : 10_000;

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hr-bench-latency-'));
  const workspace = path.join(tmp, 'workspace');
  const userDataDir = path.join(tmp, 'server-data');
  const extensionsDir = path.join(tmp, 'extensions');
  fs.mkdirSync(extensionsDir);
  let emu: Emulator | undefined;
  let server: VscodeServer | undefined;
  let browser: BrowserContext | undefined;
  const results: RunResult[] = [];
  try {
    emu = await startEmulator({ tokenIntervalMs: TOKEN_INTERVAL_MS });
    await writeDemoWorkspace(workspace);
    const settingsFile = path.join(userDataDir, 'User', 'settings.json');
    fs.mkdirSync(path.dirname(settingsFile), { recursive: true });
    fs.writeFileSync(settingsFile, JSON.stringify({
      'hostedReasoning.baseUrl': emu.url,
      'workbench.startupEditor': 'none',
      'git.openRepositoryInParentFolders': 'never',
      'telemetry.telemetryLevel': 'off',
    }));
    const env: NodeJS.ProcessEnv = { HR_PLAYGROUND_BENCH: '1' };
    for (const [name, value] of Object.entries(process.env)) {
      if (!name.startsWith('VSCODE_') && !name.startsWith('HOSTED_REASONING_')) env[name] = value;
    }
    server = startVscodeServer({ userDataDir, extensionsDir, env, log: () => undefined, startTimeoutMs: 60_000 });
    const port = await server.listening;
    browser = await launchBrowser(path.join(tmp, 'chromium-profile'));
    await openWorkbench(browser, workbenchUrl({ port, workspace, extensionRoot: repoRoot }), () => undefined);
    const page = browser.pages()[0];
    if (!page) throw new Error('the browser has no page');
    await page.setViewportSize({ width: 1440, height: 900 });
    page.setDefaultTimeout(30_000);
    const wb = new Workbench(page);
    await wb.ready(60_000);

    await wb.showContainer('Hosted Reasoning');
    await wb.runCommand('Hosted Reasoning: Set API Key…');
    await wb.quickInputTitled('Hosted Reasoning: API Key');
    await page.keyboard.type(KEY);
    await page.keyboard.press('Enter');
    await wb.waitForRow('Models', `Base model ${MODEL}`, 30_000);
    await wb.inlineAction(wb.row('Models', `Base model ${MODEL}`), 'Open Playground');
    const pg = new PlaygroundPage(page);
    await pg.prompt.waitFor();
    await eventually(`the playground to choose ${MODEL}`, async () => ((await pg.modelSelect.inputValue()) === MODEL ? true : undefined));
    const { content } = await pg.frames();
    if (!(await content.evaluate(() => Array.isArray((window as unknown as { __hrRenderLog?: unknown }).__hrRenderLog)))) {
      throw new Error('the page has no render log: HR_PLAYGROUND_BENCH=1 did not reach the extension host');
    }
    await oneRun(emu, pg, Math.min(500, count)); // warm-up: first render, markdown code paths, JIT
    for (let r = 0; r < runs; r++) {
      const res = await oneRun(emu, pg, count);
      console.log(`[latency] run ${r + 1}: p50 ${fmt(res.p50)} ms, p99 ${fmt(res.p99)} ms, max ${fmt(res.max)} ms, ${res.lost} lost, ${fmt(res.rate, 0)} tokens/s`);
      results.push(res);
    }
  } finally {
    await browser?.close().catch(() => undefined);
    await server?.stop().catch(() => undefined);
    await emu?.close().catch(() => undefined);
    fs.rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });
  }

  const all = results.flatMap((r) => r.latencies).sort((a, b) => a - b);
  const p50 = percentile(all, 50);
  const p99 = percentile(all, 99);
  const max = all[all.length - 1];
  const lost = results.reduce((n, r) => n + r.lost, 0);
  const total = results.reduce((n, r) => n + r.tokens, 0);
  const rates = results.map((r) => r.rate).sort((a, b) => a - b);
  const rate = rates[Math.floor(rates.length / 2)];
  const p99s = results.map((r) => r.p99).sort((a, b) => a - b);
  const met = p99 <= GOAL_P99_MS && lost === 0;
  const rows = [{
    figure: `3. Token latency in the playground (${runs} runs × ${count.toLocaleString('en-US')} tokens, asked ${1000 / TOKEN_INTERVAL_MS} tokens/s, sent ${fmt(rate, 0)}/s, headless Chromium)`,
    subject: `p99 ${fmt(p99)} ms, ${lost} of ${total.toLocaleString('en-US')} tokens lost`,
    reference: '—',
    ratio: '—',
    spread: `p50 ${fmt(p50)} ms, max ${fmt(max)} ms; per-run p99 ${fmt(p99s[0])}–${fmt(p99s[p99s.length - 1])} ms`,
    goal: `p99 ≤ ${GOAL_P99_MS} ms, no token lost`,
    met,
  }];
  const section = [
    '## 3. Token latency in the playground',
    '',
    'Method: VS Code\'s server build with the working tree\'s build as the development extension, opened in headless',
    'Chromium through Playwright (the e2e harness, test/e2e/), its server started with `HR_PLAYGROUND_BENCH=1`, so the',
    'playground page records every rendered frame (`window.__hrRenderLog`: run, chunk, received and rendered time on the',
    'page\'s `performance.now()`, characters shown). The emulator runs in the benchmark process with `tokenIntervalMs`',
    `${TOKEN_INTERVAL_MS} (2,000 tokens/s asked) and \`recordTokenWrites\`, which stamps each token just before it is written`,
    'to the socket. Its answer (`responseText`) is a known sequence of numbered tokens of 8 characters each (` w000000`,',
    '` w000001`, …), so the character count of a rendered frame says which tokens it shows: a token\'s latency is the',
    'render time of the first frame that includes it minus its write time. Clocks: both times are on the epoch clock',
    '(`performance.timeOrigin + performance.now()` in Node and in the page, converted with the page\'s own',
    '`performance.timeOrigin`), on the same machine; a check after each run reads the page clock between two readings of',
    'ours. "Lost" counts tokens whose number is missing from the final output text or that no frame ever included.',
    `One warm-up run of 500 tokens precedes the measured runs; the figure pools all ${total.toLocaleString('en-US')} tokens.`,
    'The sending rate is what the emulator achieved (first to last write): Node timers do not fire faster than every',
    'millisecond, so a 0.5 ms interval may send fewer than 2,000 tokens/s; the table says what was sent.',
    '',
    runsTable(
      ['Run', 'Tokens', 'Sent/s', 'Frames', 'p50 ms', 'p99 ms', 'Max ms', 'Lost', 'Clock check'],
      results.map((r, i) => [i + 1, r.tokens, fmt(r.rate, 0), r.frames, fmt(r.p50), fmt(r.p99), fmt(r.max), r.lost, r.clockCheck]),
    ),
  ].join('\n');
  return { rows, section };
}
