// Where the in-editor test tooling lives on disk. Shared by the installer and the runners so they cannot disagree.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EVERY_HOST_TAG } from '../suite/suiteResult';

/** Compiled runners live in out/test/runners/: the repository root is three levels up. */
export const repoRoot = path.resolve(__dirname, '..', '..', '..');

export type VscodeHostId = 'minimum' | 'newest';

/**
 * One VS Code server build (from the code-server npm package, code-server 4.N carries VS Code 1.N) and the Node it
 * runs on. Builds after 1.101 ask for a newer Node than this project's 20; that Node comes from the npm registry (the
 * `node-<platform>-<arch>` package ships the binary and its headers), so nothing is downloaded from elsewhere.
 */
export interface VscodeHost {
  readonly id: VscodeHostId;
  readonly codeServerVersion: string;
  /** The VS Code version inside that code-server release. */
  readonly vscodeVersion: string;
  /** The Node release it runs on, from the npm registry. */
  readonly nodeVersion: string;
  /** One folder per host, so an upgrade never mixes two installs. */
  readonly installDir: string;
  /** The VS Code server build inside the code-server package. */
  readonly vscodeDir: string;
  readonly serverMainPath: string;
  /** Written last by the installer: its presence means every install step finished. */
  readonly installMarkerPath: string;
  /** The unpacked Node package: `bin/node` and `include/node` (headers for native modules). */
  readonly nodeDir: string;
  readonly nodePath: string;
  /**
   * Server flags this build needs to take a workbench URL's payload (extensionDevelopmentPath, extensionTestsPath):
   * a built 1.139 workbench reads it only with the smoke-test driver enabled (see the team guide vscode-host.md).
   */
  readonly payloadArgs: readonly string[];
  /**
   * The in-editor tests this host runs: those whose title carries this tag, or every test when undefined (or when
   * HR_TEST_FULL_ON_EVERY_HOST=1, for a release check).
   */
  readonly suiteTag?: string;
}

/**
 * Where the server builds and the Node each runs on are installed: once per machine and user, outside every checkout,
 * so a second clone (CI's fresh one among them) starts them at once instead of installing them again (compiling their
 * native modules alone took 155 s here), and outside the home folder, which CI gives the tests empty and checks stays
 * so. /var/tmp survives a reboot where /tmp may not. HR_VSCODE_CACHE moves it.
 */
export const cacheDir = ((): string => {
  const configured = process.env.HR_VSCODE_CACHE;
  if (configured) return path.resolve(configured);
  const base = process.platform !== 'win32' && fs.existsSync('/var/tmp') ? '/var/tmp' : os.tmpdir();
  const user = typeof process.getuid === 'function' ? String(process.getuid()) : os.userInfo().username;
  return path.join(base, `hosted-reasoning-vscode-${user}`);
})();

/**
 * Why the cache folder cannot be trusted, or undefined: in a folder every user can write to, another user could have
 * made it first and put a server there for us to run. It must be ours and writable by us alone.
 */
export function cacheDirProblem(dir = cacheDir): string | undefined {
  if (process.platform === 'win32' || !fs.existsSync(dir)) return undefined;
  const stat = fs.lstatSync(dir);
  if (!stat.isDirectory()) return `${dir} is not a folder`;
  if (typeof process.getuid === 'function' && stat.uid !== process.getuid()) return `${dir} belongs to another user`;
  if ((stat.mode & 0o022) !== 0) return `${dir} can be written by other users (mode ${(stat.mode & 0o777).toString(8)})`;
  return undefined;
}

function host(
  id: VscodeHostId,
  codeServerVersion: string,
  nodeVersion: string,
  payloadArgs: readonly string[],
  suiteTag?: string,
): VscodeHost {
  const installDir = path.join(cacheDir, `code-server-${codeServerVersion}`);
  const vscodeDir = path.join(installDir, 'node_modules', 'code-server', 'lib', 'vscode');
  const nodeDir = path.join(cacheDir, `node-${nodeVersion}`);
  return {
    id,
    codeServerVersion,
    vscodeVersion: codeServerVersion.replace(/^4\./, '1.'),
    nodeVersion,
    installDir,
    vscodeDir,
    serverMainPath: path.join(vscodeDir, 'out', 'server-main.js'),
    installMarkerPath: path.join(installDir, '.install-complete'),
    nodeDir,
    nodePath: path.join(nodeDir, 'bin', process.platform === 'win32' ? 'node.exe' : 'node'),
    payloadArgs,
    ...(suiteTag === undefined ? {} : { suiteTag }),
  };
}

/**
 * The in-editor suite runs on both: the oldest VS Code the manifest's `engines.vscode` allows, with the stable
 * language-model provider API (1.104), and the newest release available here, which is what people run today. The UI
 * steps, the benchmarks and `npm start` use the newest. The newest runs every test; the oldest those tagged
 * EVERY_HOST_TAG, the APIs that differ between versions (test/unit/everyHostTag.test.ts keeps files using them tagged):
 * the rest is our own code over APIs that have not changed since 1.104, and running it twice cost ~4 minutes a run.
 */
export const HOSTS: Readonly<Record<VscodeHostId, VscodeHost>> = {
  minimum: host('minimum', '4.104.0', '22.23.3', [], EVERY_HOST_TAG),
  newest: host('newest', '4.139.1', '24.21.0', ['--enable-smoke-test-driver']),
};

export const NEWEST_HOST = HOSTS.newest;

/** Whether a host's server build is installed whole: what the setup checks, and what `npm start` and its test check. */
export const isInstalled = (host: VscodeHost): boolean =>
  fs.existsSync(host.installMarkerPath) && fs.existsSync(host.serverMainPath) && fs.existsSync(host.nodePath);

/** `HR_VSCODE_HOST=minimum|newest` narrows a run to one host; unset, every host. */
export function selectedHosts(value = process.env.HR_VSCODE_HOST): VscodeHost[] {
  if (!value) return Object.values(HOSTS);
  const chosen = value.split(',').map((id) => id.trim());
  const unknown = chosen.filter((id) => !(id in HOSTS));
  if (unknown.length > 0) throw new Error(`HR_VSCODE_HOST: unknown host ${unknown.join(', ')} (known: ${Object.keys(HOSTS).join(', ')})`);
  return chosen.map((id) => HOSTS[id as VscodeHostId]);
}

/** Debian's package; playwright-core drives it instead of downloading its own browser. */
export const chromiumPath = process.env.HR_CHROMIUM_PATH ?? '/usr/bin/chromium';

/** What the runners execute: the bundle esbuild writes and the compiled suite entry point. */
export const extensionBundlePath = path.join(repoRoot, 'dist', 'extension.js');
export const suiteIndexPath = path.join(repoRoot, 'out', 'test', 'suite', 'index.js');
export const testWorkspacePath = path.join(repoRoot, 'test', 'fixtures', 'workspace');

/** Logs for debugging a failed run (git-ignored). */
export const testOutputDir = path.join(repoRoot, 'test-output');
