// Runs a probe (a tests entry that measures inside the extension host and writes its result to a file) in VS Code's
// server build opened in headless Chromium, with the working tree's extension under development and the emulator
// (in this process) as its service, and reads the file.
// Shared by the figures measured this way (chatLatency.ts, toolCalls.ts), so the host, the browser, the temporary
// homes and the log are set up and torn down in one place; the activation figure, which drives its own page, starts
// its server and browser with the same two helpers (startBenchServer, launchBenchBrowser).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { startEmulator } from '../service/emulator';
import { describeMissing, missingBrowser } from '../runners/hostPrerequisites';
import { HOSTS, NEWEST_HOST, repoRoot, testOutputDir, testWorkspacePath, type VscodeHost } from '../runners/vscodeServerLayout';
import { startVscodeServer, type VscodeServer } from '../runners/vscodeServerProcess';
import { launchBrowser, openWorkbench, workbenchUrl } from '../runners/workbenchBrowser';
import { withTemporaryHome } from '../runners/temporaryHome';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export interface ProbeRun {
  /** The probe's compiled tests entry (out/test/bench/<probe>.js). */
  probe: string;
  /** The emulator's pace, ms per token. */
  tokenIntervalMs: number;
  /**
   * Added to the server's environment (VSCODE_* of this process are left out), beside the emulator's URL and key: the
   * probe's own settings, among them where it writes its JSON result.
   */
  env(resultFile: string): Record<string, string>;
  /** The server's output and the workbench's console go to test-output/<logName>, for a run that fails. */
  logName: string;
  /** Writes helper extensions into the server's extensions folder before it starts. */
  prepareExtensions?(extensionsDir: string): void;
  timeoutMs?: number;
}

/** Throws, saying what to install, unless Chromium and the chosen VS Code server build are present. */
function checkVscodeHost(): void {
  const missing = missingBrowser();
  if (missing.length > 0) throw new Error(describeMissing(missing));
  if (!fs.existsSync(probeHost().installMarkerPath)) {
    throw new Error('The VS Code server is not installed: run `node out/test/runners/setupVscodeServer.js`.');
  }
}

/** HR_VSCODE_HOST=minimum measures on the oldest supported VS Code instead of the newest. */
function probeHost() {
  return process.env.HR_VSCODE_HOST === 'minimum' ? HOSTS.minimum : NEWEST_HOST;
}

/**
 * VS Code's server build for a benchmark, its user data, home and extensions in `tmp` (extensionsDir), the working
 * tree's extension loadable as under development (payload). Its environment is this process's without the VSCODE_*
 * variables (run from a VS Code terminal, they would tie the server to that editor), plus `env`.
 */
export function startBenchServer(options: {
  vscode: VscodeHost;
  tmp: string;
  extensionsDir: string;
  env: Record<string, string>;
  log: (line: string) => void;
}): VscodeServer {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('VSCODE_')) env[k] = v;
  Object.assign(env, options.env);
  return startVscodeServer({
    vscode: options.vscode,
    payload: true,
    userDataDir: path.join(options.tmp, 'server-data'),
    extensionsDir: options.extensionsDir,
    env: withTemporaryHome(env, path.join(options.tmp, 'home')),
    log: options.log,
    startTimeoutMs: 60_000,
  });
}

/** Headless Chromium with its profile and home in `tmp`. */
export function launchBenchBrowser(tmp: string): Promise<BrowserContext> {
  return launchBrowser(path.join(tmp, 'chromium'), withTemporaryHome(process.env, path.join(tmp, 'browser-home')));
}

/** Starts the server and the workbench with the probe as tests entry, waits for its result, and returns it parsed. */
export async function runProbeInVscode<T extends { error?: string }>(options: ProbeRun): Promise<T> {
  checkVscodeHost();
  const emu = await startEmulator({ tokenIntervalMs: options.tokenIntervalMs });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hr-bench-probe-'));
  const resultFile = path.join(tmp, 'result.json');
  const timeoutMs = options.timeoutMs ?? 120_000;
  const logFile = path.join(testOutputDir, options.logName);
  fs.mkdirSync(testOutputDir, { recursive: true });
  fs.writeFileSync(logFile, '');
  const log = (line: string) => fs.appendFileSync(logFile, `${line}\n`);
  let server: VscodeServer | undefined;
  let browser: BrowserContext | undefined;
  try {
    const extensionsDir = path.join(tmp, 'extensions');
    fs.mkdirSync(extensionsDir, { recursive: true });
    options.prepareExtensions?.(extensionsDir);
    server = startBenchServer({
      vscode: probeHost(),
      tmp,
      extensionsDir,
      env: { HOSTED_REASONING_BASE_URL: emu.url, HOSTED_REASONING_API_KEY: 'demo-key', ...options.env(resultFile) },
      log,
    });
    const port = await server.listening;
    browser = await launchBenchBrowser(tmp);
    await openWorkbench(
      browser,
      workbenchUrl({ port, workspace: testWorkspacePath, extensionRoot: repoRoot, suiteIndex: options.probe }),
      log,
    );
    const deadline = Date.now() + timeoutMs;
    while (!fs.existsSync(resultFile)) {
      if (Date.now() > deadline) {
        throw new Error(`the probe did not report within ${timeoutMs / 1000} s (see test-output/${options.logName})`);
      }
      await sleep(200);
    }
    const result = JSON.parse(fs.readFileSync(resultFile, 'utf8')) as T;
    if (result.error) throw new Error(`the probe failed: ${result.error}`);
    return result;
  } finally {
    await browser?.close().catch(() => undefined);
    await server?.stop().catch(() => undefined);
    await emu.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
