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

/** `curl ... -w '%{time_total} %{http_code} ...'`: the time in ms and the other fields. */
export async function curl(args: string[]): Promise<{ ms: number; fields: string[] }> {
  const r = await runProcess('curl', ['-sS', ...args]);
  if (r.code !== 0) throw new Error(`curl failed (${r.code}): ${r.stderr.trim()}`);
  const fields = r.stdout.trim().split(/\s+/);
  return { ms: Number(fields[0]) * 1000, fields: fields.slice(1) };
}
