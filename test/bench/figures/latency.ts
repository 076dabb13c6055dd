// Figure 3: token latency in the playground. The emulator (this process) streams numbered words at 2,000 tokens/s
// (tokenIntervalMs 0.5, a schedule from the stream's start) and records when it writes each token; the playground, in
// VS Code's server build opened in headless Chromium (the e2e harness, with the working tree's dist/ as the development
// extension), is watched through the playground's observer seam (src/features/playground/latencyObserver.ts): in the extension
// host by a helper extension installed beside it (test/bench/latencyHostObserver.ts: each chunk's read and post), in
// the page by an observer set here through Playwright (each chunk's arrival, each rendered frame). A token's latency is
// the time of the first frame whose character count includes it minus its write time, all on the epoch clock
// (performance.timeOrigin + performance.now() on each side, same machine); the host stamps split it into stages (host
// read and batching, webview messaging, the page).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { BrowserContext, Frame, Page } from 'playwright-core';
import { writeDemoWorkspace } from '../../../scripts/demoWorkspace';
import { PlaygroundPage } from '../../e2e/playgroundPage';
import { eventually, Workbench } from '../../e2e/workbench';
import { OBSERVER_GLOBAL } from '../../../src/features/playground/latencyObserver';
import { startEmulator, type Emulator } from '../../service/emulator';
import { tokensOf } from '../../service/inference';
import { describeMissing, missingBrowser } from '../../runners/hostPrerequisites';
import { extensionBundlePath, NEWEST_HOST, repoRoot } from '../../runners/vscodeServerLayout';
import { startVscodeServer, type VscodeServer } from '../../runners/vscodeServerProcess';
import { launchBrowser, openWorkbench, workbenchUrl } from '../../runners/workbenchBrowser';
import { withTemporaryHome } from '../../runners/temporaryHome';
import { askOnce } from '../askOnce';
import { bySize, notMeasuredTiny, type FigureOptions } from '../figure';
import {
  BARE_COMMAND,
  BARE_COMMAND_TITLE,
  BARE_TITLE,
  EMULATOR_KEY_ENV,
  EMULATOR_URL_ENV,
  STAMPS_ENV,
  type HostStamp,
} from '../latencyShared';
import { runsTable, type FigureResult } from '../report';
import { fmt } from '../stats';

export const KEY = 'demo-key';
export const MODEL = 'oss-reasoner-8b';
export const TOKEN_INTERVAL_MS = 0.5;
/** The playground's p99 may exceed a bare webview's (every token posted as it arrives, same VS Code, same rate) by one frame. */
export const GOAL_OVER_BARE_MS = 16;
const WARM_UP_WORDS = 500;
export const PROMPT = 'Count for the latency benchmark';

/** What the page's observer logs; times are the page's performance.now(). */
interface PageLog {
  chunks: { runId: string; seq: number; receivedAt: number; chars: number }[];
  frames: { runId: string; renderedAt: number; renderMs: number; chars: number }[];
}

const PAGE_LOG = '__hrLatencyLog';
const HELPER_ID = 'hr-bench.latency-observer';

/** Sets the page's observer (again, should the page have been re-created) and empties its log. */
async function resetPageLog(content: Frame): Promise<void> {
  await content.evaluate(
    ([observerKey, logKey]) => {
      const w = window as unknown as Record<string, unknown>;
      const log: PageLog = { chunks: [], frames: [] };
      w[logKey] = log;
      w[observerKey] = {
        chunkArrived: (runId: string, seq: number, chars: number) => log.chunks.push({ runId, seq, receivedAt: performance.now(), chars }),
        frameRendered: (runId: string, chars: number, startedAt: number) => {
          const renderedAt = performance.now();
          log.frames.push({ runId, renderedAt, renderMs: renderedAt - startedAt, chars });
        },
      };
    },
    [OBSERVER_GLOBAL, PAGE_LOG] as const,
  );
}

/** The helper extension's modules, required by absolute path from the extension it writes (helperExtension). */
const HELPER_MODULES = ['latencyHostObserver', 'bareWebview'].map((name) => path.join(__dirname, '..', `${name}.js`));

