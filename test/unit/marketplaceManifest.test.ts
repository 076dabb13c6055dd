// What the Marketplace shows before anyone installs: vsce refuses a README link it cannot resolve without a repository,
// a placeholder repository would send people to a page that does not exist, and a 0.x version is marked a preview.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '../../..');
const read = (file: string): string => fs.readFileSync(path.join(root, file), 'utf8');

interface Manifest {
  version: string;
  preview?: boolean;
  repository?: unknown;
  homepage?: unknown;
  bugs?: unknown;
  scripts: Record<string, string>;
}
const manifest = JSON.parse(read('package.json')) as Manifest;

describe('the Marketplace manifest', () => {
  it('is marked a preview while the version is 0.x', () => {
    assert.match(manifest.version, /^0\./);
    assert.equal(manifest.preview, true);
  });

  it('names no repository, homepage or issue tracker that does not exist, and says so to vsce', () => {
    assert.deepEqual([manifest.repository, manifest.homepage, manifest.bugs], [undefined, undefined, undefined]);
    assert.match(manifest.scripts['package'] ?? '', /--allow-missing-repository\b/);
  });

  it('has a README whose every link vsce can package without a repository (absolute or an anchor)', () => {
    // vsce's own test of a link (package.js, isLinkRelative): it reads `](…)` anywhere, code spans included.
    const links = [...read('README.md').matchAll(/\]\(([^)\s]+)/g)].map((m) => m[1] as string);
    assert.deepEqual(
      links.filter((link) => !/^\w+:\/\//.test(link) && !link.startsWith('#')),
      [],
    );
  });

  it('ships a Keep a Changelog CHANGELOG.md with an Unreleased section', () => {
    const changelog = read('CHANGELOG.md');
    assert.match(changelog, /^## \[Unreleased\]$/m);
    assert.match(changelog, /^### Added$/m);
    assert.match(read('.vscodeignore'), /^!CHANGELOG\.md$/m);
  });
});
