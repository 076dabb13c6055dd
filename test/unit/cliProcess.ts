// The built command line (dist/cli.js, made by the preparation step: `npm run build`) run in a child process, as a
// pipeline runs it: its exit code, stdout and stderr, and a way to wait for a line before acting (Ctrl+C after the job
// started), never for a time.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';

export const CLI = path.resolve(__dirname, '../../../dist/cli.js');

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliRun {
  child: ChildProcessWithoutNullStreams;
  /** Resolves with stderr so far once it matches `pattern`; rejects if the process ends first. */
  stderrMatches(pattern: RegExp): Promise<RegExpMatchArray>;
  /** The same for stdout (an MCP server's answers). */
  stdoutMatches(pattern: RegExp): Promise<RegExpMatchArray>;
  done: Promise<CliResult>;
}

export function assertBuilt(): void {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: the preparation step builds it (npm run build).`);
}

/** A clean environment: only what the command line reads, plus PATH; the config folder and home are `home`. */
export function cliEnv(home: string, extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: path.join(home, 'config'), APPDATA: path.join(home, 'config'), ...extra };
}

/**
 * `stdin`: what the run reads (then its end); `openStdin` leaves it open for the test to write (an MCP server's input).
 */
export function startCli(
  args: readonly string[],
  options: { env: NodeJS.ProcessEnv; cwd: string; stdin?: string; openStdin?: boolean },
): CliRun {
  const child = spawn(process.execPath, [CLI, ...args], { env: options.env, cwd: options.cwd, stdio: 'pipe' });
  const text = { stdout: '', stderr: '' };
  type Stream = keyof typeof text;
  const waiters: { stream: Stream; pattern: RegExp; resolve: (m: RegExpMatchArray) => void; reject: (e: Error) => void }[] = [];
  const listen = (stream: Stream) =>
    child[stream].setEncoding('utf8').on('data', (d: string) => {
      text[stream] += d;
      for (const w of waiters.filter((x) => x.stream === stream)) {
        const m = text[stream].match(w.pattern);
        if (m) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(m);
        }
      }
    });
  listen('stdout');
  listen('stderr');
  if (options.openStdin) child.stdin.on('error', () => undefined);
  else if (options.stdin !== undefined) child.stdin.end(options.stdin);
  else child.stdin.end();
  const done = new Promise<CliResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      for (const w of waiters.splice(0)) {
        w.reject(new Error(`the command line ended (${code}) before ${w.stream} matched ${w.pattern}:\n${text.stderr}`));
      }
      resolve({ code, signal, stdout: text.stdout, stderr: text.stderr });
    });
  });
  const matches = (stream: Stream) => (pattern: RegExp) => {
    const m = text[stream].match(pattern);
    if (m) return Promise.resolve(m);
    return new Promise<RegExpMatchArray>((resolve, reject) => waiters.push({ stream, pattern, resolve, reject }));
  };
  return { child, done, stderrMatches: matches('stderr'), stdoutMatches: matches('stdout') };
}

export function runCliProcess(
  args: readonly string[],
  options: { env: NodeJS.ProcessEnv; cwd: string; stdin?: string },
): Promise<CliResult> {
  return startCli(args, options).done;
}

/** The one JSON document of a --json run. */
export function jsonOf(result: CliResult): Record<string, unknown> {
  try {
    return JSON.parse(result.stdout) as Record<string, unknown>;
  } catch {
    throw new Error(`stdout is not one JSON document (exit ${result.code}):\n${result.stdout}\nstderr:\n${result.stderr}`);
  }
}
