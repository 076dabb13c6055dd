// Desktop VS Code for `npm start`, where a `code` command is on PATH: a window of its own profile with the extension
// under development. Stopping it must also end the Electron processes, which the `code` command starts in a session
// of their own (so neither Ctrl+C nor a signal to its process group reaches them): they are found by the demo
// profile folder on their command line, which nothing else uses.
import { execFileSync, spawn } from 'node:child_process';
import { findOnPath } from '../test/runners/hostPrerequisites';

export interface DesktopCode {
  /** Resolves when the `code` command ends: with --wait, when the person closes the window. */
  readonly exited: Promise<string>;
  /** Ends the window and every process of its profile; resolves when none is left. */
  stop(): Promise<void>;
}

export interface DesktopCodeOptions {
  readonly codePath: string;
  /**
   * A profile folder for the demo only: a running VS Code of the person's own would otherwise take the window over
   * and the extension host would not get this environment.
   */
  readonly userDataDir: string;
  readonly extensionRoot: string;
  readonly workspace: string;
  readonly env: NodeJS.ProcessEnv;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The desktop `code` command, or undefined. Inside a VS Code remote terminal `code` is the remote CLI, which opens a
 * window on the person's own machine that gets neither this environment nor the demo profile: not usable here.
 */
export function findDesktopCode(): string | undefined {
  const code = findOnPath('code');
  return code && !code.includes('remote-cli') ? code : undefined;
}

/** Process ids whose command line names `marker`, from `ps` (Linux and macOS). */
function processesNaming(marker: string): number[] {
  let listing: string;
  try {
    listing = execFileSync('ps', ['-A', '-o', 'pid=,args='], { encoding: 'utf8' });
  } catch {
    return [];
  }
  const pids: number[] = [];
  for (const line of listing.split('\n')) {
    const match = /^\s*(\d+)\s+(.*)$/.exec(line);
    if (match && match[2]!.includes(marker) && Number(match[1]) !== process.pid) pids.push(Number(match[1]));
  }
  return pids;
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
}

export function launchDesktopCode(options: DesktopCodeOptions): DesktopCode {
  const args = [
    '--new-window',
    '--wait',
    `--user-data-dir=${options.userDataDir}`,
    `--extensionDevelopmentPath=${options.extensionRoot}`,
    // As the server build is started: no trust prompt that would start the extension in restricted mode.
    '--disable-workspace-trust',
    options.workspace,
  ];
  // detached: Ctrl+C reaches this script only, which then stops the window and the emulator in order.
  const child = spawn(options.codePath, args, {
    env: options.env,
    detached: true,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise<string>((resolve) => {
    child.on('error', (error) => resolve(`could not start ${options.codePath}: ${error.message}`));
    child.on('exit', (code, sig) => resolve(sig ?? `code ${code}`));
  });

  const stop = async (): Promise<void> => {
    if (child.pid !== undefined) signal(-child.pid, 'SIGTERM');
    for (const pid of processesNaming(options.userDataDir)) signal(pid, 'SIGTERM');
    const deadline = Date.now() + 5_000;
    while (processesNaming(options.userDataDir).length > 0 && Date.now() < deadline) await sleep(200);
    for (const pid of processesNaming(options.userDataDir)) signal(pid, 'SIGKILL');
  };

  return { exited, stop };
}
