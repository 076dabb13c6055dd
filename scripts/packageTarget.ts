// `npm run package:target -- <target>` (linux-x64, linux-arm64, darwin-arm64, darwin-x64, win32-x64, win32-arm64):
// a platform .vsix that runs models locally. The universal .vsix (`npm run package`) carries no runtime; this one adds
// node-llama-cpp, its production dependencies and the CPU build of the target's platform package (Metal on Apple
// silicon), never a GPU package (CUDA, Vulkan). They are staged in a temporary folder with the extension's own files and
// packaged there with `vsce package --target`; the platform package comes from node_modules when it is this machine's,
// else from the registry (`npm pack`), so every target can be packaged here. The result is checked by listing it.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';

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

/** Only for building llama.cpp from source (34 MB), which the runtime never does (`build: 'never'`). */
const NEVER_NEEDED = [path.join('llama', 'gitRelease.bundle')];

interface PackageJson {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
}

function readJson<T>(file: string): T {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
}

/** Where Node would find `name` from `fromDir` (a package's folder), or undefined. */
function findPackage(name: string, fromDir: string): string | undefined {
  const folders = createRequire(path.join(fromDir, 'package.json')).resolve.paths(name) ?? [];
  return folders.map((f) => path.join(f, name)).find((dir) => fs.existsSync(path.join(dir, 'package.json')));
}

/**
 * The folders (relative to `root`) of node-llama-cpp and everything it needs at run time: its dependencies, found the
 * way Node finds them, without its optional platform packages (the caller adds the target's own).
 */
export function runtimeClosure(root: string): string[] {
  const start = findPackage('node-llama-cpp', root);
  if (!start) throw new Error('node-llama-cpp is not installed: run npm ci');
  const seen = new Set<string>();
  const visit = (dir: string): void => {
    if (seen.has(dir)) return;
    seen.add(dir);
    for (const dep of Object.keys(readJson<PackageJson>(path.join(dir, 'package.json')).dependencies ?? {})) {
      const found = findPackage(dep, dir);
      if (!found) throw new Error(`${dep}, needed by ${path.relative(root, dir)}, is not installed`);
      visit(found);
    }
  };
  visit(start);
  return [...seen].map((dir) => path.relative(root, dir)).sort();
}

function copyPackage(from: string, to: string): void {
  fs.cpSync(from, to, {
    recursive: true,
    dereference: true,
    // A package's own node_modules holds nested dependencies: they are copied when the closure reaches them.
    filter: (src) => {
      const rel = path.relative(from, src);
      return !rel.split(path.sep).includes('node_modules') && !NEVER_NEEDED.includes(rel);
    },
  });
}

/** The target's platform package, from node_modules when it is a real one (not the stub npm ci installs), else packed. */
function stagePlatformPackage(name: string, version: string, stageModules: string, tmp: string): void {
  const to = path.join(stageModules, '@node-llama-cpp', name);
  const local = path.join(repoRoot, 'node_modules', '@node-llama-cpp', name);
  if (fs.existsSync(path.join(local, 'bins', name))) {
    copyPackage(local, to);
    return;
  }
  const tgz = execFileSync('npm', ['pack', `@node-llama-cpp/${name}@${version}`, '--silent', '--pack-destination', tmp], {
    encoding: 'utf8',
  })
    .trim()
    .split('\n')
    .pop()!;
  const unpacked = path.join(tmp, 'unpacked');
  fs.mkdirSync(unpacked, { recursive: true });
  execFileSync('tar', ['-xzf', path.join(tmp, tgz), '-C', unpacked]);
  copyPackage(path.join(unpacked, 'package'), to);
}

/** Every file the allowlist in .vscodeignore ships, plus node_modules/. */
function stageExtension(stage: string): void {
  const ignore = fs.readFileSync(path.join(repoRoot, '.vscodeignore'), 'utf8');
  for (const entry of ['package.json', 'package.nls.json', 'LICENSE', 'CHANGELOG.md', 'dist', 'media']) {
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
  // vsce ships the dependencies `npm list --production` finds: here node-llama-cpp's closure only (the rest is bundled).
  const manifest = readJson<Record<string, unknown> & { dependencies: Record<string, string> }>(path.join(stage, 'package.json'));
  for (const key of ['scripts', 'devDependencies', 'overrides', 'allowScripts']) delete manifest[key];
  manifest.dependencies = { 'node-llama-cpp': manifest.dependencies['node-llama-cpp']! };
  fs.writeFileSync(path.join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

function main(): void {
  const target = process.argv[2] ?? '';
  const platform = PLATFORM_PACKAGES[target];
  if (!platform) {
    console.error(`usage: npm run package:target -- <${Object.keys(PLATFORM_PACKAGES).join('|')}>`);
    process.exit(2);
  }
  const manifest = readJson<PackageJson>(path.join(repoRoot, 'package.json'));
  const runtimeVersion = readJson<PackageJson>(path.join(repoRoot, 'node_modules', 'node-llama-cpp', 'package.json')).version;
  execFileSync('npm', ['run', 'vscode:prepublish'], { cwd: repoRoot, stdio: 'inherit' });

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hr-package-target-'));
  try {
    const stage = path.join(tmp, 'extension');
    stageExtension(stage);
    for (const rel of runtimeClosure(repoRoot)) copyPackage(path.join(repoRoot, rel), path.join(stage, rel));
    stagePlatformPackage(platform, runtimeVersion, path.join(stage, 'node_modules'), tmp);

    const out = path.join(repoRoot, `${manifest.name}-${target}-${manifest.version}.vsix`);
    const vsce = path.join(repoRoot, 'node_modules', '.bin', process.platform === 'win32' ? 'vsce.cmd' : 'vsce');
    execFileSync(vsce, ['package', '--allow-missing-repository', '--target', target, '--out', out], {
      cwd: stage,
      stdio: 'inherit',
    });

    const listing = execFileSync('unzip', ['-Z1', out], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).split('\n');
    const binary = `extension/node_modules/@node-llama-cpp/${platform}/bins/${platform}/llama-addon.node`;
    const problems = [
      ...(listing.includes(binary) ? [] : [`${binary} is missing`]),
      ...(listing.includes('extension/dist/localRuntime.js') ? [] : ['extension/dist/localRuntime.js is missing']),
      ...listing
        .filter(
          (f) =>
            f.startsWith('extension/node_modules/@node-llama-cpp/') && !f.startsWith(`extension/node_modules/@node-llama-cpp/${platform}/`),
        )
        .map((f) => `${f} belongs to another platform package`),
    ];
    if (problems.length > 0) throw new Error(`${path.basename(out)}:\n${problems.join('\n')}`);
    console.log(`${path.basename(out)}: ${(fs.statSync(out).size / 1024 / 1024).toFixed(1)} MB, ${listing.length} files, with ${binary}`);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

if (require.main === module) main();
