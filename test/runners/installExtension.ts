// Installs a packaged extension (.vsix) into an extensions folder with VS Code's server build, as a person installs
// it on a remote (`code-server --install-extension`). The workbench then loads it from there, with no
// extensionDevelopmentPath.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot, type VscodeHost } from './vscodeServerLayout';

/** Where `npm run package` (vsce) writes the package: `<name>-<version>.vsix` at the repository root. */
/** The universal package (`npm run package`), or with a target the platform one (`npm run package:target`). */
export function packagedVsixPath(target?: string): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { name: string; version: string };
  return path.join(repoRoot, `${manifest.name}-${target ? `${target}-` : ''}${manifest.version}.vsix`);
}

/** Installs `vsix`; returns the server's own words. Throws with them when it did not say it succeeded. */
export function installVsix(vscode: VscodeHost, vsix: string, extensionsDir: string, env: NodeJS.ProcessEnv = process.env): string {
  const result = spawnSync(
    vscode.nodePath,
    [vscode.serverMainPath, '--install-extension', vsix, '--extensions-dir', extensionsDir, '--accept-server-license-terms'],
    { encoding: 'utf8', env, timeout: 120_000 },
  );
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`
    .split('\n')
    .filter((line) => line.trim() !== '')
    .join(' | ');
  if (result.status !== 0 || !/successfully installed/i.test(output)) {
    throw new Error(`installing ${path.basename(vsix)} failed (exit ${result.status ?? result.signal}): ${output}`);
  }
  return output;
}
