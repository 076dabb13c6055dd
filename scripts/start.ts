// `npm start`: the product as a person would run it. Starts the emulator of the hosted service with its demo keys and
// datasets, writes a demo workspace of real PDF/DOCX files, and opens VS Code with the extension under development
// connected to the emulator: desktop `code` when it is on PATH, else VS Code's server build (installed on first use)
// whose URL is printed for a browser. Ctrl+C or SIGTERM stops everything it started. scripts/startEntry.mjs builds
// first and runs this file in its own process.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ensurePrerequisites, missingInstallTools } from '../test/runners/hostPrerequisites';
import { extensionBundlePath, isInstalled, NEWEST_HOST, repoRoot } from '../test/runners/vscodeServerLayout';
import { startVscodeServer, type VscodeServer } from '../test/runners/vscodeServerProcess';
import { workbenchUrl } from '../test/runners/workbenchBrowser';
import { startEmulator } from '../test/service/emulator';
import { writeDemoSettings } from './demoSettings';
import { DEMO_FILES, writeDemoWorkspace } from './demoWorkspace';
import { findDesktopCode, launchDesktopCode } from './desktopCode';
import { parseStartArgs, USAGE, type StartOptions } from './startArgs';

// The extension's environment fallbacks (src/connection/config.ts ENV_BASE_URL, src/storageKeys.ts ENV_API_KEY and
// ENV_OPEN_CHAT); not imported because those modules need the `vscode` module, which exists only inside an extension host.
const ENV_BASE_URL = 'HOSTED_REASONING_BASE_URL';
const ENV_API_KEY = 'HOSTED_REASONING_API_KEY';
const ENV_OPEN_CHAT = 'HOSTED_REASONING_OPEN_CHAT';
const DEMO_KEY = 'demo-key';

/**
 * Everything of the demo lives here (git-ignored). Editor profiles are recreated on each start; see below. The test of
 * `npm start` (test/unit/startScript.test.ts) points HR_DEMO_DIR at a temporary folder: tests write only there.
 */
const demoDir = process.env.HR_DEMO_DIR ? path.resolve(process.env.HR_DEMO_DIR) : path.join(repoRoot, '.demo');
const workspaceDir = path.join(demoDir, 'workspace');
const serverDataDir = path.join(demoDir, 'vscode-server');
const desktopDataDir = path.join(demoDir, 'vscode-desktop');
const serverLogPath = path.join(demoDir, 'vscode-server.log');
const setupScript = path.join(__dirname, '..', 'test', 'runners', 'setupVscodeServer.js');

/**
 * Slow enough for a person to watch a job move through its phases and tokens arrive, fast enough not to bore:
 * the emulator's defaults are tuned for tests (a finetune in 1.5 s, a token every 5 ms).
 */
const DEMO_TIMINGS = { finetuneDurationMs: 20_000, evaluationDurationMs: 8_000, tokenIntervalMs: 30 };
/**
 * The demo's models reason as many do, inline (`<think>…</think>` before the answer), after a short silence: the
 * playground shows *Thinking…* with its clock, then the Thinking section, then the answer.
 */
const DEMO_REASONING = { reasoning: 'inline', thinkMs: 2_500 } as const;

// From the start of this node process: `npm start` builds (scripts/startEntry.mjs) in the same process before it runs
// this file, so "Ready in" is what the person waited, the build and a first start's server install included.
const elapsed = (): string => `${(performance.now() / 1000).toFixed(1)} s`;
const say = (line: string): void => console.log(`[start] ${line}`);

class StartError extends Error {}

/** Why the editor ended on its own (not through Ctrl+C), and the exit code that reports it. */
interface EditorEnd {
  readonly reason: string;
  readonly exitCode: number;
}

/** A started editor. (An object, not a bare promise: an async function would flatten a returned promise.) */
interface RunningEditor {
  readonly ended: Promise<EditorEnd>;
}

