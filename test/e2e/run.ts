// The UI tests (issue 5): VS Code's server build with the extension's package for this platform installed (the .vsix
// a person here installs, which carries the local runtime), opened in headless Chromium and driven by Playwright
// through the steps of steps.ts, against the service emulator running in this
// process. Builds nothing: `npm run test:e2e` packages, compiles and installs the server first.
//
// HR_E2E_EXTENSION=dev loads the working tree's build (dist/, `npm run build`) as the development extension instead
// of installing the package: quicker while writing a step, but not what a person installs.
//
// Everything runs from one temporary folder (workspace, server user data and extensions, browser profile, download
// folder, and the home folder of the server and the browser, where the save dialog starts) removed at the end;
// screenshots and the log stay in test-output/e2e/ (git-ignored). After each step the workbench is reset to the state
// the steps start from (reset.ts). The run fails (exit 1)
// when a step fails, and also when a process it started is still alive after it stopped them.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { BrowserContext, Dialog, Page } from 'playwright-core';
import { CHAT_WITHOUT_COPILOT } from '../../scripts/demoSettings';
import { writeDemoWorkspace } from '../../scripts/demoWorkspace';
import { writeTextlessPdf } from '../service/fixtures';
import { startEmulator, type Emulator } from '../service/emulator';
import { describeMissing, missingBrowser } from '../runners/hostPrerequisites';
import { installVsix, packagedVsixPath } from '../runners/installExtension';
import { packageSizeProblems, showInstalledExtension, universalPackageDifferences, vsixFiles } from '../runners/packagedExtension';
import { extensionBundlePath, NEWEST_HOST, repoRoot, testOutputDir } from '../runners/vscodeServerLayout';
import { startVscodeServer, type VscodeServer } from '../runners/vscodeServerProcess';
import { withTemporaryHome } from '../runners/temporaryHome';
import { launchBrowser, openWorkbench, workbenchUrl } from '../runners/workbenchBrowser';
import { missingReadmeScreenshots, updateReadmeScreenshots } from './readmeScreenshots';
import { WorkbenchReset } from './reset';
import { sabotaged } from './sabotage';
import { runSteps, type Step, type StepResult } from './stepRunner';
import { story } from './steps';
import { WAIT_TIMEOUT_MS, Workbench } from './workbench';

const outputDir = path.join(testOutputDir, 'e2e');
const logPath = path.join(outputDir, 'run.log');
/**
 * A bound for a hang, not a measure: the longest the run may go without progress (a stage of the setup done, a step
 * started or ended), above what any one stage takes within its own bounds (a step's up to 180 s, 45 s for it to
 * settle, its reset's 90 s and a window opened afresh). Never on the whole run, whose time grows with the machine's
 * load: a whole-run bound of 10 minutes stopped a fresh-clone CI run at a load of 24 after step 16 of 23 had passed.
 */
const HANG_TIMEOUT_MS = 10 * 60_000;
const DEMO_KEY = 'demo-key';
/** The UI run's scanned-looking PDF (step 21), written beside the demo workspace's documents. */
const SCANNED_PDF = 'scanned-brochure.pdf';
/** The platform package is what a person on this machine installs; unlike the universal one it runs models locally. */
const PLATFORM_TARGET = `${process.platform}-${process.arch}`;
/** The packaged extension as a person installs it, or the working tree's build as the development extension. */
const mode: 'vsix' | 'dev' = process.env.HR_E2E_EXTENSION === 'dev' ? 'dev' : 'vsix';

/**
 * Quick enough for a test, slow enough to be seen: a finetune lasts a few seconds (the status bar shows it across
 * several polls), tokens come every few milliseconds until a step slows them down.
 */
const EMULATOR_TIMINGS = { finetuneDurationMs: 4_000, evaluationDurationMs: 1_000, tokenIntervalMs: 5, artifactBytes: 1024 * 1024 };

/**
 * `HR_E2E_STEPS=1,7` runs only those steps (and the steps they need), for working on one; the default is all. The
 * screenshots of the others are then missing, and the run says which ran.
 */
function wantedSteps(): number[] {
  return (process.env.HR_E2E_STEPS ?? '')
    .split(',')
    .map((n) => Number(n.trim()))
    .filter((n) => n > 0);
}

