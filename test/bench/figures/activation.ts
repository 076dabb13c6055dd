// Figure 1: activation in the real VS Code extension host (the server build the in-editor tests use, driven by
// headless Chromium), the extension as it ships (production bundle) beside an empty extension, over fresh extension
// hosts; the sizes of the bundles and the .vsix; and, as a cross-check that needs no VS Code, require() of the bundle
// in a fresh Node process with a stub `vscode`.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { BrowserContext } from 'playwright-core';
import { missingBrowser } from '../../runners/hostPrerequisites';
import { NEWEST_HOST, repoRoot, testOutputDir } from '../../runners/vscodeServerLayout';
import type { VscodeServer } from '../../runners/vscodeServerProcess';
import { EMPTY_ID, FLOOR_ID, PRIMER_ID, PROFILE_ENV, PROFILE_RUN_ENV, RESULT_ENV, SUBJECT_ID, type ProbeLine } from '../activationShared';
import { bySize, type FigureOptions } from '../figure';
import { runNodeJson } from '../proc';
import { runsTable, type FigureResult, type Row } from '../report';
import { launchBenchBrowser, startBenchServer } from '../vscodeProbe';
import { fmt, interleave, range, summarize } from '../stats';

/** Median of the paired differences (extension minus empty extension, same host). */
const GOAL_DELTA_MS = 2;
const kb = (n: number) => `${fmt(n / 1024, 0)} KB`;

function exec(cmd: string, args: string[], cwd: string, timeoutMs = 300_000): void {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout: timeoutMs, env: { ...process.env, npm_config_yes: 'true' } });
  if (r.status !== 0) {
    throw new Error(`${cmd} ${args.join(' ')} failed (${r.status ?? r.signal}): ${(r.stderr || r.stdout || '').slice(-1500)}`);
  }
}

/** The extension as it ships: the repository's own build script in production mode, then vsce, in a temp folder. */
const STARTUP_EVENT = 'onStartupFinished';

function stageProduction(staging: string): { vsix: string } {
  const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
  delete pkg.scripts?.['vscode:prepublish']; // done by hand below, in the staging folder instead of the repository's dist/
  fs.writeFileSync(path.join(staging, 'package.json'), JSON.stringify(pkg, null, 2));
  for (const file of [
    'LICENSE',
    'CHANGELOG.md',
    'package.nls.json',
    '.vscodeignore',
    'esbuild.mjs',
    'scripts/cliLean.cjs',
    'tsconfig.json',
    'tsconfig.base.json',
  ]) {
    if (!fs.existsSync(path.join(repoRoot, file))) continue;
    fs.mkdirSync(path.dirname(path.join(staging, file)), { recursive: true });
    fs.copyFileSync(path.join(repoRoot, file), path.join(staging, file));
  }
  // The README as `npm run package` ships it (screenshot lines left out: vsce refuses relative images without a repository).
  exec(process.execPath, [path.join(repoRoot, 'scripts', 'packageReadme.mjs'), path.join(staging, 'README.md')], repoRoot);
  fs.cpSync(path.join(repoRoot, 'media'), path.join(staging, 'media'), { recursive: true });
  // src is copied (a build script may compare resolved paths, which a symlink would change); node_modules is linked.
  fs.cpSync(path.join(repoRoot, 'src'), path.join(staging, 'src'), { recursive: true });
  fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(staging, 'node_modules'));
  try {
    exec(process.execPath, ['esbuild.mjs', '--production'], staging);
  } finally {
    fs.unlinkSync(path.join(staging, 'node_modules'));
    fs.rmSync(path.join(staging, 'src'), { recursive: true, force: true });
  }
  const vsix = path.join(staging, '..', `${path.basename(staging)}.vsix`);
  exec(
    process.execPath,
    [
      path.join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce'),
      'package',
      '--no-dependencies',
      '--allow-missing-repository',
      '--out',
      vsix,
    ],
    staging,
  );
  // The .vsix is as it ships. For the host runs, the extension must still be inactive when the probe asks for it:
  // without onStartupFinished the probe's call, not the window's startup, activates it (the same code runs either way).
  const staged = JSON.parse(fs.readFileSync(path.join(staging, 'package.json'), 'utf8')) as { activationEvents?: string[] };
  staged.activationEvents = staged.activationEvents?.filter((e) => e !== STARTUP_EVENT);
  fs.writeFileSync(path.join(staging, 'package.json'), JSON.stringify(staged, null, 2));
  return { vsix };
}

