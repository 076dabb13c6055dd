// Runs the compiled in-editor suite (out/test/suite/index.js) inside VS Code's server build, driven by headless
// Chromium: the runner for machines that cannot download VS Code desktop. Builds nothing: `npm run test:vscode`
// bundles the extension, compiles the tests and installs the servers first. The same suite runs on every host of
// vscodeServerLayout.ts in turn (the oldest VS Code the manifest allows, and the newest); HR_VSCODE_HOST=newest runs
// one.
//
// Every variable in this process's environment reaches the extension host (the server passes its own on), so a test
// setting is passed as `SOME_VAR=value npm run test:vscode`. HR_TEST_GREP narrows the suite. A window runs as long as
// its suite goes on: it is stopped when the suite falls silent past the bound of what it runs (suiteWait.ts).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { EXPECTED_VSCODE_ENV, RESULT_FILE_ENV, TAG_ENV, TRUST_PASS_ENV } from '../suite/suiteResult';
import { describeMissing, missingBrowser } from './hostPrerequisites';
import { failureDigest, formatSuiteResult, suitesPassed, type WindowOutcome } from './suiteReport';
import { withTemporaryHome } from './temporaryHome';
import {
  cacheDirProblem,
  extensionBundlePath,
  repoRoot,
  selectedHosts,
  suiteIndexPath,
  testOutputDir,
  testWorkspacePath,
  type VscodeHost,
} from './vscodeServerLayout';
import { startVscodeServer, type VscodeServer } from './vscodeServerProcess';
import { startPageBridge, type PageBridge } from './pageBridge';
import { PAGE_BRIDGE_ENV } from '../suite/webviewPage';
import { launchBrowser, openWorkbench, workbenchUrl } from './workbenchBrowser';
import { waitForResult } from './suiteWait';

/**
 * How long the suite may say nothing (it says something every 5 s while its extension host runs) before the window
 * is judged hung: room for a loaded machine's late timers and for the extension host to load the suite. A bound for a
 * hang, not a measure of the run, whose whole time grows with the load: a whole-run bound (5 minutes, then 12) was each
 * time seen too short on a loaded 2-core machine, with the tests still passing.
 */
const SILENCE_MS = 2 * 60_000;

const seconds = (since: number): string => `${((Date.now() - since) / 1000).toFixed(1)} s`;

/** Why this machine or checkout cannot run the suite yet, or undefined. */
function preflightProblem(hosts: readonly VscodeHost[]): string | undefined {
  const missing = missingBrowser();
  if (missing.length > 0) return describeMissing(missing);
  const cacheProblem = cacheDirProblem();
  if (cacheProblem) return `cannot use the VS Code cache folder: ${cacheProblem}. Set HR_VSCODE_CACHE to a folder of yours.`;
  for (const host of hosts) {
    if (!fs.existsSync(host.installMarkerPath)) {
      return `VS Code ${host.vscodeVersion}'s server is not installed: run \`node out/test/runners/setupVscodeServer.js\`.`;
    }
  }
  for (const [file, command] of [
    [extensionBundlePath, 'npm run build'],
    [suiteIndexPath, 'npm run compile-tests'],
  ] as const) {
    if (!fs.existsSync(file)) return `${path.relative(repoRoot, file)} is missing: run \`${command}\`.`;
  }
  return undefined;
}

/** The runner's environment for the server, minus the variables of a VS Code this runner may itself run inside. */
function serverEnvironment(resultPath: string, host: VscodeHost, bridge: PageBridge): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('VSCODE_')) env[key] = value;
  }
  env[RESULT_FILE_ENV] = resultPath;
  env[EXPECTED_VSCODE_ENV] = host.vscodeVersion;
  env[PAGE_BRIDGE_ENV] = bridge.url;
  if (host.suiteTag !== undefined && process.env.HR_TEST_FULL_ON_EVERY_HOST !== '1') env[TAG_ENV] = host.suiteTag;
  return env;
}

