// Child processes for the benchmarks: run one to its end and collect its output.
import { spawn } from 'node:child_process';
import * as path from 'node:path';

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runProcess(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs a compiled bench script (out/test/bench/<name>.js) in a fresh Node with --expose-gc; parses its last line. */
export async function runNodeJson<T>(script: string, arg: unknown): Promise<T> {
  const r = await runProcess(process.execPath, ['--expose-gc', path.join(__dirname, script), JSON.stringify(arg)]);
  if (r.code !== 0) throw new Error(`${script} failed (${r.code}): ${r.stderr.trim().slice(-2000)}`);
  const last = r.stdout.trim().split('\n').pop() ?? '';
  return JSON.parse(last) as T;
}

/**
 * `curl ... -w '%{time_total} %{http_code} ...'`: the time in ms, the other fields, and curl's CPU time (from bash's
 * `times`, which reports the finished children's user and system time).
 */
export async function curl(args: string[]): Promise<{ ms: number; fields: string[]; cpuUserMs: number; cpuSystemMs: number }> {
  const r = await runProcess('bash', ['-c', 'curl -sS "$@"; rc=$?; echo; times; exit $rc', 'bash', ...args]);
  if (r.code !== 0) throw new Error(`curl failed (${r.code}): ${r.stderr.trim()}`);
  const lines = r.stdout.trim().split('\n');
  const fields = (lines[0] ?? '').trim().split(/\s+/);
  const m = /^(\d+)m([\d.]+)s (\d+)m([\d.]+)s$/.exec((lines[lines.length - 1] ?? '').trim());
  const secs = (min: string | undefined, s: string | undefined) => (Number(min) * 60 + Number(s)) * 1000;
  return {
    ms: Number(fields[0]) * 1000,
    fields: fields.slice(1),
    cpuUserMs: m ? secs(m[1], m[2]) : NaN,
    cpuSystemMs: m ? secs(m[3], m[4]) : NaN,
  };
}
