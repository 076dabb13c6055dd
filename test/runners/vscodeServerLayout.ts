// Where the in-editor test tooling lives on disk. Shared by the installer and the runners so they cannot disagree.
import * as path from 'node:path';

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
}

/** The project's own cache (git-ignored). */
const cacheDir = path.join(repoRoot, '.vscode-test');

function host(id: VscodeHostId, codeServerVersion: string, nodeVersion: string, payloadArgs: readonly string[]): VscodeHost {
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
  };
}

/**
 * The in-editor suite runs on both: the oldest VS Code the manifest's `engines.vscode` allows, with the stable
 * language-model provider API (1.104), and the newest release available here, which is what people run today. The UI
 * steps, the package check, the benchmarks and `npm start` use the newest.
 */
export const HOSTS: Readonly<Record<VscodeHostId, VscodeHost>> = {
  minimum: host('minimum', '4.104.0', '22.23.3', []),
  newest: host('newest', '4.139.1', '24.21.0', ['--enable-smoke-test-driver']),
};

export const NEWEST_HOST = HOSTS.newest;

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