/**
 * The helper extension: sets the observer in the extension host (test/bench/latencyHostObserver.ts) and offers the
 * reference, a bare webview (test/bench/bareWebview.ts).
 */
function helperExtension(extensionsDir: string): void {
  const dir = path.join(extensionsDir, `${HELPER_ID}-0.0.1`);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify(
      {
        name: HELPER_ID.split('.')[1],
        publisher: HELPER_ID.split('.')[0],
        version: '0.0.1',
        engines: { vscode: '^1.100.0' },
        main: './extension.js',
        activationEvents: ['*'],
        contributes: { commands: [{ command: BARE_COMMAND, title: BARE_COMMAND_TITLE }] },
      },
      null,
      2,
    ),
  );
  const [observer, bare] = HELPER_MODULES.map((file) => `require(${JSON.stringify(file)})`);
  fs.writeFileSync(
    path.join(dir, 'extension.js'),
    [
      `const observer = ${observer};`,
      `const bare = ${bare};`,
      'exports.activate = (context) => { observer.activate(); bare.activate(context); };',
      'exports.deactivate = () => observer.deactivate();',
      '',
    ].join('\n'),
  );
}

/** Which page a run goes through: the playground, or the bare webview (the reference; no host stamps). */
type Subject = 'playground' | 'bare';

function hostStamps(file: string): HostStamp[] {
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as HostStamp[]) : [];
}

/** What the model "writes": numbered words w000000, w000001… in one of two shapes. */
export type Shape = 'answer' | 'oneParagraph';
const SHAPES: readonly Shape[] = ['answer', 'oneParagraph'];

const PARAGRAPH_WORDS = 60;
const LIST_ITEMS = 4;
const ITEM_WORDS = 8;
const CODE_LINES = 6;
const CODE_LINE_WORDS = 4;

/**
 * The answer's text and, per emulator token, the text length up to its end and the number of the word it carries. A
 * word's number is unique, so the shown text says which words arrived; the character count of a rendered frame says
 * which tokens it shows. `answer` is shaped like a model's answer (paragraphs of 60 words, a four-item list, a code
 * block of six lines, in turn); `oneParagraph` is every word in a single paragraph, the worst case for rendering.
 */
