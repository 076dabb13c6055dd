// What a platform .vsix carries of the local runtime (scripts/packageTarget.ts): node-llama-cpp bundled with its run-time
// dependencies into a few .js files, their licences beside it, never a development package or another platform's build
// (the script adds the target's own platform package, whole).
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PLATFORM_PACKAGES, stageRuntime } from '../../scripts/packageTarget';
import { platformPackageName } from '../../src/local/runtimeAvailability';

const repoRoot = path.resolve(__dirname, '../../..');

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => fs.statSync(path.join(dir, f)).isFile())
    .map((f) => f.split(path.sep).join('/'));
}

describe('platform package contents', function () {
  this.timeout(60_000);
  let tmp: string;
  let staged: string;
  let packages: string[];

  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hr-stage-runtime-'));
    const inputs = await stageRuntime(repoRoot, tmp, 'linux-x64');
    staged = path.join(tmp, 'node-llama-cpp');
    packages = [...new Set(inputs.map((f) => /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(f.split(path.sep).join('/'))?.[1] ?? f))];
  });

  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('bundles node-llama-cpp and what it imports at run time', () => {
    for (const dir of ['node_modules/node-llama-cpp', 'node_modules/lifecycle-utils', 'node_modules/@huggingface/jinja']) {
      assert.ok(packages.includes(dir), dir);
    }
  });

  it('bundles no platform package, no development package, and nothing outside node_modules', () => {
    assert.deepEqual(
      packages.filter((dir) => dir.includes('node_modules/@node-llama-cpp/')),
      [],
    );
    for (const dev of ['node_modules/mocha', 'node_modules/esbuild', 'node_modules/typescript', 'node_modules/axios']) {
      assert.ok(!packages.includes(dev), dev);
    }
    assert.deepEqual(
      packages.filter((dir) => !dir.startsWith('node_modules/')),
      [],
    );
  });

  it('ships fewer than 100 .js files (vsce warns past that), with the files node-llama-cpp reads beside them', () => {
    const files = filesUnder(staged);
    const js = files.filter((f) => f.endsWith('.js'));
    assert.ok(js.length < 100, `${js.length} .js files`);
    for (const file of ['dist/index.js', 'dist/bindings/utils/testBindingBinary.js', 'llama/binariesGithubRelease.json']) {
      assert.ok(files.includes(file), file);
    }
  });

  it("keeps a package.json import('node-llama-cpp') resolves through, with the installed version and no dependencies", () => {
    const installed = JSON.parse(fs.readFileSync(path.join(repoRoot, 'node_modules/node-llama-cpp/package.json'), 'utf8')) as {
      version: string;
    };
    const manifest = JSON.parse(fs.readFileSync(path.join(staged, 'package.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(manifest['name'], 'node-llama-cpp');
    assert.equal(manifest['version'], installed.version);
    assert.equal(manifest['type'], 'module');
    assert.deepEqual(manifest['exports'], { '.': { import: './dist/index.js', node: './dist/index.js', default: './dist/index.js' } });
    assert.equal(manifest['dependencies'], undefined);
    // vsce ships what `npm list --production` finds: the target's platform package, not the others.
    assert.deepEqual(manifest['optionalDependencies'], { '@node-llama-cpp/linux-x64': installed.version });
  });

  it('lists every bundled package with its licence in THIRD_PARTY_NOTICES.txt', () => {
    const notices = fs.readFileSync(path.join(staged, 'THIRD_PARTY_NOTICES.txt'), 'utf8');
    for (const dir of packages) {
      const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, dir, 'package.json'), 'utf8')) as { name: string; version: string };
      assert.match(notices, new RegExp(`^${`${manifest.name}@${manifest.version}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'), dir);
    }
    assert.match(notices, /MIT License/);
  });

  it('names a CPU build for every target, the one src/local looks for', () => {
    const targets: Record<string, [NodeJS.Platform, string]> = {
      'linux-x64': ['linux', 'x64'],
      'linux-arm64': ['linux', 'arm64'],
      'darwin-arm64': ['darwin', 'arm64'],
      'darwin-x64': ['darwin', 'x64'],
      'win32-x64': ['win32', 'x64'],
      'win32-arm64': ['win32', 'arm64'],
    };
    for (const [target, [platform, arch]] of Object.entries(targets)) {
      assert.equal(PLATFORM_PACKAGES[target], platformPackageName(platform, arch), target);
      assert.doesNotMatch(PLATFORM_PACKAGES[target]!, /cuda|vulkan/);
    }
  });
});
