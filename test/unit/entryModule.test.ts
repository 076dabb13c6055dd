// The entry module (src/extension.ts) is what every window loads at activation: it must reach nothing heavy (its
// commands are the table's, checked against package.json in contributions.test.ts). Its cost is measured in test/bench,
// figure 1; this checks the shape that keeps it small.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PLAYGROUND_VIEW_TYPE } from '../../src/contributions';

const repoRoot = path.resolve(__dirname, '../../..');
const srcRoot = path.join(repoRoot, 'src');

interface Manifest {
  activationEvents: string[];
}
const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as Manifest;

/** Source files reached from `file` through imports that are not type-only (what esbuild puts in the bundle). */
function reachable(file: string, seen = new Set<string>()): Set<string> {
  seen.add(path.relative(srcRoot, file));
  const text = fs.readFileSync(file, 'utf8');
  for (const m of text.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?from\s+'(\.[^']+)'/gms)) {
    const spec = m[1] as string;
    // `import('./main.js')` is dynamic and not matched: the main module (with the service client) is a separate bundle,
    // loaded on first use.
    const target = path.resolve(path.dirname(file), spec.replace(/\.js$/, '')) + '.ts';
    if (!seen.has(path.relative(srcRoot, target))) reachable(target, seen);
  }
  return seen;
}

describe('the entry module', () => {
  it('activates after startup (to follow running jobs) and when a playground panel is restored', () => {
    assert.ok(manifest.activationEvents.includes('onStartupFinished'));
    assert.ok(manifest.activationEvents.includes(`onWebviewPanel:${PLAYGROUND_VIEW_TYPE}`));
  });

  it('reaches only the small modules that register the contributions', () => {
    assert.deepEqual([...reachable(path.join(srcRoot, 'extension.ts'))].sort(), [
      'contributions.ts',
      'deferredTree.ts',
      'extension.ts',
      'jobs/jobRecord.ts',
      'services.ts',
      'storageKeys.ts',
    ]);
  });
});
