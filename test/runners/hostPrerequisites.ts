// The machine packages the in-editor tests need, checked up front so a missing one is named instead of failing deep
// inside npm or playwright.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chromiumPath } from './vscodeServerLayout';

export interface MissingPrerequisite {
  /** What is missing and why it is needed. */
  readonly reason: string;
  /** The Debian package that provides it. */
  readonly aptPackage: string;
}

/** Absolute path of an executable found on PATH, or undefined. */
export function findOnPath(command: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, command);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The browser that opens the workbench; needed for every run. */
export function missingBrowser(): MissingPrerequisite[] {
  return isExecutable(chromiumPath) ? [] : [{ reason: `chromium (${chromiumPath}) to open the VS Code workbench`, aptPackage: 'chromium' }];
}

/** What installing the server needs on top of the browser: ripgrep and the build inputs of its native modules. */
export function missingInstallTools(): MissingPrerequisite[] {
  const missing: MissingPrerequisite[] = [];
  if (!findOnPath('rg')) {
    missing.push({
      reason: 'rg (ripgrep): VS Code search; its npm package would download it from GitHub',
      aptPackage: 'ripgrep',
    });
  }
  // @vscode/sqlite3 builds against the system's SQLite (serverNativeModules.ts). No libkrb5-dev any more: the
  // kerberos native module, which built against krb5.h, is not built.
  if (process.platform === 'linux' && !fs.existsSync('/usr/include/sqlite3.h')) {
    missing.push({
      reason: "sqlite3.h (libsqlite3-dev): VS Code's @vscode/sqlite3 native module builds against it",
      aptPackage: 'libsqlite3-dev',
    });
  }
  for (const [tool, aptPackage] of [
    ['python3', 'python3'],
    ['make', 'make'],
    ['g++', 'g++'],
  ] as const) {
    if (!findOnPath(tool)) missing.push({ reason: `${tool}: node-gyp builds native modules with it`, aptPackage });
  }
  return missing;
}

/** A message naming every missing piece and the one command that installs them all. */
export function describeMissing(missing: readonly MissingPrerequisite[], purpose = 'run the in-editor tests'): string {
  const packages = [...new Set(missing.map((m) => m.aptPackage))].join(' ');
  return [
    `Cannot ${purpose}; this machine lacks:`,
    ...missing.map((m) => `  - ${m.reason}`),
    `Install with: apt-get install -y --no-install-recommends ${packages}`,
  ].join('\n');
}

/** Runs apt-get with these arguments; true when it succeeded. */
export type AptGet = (args: readonly string[]) => boolean;

/** How ensurePrerequisites may install: as root with apt-get on PATH, unless HR_INSTALL_NOTHING is set. */
export interface Installer {
  readonly mayInstall: boolean;
  readonly aptGet: AptGet;
  /** Says what it installs (the console; a test keeps the line). */
  readonly say: (line: string) => void;
}

/**
 * Environment variable that forbids any system install (the unit suite sets it, and every process it starts inherits
 * it): a test names what is missing, it never installs it.
 */
export const INSTALL_NOTHING_ENV = 'HR_INSTALL_NOTHING';

export function systemInstaller(): Installer {
  const aptGet = findOnPath('apt-get');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  return {
    mayInstall: process.getuid?.() === 0 && aptGet !== undefined && !process.env[INSTALL_NOTHING_ENV],
    aptGet: (args) => aptGet !== undefined && spawnSync(aptGet, args, { stdio: 'inherit', env }).status === 0,
    say: (line) => console.log(line),
  };
}

/**
 * Installs the missing Debian packages when this process may (root, with apt-get), as `.ci/run` does, so `npm start`
 * and `npm test` work on a bare machine; otherwise leaves them to the person. Returns the message naming what is still
 * missing and the one command to run, or undefined when nothing is.
 */
export function ensurePrerequisites(
  check: () => MissingPrerequisite[],
  purpose?: string,
  installer: Installer = systemInstaller(),
): string | undefined {
  const missing = check();
  if (missing.length === 0) return undefined;
  if (!installer.mayInstall) return describeMissing(missing, purpose);
  const packages = [...new Set(missing.map((m) => m.aptPackage))];
  installer.say(`Installing the missing system packages (${packages.join(', ')}) with apt-get ...`);
  for (const args of [['update'], ['install', '-y', '--no-install-recommends', ...packages]]) {
    if (!installer.aptGet(args)) return `${describeMissing(missing, purpose)}\n(apt-get ${args[0]} failed: see above)`;
  }
  const still = check();
  return still.length === 0 ? undefined : describeMissing(still, purpose);
}
