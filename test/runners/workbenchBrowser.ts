// Opens the VS Code web workbench in headless Chromium; the page's console goes to the run's log.
import { chromium, type BrowserContext, type Page } from 'playwright-core';
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

/**
 * Headless Chromium on a fresh, empty profile folder: no state from an earlier run may leak in. `env` is the browser's
 * environment (a test gives it a temporary home: Chromium writes crash reports and GTK settings there).
 */
export function launchBrowser(profileDir: string, env?: NodeJS.ProcessEnv): Promise<BrowserContext> {
  const defined = env && Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
  return chromium.launchPersistentContext(profileDir, {
    ...(defined ? { env: defined } : {}),
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

/** Loads the workbench; its console and errors go to `log`. Returns the page. */
export async function openWorkbench(browser: BrowserContext, url: string, log: (line: string) => void): Promise<Page> {
  const page = browser.pages()[0] ?? (await browser.newPage());
  page.on('console', (message) => log(`[browser:${message.type()}] ${message.text()}`));
  page.on('pageerror', (error) => log(`[browser:pageerror] ${error.stack ?? error.message}`));
  page.on('crash', () => log('[browser] the workbench page crashed'));
  await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60_000 });
  return page;
}

export interface WorkbenchTarget {
  /** The host the browser uses; the server's own loopback address unless a person reaches it otherwise. */
  readonly host?: string;
  readonly port: number;
  readonly workspace: string;
  /** The extension the remote extension host loads from source (`extensionDevelopmentPath`). */
  readonly extensionRoot: string;
  /** The compiled suite the extension host runs; absent when a person uses the workbench (npm start). */
  readonly suiteIndex?: string;
  /** Sent once as `tkn`; the server answers with a cookie, so reloads and later links need no token. */
  readonly connectionToken?: string;
}

/**
 * The workbench URL that makes the remote extension host load our extension (and run the suite, if given). The
 * payload's `vscode-remote://` authority is only a label: the workbench uses the path on whatever host it was opened
 * from, so the URL still works through a port forward with another host and port (checked by hand).
 */
export function workbenchUrl(target: WorkbenchTarget): string {
  const host = target.host ?? '127.0.0.1';
  const authority = `${host.includes(':') ? `[${host}]` : host}:${target.port}`;
  const remote = (absolutePath: string): string =>
    `vscode-remote://${authority}${absolutePath.split('/').map(encodeURIComponent).join('/')}`;
  const payload = [['extensionDevelopmentPath', remote(target.extensionRoot)]];
  if (target.suiteIndex) payload.push(['extensionTestsPath', remote(target.suiteIndex)]);
  const query = [
    ...(target.connectionToken ? [`tkn=${encodeURIComponent(target.connectionToken)}`] : []),
    `folder=${encodeURIComponent(target.workspace)}`,
    `payload=${encodeURIComponent(JSON.stringify(payload))}`,
  ].join('&');
  return `http://${authority}/?${query}`;
}