/** Things to stop, in reverse order of starting. Runs once, whatever asks first (a signal, an error, the editor). */
const stoppers: Array<{ what: string; stop: () => Promise<void> }> = [];
let stopping: Promise<void> | undefined;
function stopAll(): Promise<void> {
  stopping ??= (async () => {
    for (const { what, stop } of stoppers.reverse()) {
      try {
        await stop();
      } catch (error) {
        console.error(`[start] stopping ${what}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  })();
  return stopping;
}

/** Thrown out of whatever step is running when the person presses Ctrl+C (or the terminal closes). */
class Interrupted extends Error {
  constructor(readonly exitCode: number) {
    super('interrupted');
  }
}

/** Rejects with Interrupted on the first SIGINT/SIGTERM/SIGHUP; later ones only say that stopping is under way. */
const interrupted = new Promise<never>((_resolve, reject) => {
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const) {
    process.on(signal, () => {
      if (stopping) {
        say(`${signal}: still stopping, please wait`);
        return;
      }
      console.log('');
      say(`${signal}: stopping ...`);
      reject(new Interrupted(code));
    });
  }
});
interrupted.catch(() => undefined);

/** Waits for `step` unless interrupted first. Whatever the step started must already be in `stoppers`. */
const unlessInterrupted = <T>(step: Promise<T>): Promise<T> => Promise.race([step, interrupted]);

/** The server build's own environment: ours with the service settings, minus a VS Code this may run inside. */
function editorEnvironment(emulatorUrl: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    // VSCODE_* of an enclosing VS Code terminal would point the new one at the wrong IPC sockets.
    if (!key.startsWith('VSCODE_') && key !== 'ELECTRON_RUN_AS_NODE') env[key] = value;
  }
  env[ENV_BASE_URL] = emulatorUrl;
  env[ENV_API_KEY] = DEMO_KEY;
  // Chat opens with `@hosted ` in its input (the extension's Ask in Chat), so a first plain question reaches our models.
  env[ENV_OPEN_CHAT] = '1';
  return env;
}

/**
 * Runs the installer with its progress on this terminal. It leads a process group of its own, so stopping it also
 * ends the npm it runs (a partial install is started over next time).
 */
function runInstaller(args: readonly string[]): Promise<number> {
  const child: ChildProcess = spawn(process.execPath, args, { stdio: 'inherit', detached: true });
  const ended = new Promise<number>((resolve) => {
    child.on('error', () => resolve(1));
    child.on('exit', (code) => resolve(code ?? 1));
  });
  const entry = {
    what: 'the VS Code server install',
    stop: async () => {
      if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
      await ended;
    },
  };
  stoppers.push(entry);
  return ended.finally(() => stoppers.splice(stoppers.indexOf(entry), 1));
}

async function ensureServerInstalled(): Promise<void> {
  if (isInstalled(NEWEST_HOST)) return;
  const problem = ensurePrerequisites(missingInstallTools, "install VS Code's server build (done once, on the first npm start)");
  if (problem) throw new StartError(problem);
  say(`First start: installing VS Code's server build (code-server ${NEWEST_HOST.codeServerVersion}) ...`);
  const code = await unlessInterrupted(runInstaller([setupScript, '--without-browser', '--host', NEWEST_HOST.id]));
  if (code !== 0) throw new StartError('installing the VS Code server build failed (see above); run npm start again');
}

/** The VS Code version inside the code-server package (1.139.1 in code-server 4.139.1), as the person sees it. */
function serverVscodeVersion(): string {
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(NEWEST_HOST.vscodeDir, 'package.json'), 'utf8')) as { version?: unknown };
    return typeof manifest.version === 'string' ? manifest.version : '?';
  } catch {
    return '?';
  }
}

const isWildcard = (host: string): boolean => host === '0.0.0.0' || host === '::';
const isLoopback = (host: string): boolean => host === 'localhost' || host === '::1' || host.startsWith('127.');

function printServerBanner(url: string, port: number, options: StartOptions): void {
  const rule = '='.repeat(100);
  const lines = [
    '',
    rule,
    `  VS Code ${serverVscodeVersion()} with Hosted Reasoning is running against the local emulator. Open in a browser:`,
    '',
    `  ${url}`,
    '',
  ];
  if (!isLoopback(options.host)) {
    if (isWildcard(options.host)) {
      lines.push(`  From another machine, replace 127.0.0.1 with this machine's address (hostname: ${os.hostname()}).`);
    }
    // Browsers give plain http only on localhost a secure context; webviews and the clipboard need one.
    lines.push(
      '  Browsers treat http://<address> as insecure, so webviews (the playground) may fail there; an SSH forward',
      `  (ssh -L ${port}:127.0.0.1:${port} <this machine>, then open http://127.0.0.1:${port}/...) avoids that.`,
    );
  } else {
    lines.push(
      `  From another machine, forward the port first, e.g. ssh -L ${port}:127.0.0.1:${port} <this machine>, then open`,
      '  the same URL there. Through a forward to another port, change only the host:port part of the URL.',
    );
  }
  lines.push(
    "  The URL carries this start's connection token; the browser keeps it in a cookie, so reloads need no token.",
    `  Workspace: ${workspaceDir}   Server log: ${serverLogPath}`,
    '  Press Ctrl+C to stop VS Code and the emulator.',
    rule,
    '',
  );
  console.log(lines.join('\n'));
}

async function startServerEditor(options: StartOptions, emulatorUrl: string): Promise<RunningEditor> {
  // A fresh profile each start: the emulator forgets its jobs and models when it stops, so jobs the extension
  // remembered from an earlier start would only show up as "no longer known to the service".
  fs.rmSync(serverDataDir, { recursive: true, force: true });
  const userDataDir = path.join(serverDataDir, 'data');
  await writeDemoSettings(userDataDir, emulatorUrl);
  const tokenFile = path.join(serverDataDir, 'connection-token');
  const token = randomBytes(24).toString('hex');
  fs.writeFileSync(tokenFile, token, { mode: 0o600 });

  const logFd = fs.openSync(serverLogPath, 'w');
  let logOpen = true;
  const log = (line: string): void => {
    if (logOpen) fs.writeSync(logFd, `${new Date().toISOString()} ${line}\n`);
  };
  say(`Starting VS Code ${serverVscodeVersion()} (server build of code-server ${NEWEST_HOST.codeServerVersion}) ...`);
  const server: VscodeServer = startVscodeServer({
    vscode: NEWEST_HOST,
    payload: true,
    userDataDir,
    extensionsDir: path.join(serverDataDir, 'extensions'),
    env: editorEnvironment(emulatorUrl),
    log,
    startTimeoutMs: 60_000,
    host: options.host,
    port: options.port,
    connectionTokenFile: tokenFile,
    // VS Code's own Welcome page lists the extension's walkthrough; code-server's replacement page does not.
    extraArgs: ['--disable-getting-started-override'],
  });
  stoppers.push({
    what: 'the VS Code server',
    stop: async () => {
      await server.stop();
      logOpen = false;
      fs.closeSync(logFd);
    },
  });
  let port: number;
  try {
    port = await unlessInterrupted(server.listening);
  } catch (error) {
    if (error instanceof Interrupted) throw error;
    throw new StartError(`${error instanceof Error ? error.message : String(error)}; its output: ${serverLogPath}`);
  }
  const host = isWildcard(options.host) ? '127.0.0.1' : options.host;
  const url = workbenchUrl({ host, port, workspace: workspaceDir, extensionRoot: repoRoot, connectionToken: token });
  say(`Ready in ${elapsed()}.`);
  printServerBanner(url, port, options);

  // The server does not say when it dies; a person would otherwise look at a dead URL while this waits on.
  const ended = new Promise<EditorEnd>((resolve) => {
    const timer = setInterval(() => {
      const status = server.exitStatus();
      if (status === undefined) return;
      clearInterval(timer);
      resolve({ reason: `the VS Code server exited (${status}); its output: ${serverLogPath}`, exitCode: 1 });
    }, 500);
    timer.unref();
  });
  return { ended };
}

async function startDesktopEditor(codePath: string, emulatorUrl: string): Promise<RunningEditor> {
  // A fresh profile for the same reason as the server's; it also keeps the person's own VS Code profile untouched.
  fs.rmSync(desktopDataDir, { recursive: true, force: true });
  await writeDemoSettings(desktopDataDir, emulatorUrl);
  say(`Opening desktop VS Code (${codePath}) with its own demo profile ...`);
  const desktop = launchDesktopCode({
    codePath,
    userDataDir: desktopDataDir,
    extensionRoot: repoRoot,
    workspace: workspaceDir,
    env: editorEnvironment(emulatorUrl),
  });
  stoppers.push({ what: 'desktop VS Code', stop: () => desktop.stop() });
  say(`Ready in ${elapsed()}. A VS Code window opens on ${workspaceDir}.`);
  say('Close the window or press Ctrl+C here to stop VS Code and the emulator.');
  return { ended: desktop.exited.then((status) => ({ reason: `VS Code ended (${status})`, exitCode: 0 })) };
}

/** Starts everything, then waits for Ctrl+C or the editor's end; returns the exit code. */
async function run(options: StartOptions): Promise<number> {
  if (!fs.existsSync(extensionBundlePath)) {
    throw new StartError(`${path.relative(repoRoot, extensionBundlePath)} is missing: \`npm start\` builds it first`);
  }
  const codePath = options.editor === 'server' ? undefined : findDesktopCode();
  if (options.editor === 'desktop' && !codePath) {
    throw new StartError('--desktop: no desktop `code` command on PATH (drop --desktop to use the server build)');
  }
  if (!codePath) await ensureServerInstalled();

  await unlessInterrupted(writeDemoWorkspace(workspaceDir));
  say(`Demo workspace: ${workspaceDir} (${DEMO_FILES.join(', ')})`);

  // Loopback only: the extension host, on this machine, is its only client. Not raced: it takes milliseconds, and a
  // started emulator must be registered to be stopped.
  const emulator = await startEmulator({ host: '127.0.0.1', port: options.emulatorPort, ...DEMO_TIMINGS, ...DEMO_REASONING });
  stoppers.push({ what: 'the emulator', stop: () => emulator.close() });
  const keys = Object.entries(emulator.options.keys).map(([key, config]) => `${key} (${config.models.join(', ')})`);
  say(`Emulator: ${emulator.url}   keys: ${keys.join('; ')}`);
  say(`  datasets: ${Object.keys(emulator.options.datasets).join(', ')}; the extension uses ${DEMO_KEY}`);

  const editor = codePath
    ? await unlessInterrupted(startDesktopEditor(codePath, emulator.url))
    : await unlessInterrupted(startServerEditor(options, emulator.url));
  const end = await unlessInterrupted(editor.ended);
  say(`${end.reason}: stopping the rest ...`);
  return end.exitCode;
}

async function main(): Promise<number> {
  let options: StartOptions;
  try {
    options = parseStartArgs(process.argv.slice(2));
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return 2;
  }
  if (options.help) {
    console.log(USAGE);
    return 0;
  }
  fs.mkdirSync(demoDir, { recursive: true });
  let exitCode: number;
  try {
    exitCode = await run(options);
  } catch (error) {
    if (error instanceof Interrupted) {
      exitCode = error.exitCode;
    } else {
      console.error(error instanceof StartError ? `[start] ${error.message}` : error);
      exitCode = 1;
    }
  }
  const hadSomethingToStop = stoppers.length > 0;
  await stopAll();
  if (hadSomethingToStop) say('Stopped: nothing of this demo is left running.');
  return exitCode;
}

void main().then((code) => process.exit(code));
