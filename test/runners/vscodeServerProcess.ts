// Starts VS Code's server build on a free loopback port and stops it with everything it spawned.
import { spawn } from 'node:child_process';
import * as readline from 'node:readline';
import * as path from 'node:path';
import type { VscodeHost } from './vscodeServerLayout';

export interface VscodeServer {
  /** The port, once the server listens; rejects if it exits or the start timeout passes first. */
  readonly listening: Promise<number>;
  /** Exit code or signal once the server process has ended, undefined while it runs. */
  exitStatus(): string | undefined;
  /** The server's report of the first extension host ending (it ends after running the tests), or undefined. */
  extensionHostExit(): string | undefined;
  /** Ends the server's whole process group (extension host, pty host, watchers); resolves when none is left. */
  stop(): Promise<void>;
}

export interface VscodeServerOptions {
  /** Which VS Code build, run on its own Node. */
  readonly vscode: VscodeHost;
  /** The workbench will be opened with a payload URL (a development extension, a test suite). */
  readonly payload?: boolean;
  readonly userDataDir: string;
  readonly extensionsDir: string;
  /** The server's environment; the extension host inherits it, which is how tests receive settings. */
  readonly env: NodeJS.ProcessEnv;
  readonly log: (line: string) => void;
  readonly startTimeoutMs: number;
  /** Interface to listen on; loopback unless a person reaches the server from elsewhere (npm start --host). */
  readonly host?: string;
  /** 0 (the default) picks a free port. */
  readonly port?: number;
  /**
   * A file holding the secret every request must carry. Without it the server runs without a token, which the tests
   * do on loopback; a server a person leaves running should not let any local user or peer run code through it.
   */
  readonly connectionTokenFile?: string;
  /** Further server flags (e.g. `--disable-getting-started-override`). */
  readonly extraArgs?: readonly string[];
}

const LISTENING = /Extension host agent listening on (\d+)/;
const EXTENSION_HOST_EXITED = /Extension Host Process exited with (code: .*?)\.?$/;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function waitForGroupExit(pgid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (groupAlive(pgid)) {
    if (Date.now() > deadline) return false;
    await sleep(100);
  }
  return true;
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // the group is already gone
  }
}

/** Spawns the server at once (so it can be stopped whatever happens next); await `listening` for its port. */
export function startVscodeServer(options: VscodeServerOptions): VscodeServer {
  const args = [
    options.vscode.serverMainPath,
    '--host',
    options.host ?? '127.0.0.1',
    '--port',
    String(options.port ?? 0),
    ...(options.connectionTokenFile ? ['--connection-token-file', options.connectionTokenFile] : ['--without-connection-token']),
    '--accept-server-license-terms',
    '--user-data-dir',
    options.userDataDir,
    '--extensions-dir',
    options.extensionsDir,
    // As @vscode/test-electron does: no trust prompt, which would start the extension in restricted mode.
    '--disable-workspace-trust',
    // The extension host gets exactly the runner's environment, not one read from a login shell.
    '--force-disable-user-env',
    '--disable-telemetry',
    ...(options.payload ? options.vscode.payloadArgs : []),
    ...(options.extraArgs ?? []),
  ];
  // detached: the server leads its own process group, so one signal reaches everything it spawns.
  // The host's Node first on PATH too: what the server and its extension host start by name runs on the same Node.
  const env = { ...options.env, PATH: `${path.dirname(options.vscode.nodePath)}${path.delimiter}${options.env.PATH ?? ''}` };
  const child = spawn(options.vscode.nodePath, args, {
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const pgid = child.pid;
  let exitStatus: string | undefined;
  let extensionHostExit: string | undefined;

  const stop = async (): Promise<void> => {
    if (pgid === undefined) return;
    signalGroup(pgid, 'SIGTERM');
    if (await waitForGroupExit(pgid, 5_000)) return;
    options.log('[runner] server group still alive 5 s after SIGTERM: sending SIGKILL');
    signalGroup(pgid, 'SIGKILL');
    if (!(await waitForGroupExit(pgid, 5_000))) throw new Error(`processes of group ${pgid} survived SIGKILL`);
  };

  const listening = new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the VS Code server did not listen within ${options.startTimeoutMs / 1000} s`)),
      options.startTimeoutMs,
    );
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('exit', (code, signal) => {
      exitStatus = signal ?? `code ${code}`;
      options.log(`[runner] server exited (${exitStatus})`);
      clearTimeout(timer);
      // No-op once listening: a server that dies later is reported through exitStatus().
      reject(new Error(`the VS Code server exited (${exitStatus}) before listening`));
    });
    readline.createInterface({ input: child.stderr }).on('line', (line) => options.log(`[server:err] ${line}`));
    readline.createInterface({ input: child.stdout }).on('line', (line) => {
      options.log(`[server] ${line}`);
      extensionHostExit ??= EXTENSION_HOST_EXITED.exec(line)?.[1];
      const match = LISTENING.exec(line);
      if (!match) return;
      clearTimeout(timer);
      resolve(Number(match[1]));
    });
  });

  return { listening, exitStatus: () => exitStatus, extensionHostExit: () => extensionHostExit, stop };
}