function emptyExtension(dir: string, name: string): void {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify(
      {
        name,
        publisher: 'hr-bench',
        version: '0.0.1',
        engines: { vscode: '^1.100.0' },
        main: './extension.js',
        activationEvents: [],
      },
      null,
      2,
    ),
  );
  fs.writeFileSync(path.join(dir, 'extension.js'), 'exports.activate = function () {};\nexports.deactivate = function () {};\n');
}

/**
 * The floor (test/bench/floorExtension.ts): the staged manifest, as the extension ships it, with every id renamed so
 * that both can be installed in one host (commands, views and their container, settings, the participant and its
 * name, the models' vendor, the reasoning language), its main module the floor's.
 */
function floorExtension(staging: string, dir: string): void {
  const renamed = fs
    .readFileSync(path.join(staging, 'package.json'), 'utf8')
    .replaceAll('hostedReasoning', 'hrBenchFloor')
    .replaceAll('hosted-reasoning', 'hr-bench-floor');
  const manifest = JSON.parse(renamed) as Record<string, unknown> & {
    contributes?: { chatParticipants?: { name: string }[] };
  };
  for (const participant of manifest.contributes?.chatParticipants ?? []) participant.name = `${participant.name}Floor`;
  Object.assign(manifest, {
    name: FLOOR_ID.split('.')[1],
    publisher: FLOOR_ID.split('.')[0],
    version: '0.0.1',
    main: './floorExtension.js',
  });
  delete manifest.scripts;
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  fs.copyFileSync(path.join(staging, 'package.nls.json'), path.join(dir, 'package.nls.json'));
  fs.cpSync(path.join(staging, 'media'), path.join(dir, 'media'), { recursive: true });
  // Copied, not required from out/: VS Code gives a module the API of the extension whose folder holds it.
  fs.copyFileSync(path.join(__dirname, '..', 'floorExtension.js'), path.join(dir, 'floorExtension.js'));
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** What the extension host loads as extensionTestsPath: times the activations (activationProbe.ts). */
const PROBE = path.join(__dirname, '..', 'activationProbe.js');
const SETUP_SERVER = path.join(repoRoot, 'out', 'test', 'runners', 'setupVscodeServer.js');

/** A tiny run starts no VS Code (15-90 s): it checks that the files the host run hands to VS Code are there. */
function tinyHost(installed: string[]): HostRuns {
  for (const file of [PROBE, SETUP_SERVER, ...installed.map((dir) => path.join(dir, 'package.json'))]) {
    if (!fs.existsSync(file)) throw new Error(`the activation figure's host run needs ${file}, which is missing`);
  }
  return { lines: [], problem: 'tiny run: no VS Code host started (its probe, setup script and extensions checked)' };
}

function lines(file: string): ProbeLine[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as ProbeLine);
}

/** What the host runs gave: the probe's lines, a problem that cut them short, the profiled run's breakdown. */
interface HostRuns {
  lines: ProbeLine[];
  problem?: string;
  breakdown?: Breakdown;
}

interface Breakdown {
  /** Sampled ms, not idle. */
  busy: number;
  /** require() of the bundle: compile + top-level code. */
  load: number;
  /** Of which V8 compiling (parsing) the file. */
  compile: number;
}

/** Inclusive times from the profiled activation (sampling at 0.1 ms; the profiler itself slows things down). */
function breakdown(file: string): Breakdown {
  interface Node {
    id: number;
    callFrame: { functionName: string; url: string };
    children?: number[];
  }
  const p = JSON.parse(fs.readFileSync(file, 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[] };
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const under = (id: number, name: string): boolean => {
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      if (byId.get(cur)?.callFrame.functionName === name) return true;
    }
    return false;
  };
  // The profiler's own work (stopping and serialising the profile) is not the extension's.
  const profilerOwn = (id: number): boolean => {
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      if (byId.get(cur)?.callFrame.url.includes('inspector')) return true;
    }
    return false;
  };
  let busy = 0;
  let load = 0;
  let compile = 0;
  p.samples.forEach((id, i) => {
    const us = p.timeDeltas[i] ?? 0;
    const name = byId.get(id)?.callFrame.functionName ?? '';
    if (name === '(idle)' || name === '(program)' || profilerOwn(id)) return;
    busy += us;
    if (under(id, 'Module._load')) load += us;
    if (under(id, 'wrapSafe')) compile += us;
  });
  return { busy: busy / 1000, load: load / 1000, compile: compile / 1000 };
}