export function answerText(words: number, shape: Shape): { text: string; ends: number[]; tokens: number } {
  const word = (i: number) => `w${String(i).padStart(6, '0')}`;
  const parts: string[] = [];
  let next = 0;
  const take = (n: number, sep: string) => {
    const out: string[] = [];
    for (let k = 0; k < n && next < words; k++) out.push(word(next++));
    return out.join(sep);
  };
  if (shape === 'oneParagraph') {
    parts.push(take(words, ' '));
  } else {
    for (let block = 0; next < words; block++) {
      const kind = block % 5;
      if (kind === 2) {
        parts.push(
          Array.from({ length: LIST_ITEMS }, () => `- ${take(ITEM_WORDS, ' ')}`)
            .filter((l) => l !== '- ')
            .join('\n'),
        );
      } else if (kind === 4) {
        parts.push(['```text', ...Array.from({ length: CODE_LINES }, () => take(CODE_LINE_WORDS, ' ')).filter((l) => l), '```'].join('\n'));
      } else parts.push(take(PARAGRAPH_WORDS, ' '));
    }
  }
  const text = parts.filter((p) => p).join('\n\n');
  const tokens = tokensOf(text);
  if (tokens.join('') !== text) throw new Error("the emulator's tokens do not make up the text");
  let end = 0;
  return { text, ends: tokens.map((t) => (end += t.length)), tokens: tokens.length };
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

interface RunResult {
  tokens: number;
  lost: number;
  rate: number;
  chunks: number;
  frames: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** Per chunk: emulator write of its first token -> the extension host read it from the response. */
  toHost: number[];
  /** Per token: emulator write -> the extension host posted the chunk holding it (reading, batching). */
  toPost: number[];
  /** Per token: the host posted its chunk -> the chunk arrived in the page (VS Code's webview messaging). */
  ipc: number[];
  /** Per token: its chunk arrives in the page -> the first frame showing it is laid out. */
  page: number[];
  /** Per frame: time spent in the page's render (markdown, DOM, layout). */
  renderMs: number[];
  latencies: number[];
  clockCheck: string;
}

async function oneRun(
  emu: Emulator,
  pg: PlaygroundPage,
  stampsFile: string,
  words: number,
  shape: Shape,
  subject: Subject = 'playground',
): Promise<RunResult> {
  const { text, ends, tokens: count } = answerText(words, shape);
  emu.configure({ responseText: text, recordTokenWrites: true });
  emu.tokenWrites.length = 0;
  const { content } = await pg.frames();
  await resetPageLog(content);
  // fill(), not typing: keystrokes into a page that is still busy with the last run's end can go astray.
  if (subject === 'playground') await pg.prompt.fill(PROMPT);
  await pg.run.click();
  await eventually('the answer to finish', async () => ((await pg.status.innerText()) === 'Done.' ? true : undefined), 120_000, 100);
  // "Done." is painted before the frame that renders the last text: wait for that frame (if it never comes, the
  // tokens it would show count as lost).
  await eventually(
    'the last frame',
    async () =>
      (await content.evaluate(
        ([length, logKey]) => {
          const frames = (window as unknown as Record<string, PageLog>)[logKey]?.frames ?? [];
          return frames[frames.length - 1]?.chars === length;
        },
        [text.length, PAGE_LOG] as const,
      )) || undefined,
    10_000,
    50,
  ).catch(() => undefined);
  emu.configure({ recordTokenWrites: false });
  const writes = [...emu.tokenWrites];
  const { log, origin } = await content.evaluate(
    (logKey) => ({
      log: (window as unknown as Record<string, PageLog | undefined>)[logKey],
      origin: performance.timeOrigin,
    }),
    PAGE_LOG,
  );
  if (!log) throw new Error('the page kept no log of the run');
  const clockCheck = await checkClock(content);
  const runId = log.chunks[log.chunks.length - 1]?.runId;
  const chunks = log.chunks.filter((e) => e.runId === runId);
  const lastSeq = chunks[chunks.length - 1]?.seq;
  const stampsOf = () =>
    new Map(
      hostStamps(stampsFile)
        .filter((s) => s.runId === runId)
        .map((s) => [s.seq, s]),
    );
  if (subject === 'playground') {
    await eventually('the host stamps of the run', async () => (stampsOf().has(lastSeq ?? -1) ? true : undefined), 10_000, 50).catch(() => {
      throw new Error('the extension host wrote no stamps for the run: the helper extension did not set the observer');
    });
  }
  const hostBySeq = stampsOf();
  const frames = log.frames.filter((e) => e.runId === runId && e.chars > 0);
  const shown = await pg.output.innerText();
  const seen = new Set(shown.match(/w\d{6}/g) ?? []);
  let lost = 0;
  for (let i = 0; i < words; i++) if (!seen.has(`w${String(i).padStart(6, '0')}`)) lost++;
  if (writes.length !== count) throw new Error(`the emulator wrote ${writes.length} tokens, not ${count}`);
  const latencies: number[] = [];
  const toHost: number[] = [];
  const toPost: number[] = [];
  const ipc: number[] = [];
  const page: number[] = [];
  let f = 0;
  let c = 0;
  let firstOf = -1;
  for (let i = 0; i < count; i++) {
    while (f < frames.length && frames[f]!.chars < ends[i]!) f++;
    while (c < chunks.length && chunks[c]!.chars < ends[i]!) c++;
    if (f === frames.length || c === chunks.length) {
      lost++;
      continue;
    }
    const frame = frames[f]!;
    const chunk = chunks[c]!;
    const written = writes[i]!;
    latencies.push(origin + frame.renderedAt - written);
    page.push(frame.renderedAt - chunk.receivedAt);
    if (subject === 'bare') continue;
    const stamps = hostBySeq.get(chunk.seq);
    if (!stamps) throw new Error(`no host stamp for chunk ${chunk.seq}`);
    if (c !== firstOf) {
      firstOf = c;
      toHost.push(stamps.readAt - writes[i]!);
    }
    toPost.push(stamps.postedAt - written);
    ipc.push(origin + chunk.receivedAt - stamps.postedAt);
  }
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    tokens: count,
    lost,
    rate: (count - 1) / ((writes[count - 1]! - writes[0]!) / 1000),
    chunks: chunks.length,
    frames: frames.length,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1] ?? NaN,
    toHost,
    toPost,
    ipc,
    page,
    renderMs: frames.map((e) => e.renderMs),
    latencies,
    clockCheck,
  };
}

