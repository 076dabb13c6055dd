// `npm run package:target -- <target>` (linux-x64, linux-arm64, darwin-arm64, darwin-x64, win32-x64, win32-arm64):
// a platform .vsix that runs models locally. The universal .vsix (`npm run package`) carries no runtime; this one adds
// node-llama-cpp, bundled with its production dependencies by esbuild into a few files of its dist/ (vsce warns past
// 100 .js files; the copied dependency tree had ~870), their licences in its THIRD_PARTY_NOTICES.txt, and the CPU
// build of the target's platform package (Metal on Apple silicon), never a GPU package (CUDA, Vulkan). They are staged
// in a temporary folder with the extension's own files and packaged there with `vsce package --target`; the platform
// package comes from node_modules when it is this machine's, else from the registry (`npm pack`), so every target can
// be packaged here. The result is checked by listing it.
// It runs on Linux, macOS and Windows: npm is started through the shell on Windows (npm.cmd, a batch file, cannot be
// started without one since Node 20.12), vsce by its JavaScript entry with this Node, the .vsix listed by a library
// (Windows has no `unzip`), and the platform package unpacked by `tar`, which Windows 10 and later ship.
import { execFileSync, type ExecFileSyncOptions } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { vsixFiles } from '../test/runners/packagedExtension';

const repoRoot = path.resolve(__dirname, '../..');

/** vsce target → node-llama-cpp's platform package (the same names src/local/runtimeAvailability.ts looks for). */
export const PLATFORM_PACKAGES: Record<string, string> = {
  'linux-x64': 'linux-x64',
  'linux-arm64': 'linux-arm64',
  'darwin-arm64': 'mac-arm64-metal',
  'darwin-x64': 'mac-x64',
  'win32-x64': 'win-x64',
  'win32-arm64': 'win-arm64',
};

interface PackageJson {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
}

/**
 * Runs npm. On Windows npm is a batch file, which only a shell starts: the arguments given here carry no spaces or
 * shell characters (paths go through `cwd`), so the shell passes them on as they are.
 */
function npm(args: string[], options: ExecFileSyncOptions & { encoding?: BufferEncoding }): string {
  return String(execFileSync('npm', args, { ...options, shell: process.platform === 'win32' }) ?? '');
}

function readJson<T>(file: string): T {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
}

/** Where Node would find `name` from `fromDir` (a package's folder), or undefined. */
function findPackage(name: string, fromDir: string): string | undefined {
  const folders = createRequire(path.join(fromDir, 'package.json')).resolve.paths(name) ?? [];
  return folders.map((f) => path.join(f, name)).find((dir) => fs.existsSync(path.join(dir, 'package.json')));
}

/** A package folder's licence text: its LICENSE/LICENCE/COPYING file, else its package.json `license` field. */
function licenceText(dir: string, license: unknown): string {
  const file = fs
    .readdirSync(dir)
    .sort()
    .find((f) => /^(licen[cs]e|copying)(\.|-|$)/i.test(f) && fs.statSync(path.join(dir, f)).isFile());
  if (file) return fs.readFileSync(path.join(dir, file), 'utf8').trim();
  return `License: ${typeof license === 'string' ? license : JSON.stringify(license ?? 'not stated')} (no licence file in the package)`;
}

/** The package folder (…/node_modules/name or …/node_modules/@scope/name) an esbuild input belongs to, or undefined. */
function packageFolderOf(input: string): string | undefined {
  const parts = input.split(/[\\/]/);
  const at = parts.lastIndexOf('node_modules');
  if (at < 0 || at + 1 >= parts.length) return undefined;
  return parts.slice(0, at + (parts[at + 1]!.startsWith('@') ? 3 : 2)).join(path.sep);
}

/** THIRD_PARTY_NOTICES.txt: name, version and licence of every package the bundle holds code of (`inputs`, from root). */
export function thirdPartyNotices(root: string, inputs: string[]): string {
  const folders = [...new Set(inputs.map(packageFolderOf).filter((dir): dir is string => dir !== undefined))];
  const byId = new Map<string, string>();
  for (const dir of folders) {
    const manifest = readJson<PackageJson & { license?: unknown }>(path.join(root, dir, 'package.json'));
    byId.set(`${manifest.name}@${manifest.version}`, licenceText(path.join(root, dir), manifest.license));
  }
  const entries = [...byId].sort(([x], [y]) => x.localeCompare(y));
  const rule = '='.repeat(80);
  return [
    `node-llama-cpp's dist/ is an esbuild bundle of node-llama-cpp and the ${entries.length - 1} packages it needs at run time.`,
    'Each is listed below with its licence.',
    ...entries.map(([id, text]) => `${rule}\n${id}\n${rule}\n\n${text}\n`),
  ].join('\n\n');
}