function selectedSteps(steps: readonly Step[]): Step[] {
  const wanted = wantedSteps();
  if (wanted.length === 0) return [...steps];
  const ids = new Set<string>();
  const add = (step: Step): void => {
    if (ids.has(step.id)) return;
    ids.add(step.id);
    for (const need of step.needs ?? []) {
      const needed = steps.find((s) => s.id === need);
      if (needed) add(needed);
    }
  };
  for (const step of steps) if (wanted.includes(step.number)) add(step);
  const chosen = steps.filter((s) => ids.has(s.id));
  console.log(`[e2e] HR_E2E_STEPS=${process.env.HR_E2E_STEPS}: running steps ${chosen.map((s) => s.number).join(', ')}`);
  return chosen;
}

const seconds = (since: number): string => `${((Date.now() - since) / 1000).toFixed(1)} s`;

function preflightProblem(): string | undefined {
  const missing = missingBrowser();
  if (missing.length > 0) return describeMissing(missing, 'run the UI tests');
  if (!fs.existsSync(NEWEST_HOST.installMarkerPath)) {
    return 'The VS Code server is not installed: run `node out/test/runners/setupVscodeServer.js`.';
  }
  if (mode === 'dev' && !fs.existsSync(extensionBundlePath)) return 'dist/extension.js is missing: run `npm run build`.';
  if (mode === 'vsix' && !fs.existsSync(packagedVsixPath(PLATFORM_TARGET))) {
    return `${path.basename(packagedVsixPath(PLATFORM_TARGET))} is missing: run \`npm run package:target -- ${PLATFORM_TARGET}\`.`;
  }
  if (mode === 'vsix' && !fs.existsSync(packagedVsixPath())) {
    return `${path.basename(packagedVsixPath())} is missing: run \`npm run package\`.`;
  }
  return undefined;
}

/** The runner's environment without what would connect the extension by itself or confuse the server. */
function serverEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.startsWith('VSCODE_') && !name.startsWith('HOSTED_REASONING_')) env[name] = value;
  }
  return env;
}

/**
 * User settings as a person would have them after pointing the extension at the service. The download folder saves a
 * native save dialog the browser cannot show; a one-second poll keeps the run short; the startup editor and the
 * parent-repository prompt are noise in screenshots.
 */
function writeUserSettings(userDataDir: string, emu: Emulator, downloadFolder: string): string {
  const settings = {
    'hostedReasoning.baseUrl': emu.url,
    'hostedReasoning.downloadFolder': downloadFolder,
    'hostedReasoning.pollIntervalSeconds': 1,
    // One thread for the local runtime: two on a loaded 2-core machine slowed generation by orders of magnitude.
    'hostedReasoning.local.threads': 1,
    // VS Code 1.139 opens its Chat view in the secondary side bar of every window; it would take a third of the
    // screenshots (README's among them) from the views and editors the steps are about. A step may still open it.
    'workbench.secondarySideBar.defaultVisibility': 'hidden',
    // The emulator's ports, forwarded by the server build on its own, would be counted in the status bar.
    'remote.autoForwardPorts': false,
    'workbench.startupEditor': 'none',
    'git.openRepositoryInParentFolders': 'never',
    'telemetry.telemetryLevel': 'off',
    // The demo's (scripts/demoSettings.ts): Agent mode off, so Chat is in Ask mode, whose picker offers our models
    // (Agent mode hides models without tool calling). Steps 15 and up need it; step 20 turns Agent mode on for a while.
    ...CHAT_WITHOUT_COPILOT,
  };
  const file = path.join(userDataDir, 'User', 'settings.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(settings, null, 2) + '\n');
  return file;
}

/** Processes whose command line names `marker` (our temporary folder): none may survive the cleanup. */
function processesMentioning(marker: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
      if (cmdline.includes(marker)) found.push(`${entry} ${cmdline.slice(0, 160)}`);
    } catch {
      // ended meanwhile, or not ours to read
    }
  }
  return found;
}

function printSummary(results: readonly StepResult[], started: number): void {
  const count = (outcome: StepResult['outcome']): number => results.filter((r) => r.outcome === outcome).length;
  console.log('');
  console.log(`[e2e] ${count('passed')} passed, ${count('failed')} failed, ${count('skipped')} skipped in ${seconds(started)}`);
  for (const r of results.filter((x) => x.outcome === 'failed')) {
    console.error(`[e2e] FAILED step ${r.number} (${r.step.title}); screenshot: ${r.screenshot ?? 'none'}`);
  }
  console.log(`[e2e] screenshots: ${path.relative(process.cwd(), outputDir) || outputDir}/`);
}

/**
 * After a full run: every screenshot README shows was produced (else a renamed step would leave README showing an old
 * picture), and `npm run screenshots` (HR_UPDATE_SCREENSHOTS=1) copies them over README's.
 */
