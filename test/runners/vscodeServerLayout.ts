// Where the in-editor test tooling lives on disk. Shared by the installer and the runners so they cannot disagree.
import * as path from 'node:path';

/** code-server 4.100.3 carries VS Code 1.100.3 and is the newest release that still runs on Node 20. */
export const CODE_SERVER_VERSION = '4.100.3';

/** Compiled runners live in out/test/runners/: the repository root is three levels up. */
export const repoRoot = path.resolve(__dirname, '..', '..', '..');

/** The project's own cache (git-ignored); one folder per version so an upgrade never mixes two installs. */
export const installDir = path.join(repoRoot, '.vscode-test', `code-server-${CODE_SERVER_VERSION}`);

/** The VS Code server build inside the code-server package. */
export const vscodeDir = path.join(installDir, 'node_modules', 'code-server', 'lib', 'vscode');

export const serverMainPath = path.join(vscodeDir, 'out', 'server-main.js');

/** Written last by the installer: its presence means every install step finished. */
export const installMarkerPath = path.join(installDir, '.install-complete');

/** Debian's package; playwright-core drives it instead of downloading its own browser. */
export const chromiumPath = process.env.HR_CHROMIUM_PATH ?? '/usr/bin/chromium';

/** What the runners execute: the bundle esbuild writes and the compiled suite entry point. */
export const extensionBundlePath = path.join(repoRoot, 'dist', 'extension.js');
export const suiteIndexPath = path.join(repoRoot, 'out', 'test', 'suite', 'index.js');
export const testWorkspacePath = path.join(repoRoot, 'test', 'fixtures', 'workspace');

/** Logs for debugging a failed run (git-ignored). */
export const testOutputDir = path.join(repoRoot, 'test-output');