/** Reads the page's epoch clock between two readings of ours: it must lie between them (less the round trip). */
export async function checkClock(content: Frame): Promise<string> {
  let best = { before: 0, page: 0, after: Infinity };
  for (let i = 0; i < 5; i++) {
    const before = performance.timeOrigin + performance.now();
    const page = await content.evaluate(() => performance.timeOrigin + performance.now());
    const after = performance.timeOrigin + performance.now();
    if (after - before < best.after - best.before) best = { before, page, after };
  }
  return `page clock ${fmt(best.page - best.before)} ms after our reading before, ${fmt(best.after - best.page)} ms before our reading after`;
}

export const ASKED_RATE = 1000 / TOKEN_INTERVAL_MS;

const SHAPE_TITLES: Record<Shape, string> = {
  answer: 'answer-shaped text',
  oneParagraph: 'worst case, one paragraph',
};

export interface Dist {
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export function dist(values: number[]): Dist {
  if (values.length === 0) return { p50: NaN, p90: NaN, p99: NaN, max: NaN };
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p90: percentile(sorted, 90), p99: percentile(sorted, 99), max: sorted[sorted.length - 1] ?? NaN };
}

interface ShapeSummary extends Dist {
  shape: Shape;
  runs: number;
  tokensPerRun: number;
  tokens: number;
  lost: number;
  /** Median of the runs' achieved send rates, and their range. */
  rate: number;
  rateLow: number;
  rateHigh: number;
  p99Low: number;
  p99High: number;
  toHost: Dist;
  toPost: Dist;
  ipc: Dist;
  page: Dist;
  renderMs: Dist;
  framesPerSecond: number;
  chunksPerSecond: number;
  results: RunResult[];
}

function summarizeShape(shape: Shape, results: RunResult[]): ShapeSummary {
  const all = (pick: (r: RunResult) => number[]) => results.flatMap(pick);
  const rates = results.map((r) => r.rate).sort((a, b) => a - b);
  const p99s = results.map((r) => r.p99).sort((a, b) => a - b);
  const seconds = results.reduce((n, r) => n + r.tokens / r.rate, 0);
  return {
    shape,
    ...dist(all((r) => r.latencies)),
    runs: results.length,
    tokensPerRun: results[0]?.tokens ?? 0,
    tokens: results.reduce((n, r) => n + r.tokens, 0),
    lost: results.reduce((n, r) => n + r.lost, 0),
    rate: rates[Math.floor(rates.length / 2)] ?? NaN,
    rateLow: rates[0] ?? NaN,
    rateHigh: rates[rates.length - 1] ?? NaN,
    p99Low: p99s[0] ?? NaN,
    p99High: p99s[p99s.length - 1] ?? NaN,
    toHost: dist(all((r) => r.toHost)),
    toPost: dist(all((r) => r.toPost)),
    ipc: dist(all((r) => r.ipc)),
    page: dist(all((r) => r.page)),
    renderMs: dist(all((r) => r.renderMs)),
    framesPerSecond: results.reduce((n, r) => n + r.frames, 0) / seconds,
    chunksPerSecond: results.reduce((n, r) => n + r.chunks, 0) / seconds,
    results,
  };
}

