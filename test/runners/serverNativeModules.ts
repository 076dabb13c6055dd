// Which native modules of a VS Code server build the installer builds. A plain `npm rebuild` compiles every package
// with a binding.gyp or an install script: 155.7 s of a 192 s first start here, most of it for modules the server
// never loads on this platform or for what we run (the workbench, our extension, the in-editor tests, the UI steps).
// Each entry says why it is built or skipped, from reading the server's out/ bundles of code-server 4.104.0 and
// 4.139.1 and from running the in-editor tests and `npm start` on a server built this way.
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface NativeModuleChoice {
  /** true: always built; false: never; a list: built on those platforms only. */
  readonly build: boolean | readonly NodeJS.Platform[];
  readonly why: string;
  /** Options for `npm rebuild` (node-gyp passes them to the module's binding.gyp as variables) on Linux. */
  readonly linuxRebuildFlags?: readonly string[];
}

export const NATIVE_MODULES: Readonly<Record<string, NativeModuleChoice>> = {
  '@vscode/spdlog': {
    build: true,
    why: "writes the server's, the extension host's and every extension's log (LogOutputChannel) files: without it they stay empty",
  },
  '@vscode/native-watchdog': {
    build: true,
    why: 'ends an extension host whose server is gone (1.139); one small C file, ~3 s',
  },
  'native-watchdog': { build: true, why: 'the same watchdog under its 1.104 name' },
  'node-pty': {
    build: true,
    why: "the integrated terminal (ptyHost); 1.139's ships prebuilds for linux-x64 that its install script picks (nothing compiled), 1.104's compiles",
  },
  '@parcel/watcher': {
    build: false,
    why: 'its binary comes from the @parcel/watcher-<platform> package; its install script compiles only when asked to build from source',
  },
  kerberos: {
    build: false,
    why: "imported lazily, only to answer a proxy's Kerberos/Negotiate challenge (no such proxy here); also needed libkrb5-dev",
  },
  '@vscode/sqlite3': {
    build: true,
    linuxRebuildFlags: ['--sqlite=/usr'],
    why:
      'the agent host keeps its sessions in it and the workbench asks it at start (unbuilt, two requests fail in the ' +
      "browser console); on Linux built against Debian's libsqlite3 (libsqlite3-dev): 10 s of compiling instead of 60 s " +
      'for its bundled SQLite',
  },
  '@vscode/fs-copyfile': { build: false, why: 'macOS only (an empty target elsewhere), and only in the agent host' },
  '@vscode/deviceid': {
    build: ['win32'],
    why: 'its native part reads the Windows registry (an empty target elsewhere); loaded in a try/catch that falls back to a random id',
  },
  '@vscode/windows-process-tree': { build: ['win32'], why: 'Windows only: loaded only when the platform is win32' },
  '@vscode/windows-registry': { build: ['win32'], why: 'Windows only: loaded only when the platform is win32' },
  ssh2: { build: false, why: "an optional crypto binding; the server's bundles never load ssh2 (only product.json names it)" },
  'cpu-features': { build: false, why: "ssh2's optional dependency (see ssh2)" },
  '@vscode/ripgrep': {
    build: false,
    why: 'not native: its postinstall downloads rg from GitHub (unreachable) unless bin/ exists; the installer copies the system rg there',
  },
  koffi: { build: false, why: "the Copilot SDK's (agent host only); it ships prebuilt binaries" },
};

export interface NativeModulePlan {
  /** Package names for `npm rebuild <names>`. */
  readonly build: readonly string[];
  /** Options for that `npm rebuild`, from the built modules' linuxRebuildFlags. */
  readonly flags: readonly string[];
  /** Skipped, each with its reason. */
  readonly skip: readonly { readonly name: string; readonly why: string }[];
  /** Found but not in NATIVE_MODULES (a newer code-server): built, as a plain `npm rebuild` would, until judged. */
  readonly unknown: readonly string[];
}

export function planNativeModules(found: readonly string[], platform: NodeJS.Platform = process.platform): NativeModulePlan {
  const build: string[] = [];
  const skip: { name: string; why: string }[] = [];
  const unknown: string[] = [];
  const flags: string[] = [];
  for (const name of [...new Set(found)].sort()) {
    const choice = Object.hasOwn(NATIVE_MODULES, name) ? NATIVE_MODULES[name] : undefined;
    if (!choice) {
      unknown.push(name);
      build.push(name);
    } else if (choice.build === true || (Array.isArray(choice.build) && choice.build.includes(platform))) {
      build.push(name);
      if (platform === 'linux') flags.push(...(choice.linuxRebuildFlags ?? []));
    } else {
      skip.push({ name, why: choice.why });
    }
  }
  return { build, flags, skip, unknown };
}

interface PackageManifest {
  readonly name?: unknown;
  readonly scripts?: Record<string, unknown>;
}

function readManifest(dir: string): PackageManifest | undefined {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as PackageManifest;
  } catch {
    return undefined;
  }
}

/**
 * The packages under `nodeModulesDir` (nested ones included) that `npm rebuild` would build: those with a
 * binding.gyp or an install, preinstall or postinstall script.
 */
export function findNativeModules(nodeModulesDir: string): string[] {
  const found: string[] = [];
  const visitPackage = (dir: string): void => {
    const manifest = readManifest(dir);
    if (!manifest) return;
    const scripts = manifest.scripts ?? {};
    const hasScript = ['preinstall', 'install', 'postinstall'].some((key) => typeof scripts[key] === 'string');
    if ((hasScript || fs.existsSync(path.join(dir, 'binding.gyp'))) && typeof manifest.name === 'string') {
      found.push(manifest.name);
    }
    visitFolder(path.join(dir, 'node_modules'));
  };
  const visitFolder = (dir: string): void => {
    if (!fs.existsSync(dir)) return;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
      const child = path.join(dir, entry.name);
      if (entry.name.startsWith('@')) {
        for (const scoped of fs.readdirSync(child, { withFileTypes: true })) {
          if (scoped.isDirectory()) visitPackage(path.join(child, scoped.name));
        }
      } else {
        visitPackage(child);
      }
    }
  };
  visitFolder(nodeModulesDir);
  return [...new Set(found)].sort();
}