/**
 * On each host the suite runs in two windows in turn, each with its own server, user data and browser profile:
 * `trusted` (every test but test/suite/restricted/, workspace trust off as @vscode/test-electron has it) and
 * `restricted` (test/suite/restricted/ only), a real Restricted Mode window: VS Code's workspace trust on and its
 * startup prompt off, so the workspace opens untrusted. There the runner plays the person: whenever the Workspace
 * Trust editor shows (a test opens it through the extension's "Manage Workspace Trust"), it clicks Trust.
 * HR_TEST_PASSES=trusted (or restricted) runs one window.
 */
type Pass = 'trusted' | 'restricted';
const PASSES: readonly Pass[] = ['trusted', 'restricted'];

function passesToRun(): Pass[] {
  const asked = (process.env.HR_TEST_PASSES ?? '').split(',').filter((p) => p !== '');
  const unknown = asked.filter((p) => !PASSES.includes(p as Pass));
  if (unknown.length > 0) throw new Error(`HR_TEST_PASSES: unknown window ${unknown.join(', ')} (known: ${PASSES.join(', ')})`);
  return asked.length > 0 ? (asked as Pass[]) : [...PASSES];
}

/** User settings of the Restricted Mode window: untrusted from the start, no prompt in the way. */
const RESTRICTED_SETTINGS = {
  'security.workspace.trust.enabled': true,
  'security.workspace.trust.startupPrompt': 'never',
  'workbench.startupEditor': 'none',
};

/** Clicks Trust in the Workspace Trust editor each time it shows while the window is untrusted, until the page closes. */
async function trustWhenAsked(page: Page, log: (line: string) => void): Promise<void> {
  const untrusted = page.locator('.workspace-trust-editor.untrusted');
  const trust = untrusted.locator('.workspace-trust-buttons-row a.monaco-button', { hasText: /^Trust$/ }).first();
  for (;;) {
    try {
      await trust.click({ timeout: 0 });
      log('[runner] the Workspace Trust editor showed: clicked Trust');
      // Trusted, the editor stays open without that button; wait until it is gone before looking again.
      await untrusted.first().waitFor({ state: 'detached', timeout: 0 });
    } catch {
      return; // the page or the browser closed
    }
  }
}

