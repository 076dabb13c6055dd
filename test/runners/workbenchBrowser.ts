// Opens the VS Code web workbench in headless Chromium; the page's console goes to the run's log.
import { chromium, type BrowserContext } from 'playwright-core';
import { chromiumPath } from './vscodeServerLayout';

/** Flags from the team guide: no sandbox (root in a container), no GPU, nothing that calls out to Google. */
const CHROMIUM_ARGS = [
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** Headless Chromium on a fresh, empty profile folder: no state from an earlier run may leak in. */
export function launchBrowser(profileDir: string): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profileDir, {
    executablePath: chromiumPath,
    headless: true,
    chromiumSandbox: false,
    args: CHROMIUM_ARGS,
    // Playwright would exit the process on these signals before the runner has stopped the server.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
}

/** Loads the workbench; its console and errors go to `log`. */
export async function openWorkbench(browser: BrowserContext, url: string, log: (line: string) => void): Promise<void> {
  const page = browser.pages()[0] ?? (await browser.newPage());
  page.on('console', (message) => log(`[browser:${message.type()}] ${message.text()}`));
  page.on('pageerror', (error) => log(`[browser:pageerror] ${error.stack ?? error.message}`));
  page.on('crash', () => log('[browser] the workbench page crashed'));
  await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60_000 });
}

/** The workbench URL that makes the remote extension host load our extension and run the suite. */
export function workbenchUrl(port: number, workspace: string, extensionRoot: string, suiteIndex: string): string {
  const remote = (absolutePath: string): string =>
    `vscode-remote://127.0.0.1:${port}${absolutePath.split('/').map(encodeURIComponent).join('/')}`;
  const payload = [
    ['extensionDevelopmentPath', remote(extensionRoot)],
    ['extensionTestsPath', remote(suiteIndex)],
  ];
  const query = `folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
  return `http://127.0.0.1:${port}/?${query}`;
}