/**
 * node-llama-cpp in `stageModules`: dist/ as an esbuild bundle of it and its dependencies (ESM, split into chunks; the
 * platform packages stay external), the two files it reads at run time (package.json for its version,
 * llama/binariesGithubRelease.json), and THIRD_PARTY_NOTICES.txt. Its package.json keeps what `import()` needs, no
 * `dependencies` (bundled), and as optional dependency the target's platform package only (so vsce ships it).
 * Returns the bundle's input files, relative to `root`.
 */
export async function stageRuntime(root: string, stageModules: string, platform: string): Promise<string[]> {
  const src = findPackage('node-llama-cpp', root);
  if (!src) throw new Error('node-llama-cpp is not installed: run npm ci');
  const srcDist = path.join(src, 'dist');
  const to = path.join(stageModules, 'node-llama-cpp');
  // node-llama-cpp derives its own paths from import.meta.url (config.js: ../llama, ../bins; getModuleVersion.js:
  // ../../package.json; testBindingBinary.js forks itself): each of its files keeps the URL it had unbundled, which
  // resolves the same from the bundle in dist/.
  const keepImportMetaUrl: esbuild.Plugin = {
    name: 'keep-import-meta-url',
    setup(build) {
      build.onLoad({ filter: /\.js$/ }, async (args) => {
        if (!args.path.startsWith(srcDist + path.sep)) return undefined;
        const code = await fs.promises.readFile(args.path, 'utf8');
        const rel = `./${path.relative(srcDist, args.path).split(path.sep).join('/')}`;
        return { contents: code.replaceAll('import.meta.url', `new URL(${JSON.stringify(rel)}, import.meta.url).href`), loader: 'js' };
      });
    },
  };
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: {
      index: path.join(srcDist, 'index.js'),
      // Forked by path (testBindingBinary.js runs itself to test a binary before loading it).
      'bindings/utils/testBindingBinary': path.join(srcDist, 'bindings', 'utils', 'testBindingBinary.js'),
    },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outdir: path.join(to, 'dist'),
    chunkNames: '[name]-[hash]',
    // The platform packages (the target's is staged beside); @reflink/reflink's native builds, which no copy of the
    // runtime ever shipped (ipull imports reflink lazily, in a try, for model downloads the extension does not make).
    external: ['@node-llama-cpp/*', '@reflink/reflink-*', '*.node', 'electron', 'typescript'],
    // Bundled CommonJS dependencies call require(); an ES module has none of its own.
    banner: {
      js: "import { createRequire as __nlcCreateRequire } from 'node:module'; const require = __nlcCreateRequire(import.meta.url);",
    },
    plugins: [keepImportMetaUrl],
    metafile: true,
    logLevel: 'warning',
  });
  const inputs = Object.keys(result.metafile.inputs);

  const manifest = readJson<PackageJson & Record<string, unknown>>(path.join(src, 'package.json'));
  const staged = {
    name: manifest.name,
    version: manifest.version,
    description: manifest['description'],
    license: manifest['license'],
    type: manifest['type'],
    main: './dist/index.js',
    exports: { '.': { import: './dist/index.js', node: './dist/index.js', default: './dist/index.js' } },
    engines: manifest['engines'],
    optionalDependencies: { [`@node-llama-cpp/${platform}`]: manifest.version },
  };
  fs.writeFileSync(path.join(to, 'package.json'), `${JSON.stringify(staged, null, 2)}\n`);
  fs.mkdirSync(path.join(to, 'llama'), { recursive: true });
  fs.copyFileSync(path.join(src, 'llama', 'binariesGithubRelease.json'), path.join(to, 'llama', 'binariesGithubRelease.json'));
  fs.writeFileSync(path.join(to, 'THIRD_PARTY_NOTICES.txt'), thirdPartyNotices(root, inputs));
  return inputs;
}

function copyPackage(from: string, to: string): void {
  fs.cpSync(from, to, { recursive: true, dereference: true });
}

/** The target's platform package, from node_modules when it is a real one (not the stub npm ci installs), else packed. */
function stagePlatformPackage(name: string, version: string, stageModules: string, tmp: string): void {
  const to = path.join(stageModules, '@node-llama-cpp', name);
  const local = path.join(repoRoot, 'node_modules', '@node-llama-cpp', name);
  if (fs.existsSync(path.join(local, 'bins', name))) {
    copyPackage(local, to);
    return;
  }
  const tgz = npm(['pack', `@node-llama-cpp/${name}@${version}`, '--silent', '--pack-destination', '.'], { cwd: tmp, encoding: 'utf8' })
    .trim()
    .split('\n')
    .pop()!
    .trim();
  const unpacked = path.join(tmp, 'unpacked');
  fs.mkdirSync(unpacked, { recursive: true });
  // Names relative to `cwd`: a GNU tar (Git for Windows') would take `C:\…` for a remote host.
  execFileSync('tar', ['-xzf', tgz, '-C', 'unpacked'], { cwd: tmp });
  copyPackage(path.join(unpacked, 'package'), to);
}