/** `runs` fresh extension hosts (one workbench load each) in one server; the probe appends one line per host. */
async function inHost(staging: string, installed: string[], runs: number, tmp: string): Promise<HostRuns> {
  if (missingBrowser().length > 0) return { lines: [], problem: 'no Chromium on this machine' };
  if (!fs.existsSync(NEWEST_HOST.installMarkerPath)) {
    const setup = spawnSync(process.execPath, [SETUP_SERVER], {
      stdio: 'inherit',
    });
    if (setup.status !== 0) return { lines: [], problem: 'the VS Code server could not be installed' };
  }
  const resultFile = path.join(tmp, 'activation.jsonl');
  fs.mkdirSync(testOutputDir, { recursive: true });
  const logFd = fs.openSync(path.join(testOutputDir, 'bench-vscode-server.log'), 'w');
  const log = (line: string) => fs.writeSync(logFd, `${new Date().toISOString()} ${line}\n`);
  // One more run than asked, CPU-profiled and not timed: where the extension's activation time goes.
  const profileDir = path.join(tmp, 'profiles');
  fs.mkdirSync(profileDir);
  const env = { [RESULT_ENV]: resultFile, [PROFILE_ENV]: profileDir, [PROFILE_RUN_ENV]: String(runs) };
  const workspace = path.join(tmp, 'workspace');
  fs.mkdirSync(workspace, { recursive: true });
  let server: VscodeServer | undefined;
  let browser: BrowserContext | undefined;
  try {
    const extensionsDir = path.join(tmp, 'extensions');
    for (const dir of installed) fs.cpSync(dir, path.join(extensionsDir, `${path.basename(dir)}-0.0.1`), { recursive: true });
    server = startBenchServer({ vscode: NEWEST_HOST, tmp, extensionsDir, env, log });
    const port = await server.listening;
    const remote = (p: string) => `vscode-remote://127.0.0.1:${port}${p.split('/').map(encodeURIComponent).join('/')}`;
    // The web workbench keeps one extensionDevelopmentPath only: the empty extensions are installed (above).
    const payload = [
      ['extensionDevelopmentPath', remote(staging)],
      ['extensionTestsPath', remote(PROBE)],
    ];
    const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
    browser = await launchBenchBrowser(tmp);
    const page = browser.pages()[0] ?? (await browser.newPage());
    page.on('pageerror', (e) => log(`[browser:pageerror] ${e.message}`));
    for (let i = 0; i <= runs; i++) {
      await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60_000 });
      const deadline = Date.now() + 90_000;
      while (lines(resultFile).length <= i) {
        if (Date.now() > deadline) {
          return {
            lines: lines(resultFile),
            problem: `run ${i + 1}: the probe did not report within 90 s (see test-output/bench-vscode-server.log)`,
          };
        }
        await sleep(100);
      }
      await page.goto('about:blank');
      await sleep(500); // let the old extension host go before the next one starts
    }
    const profile = path.join(profileDir, `${SUBJECT_ID}-${runs}.cpuprofile`);
    return { lines: lines(resultFile).slice(0, runs), breakdown: fs.existsSync(profile) ? breakdown(profile) : undefined };
  } finally {
    await browser?.close().catch(() => undefined);
    await server?.stop().catch(() => undefined);
    fs.closeSync(logFd);
  }
}