/** One window of one host: the suite's result, or why it did not report (also said on the console). */
async function runWindow(host: VscodeHost, pass: Pass, log: (line: string) => void): Promise<WindowOutcome> {
  const subset = host.suiteTag !== undefined && process.env.HR_TEST_FULL_ON_EVERY_HOST !== '1' ? ` ${host.suiteTag} only` : '';
  const tag = `[vscode-test ${host.vscodeVersion} ${pass}${subset}]`;
  const started = Date.now();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `hr-vscode-test-${pass}-`));

  let server: VscodeServer | undefined;
  let browserLaunch: Promise<BrowserContext> | undefined;
  let bridge: PageBridge | undefined;
  let cleanedUp: Promise<void> | undefined;
  // Idempotent, and safe at any point: a browser still launching is awaited and closed, the server group is ended.
  const cleanUp = (): Promise<void> =>
    (cleanedUp ??= (async () => {
      await bridge?.close();
      const browser = await browserLaunch?.catch(() => undefined);
      await browser?.close().catch((error: unknown) => log(`[runner] closing the browser: ${String(error)}`));
      await server?.stop().catch((error: unknown) => {
        log(`[runner] ${String(error)}`);
        console.error(`${tag} ${String(error)}`);
      });
      fs.rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });
    })());
  // Removed when this run ends, so a signal during the next window's run stops that one.
  const handlers = (
    [
      ['SIGINT', 130],
      ['SIGTERM', 143],
      ['SIGHUP', 129],
    ] as const
  ).map(([signal, code]) => {
    const handler = (): void => {
      console.error(`${tag} ${signal}: stopping the server and the browser`);
      void cleanUp().finally(() => process.exit(code));
    };
    process.once(signal, handler);
    return [signal, handler] as const;
  });

  try {
    // The suite's view into webview pages, through the browser opened below (test/suite/webviewPage.ts).
    bridge = await startPageBridge(() => browserLaunch);
    const userDataDir = path.join(tmp, 'server-data');
    if (pass === 'restricted') {
      const settingsFile = path.join(userDataDir, 'User', 'settings.json');
      fs.mkdirSync(path.dirname(settingsFile), { recursive: true });
      fs.writeFileSync(settingsFile, JSON.stringify(RESTRICTED_SETTINGS, null, 2));
    }
    // The server's, the extension host's and the browser's home: the tests' files stay in the temporary folder.
    const env = withTemporaryHome(
      { ...serverEnvironment(path.join(tmp, 'result.json'), host, bridge), [TRUST_PASS_ENV]: pass },
      path.join(tmp, 'home'),
    );
    server = startVscodeServer({
      vscode: host,
      payload: true,
      userDataDir,
      extensionsDir: path.join(tmp, 'extensions'),
      env,
      log,
      startTimeoutMs: 60_000,
      workspaceTrust: pass === 'restricted',
    });
    const port = await server.listening;
    console.log(`${tag} VS Code server listening on 127.0.0.1:${port} (${seconds(started)})`);
    browserLaunch = launchBrowser(path.join(tmp, 'chromium-profile'), env);
    const page = await openWorkbench(
      await browserLaunch,
      workbenchUrl({ port, workspace: testWorkspacePath, extensionRoot: repoRoot, suiteIndex: suiteIndexPath }),
      log,
    );
    if (pass === 'restricted') void trustWhenAsked(page, log);
    console.log(`${tag} workbench opened; waiting for the suite (${seconds(started)})`);
    const result = await waitForResult(path.join(tmp, 'result.json'), server, SILENCE_MS);
    console.log(formatSuiteResult(result, pass));
    return { window: pass, result };
  } catch (error) {
    const problem = error instanceof Error ? error.message : String(error);
    console.error(`${tag} ${problem}`);
    return { window: pass, problem };
  } finally {
    await cleanUp();
    for (const [signal, handler] of handlers) process.off(signal, handler);
  }
}

/** Every window of one host; true when they all passed. */
async function runOn(host: VscodeHost): Promise<boolean> {
  const tag = `[vscode-test ${host.vscodeVersion}]`;
  // One window of a host may run in another lane of `npm test` at the same time as the other: each has its own log.
  const passes = passesToRun();
  const windows = passes.length < PASSES.length ? `-${passes.join('-')}` : '';
  const logPath = path.join(testOutputDir, `vscode-server-${host.vscodeVersion}${windows}.log`);
  const started = Date.now();
  fs.mkdirSync(testOutputDir, { recursive: true });
  let logFd: number | undefined = fs.openSync(logPath, 'w');
  const log = (line: string): void => {
    // Output still buffered when the log is closed is dropped rather than thrown.
    if (logFd !== undefined) fs.writeSync(logFd, `${new Date().toISOString()} ${line}\n`);
  };
  const outcomes: WindowOutcome[] = [];
  try {
    for (const pass of passes) {
      log(`[runner] ---- the ${pass} window ----`);
      outcomes.push(await runWindow(host, pass, log));
    }
  } finally {
    fs.closeSync(logFd);
    logFd = undefined;
  }
  const passed = suitesPassed(outcomes.map((o) => o.result));
  console.log(`${tag} ${passed ? 'passed' : 'FAILED'} in ${seconds(started)}`);
  if (!passed) {
    console.error(failureDigest(outcomes).join('\n'));
    console.error(`${tag} server output and browser console: ${logPath}`);
  }
  return passed;
}

async function main(): Promise<number> {
  const hosts = selectedHosts();
  const problem = preflightProblem(hosts);
  if (problem) {
    console.error(problem);
    return 1;
  }
  // Every host runs even after one failed: a failure on one VS Code only is worth knowing as such.
  const failed: string[] = [];
  for (const host of hosts) if (!(await runOn(host))) failed.push(host.vscodeVersion);
  if (failed.length > 0) console.error(`[vscode-test] FAILED on VS Code ${failed.join(' and ')}`);
  return failed.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