/** Every file the allowlist in .vscodeignore ships, plus node_modules/. */
function stageExtension(stage: string): void {
  const ignore = fs.readFileSync(path.join(repoRoot, '.vscodeignore'), 'utf8');
  // Every top-level entry the allowlist lets in (`!dist/main.js` → dist), so a folder added there ships here too.
  const entries = new Set(
    ignore
      .split('\n')
      .filter((line) => line.startsWith('!'))
      .map((line) => line.slice(1).split('/')[0] ?? '')
      .filter((name) => name !== '' && !name.includes('*')),
  );
  for (const entry of entries) {
    const from = path.join(repoRoot, entry);
    if (fs.existsSync(from)) fs.cpSync(from, path.join(stage, entry), { recursive: true });
  }
  // The README the universal package ships too (without the screenshots vsce cannot place without a repository).
  execFileSync(process.execPath, [path.join(repoRoot, 'scripts', 'packageReadme.mjs'), path.join(stage, 'README.md')], {
    stdio: 'inherit',
  });
  fs.writeFileSync(
    path.join(stage, '.vscodeignore'),
    `${ignore}\n# A platform package: the local runtime's files (scripts/packageTarget.ts).\n!README.md\n!dist/localRuntime.js\n!node_modules/**\n`,
  );
  // Built already (main); vsce would otherwise run the build again in the staging folder, which has no sources.
  // vsce ships the dependencies `npm list --production` finds: node-llama-cpp (its own dependencies bundled into it, its
  // package.json naming the platform package only); the extension's own dependencies are bundled into dist/.
  const manifest = readJson<Record<string, unknown> & { dependencies: Record<string, string> }>(path.join(stage, 'package.json'));
  for (const key of ['scripts', 'devDependencies', 'overrides', 'allowScripts']) delete manifest[key];
  manifest.dependencies = { 'node-llama-cpp': manifest.dependencies['node-llama-cpp']! };
  fs.writeFileSync(path.join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

async function main(): Promise<void> {
  const target = process.argv[2] ?? '';
  const platform = PLATFORM_PACKAGES[target];
  if (!platform) {
    console.error(`usage: npm run package:target -- <${Object.keys(PLATFORM_PACKAGES).join('|')}>`);
    process.exit(2);
  }
  const manifest = readJson<PackageJson>(path.join(repoRoot, 'package.json'));
  const runtimeVersion = readJson<PackageJson>(path.join(repoRoot, 'node_modules', 'node-llama-cpp', 'package.json')).version;
  npm(['run', 'vscode:prepublish'], { cwd: repoRoot, stdio: 'inherit' });

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hr-package-target-'));
  try {
    const stage = path.join(tmp, 'extension');
    stageExtension(stage);
    await stageRuntime(repoRoot, path.join(stage, 'node_modules'), platform);
    stagePlatformPackage(platform, runtimeVersion, path.join(stage, 'node_modules'), tmp);

    const out = path.join(repoRoot, `${manifest.name}-${target}-${manifest.version}.vsix`);
    // vsce's own entry, run by this Node: node_modules/.bin/vsce.cmd is a batch file on Windows.
    const vsce = path.join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce');
    execFileSync(process.execPath, [vsce, 'package', '--allow-missing-repository', '--target', target, '--out', out], {
      cwd: stage,
      stdio: 'inherit',
    });

    const listing = await vsixFiles(out);
    const binary = `extension/node_modules/@node-llama-cpp/${platform}/bins/${platform}/llama-addon.node`;
    const notices = 'extension/node_modules/node-llama-cpp/THIRD_PARTY_NOTICES.txt';
    const jsFiles = listing.filter((f) => f.endsWith('.js')).length;
    const problems = [
      ...(listing.includes(binary) ? [] : [`${binary} is missing`]),
      ...(listing.includes('extension/dist/localRuntime.js') ? [] : ['extension/dist/localRuntime.js is missing']),
      ...(listing.includes(notices) ? [] : [`${notices} is missing`]),
      ...(jsFiles < 100 ? [] : [`${jsFiles} .js files (vsce warns past 100)`]),
      ...listing
        .filter(
          (f) =>
            f.startsWith('extension/node_modules/@node-llama-cpp/') && !f.startsWith(`extension/node_modules/@node-llama-cpp/${platform}/`),
        )
        .map((f) => `${f} belongs to another platform package`),
    ];
    if (problems.length > 0) throw new Error(`${path.basename(out)}:\n${problems.join('\n')}`);
    console.log(
      `${path.basename(out)}: ${(fs.statSync(out).size / 1024 / 1024).toFixed(1)} MB, ${listing.length} files (${jsFiles} .js), with ${binary}`,
    );
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