export function distCells(d: Dist): string[] {
  return [fmt(d.p50), fmt(d.p90), fmt(d.p99), fmt(d.max)];
}

function section(summaries: ShapeSummary[], bare: ShapeSummary[], load: number[]): string {
  return [
    '## 3. Token latency in the playground',
    '',
    runsTable(
      ['Shape', 'Sent tokens/s (median, range)', 'One-minute load average during the runs'],
      summaries.map((m) => [
        SHAPE_TITLES[m.shape],
        `${fmt(m.rate, 0)} (${fmt(m.rateLow, 0)}–${fmt(m.rateHigh, 0)})`,
        `${fmt(Math.min(...load))}–${fmt(Math.max(...load))}`,
      ]),
    ),
    '',
    runsTable(
      ['Shape', 'Stage (ms)', 'per', 'p50', 'p90', 'p99', 'max'],
      summaries
        .flatMap((m) => [
          [SHAPE_TITLES[m.shape], '**write → shown** (lost: ' + m.lost + ')', 'token', ...distCells(m)],
          ['', "write → host read the chunk's first token", 'chunk', ...distCells(m.toHost)],
          ['', 'write → host posted the chunk (read + batching)', 'token', ...distCells(m.toPost)],
          ['', 'host post → page has the chunk', 'token', ...distCells(m.ipc)],
          ['', 'page has the chunk → frame shows it', 'token', ...distCells(m.page)],
          [
            '',
            `rendering one frame (${fmt(m.framesPerSecond, 0)} frames/s, ${fmt(m.chunksPerSecond, 0)} chunks/s)`,
            'frame',
            ...distCells(m.renderMs),
          ],
        ])
        .concat(
          bare.flatMap((b) => [
            [`bare webview, ${SHAPE_TITLES[b.shape]}`, '**write → shown** (lost: ' + b.lost + ')', 'token', ...distCells(b)],
            ['', 'page has the token → frame shows it', 'token', ...distCells(b.page)],
            [
              '',
              `rendering one frame (${fmt(b.framesPerSecond, 0)} frames/s, ${fmt(b.chunksPerSecond, 0)} tokens/s)`,
              'frame',
              ...distCells(b.renderMs),
            ],
          ]),
        ),
    ),
    '',
    runsTable(
      [
        'Shape',
        'Run',
        'Tokens',
        'Sent/s',
        'Chunks',
        'Frames',
        'p50 ms',
        'p99 ms',
        'Max ms',
        'Lost',
        'host read p99 ms',
        'render p99 ms',
        'Clock check',
      ],
      [...summaries, ...bare.map((b) => ({ ...b, bare: true }))].flatMap((m) =>
        m.results.map((r, i) => [
          `${'bare' in m ? 'bare webview, ' : ''}${SHAPE_TITLES[m.shape]}`,
          i + 1,
          r.tokens,
          fmt(r.rate, 0),
          r.chunks,
          r.frames,
          fmt(r.p50),
          fmt(r.p99),
          fmt(r.max),
          r.lost,
          fmt(dist(r.toHost).p99),
          fmt(dist(r.renderMs).p99),
          r.clockCheck,
        ]),
      ),
    ),
  ].join('\n');
}

/** The playground in VS Code's server build, in headless Chromium, against an emulator in this process. */
export interface PlaygroundBench {
  readonly emu: Emulator;
  readonly page: Page;
  readonly pg: PlaygroundPage;
  readonly browser: BrowserContext;
  /** The helper extension's host stamps (test/bench/latencyHostObserver.ts). */
  readonly stampsFile: string;
  /** Brings the playground's tab to the front and waits for its (re-created) page. */
  readonly showPlayground: () => Promise<void>;
  /** Opens (or shows) the bare webview, the reference. */
  readonly showBare: () => Promise<void>;
  readonly close: () => Promise<void>;
}

/** What the playground bench sets up before VS Code starts: a temp folder, the emulator, the workspace and settings. */
interface PlaygroundSetup {
  readonly tmp: string;
  readonly emu: Emulator;
  readonly workspace: string;
  readonly userDataDir: string;
  readonly extensionsDir: string;
  readonly stampsFile: string;
  readonly close: () => Promise<void>;
}

