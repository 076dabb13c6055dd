// What a platform .vsix carries of the local runtime (scripts/packageTarget.ts): node-llama-cpp and its run-time
// dependencies as installed, never a development package or another platform's build (the script adds the target's).
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { PLATFORM_PACKAGES, runtimeClosure } from '../../scripts/packageTarget';
import { platformPackageName } from '../../src/local/runtimeAvailability';

const repoRoot = path.resolve(__dirname, '../../..');

describe('platform package contents', () => {
  const closure = runtimeClosure(repoRoot).map((dir) => dir.split(path.sep).join('/'));

  it('holds node-llama-cpp and what it imports at run time', () => {
    for (const dir of ['node_modules/node-llama-cpp', 'node_modules/lifecycle-utils', 'node_modules/@huggingface/jinja']) {
      assert.ok(closure.includes(dir), dir);
    }
  });

  it('holds no platform package, no development package, and nothing outside node_modules', () => {
    assert.deepEqual(
      closure.filter((dir) => dir.startsWith('node_modules/@node-llama-cpp/')),
      [],
    );
    for (const dev of ['node_modules/mocha', 'node_modules/esbuild', 'node_modules/typescript', 'node_modules/axios']) {
      assert.ok(!closure.includes(dev), dev);
    }
    assert.deepEqual(
      closure.filter((dir) => !dir.startsWith('node_modules/')),
      [],
    );
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
