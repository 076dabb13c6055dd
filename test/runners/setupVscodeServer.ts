// Installs VS Code's server build (from the code-server npm package) into .vscode-test/, once.
// The package's own postinstall fails as root and downloads ripgrep from GitHub, so the steps are done by hand
// (see the team guide "Running the extension inside a real VS Code"). A marker file written after the last step makes
// a second run a no-op; a folder without the marker is a broken install and is started over.
// `--without-browser`: the caller (npm start) opens no headless browser, so chromium is not required.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BUILTIN_EXTENSIONS_INSTALL_ARGS } from './builtinExtensions';
import { ensurePrerequisites, findOnPath, missingBrowser, missingInstallTools } from './hostPrerequisites';
import { CODE_SERVER_VERSION, installDir, installMarkerPath, serverMainPath, vscodeDir } from './vscodeServerLayout';

class SetupError extends Error {}

/** The caller's environment minus what `npm run` says about this project, so nested npm calls stay in their folder. */
function npmEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  for (const key of Object.keys(env)) {
    if (key.startsWith('npm_package_') || key.startsWith('npm_lifecycle_') || key === 'npm_config_local_prefix') {
      delete env[key];
    }
  }
  return env;
}

/** node-gyp downloads Node's headers from nodejs.org unless told where they are; Node's install usually has them. */
function localNodeHeaders(): Record<string, string> {
  if (process.env.npm_config_nodedir) return {};
  const nodePrefix = path.resolve(process.execPath, '..', '..');
  const hasHeaders = fs.existsSync(path.join(nodePrefix, 'include', 'node', 'common.gypi'));
  return hasHeaders ? { npm_config_nodedir: nodePrefix } : {};
}

function npm(cwd: string, args: readonly string[], extraEnv: Record<string, string> = {}): void {
  // --prefix pins the target folder: npm would otherwise walk up and could install into the repository itself.
  const fullArgs = [...args, '--prefix', cwd, '--no-audit', '--no-fund', '--loglevel=error'];
  const result = spawnSync('npm', fullArgs, {
    cwd,
    env: npmEnvironment(extraEnv),
    stdio: 'inherit',
  });
  if (result.error) throw new SetupError(`could not start npm: ${result.error.message}`);
  if (result.status !== 0) {
    throw new SetupError(`\`npm ${args.join(' ')}\` in ${cwd} exited with ${result.status ?? result.signal}`);
  }
}

function step(title: string, action: () => void): void {
  const started = Date.now();
  console.log(`[vscode-server] ${title} ...`);
  action();
  console.log(`[vscode-server]   done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

function install(): void {
  if (fs.existsSync(installDir)) {
    console.log(`[vscode-server] ${installDir} has no completion marker: removing the partial install`);
    fs.rmSync(installDir, { recursive: true, force: true });
  }
  fs.mkdirSync(installDir, { recursive: true });
  // Its own package.json makes this folder an npm project of its own, separate from the repository.
  fs.writeFileSync(
    path.join(installDir, 'package.json'),
    JSON.stringify({ name: 'hosted-reasoning-vscode-server', private: true }, null, 2) + '\n',
  );

  step(`Installing code-server@${CODE_SERVER_VERSION} without its install scripts`, () =>
    npm(installDir, ['install', `code-server@${CODE_SERVER_VERSION}`, '--ignore-scripts']),
  );
  step('Installing the VS Code server dependencies', () => npm(vscodeDir, ['install', '--omit=dev', '--ignore-scripts']));
  step('Copying the system ripgrep into @vscode/ripgrep', () => {
    const rg = findOnPath('rg');
    if (!rg) throw new SetupError('rg disappeared from PATH');
    const binDir = path.join(vscodeDir, 'node_modules', '@vscode', 'ripgrep', 'bin');
    fs.mkdirSync(binDir, { recursive: true });
    fs.copyFileSync(rg, path.join(binDir, 'rg'));
    fs.chmodSync(path.join(binDir, 'rg'), 0o755);
  });
  // node-pty's rebuild runs `npx node-gyp`, which would stop to ask before installing it.
  step('Building native modules (npm rebuild)', () => npm(vscodeDir, ['rebuild'], { npm_config_yes: 'true', ...localNodeHeaders() }));
  step('Linking node_modules.asar', () => {
    // The server resolves its modules through node_modules.asar, which only exists in packaged builds.
    const link = path.join(vscodeDir, 'node_modules.asar');
    fs.rmSync(link, { force: true });
    fs.symlinkSync('node_modules', link);
  });
  step('Installing the built-in extensions dependencies', () => npm(path.join(vscodeDir, 'extensions'), BUILTIN_EXTENSIONS_INSTALL_ARGS));

  if (!fs.existsSync(serverMainPath)) throw new SetupError(`${serverMainPath} is missing after the install`);
  fs.writeFileSync(
    installMarkerPath,
    JSON.stringify({ codeServer: CODE_SERVER_VERSION, installedAt: new Date().toISOString() }, null, 2) + '\n',
  );
}

function main(): number {
  const started = Date.now();
  const needsBrowser = !process.argv.includes('--without-browser');
  const purpose = needsBrowser ? undefined : "install VS Code's server build";
  const installed = fs.existsSync(installMarkerPath) && fs.existsSync(serverMainPath);
  const problem = ensurePrerequisites(
    () => [...(needsBrowser ? missingBrowser() : []), ...(installed ? [] : missingInstallTools())],
    purpose,
  );
  if (problem) {
    console.error(problem);
    return 1;
  }
  if (installed) {
    console.log(`[vscode-server] code-server ${CODE_SERVER_VERSION} already installed in ${installDir}`);
    return 0;
  }
  try {
    install();
  } catch (error) {
    if (!(error instanceof SetupError)) throw error;
    console.error(`[vscode-server] install failed: ${error.message}`);
    console.error('[vscode-server] the next run starts the install over');
    return 1;
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`[vscode-server] code-server ${CODE_SERVER_VERSION} installed in ${installDir} (${seconds} s)`);
  return 0;
}

process.exitCode = main();