function readmeScreenshotsDone(): boolean {
  const missing = missingReadmeScreenshots(outputDir);
  if (missing.length > 0) {
    console.error(`[e2e] README shows screenshots this run did not take: ${missing.join(', ')} (test/e2e/readmeScreenshots.ts)`);
    return false;
  }
  if (process.env.HR_UPDATE_SCREENSHOTS === '1') {
    updateReadmeScreenshots(outputDir);
    console.log('[e2e] README screenshots updated in media/screenshots/');
  }
  return true;
}

async function main(): Promise<number> {
  const problem = preflightProblem();
  if (problem) {
    console.error(problem);
    return 1;
  }
  const started = Date.now();
  fs.rmSync(outputDir, { recursive: true, force: true });
  fs.mkdirSync(outputDir, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hr-e2e-'));
  const workspace = path.join(tmp, 'workspace');
  const downloadFolder = path.join(tmp, 'downloads');
  const userDataDir = path.join(tmp, 'server-data');
  const extensionsDir = path.join(tmp, 'extensions');
  const home = path.join(tmp, 'home');
  fs.mkdirSync(downloadFolder);
  // The server's, the extension host's and the browser's home: what they keep "at home", and the save dialog's start.
  const env = withTemporaryHome(serverEnvironment(), home);

  let logFd: number | undefined = fs.openSync(logPath, 'w');
  const log = (line: string): void => {
    if (logFd !== undefined) fs.writeSync(logFd, `${new Date().toISOString()} ${line}\n`);
  };

  let emu: Emulator | undefined;
  let server: VscodeServer | undefined;
  let browserLaunch: Promise<BrowserContext> | undefined;
  let cleanedUp: Promise<string[]> | undefined;
  /** Stops everything started, once; resolves to the processes that survived (should be none). */
  const cleanUp = (): Promise<string[]> =>
    (cleanedUp ??= (async () => {
      const browser = await browserLaunch?.catch(() => undefined);
      await browser?.close().catch((error: unknown) => log(`[e2e] closing the browser: ${String(error)}`));
      await server?.stop().catch((error: unknown) => console.error(`[e2e] ${String(error)}`));
      await emu?.close().catch((error: unknown) => console.error(`[e2e] closing the emulator: ${String(error)}`));
      const survivors = processesMentioning(tmp);
      fs.rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });
      return survivors;
    })());
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const) {
    process.once(signal, () => {
      console.error(`[e2e] ${signal}: stopping the server, the browser and the emulator`);
      void cleanUp().finally(() => process.exit(code));
    });
  }
  let lastProgress = 'the start';
  const hang = setTimeout(() => {
    console.error(`[e2e] no progress for ${HANG_TIMEOUT_MS / 1000} s since ${lastProgress}: stopping`);
    void cleanUp().finally(() => process.exit(1));
  }, HANG_TIMEOUT_MS);
  const progress = (what: string): void => {
    lastProgress = what;
    hang.refresh();
  };

  let results: StepResult[] = [];
  let setupError: string | undefined;
  try {
    emu = await startEmulator(EMULATOR_TIMINGS);
    await writeDemoWorkspace(workspace);
    // Beside the demo's documents, a PDF as a scanner makes it: two pages of pictures, no text layer (step 21).
    await writeTextlessPdf(path.join(workspace, SCANNED_PDF), 2);
    const userSettingsFile = writeUserSettings(userDataDir, emu, downloadFolder);
    console.log(`[e2e] emulator on ${emu.url}; workspace ${workspace}`);

    if (mode === 'vsix') {
      const vsix = packagedVsixPath(PLATFORM_TARGET);
      log(`[e2e] ${installVsix(NEWEST_HOST, vsix, extensionsDir, env)}`);
      const installed = fs.readdirSync(extensionsDir).filter((entry) => !entry.startsWith('.'));
      console.log(`[e2e] installed ${path.basename(vsix)} (${installed.join(', ')}) (${seconds(started)})`);
      progress('the package installed');
    } else {
      console.log(`[e2e] HR_E2E_EXTENSION=dev: the working tree's dist/ as the development extension`);
    }

    server = startVscodeServer({
      vscode: NEWEST_HOST,
      payload: mode !== 'vsix',
      userDataDir,
      extensionsDir,
      env,
      log,
      startTimeoutMs: 60_000,
    });
    const port = await server.listening;
    console.log(`[e2e] VS Code server listening on 127.0.0.1:${port} (${seconds(started)})`);
    progress('the server listening');
    browserLaunch = launchBrowser(path.join(tmp, 'chromium-profile'), env);
    const browser = await browserLaunch;
    // The installed package needs no payload: the workbench finds it in the extensions folder, as for a person.
    const url =
      mode === 'vsix'
        ? `http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`
        : workbenchUrl({ port, workspace, extensionRoot: repoRoot });
    await openWorkbench(browser, url, log);
    const page = browser.pages()[0];
    if (!page) throw new Error('the browser has no page');
    await page.setViewportSize({ width: 1440, height: 900 });
    // The bound of a single wait on the page: generous for a cold, loaded 2-core CI machine (workbench.ts).
    page.setDefaultTimeout(WAIT_TIMEOUT_MS);
    const workbench = new Workbench(page);
    await workbench.ready(60_000);
    console.log(`[e2e] workbench ready (${seconds(started)})`);
    progress('the workbench ready');
    if (mode === 'vsix') {
      await checkPackages(page, outputDir);
      progress('the package check');
    }

    const { steps, settle, reconnect } = story({
      workbench,
      emu,
      key: DEMO_KEY,
      downloadFolder,
      userSettingsFile,
      workspace,
      home,
      scratch: tmp,
      sourcePdfs: ['product-handbook.pdf', 'release-notes.pdf'],
      scannedPdf: SCANNED_PDF,
      baseModel: 'oss-reasoner-8b',
      modelName: 'lumen-e2e',
      dataset: 'demo-qa',
    });
    // A fresh window: the page loaded again (the browser workbench keeps the key in memory only: given again).
    const reopen = async (): Promise<void> => {
      // An editor with unsaved changes makes the page ask before it unloads: leave anyway.
      const leave = (dialog: Dialog): void => void (dialog.type() === 'beforeunload' ? dialog.accept() : undefined);
      page.on('dialog', leave);
      await page.reload({ waitUntil: 'domcontentloaded' }).finally(() => page.off('dialog', leave));
      await workbench.ready(60_000);
      await reconnect();
    };
    const reset = new WorkbenchReset({ workbench, userSettingsFile, emu, reopen, settle });
    results = await runSteps(page, sabotaged(selectedSteps(steps), { workbench, emu, userSettingsFile }), outputDir, {
      reset: () => reset.reset(),
      recover: async () => {
        await reopen();
        await reset.reset();
      },
      progress,
    });
  } catch (error) {
    setupError = error instanceof Error ? error.message : String(error);
    console.error(`[e2e] setup failed: ${setupError}`);
  } finally {
    clearTimeout(hang);
  }
  const survivors = await cleanUp();
  if (logFd !== undefined) fs.closeSync(logFd);
  logFd = undefined;

  printSummary(results, started);
  if (survivors.length > 0) {
    console.error(`[e2e] processes left behind after the cleanup:\n${survivors.map((p) => `  ${p}`).join('\n')}`);
  }
  let passed = setupError === undefined && survivors.length === 0 && results.length > 0 && results.every((r) => r.outcome === 'passed');
  if (passed && wantedSteps().length === 0) passed = readmeScreenshotsDone();
  if (!passed) console.error(`[e2e] FAILED; server output and browser console: ${logPath}`);
  else console.log('[e2e] passed; no process left behind');
  return passed ? 0 : 1;
}

/**
 * The package check (`npm run test:package` starts its own VS Code for it; here it costs no second server and browser):
 * the installed package shows in the Extensions view with its icon, and the universal package carries the same files
 * but the local runtime's.
 */
async function checkPackages(page: Page, outputDir: string): Promise<void> {
  const differences = universalPackageDifferences(await vsixFiles(packagedVsixPath()), await vsixFiles(packagedVsixPath(PLATFORM_TARGET)));
  if (differences.length > 0) throw new Error(`the two packages differ beyond the local runtime:\n${differences.join('\n')}`);
  const sizes = packageSizeProblems(fs.readFileSync(path.join(repoRoot, 'README.md'), 'utf8'), {
    platform: fs.statSync(packagedVsixPath(PLATFORM_TARGET)).size,
    universal: fs.statSync(packagedVsixPath()).size,
  });
  if (sizes.length > 0) throw new Error(`README's package sizes are not the packages':\n${sizes.join('\n')}`);
  const { displayName } = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { displayName: string };
  await showInstalledExtension(page, displayName);
  await page.screenshot({ path: path.join(outputDir, 'package-installed-extensions.png') });
  console.log(`[e2e] the Extensions view shows "${displayName}" installed; the universal package matches the platform one`);
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
