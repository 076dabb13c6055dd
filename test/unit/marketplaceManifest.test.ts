// What the Marketplace shows before anyone installs: vsce refuses a README link it cannot resolve without a repository,
// a placeholder repository would send people to a page that does not exist, and a 0.x version is marked a preview.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { README_SCREENSHOTS } from '../e2e/readmeScreenshots';

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

  it('ships a README whose every link vsce can package without a repository (absolute or an anchor)', () => {
    const packaged = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hr-readme-')), 'README.md');
    execFileSync(process.execPath, [path.join(root, 'scripts', 'packageReadme.mjs'), packaged]);
    assert.match(manifest.scripts['package'] ?? '', /--readme-path out\/package\/README\.md\b/);
    // vsce's own test of a link (package.js, isLinkRelative): it reads `](…)` anywhere, code spans included.
    const links = [...fs.readFileSync(packaged, 'utf8').matchAll(/\]\(([^)\s]+)/g)].map((m) => m[1] as string);
    assert.deepEqual(
      links.filter((link) => !/^\w+:\/\//.test(link) && !link.startsWith('#')),
      [],
    );
    // Only the screenshot lines and the section for contributors are left out: every other line of README.md ships.
    const shipped = fs.readFileSync(packaged, 'utf8').split('\n');
    const userHalf = read('README.md')
      .split(/^## Contributing$/m)[0]!
      .split('\n');
    assert.deepEqual(
      userHalf.filter((line) => !shipped.includes(line)).filter((line) => !line.startsWith('![')),
      [],
    );
  });

  it('shows in README exactly the screenshots the UI tests produce, and keeps no other', () => {
    const shown = [...read('README.md').matchAll(/\]\(media\/screenshots\/([^)]+)\)/g)].map((m) => m[1] as string).sort();
    assert.ok(shown.length > 0, 'README shows no screenshot');
    assert.deepEqual(shown, Object.keys(README_SCREENSHOTS).sort());
    assert.deepEqual(fs.readdirSync(path.join(root, 'media', 'screenshots')).sort(), shown);
  });

  it('ships a Keep a Changelog CHANGELOG.md with an Unreleased section', () => {
    const changelog = read('CHANGELOG.md');
    assert.match(changelog, /^## \[Unreleased\]$/m);
    assert.match(changelog, /^### Added$/m);
    assert.match(read('.vscodeignore'), /^!CHANGELOG\.md$/m);
  });
});
