// Figure 14: the command line's cold start. A pipeline runs `hosted-reasoning` many times, so what counts is the time
// from starting the process to its first request reaching the service: `node dist/cli.js models --json` against the
// emulator, beside a bare Node script that makes the same request with node:http and nothing else (no bundle, no
// argument parsing, no state file). Each run is a fresh process. Two measures: the CPU time (user + system) each
// process had used when it opened its first connection (cliCpuProbe.ts, preloaded into both), on which the goal is
// judged, as it is the process's own work whatever the machine's load; and the wall time, the emulator's record of
// the request's arrival minus the moment just before spawn (both on this process's clock), which on a shared machine
// is mostly waiting for a core. Pairs interleaved, reference first.
// A third process in each round is the floor of any command line that sends through axios: a script that only sends the
// same request with axios, bundled as lean as the command line is (scripts/cliLean.cjs: the same prelude and stubs,
// minified). Its ratio to the bare script shows how much of the goal axios alone takes.
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { startEmulator, type Emulator } from '../../service/emulator';
import { bySize, type FigureOptions } from '../figure';
import { runProcess } from '../proc';
import { runsTable, type FigureResult } from '../report';
import { fmt, interleave, range, summarize } from '../stats';

const KEY = 'demo-key';
const GOAL_RATIO = 1.5;
const CLI = path.resolve(__dirname, '../../../../dist/cli.js');
const MODELS_PATH = '/cr/get_allowed_models';
const PROBE = path.resolve(__dirname, '../cliCpuProbe.js');
const ROOT = path.resolve(__dirname, '../../../..');

/** The floor: the same GET with the key through axios as the keyed client sets it up, and nothing else. */
const AXIOS_ONLY = `const axios = require('axios');
const url = new URL('cr/get_allowed_models', process.env.HOSTED_REASONING_BASE_URL).href;
axios
  .get(url, {
    headers: { 'X-API-Key': process.env.HOSTED_REASONING_API_KEY, Accept: 'application/json' },
    maxRedirects: 0, proxy: false, responseType: 'text', transformResponse: [(d) => d],
  })
  .then((res) => process.stdout.write(JSON.stringify(JSON.parse(res.data)) + '\\n'));
`;

/** Bundles AXIOS_ONLY as the command line is bundled for production (its prelude and stubs, minified). */
async function buildAxiosOnly(outfile: string): Promise<void> {
  const { cliPrelude, cliLean } = createRequire(__filename)(path.join(ROOT, 'scripts/cliLean.cjs')) as {
    cliPrelude: string;
    cliLean: esbuild.Plugin;
  };
  await esbuild.build({
    stdin: { contents: AXIOS_ONLY, resolveDir: ROOT, loader: 'js' },
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    outfile,
    plugins: [cliLean],
    banner: { js: cliPrelude },
    minify: true,
    logLevel: 'silent',
  });
}

/** The reference: the same GET with the key, in plain Node. */
const BARE = `const http = require('node:http');
const url = new URL('cr/get_allowed_models', process.env.HOSTED_REASONING_BASE_URL);
http.get(url, { headers: { 'X-API-Key': process.env.HOSTED_REASONING_API_KEY, Accept: 'application/json' } }, (res) => {
  let body = '';
  res.setEncoding('utf8').on('data', (d) => (body += d)).on('end', () => process.stdout.write(JSON.stringify(JSON.parse(body)) + '\\n'));
});
`;