export async function run(options: FigureOptions): Promise<FigureResult> {
  // The first is a warm-up (server caches), not counted; the rest a multiple of six, so each order of the three timed
  // extensions has as many runs and the median of the differences leans to none.
  const hostRuns = bySize(options, { full: 13, quick: 7, tiny: 0 });
  const requireRuns = bySize(options, { full: 10, quick: 3, tiny: 1 });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hr-bench-activation-'));
  try {
    const staging = path.join(tmp, 'extension');
    fs.mkdirSync(staging);
    const { vsix } = stageProduction(staging);
    const empty = path.join(tmp, EMPTY_ID);
    emptyExtension(empty, EMPTY_ID.split('.')[1]!);
    const primer = path.join(tmp, PRIMER_ID);
    emptyExtension(primer, PRIMER_ID.split('.')[1]!);
    const floor = path.join(tmp, FLOOR_ID);
    floorExtension(staging, floor);
    const bundle = path.join(staging, 'dist', 'extension.js');
    const others = fs
      .readdirSync(path.join(staging, 'dist'))
      .filter((f) => f.endsWith('.js') && f !== 'extension.js')
      .map((f) => path.join(staging, 'dist', f));
    const webviewDir = path.join(staging, 'dist', 'webview');
    const webviewJs = fs.existsSync(webviewDir)
      ? fs
          .readdirSync(webviewDir)
          .filter((f) => f.endsWith('.js'))
          .map((f) => path.join(webviewDir, f))
      : [];
    const size = (f: string) => fs.statSync(f).size;
    const gz = (f: string) => gzipSync(fs.readFileSync(f)).length;

    const installed = [empty, primer, floor];
    const host = options.size === 'tiny' ? tinyHost(installed) : await inHost(staging, installed, hostRuns, tmp);
    if (process.env.BENCH_DEBUG) console.error(JSON.stringify(host));
    const counted = host.lines.slice(1).filter((l) => l.ms[SUBJECT_ID] !== undefined && l.ms[EMPTY_ID] !== undefined);
    const subj = counted.map((l) => l.ms[SUBJECT_ID] as number);
    const emp = counted.map((l) => l.ms[EMPTY_ID] as number);
    const req = await interleave(
      requireRuns,
      async () => (await runNodeJson<{ ms: number }>('requireProbe.js', path.join(empty, 'extension.js'))).ms,
      async () => (await runNodeJson<{ ms: number }>('requireProbe.js', bundle)).ms,
      bySize(options, { full: 1, quick: 1, tiny: 0 }),
    );
    const rq = summarize(req.subject);
    const re = summarize(req.ref);
    const rows: Row[] = [];
    if (counted.length >= 3) {
      const s = summarize(subj);
      const e = summarize(emp);
      const d = summarize(counted.map((l) => (l.ms[SUBJECT_ID] as number) - (l.ms[EMPTY_ID] as number)));
      const q = summarize(counted.map((l) => (l.ms[SUBJECT_ID] as number) / (l.ms[EMPTY_ID] as number)));
      rows.push({
        figure: `1. Activation in the VS Code ${counted[0]!.vscodeVersion} extension host (${counted.length} fresh hosts)`,
        subject: `${fmt(s.median)} ms`,
        reference: `${fmt(e.median)} ms empty extension`,
        ratio: fmt(q.median),
        spread: `${range(s, ' ms')}; difference median ${fmt(d.median)} ms (${range(d, ' ms')})`,
        goal: `≤ ${GOAL_DELTA_MS} ms over empty (median of paired differences)`,
        met: d.median <= GOAL_DELTA_MS,
      });
    } else {
      rows.push({
        figure: '1. Activation in the VS Code extension host',
        subject: 'not measured',
        reference: '—',
        ratio: '—',
        spread: host.problem ?? 'too few runs',
        goal: `≤ ${GOAL_DELTA_MS} ms over empty`,
        met: undefined,
      });
    }
    // The floor, where it was timed: what the registrations alone cost, and what the extension adds to them.
    const withFloor = counted.filter((l) => l.ms[FLOOR_ID] !== undefined);
    if (withFloor.length >= 3) {
      const ms = (l: ProbeLine, id: string) => l.ms[id] as number;
      const f = summarize(withFloor.map((l) => ms(l, FLOOR_ID)));
      const floorOverEmpty = summarize(withFloor.map((l) => ms(l, FLOOR_ID) - ms(l, EMPTY_ID)));
      const oursOverFloor = summarize(withFloor.map((l) => ms(l, SUBJECT_ID) - ms(l, FLOOR_ID)));
      rows.push({
        figure: `1. Activation of the floor: the same registrations with handlers that do nothing (${withFloor.length} fresh hosts)`,
        subject: `${fmt(f.median)} ms`,
        reference: `${fmt(summarize(withFloor.map((l) => ms(l, EMPTY_ID))).median)} ms empty extension`,
        ratio: `+${fmt(floorOverEmpty.median)} ms`,
        spread: `${range(f, ' ms')}; difference ${range(floorOverEmpty, ' ms')}`,
        goal: '(context: what the goal above allows any extension with these registrations)',
        met: undefined,
      });
      rows.push({
        figure: '1. Activation beyond the floor: the extension minus its registrations alone (same hosts)',
        subject: `${fmt(summarize(withFloor.map((l) => ms(l, SUBJECT_ID))).median)} ms`,
        reference: `${fmt(f.median)} ms floor`,
        ratio: `${oursOverFloor.median >= 0 ? '+' : ''}${fmt(oursOverFloor.median)} ms`,
        spread: `difference ${range(oursOverFloor, ' ms')}`,
        goal: '(context: what our own code adds)',
        met: undefined,
      });
    }
    const firstUse = counted.map((l) => l.firstUseMs).filter((n): n is number => n !== undefined);
    if (firstUse.length) {
      const f = summarize(firstUse);
      rows.push({
        figure: '1. First use, after activation: loading the main module (a view asking for rows, a command)',
        subject: `${fmt(f.median)} ms`,
        reference: '—',
        ratio: '—',
        spread: range(f, ' ms'),
        goal: '(context)',
        met: undefined,
      });
    }
    rows.push({
      figure: `1. Activation cross-check: require() of the bundle, fresh Node, stub vscode (${requireRuns} runs)`,
      subject: `${fmt(rq.median)} ms`,
      reference: `${fmt(re.median)} ms empty module`,
      ratio: fmt(summarize(req.ratios).median),
      spread: range(rq, ' ms'),
      goal: '(context)',
      met: undefined,
    });
    rows.push({
      figure: `1. Sizes: extension bundle${others.length ? ` (+ ${others.map((f) => path.basename(f)).join(', ')}, loaded on first use)` : ''} / webview bundle / .vsix`,
      subject: `${kb(size(bundle))} (gzip ${kb(gz(bundle))})${others.map((f) => ` + ${kb(size(f))}`).join('')} / ${webviewJs.length ? webviewJs.map((f) => `${kb(size(f))} (gzip ${kb(gz(f))})`).join(' + ') : 'none'} / ${kb(size(vsix))}`,
      reference: '—',
      ratio: '—',
      spread: '—',
      goal: '(reported)',
      met: undefined,
    });
    const primerMs = summarize(counted.map((l) => l.primerMs ?? NaN).filter((n) => Number.isFinite(n))).median;
    const section = [
      '## 1. Activation',
      '',
      runsTable(
        ['Measure', 'ms'],
        [
          ["primer activation (median; the host's first-activation work)", fmt(primerMs)],
          ...(host.breakdown
            ? [
                ['profiled run: busy in activate()', fmt(host.breakdown.busy)],
                ['of which require() of the bundle', fmt(host.breakdown.load)],
                ['of which V8 compiling it', fmt(host.breakdown.compile)],
              ]
            : []),
          ['require() cross-check, fresh Node, stub vscode: extension / empty module', `${fmt(rq.median)} / ${fmt(re.median)}`],
        ],
      ),
      ...(host.problem ? ['', `Problem: ${host.problem}`] : []),
      '',
      counted.length
        ? runsTable(
            ['Run', 'first', 'extension (ms)', 'empty (ms)', 'floor (ms)', 'extension − empty (ms)', 'floor − empty (ms)'],
            counted.map((l) => {
              const floorMs = l.ms[FLOOR_ID];
              return [
                l.run,
                l.first === SUBJECT_ID ? 'extension' : l.first === EMPTY_ID ? 'empty' : 'floor',
                fmt(l.ms[SUBJECT_ID] as number),
                fmt(l.ms[EMPTY_ID] as number),
                floorMs === undefined ? '—' : fmt(floorMs),
                fmt((l.ms[SUBJECT_ID] as number) - (l.ms[EMPTY_ID] as number)),
                floorMs === undefined ? '—' : fmt(floorMs - (l.ms[EMPTY_ID] as number)),
              ];
            }),
          )
        : '',
      '',
      runsTable(
        ['File (production build)', 'Size', 'Loaded'],
        [
          ['dist/extension.js', `${kb(size(bundle))} (gzip ${kb(gz(bundle))})`, 'at activation'],
          ...others.map((f) => [`dist/${path.basename(f)}`, kb(size(f)), 'on first use']),
          ...webviewJs.map((f) => [`dist/webview/${path.basename(f)}`, kb(size(f)), 'in the playground page']),
          ['.vsix', kb(size(vsix)), '—'],
        ],
      ),
    ].join('\n');
    return { rows, section };
  } finally {
    if (process.env.BENCH_KEEP_TMP) console.error(`kept ${tmp}`);
    else fs.rmSync(tmp, { recursive: true, force: true });
  }
}
