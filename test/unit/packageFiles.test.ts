// The universal package ships only what .vscodeignore lets in: a bundle esbuild.mjs writes but the allowlist forgets
// would be missing from the installed extension (the pre-flight reader's child process, forked by path, would fail
// every read there), while everything still works from a checkout.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '../../..');
const read = (file: string): string => fs.readFileSync(path.join(root, file), 'utf8');

describe('the files the universal package ships', () => {
  it('lets in every bundle esbuild.mjs writes, but the local runtime (only the platform package carries it) and the command line (not the extension: its own bin)', () => {
    const bundles = [...read('esbuild.mjs').matchAll(/outfile: '([^']+)'/g)].map((m) => m[1]!);
    assert.ok(bundles.includes('dist/preflightChild.js') && bundles.includes('dist/sourceTextWorker.js'), bundles.join(', '));
    const allowed = read('.vscodeignore')
      .split('\n')
      .filter((line) => line.startsWith('!'))
      .map((line) => line.slice(1).trim());
    const ships = (file: string): boolean =>
      allowed.some((a) => a === file || (a.endsWith('/**') && file.startsWith(a.slice(0, -'**'.length))));
    assert.deepEqual(
      bundles.filter((b) => !ships(b)),
      ['dist/localRuntime.js', 'dist/cli.js'],
    );
  });
});