export async function run(options: FigureOptions): Promise<FigureResult> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build it first (npm run build)`);
  const runs = bySize(options, { full: 15, quick: 5, tiny: 1 });
  const warmup = bySize(options, { full: 2, quick: 1, tiny: 0 });
  const dir = await mkdtemp(path.join(os.tmpdir(), 'hr-bench-cli-'));
  const emu = await startEmulator({});
  try {
    const bare = path.join(dir, 'bare.js');
    await writeFile(bare, BARE);
    const axiosOnly = path.join(dir, 'axiosOnly.js');
    await buildAxiosOnly(axiosOnly);
    const env = {
      PATH: process.env.PATH,
      HOME: dir,
      XDG_CONFIG_HOME: path.join(dir, 'config'),
      HOSTED_REASONING_BASE_URL: emu.url,
      HOSTED_REASONING_API_KEY: KEY,
    };
    const wallMs: { ref: number[]; subject: number[] } = { ref: [], subject: [] };
    const floorCpu: number[] = [];
    const timed = (args: string[], wall: number[]) => async (): Promise<number> => firstRequest(emu, args, env, wall);
    const floorRun = timed([axiosOnly], []);
    // Each round: bare, axios only, hosted-reasoning (the floor is taken inside the reference's turn, so all three
    // share the round's load).
    const pairs = await interleave(
      runs,
      async (i) => {
        const ms = await timed([bare], wallMs.ref)();
        const floor = await floorRun();
        if (i >= 0) floorCpu.push(floor);
        return ms;
      },
      timed([CLI, 'models', '--json'], wallMs.subject),
      warmup,
    );
    const s = summarize(pairs.subject);
    const r = summarize(pairs.ref);
    const q = summarize(pairs.ratios);
    const f = summarize(floorCpu);
    const floorRatios = summarize(floorCpu.map((ms, i) => ms / pairs.ref[i]!));
    const wallRatios = wallMs.subject.map((w, i) => w / wallMs.ref[i]!).slice(warmup);
    const ws = summarize(wallMs.subject.slice(warmup));
    const wr = summarize(wallMs.ref.slice(warmup));
    const rows = [
      {
        figure: `14. Command line cold start to its first request (\`models --json\`, fresh process, ${runs} runs): CPU time`,
        subject: `${fmt(s.median)} ms`,
        reference: `${fmt(r.median)} ms bare node:http script`,
        ratio: fmt(q.median),
        spread: range(s, ' ms'),
        goal: `≤ ${GOAL_RATIO}x`,
        met: q.median <= GOAL_RATIO,
      },
      {
        figure: `14. The floor under it: a script that only sends the same request through axios, bundled as lean: CPU time`,
        subject: `${fmt(f.median)} ms`,
        reference: `${fmt(r.median)} ms bare node:http script`,
        ratio: fmt(floorRatios.median),
        spread: range(f, ' ms'),
        goal: 'context (above the goal, no command line sending through axios can meet it)',
        met: undefined,
      },
      {
        figure: `14. The same, wall time from spawn to the request's arrival`,
        subject: `${fmt(ws.median)} ms`,
        reference: `${fmt(wr.median)} ms bare node:http script`,
        ratio: fmt(summarize(wallRatios).median),
        spread: range(ws, ' ms'),
        goal: 'context (the machine’s load decides most of it)',
        met: undefined,
      },
    ];
    const section = [
      '## 14. Command line cold start',
      '',
      'CPU time to the first connection (the goal) of the bare script, of a script that only sends the request through axios (the floor of any command line using it) and of `hosted-reasoning`, and wall time from spawn to the request reaching the emulator.',
      '',
      runsTable(
        [
          'Round',
          'bare script, CPU (ms)',
          'axios only, CPU (ms)',
          'hosted-reasoning, CPU (ms)',
          'ratio',
          'bare, wall (ms)',
          'hosted-reasoning, wall (ms)',
        ],
        pairs.ref.map((ref, i) => [
          i + 1,
          fmt(ref),
          fmt(floorCpu[i]!),
          fmt(pairs.subject[i]!),
          fmt(pairs.ratios[i]!),
          fmt(wallMs.ref[warmup + i]!),
          fmt(wallMs.subject[warmup + i]!),
        ]),
      ),
    ].join('\n');
    return { rows, section };
  } finally {
    await emu.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * One run: returns the CPU time to the first connection (the probe's line) and records the wall time from spawn to the
 * first request's arrival at the emulator (its recorder's clock is this process's Date.now).
 */
async function firstRequest(emu: Emulator, args: string[], env: NodeJS.ProcessEnv, wall: number[]): Promise<number> {
  emu.clearReceived();
  const started = Date.now();
  const result = await runProcess(process.execPath, ['-r', PROBE, ...args], { env });
  if (result.code !== 0) throw new Error(`${args.join(' ')} failed (${result.code}): ${result.stderr.slice(-2000)}`);
  const models = (JSON.parse(result.stdout) as { models?: unknown[] }).models;
  if (!Array.isArray(models) || models.length === 0) throw new Error(`${args.join(' ')} listed no models: ${result.stdout.slice(0, 500)}`);
  const first = emu.received.find((r) => r.origin === 'api' && r.path.split('?')[0] === MODELS_PATH);
  if (!first) throw new Error(`${args.join(' ')} made no request to ${MODELS_PATH}`);
  wall.push(first.time - started);
  const cpu = /cpu-to-first-connect-ms ([\d.]+)/.exec(result.stderr);
  if (!cpu) throw new Error(`${args.join(' ')}: the CPU probe said nothing: ${result.stderr.slice(-500)}`);
  return Number(cpu[1]);
}
