// `npm run test:package`: proves the .vsix that `npm run package` wrote works once installed, the way a person gets it
// (no extensionDevelopmentPath): installs it into VS Code's server build with `--install-extension`, opens the
// workbench in headless Chromium against the emulator, and waits for the Models view to list the demo key's models.
// Screenshots go to test-output/ (the Models view, and the Extensions view showing the installed extension).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { describeMissing, missingBrowser } from '../test/runners/hostPrerequisites';
import { installVsix, packagedVsixPath } from '../test/runners/installExtension';
import { showInstalledExtension } from '../test/runners/packagedExtension';
import { NEWEST_HOST, repoRoot, testOutputDir } from '../test/runners/vscodeServerLayout';
import { startVscodeServer, type VscodeServer } from '../test/runners/vscodeServerProcess';
import { withTemporaryHome } from '../test/runners/temporaryHome';
import { launchBrowser, openWorkbench } from '../test/runners/workbenchBrowser';
import { startEmulator, type Emulator } from '../test/service/emulator';

const DEMO_KEY = 'demo-key';
const say = (line: string): void => console.log(`[package-check] ${line}`);

class CheckError extends Error {}

interface Manifest {
  name: string;
  version: string;
  publisher: string;
  displayName: string;
}

function readManifest(): Manifest {
  return JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as Manifest;
}

async function showModels(page: Page, models: readonly string[]): Promise<void> {
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  await page.locator('.activitybar a[aria-label^="Hosted Reasoning"]').click({ timeout: 30_000 });
  for (const model of models) {
    await page.locator('.monaco-list-row', { hasText: model }).first().waitFor({ timeout: 30_000 });
  }
}

async function main(): Promise<number> {
  const missing = missingBrowser();
  if (missing.length > 0) throw new CheckError(describeMissing(missing, 'check the package in VS Code'));
  if (!fs.existsSync(NEWEST_HOST.installMarkerPath)) {
    throw new CheckError('the VS Code server is not installed: run `node out/test/runners/setupVscodeServer.js`');
  }
  const manifest = readManifest();
  const vsix = packagedVsixPath();
  if (!fs.existsSync(vsix)) throw new CheckError(`${path.basename(vsix)} is missing: run \`npm run package\``);
  say(`${path.basename(vsix)}: ${(fs.statSync(vsix).size / 1024).toFixed(1)} KB`);

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hr-package-check-'));
  const workspace = path.join(tmp, 'workspace');
  fs.mkdirSync(workspace);
  fs.mkdirSync(testOutputDir, { recursive: true });
  const logPath = path.join(testOutputDir, 'package-check.log');
  const logFd = fs.openSync(logPath, 'w');
  const log = (line: string): void => void fs.writeSync(logFd, `${new Date().toISOString()} ${line}\n`);

  let emulator: Emulator | undefined;
  let server: VscodeServer | undefined;
  let browser: BrowserContext | undefined;
  let cleanedUp: Promise<void> | undefined;
  const cleanUp = (): Promise<void> =>
    (cleanedUp ??= (async () => {
      await browser?.close().catch(() => undefined);
      await server?.stop().catch((error: unknown) => say(String(error)));
      await emulator?.close();
      fs.closeSync(logFd);
      fs.rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });
    })());
  // Playwright leaves signals to us (workbenchBrowser): Ctrl+C must still end the server's process group.
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    process.once(signal, () => void cleanUp().finally(() => process.exit(code)));
  }
  try {
    const extensionsDir = path.join(tmp, 'extensions');
    // The server's, the extension host's and the browser's home: nothing lands in the person's.
    const home = withTemporaryHome(process.env, path.join(tmp, 'home'));
    say(`server --install-extension: ${installVsix(NEWEST_HOST, vsix, extensionsDir, home)}`);
    const installed = fs.readdirSync(extensionsDir).filter((entry) => !entry.startsWith('.'));
    say(`extensions dir now holds: ${installed.join(', ')}`);

    emulator = await startEmulator();
    const demo = emulator.options.keys[DEMO_KEY];
    if (!demo) throw new CheckError(`the emulator has no ${DEMO_KEY}`);
    const models = demo.models;
    const env: NodeJS.ProcessEnv = {};
    for (const [key, value] of Object.entries(home)) if (!key.startsWith('VSCODE_')) env[key] = value;
    env.HOSTED_REASONING_BASE_URL = emulator.url;
    env.HOSTED_REASONING_API_KEY = DEMO_KEY;
    server = startVscodeServer({
      vscode: NEWEST_HOST,
      userDataDir: path.join(tmp, 'server-data'),
      extensionsDir,
      env,
      log,
      startTimeoutMs: 60_000,
    });
    const port = await server.listening;
    browser = await launchBrowser(path.join(tmp, 'chromium-profile'), env);
    const page = browser.pages()[0] ?? (await browser.newPage());
    await page.setViewportSize({ width: 1400, height: 900 });
    // No payload: the extension must come from the extensions folder, as for a person who installed the .vsix.
    await openWorkbench(browser, `http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`, log);

    await showModels(page, models);
    const modelsShot = path.join(testOutputDir, 'package-installed-models.png');
    await page.screenshot({ path: modelsShot });
    say(`the Models view lists ${models.join(', ')}: ${modelsShot}`);

    await showInstalledExtension(page, manifest.displayName);
    const extensionsShot = path.join(testOutputDir, 'package-installed-extensions.png');
    await page.screenshot({ path: extensionsShot });
    say(`the Extensions view shows "${manifest.displayName}" installed: ${extensionsShot}`);
    say('passed');
    return 0;
  } finally {
    await cleanUp();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`[package-check] FAILED: ${error instanceof Error ? error.message : String(error)}`);
    console.error(`[package-check] server output and browser console: ${path.join(testOutputDir, 'package-check.log')}`);
    process.exit(1);
  },
);
