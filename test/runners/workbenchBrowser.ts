// Opens the VS Code web workbench in headless Chromium; the page's console goes to the run's log.
import { chromium, type BrowserContext } from 'playwright-core';
import { chromiumPath } from './vscodeServerLayout';

export interface WorkbenchOptions {
  readonly url: string;
  /** A fresh, empty folder: no state from an earlier run may leak in. */
  readonly profileDir: string;
  readonly log: (line: string) => void;
}

/** Flags from the team guide: no sandbox (root in a container), no GPU, nothing that calls out to Google. */
const CHROMIUM_ARGS = [
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export async function openWorkbench(options: WorkbenchOptions): Promise<BrowserContext> {
  const context = await chromium.launchPersistentContext(options.profileDir, {
    executablePath: chromiumPath,
    headless: true,
    chromiumSandbox: false,
    args: CHROMIUM_ARGS,
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    page.on('console', (message) => options.log(`[browser:${message.type()}] ${message.text()}`));
    page.on('pageerror', (error) => options.log(`[browser:pageerror] ${error.stack ?? error.message}`));
    page.on('crash', () => options.log('[browser] the workbench page crashed'));
    await page.goto(options.url, { waitUntil: 'domcontentloaded', timeout: 60_000 });
    return context;
  } catch (error) {
    await context.close();
    throw error;
  }
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