/** The emulator (paced at TOKEN_INTERVAL_MS), the demo workspace, the user settings and the helper extension. */
async function preparePlayground(): Promise<PlaygroundSetup> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hr-bench-latency-'));
  const workspace = path.join(tmp, 'workspace');
  const userDataDir = path.join(tmp, 'server-data');
  const extensionsDir = path.join(tmp, 'extensions');
  fs.mkdirSync(extensionsDir);
  let emu: Emulator | undefined;
  const close = async () => {
    await emu?.close().catch(() => undefined);
    fs.rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });
  };
  try {
    emu = await startEmulator({ tokenIntervalMs: TOKEN_INTERVAL_MS });
    await writeDemoWorkspace(workspace);
    const settingsFile = path.join(userDataDir, 'User', 'settings.json');
    fs.mkdirSync(path.dirname(settingsFile), { recursive: true });
    fs.writeFileSync(
      settingsFile,
      JSON.stringify({
        'hostedReasoning.baseUrl': emu.url,
        'workbench.startupEditor': 'none',
        'git.openRepositoryInParentFolders': 'never',
        'telemetry.telemetryLevel': 'off',
      }),
    );
    helperExtension(extensionsDir);
    return { tmp, emu, workspace, userDataDir, extensionsDir, stampsFile: path.join(tmp, 'host-stamps.json'), close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * A tiny run of a playground figure (3 and 11) without VS Code: the bench's set-up as the full run does it, the helper
 * extension's modules present, and `text` streamed once by the emulator with its token writes recorded, as the
 * figure reads them; returns how many tokens the emulator recorded writing.
 */
export async function checkPlaygroundHarness(configure: (emu: Emulator) => void): Promise<number> {
  for (const file of HELPER_MODULES) {
    if (!fs.existsSync(file)) throw new Error(`the playground bench's helper extension requires ${file}, which is missing`);
  }
  const setup = await preparePlayground();
  try {
    const { emu } = setup;
    configure(emu);
    emu.configure({ recordTokenWrites: true });
    emu.tokenWrites.length = 0;
    await askOnce(emu.url, KEY, PROMPT, MODEL);
    emu.configure({ recordTokenWrites: false });
    return emu.tokenWrites.length;
  } finally {
    await setup.close();
  }
}

/**
 * Starts the emulator (paced at TOKEN_INTERVAL_MS), VS Code's server with the helper extension, Chromium; sets the key
 * and opens the playground on MODEL from the Models view, as a person would.
 */
export async function openPlaygroundBench(): Promise<PlaygroundBench> {
  const missing = missingBrowser();
  if (missing.length > 0) throw new Error(describeMissing(missing, 'measure the playground latency'));
  if (!fs.existsSync(NEWEST_HOST.installMarkerPath)) {
    throw new Error('The VS Code server is not installed: run `node out/test/runners/setupVscodeServer.js`.');
  }
  if (!fs.existsSync(extensionBundlePath)) throw new Error('dist/extension.js is missing: run `npm run build`.');
  const setup = await preparePlayground();
  const { tmp, emu, workspace, userDataDir, extensionsDir, stampsFile } = setup;
  let server: VscodeServer | undefined;
  let browser: BrowserContext | undefined;
  const close = async () => {
    await browser?.close().catch(() => undefined);
    await server?.stop().catch(() => undefined);
    await setup.close();
  };
  try {
    const env: NodeJS.ProcessEnv = { [STAMPS_ENV]: stampsFile, [EMULATOR_URL_ENV]: emu.url, [EMULATOR_KEY_ENV]: KEY };
    for (const [name, value] of Object.entries(process.env)) {
      if (!name.startsWith('VSCODE_') && !name.startsWith('HOSTED_REASONING_')) env[name] = value;
    }
    server = startVscodeServer({
      vscode: NEWEST_HOST,
      payload: true,
      userDataDir,
      extensionsDir,
      env: withTemporaryHome(env, path.join(tmp, 'home')),
      log: () => undefined,
      startTimeoutMs: 60_000,
    });
    const port = await server.listening;
    browser = await launchBrowser(path.join(tmp, 'chromium-profile'), withTemporaryHome(process.env, path.join(tmp, 'browser-home')));
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
    const pg = new PlaygroundPage(page);
    await wb.inlineAction(wb.row('Models', `Base model ${MODEL}`), 'Open Playground', {
      what: 'the playground to open',
      holds: () => pg.prompt.isVisible(),
      retryAfterMs: 15_000,
    });
    await eventually(`the playground to choose ${MODEL}`, async () => ((await pg.modelSelect.inputValue()) === MODEL ? true : undefined));
    const showPlayground = async () => {
      await page.locator('.tabs-container [role="tab"]', { hasText: 'Playground' }).first().click();
      // The page was discarded while hidden (retainContextWhenHidden is off): wait for the restored one. Errors are
      // retried: while the tabs switch, two webviews can be visible for a moment.
      await eventually(
        'the playground page',
        async () => ((await pg.modelSelect.inputValue().catch(() => '')) === MODEL ? true : undefined),
        60_000,
      );
    };
    const showBare = async () => {
      await wb.runCommand(BARE_COMMAND_TITLE);
      await page.locator('.tabs-container [role="tab"]', { hasText: BARE_TITLE }).first().waitFor();
      await eventually(
        'the bare webview',
        async () => ((await pg.run.innerText().catch(() => '')) === 'Run' && !(await pg.prompt.count().catch(() => 1)) ? true : undefined),
        60_000,
      );
    };
    return { emu, page, pg, browser, stampsFile, showPlayground, showBare, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** A tiny run: each shape's text streamed once by the bench's emulator, no VS Code (see checkPlaygroundHarness). */
async function tiny(words: number): Promise<FigureResult> {
  const rows = [];
  for (const shape of SHAPES) {
    const { text, tokens } = answerText(words, shape);
    const written = await checkPlaygroundHarness((emu) => emu.configure({ responseText: text }));
    if (written !== tokens) throw new Error(`the emulator recorded ${written} token writes, not ${tokens}`);
    rows.push(
      notMeasuredTiny(
        `3. Token latency in the playground, ${SHAPE_TITLES[shape]}`,
        `set-up, helper extension, ${tokens} tokens streamed and their writes recorded`,
        `p99 ≤ bare webview's + ${GOAL_OVER_BARE_MS} ms, no token lost`,
      ),
    );
  }
  return { rows, section: '## 3. Token latency in the playground\n\nTiny run: the harness checked without VS Code.' };
}

export async function run(options: FigureOptions): Promise<FigureResult> {
  const runs = bySize(options, { full: 5, quick: 1, tiny: 0 });
  const words = bySize(options, { full: 10_000, quick: 1_000, tiny: 50 });
  if (options.size === 'tiny') return tiny(words);
  const results: Record<Shape, RunResult[]> = { answer: [], oneParagraph: [] };
  const bare: Record<Shape, RunResult[]> = { answer: [], oneParagraph: [] };
  /** One-minute load average before the measured runs and after each. */
  const load: number[] = [];
  const bench = await openPlaygroundBench();
  try {
    const { emu, pg, page, browser, stampsFile, showPlayground, showBare } = bench;
    const emulator = emu;
    const bareRuns = async (n: number) => {
      await showBare();
      for (const shape of SHAPES) {
        const res = await oneRun(emulator, pg, stampsFile, n, shape, 'bare');
        if (n === words) {
          console.log(
            `[latency] bare ${shape}: p50 ${fmt(res.p50)} ms, p99 ${fmt(res.p99)} ms, max ${fmt(res.max)} ms, ${res.lost} lost, ${fmt(res.rate, 0)} tokens/s; ${res.frames} frames`,
          );
          bare[shape].push(res);
        }
      }
      await showPlayground();
    };
    for (const shape of SHAPES) await oneRun(emu, pg, stampsFile, WARM_UP_WORDS, shape); // first render, markdown code paths, JIT
    await bareRuns(WARM_UP_WORDS);
    // The shapes take turns, and the playground and the bare webview take turns, so a change in the machine's load
    // touches all alike.
    load.push(os.loadavg()[0]!);
    for (let r = 0; r < runs; r++) {
      await bareRuns(words);
      for (const shape of SHAPES) {
        const res = await oneRun(emu, pg, stampsFile, words, shape);
        const q = (v: number[], p: number) =>
          fmt(
            percentile(
              [...v].sort((x, y) => x - y),
              p,
            ),
          );
        console.log(
          `[latency] ${shape} run ${r + 1}: p50 ${fmt(res.p50)} ms, p99 ${fmt(res.p99)} ms, max ${fmt(res.max)} ms, ${res.lost} lost, ` +
            `${fmt(res.rate, 0)} tokens/s; ${res.chunks} chunks, ${res.frames} frames; p50/p99 ms: write→host read ${q(res.toHost, 50)}/${q(res.toHost, 99)}, ` +
            `write→post ${q(res.toPost, 50)}/${q(res.toPost, 99)}, post→page ${q(res.ipc, 50)}/${q(res.ipc, 99)}, page→shown ${q(res.page, 50)}/${q(res.page, 99)}, ` +
            `render ${q(res.renderMs, 50)}/${q(res.renderMs, 99)}`,
        );
        results[shape].push(res);
        load.push(os.loadavg()[0]!);
      }
    }
    const profileDir = process.env.BENCH_LATENCY_PROFILE;
    if (profileDir) {
      // Diagnosis only, not in the figure: one more run with the renderer process of the workbench and the webview
      // frames CPU-profiled (open the file in Chrome DevTools' Performance panel or VS Code).
      const cdp = await browser.newCDPSession(page);
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
      await oneRun(emu, pg, stampsFile, words, 'answer');
      const { profile } = await cdp.send('Profiler.stop');
      fs.mkdirSync(profileDir, { recursive: true });
      fs.writeFileSync(path.join(profileDir, 'latency-page.cpuprofile'), JSON.stringify(profile));
    }
  } finally {
    await bench.close();
  }

  const summaries = SHAPES.map((shape) => summarizeShape(shape, results[shape]));
  const bareSummaries = SHAPES.map((shape) => summarizeShape(shape, bare[shape]));
  const rows = summaries.map((m, i) => {
    const bareOf = bareSummaries[i];
    if (!bareOf) throw new Error(`no bare-webview run for ${m.shape}`);
    return {
      figure:
        `3. Token latency in the playground, ${SHAPE_TITLES[m.shape]} (${m.runs} runs × ${m.tokensPerRun.toLocaleString('en-US')} tokens; ` +
        `asked ${fmt(ASKED_RATE, 0)} tokens/s, sent ${fmt(m.rate, 0)}/s; headless Chromium)`,
      subject: `p99 ${fmt(m.p99)} ms, ${m.lost} of ${m.tokens.toLocaleString('en-US')} tokens lost`,
      reference: `p99 ${fmt(bareOf.p99)} ms bare webview, ${bareOf.lost} lost`,
      ratio: `${m.p99 >= bareOf.p99 ? '+' : ''}${fmt(m.p99 - bareOf.p99)} ms`,
      spread: `p50 ${fmt(m.p50)} ms (bare ${fmt(bareOf.p50)}), max ${fmt(m.max)} ms (bare ${fmt(bareOf.max)}); per-run p99 ${fmt(m.p99Low)}–${fmt(m.p99High)} ms (bare ${fmt(bareOf.p99Low)}–${fmt(bareOf.p99High)})`,
      goal: `p99 ≤ bare webview's + ${GOAL_OVER_BARE_MS} ms, no token lost`,
      met: m.lost === 0 && m.p99 <= bareOf.p99 + GOAL_OVER_BARE_MS,
    };
  });
  return { rows, section: section(summaries, bareSummaries, load) };
}
