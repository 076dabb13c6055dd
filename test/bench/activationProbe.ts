// Loaded by the VS Code extension host as `extensionTestsPath` (test/bench/figures/activation.ts): waits until the
// window's own startup activations are over, activates a primer extension (the host's first activation does
// once-per-process work), then asks the host to activate the extension under test, an empty extension and the floor
// (the extension's registrations with handlers that do nothing), times each `activate()` until it resolves, and
// appends one JSON line to the file named by HR_BENCH_ACTIVATION. The order goes through all six in turn, so each of
// the three comes before each other as often as after.
import * as fs from 'node:fs';
import * as inspector from 'node:inspector';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import {
  BETWEEN_MS,
  PRIMER_ID,
  PROFILE_ENV,
  PROFILE_RUN_ENV,
  RESULT_ENV,
  SETTLE_MS,
  SUBJECT_ID,
  TIMED_IDS,
  type ProbeLine,
} from './activationShared';

async function time(id: string, line: ProbeLine): Promise<void> {
  const ext = vscode.extensions.getExtension(id);
  if (!ext) {
    line.missing.push(id);
    return;
  }
  if (ext.isActive) {
    line.alreadyActive.push(id);
    return;
  }
  const only = process.env[PROFILE_RUN_ENV];
  const profileDir = only === undefined || Number(only) === line.run ? process.env[PROFILE_ENV] : undefined;
  const session = profileDir ? new inspector.Session() : undefined;
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) => session?.post(method, params ?? {}, (e, r) => (e ? reject(e) : resolve(r))));
  if (session) {
    session.connect();
    await post('Profiler.enable');
    await post('Profiler.setSamplingInterval', { interval: 100 });
    await post('Profiler.start');
  }
  const t0 = performance.now();
  await ext.activate();
  line.ms[id] = performance.now() - t0;
  if (session && profileDir) {
    const { profile } = (await post('Profiler.stop')) as { profile: unknown };
    fs.writeFileSync(path.join(profileDir, `${id}-${line.run}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  }
}

/**
 * Not part of activation: what the first use (a view asking for rows, a command) adds by loading the main module. Only
 * after all activations: loading it between them (when the extension went first) slowed the empty extension's
 * activation that followed, which lowered those runs' differences.
 */
async function firstUse(line: ProbeLine): Promise<void> {
  const exports = vscode.extensions.getExtension(SUBJECT_ID)?.exports as { main?: () => Promise<unknown> } | undefined;
  if (typeof exports?.main !== 'function') return;
  const t1 = performance.now();
  await exports.main();
  line.firstUseMs = performance.now() - t1;
}

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
}

export async function run(): Promise<void> {
  const file = process.env[RESULT_ENV];
  if (!file) throw new Error(`${RESULT_ENV} is not set`);
  const done = fs.existsSync(file)
    ? fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '').length
    : 0;
  const order = permutations(TIMED_IDS)[done % 6]!;
  const line: ProbeLine = { run: done, first: order[0]!, ms: {}, alreadyActive: [], missing: [], known: [], vscodeVersion: vscode.version };
  line.known = vscode.extensions.all.filter((e) => !(e.packageJSON as { isBuiltin?: boolean }).isBuiltin).map((e) => e.id);
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  const primer = vscode.extensions.getExtension(PRIMER_ID);
  if (primer && !primer.isActive) {
    const t0 = performance.now();
    await primer.activate();
    line.primerMs = performance.now() - t0;
  }
  for (const id of order) {
    await time(id, line);
    // What an activation leaves to run after activate() resolved (the host sending its registrations on, a chat
    // participant's metadata in a timer) would otherwise land in the next activation timed: with the extension first,
    // the empty extension after it took 16–27 ms instead of 4–8 (VS Code 1.139.1).
    await new Promise((r) => setTimeout(r, BETWEEN_MS));
  }
  await firstUse(line);
  fs.appendFileSync(file, `${JSON.stringify(line)}\n`);
}
