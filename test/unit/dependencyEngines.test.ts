// `npm ci` warns EBADENGINE when a package in the tree asks for a Node the project's `engines` names but the package
// does not support (docx 9.8+ pulls nanoid 6, which refuses Node 20). Checked on the lowest release of each major the
// project names, since a package's floor is where the warnings start.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';

// semver comes with npm's own toolchain (typescript-eslint, vsce): no new devDependency for a test.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const semver = require('semver') as { satisfies(version: string, range: string): boolean };

const root = path.resolve(__dirname, '../../..');
const readJson = (file: string): unknown => JSON.parse(fs.readFileSync(path.join(root, file), 'utf8'));

const manifest = readJson('package.json') as { engines: { node: string } };
const lock = readJson('package-lock.json') as { packages: Record<string, { engines?: { node?: string } | string[] }> };

/** The first release of each major from 20 to 30 that `engines.node` accepts. */
function lowestNamedReleases(range: string): string[] {
  const found: string[] = [];
  for (let major = 20; major <= 30; major++) {
    for (let minor = 0; minor <= 40; minor++) {
      const version = `${major}.${minor}.0`;
      if (semver.satisfies(version, range)) {
        found.push(version);
        break;
      }
    }
  }
  return found;
}

describe('the dependency tree and engines.node', () => {
  it('names Node 20 (the oldest the extension builds on)', () => {
    assert.equal(lowestNamedReleases(manifest.engines.node)[0]?.split('.')[0], '20');
  });

  it('holds no package that refuses a Node version engines.node names (npm ci prints no EBADENGINE)', () => {
    const releases = lowestNamedReleases(manifest.engines.node);
    const refused: string[] = [];
    for (const [name, entry] of Object.entries(lock.packages)) {
      // Old lockfile entries may carry engines as an array of strings: npm ignores those.
      const wanted = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      if (!wanted) continue;
      for (const version of releases) if (!semver.satisfies(version, wanted)) refused.push(`${name} (${wanted}) refuses ${version}`);
    }
    assert.deepEqual(refused, []);
  });
});
