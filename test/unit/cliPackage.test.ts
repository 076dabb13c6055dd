// The command line packable as its own npm package (scripts/packCli.mjs, `npm run pack:cli`): staged from the built
// bundles, what `npm pack` would put in is the bundles the command line runs, the pdfjs files its pre-flight reader
// loads, and the metadata (package.json with bin and engines, README, LICENSE): no source maps, no extension code, no
// vscode, no path of this machine; and the staged cli.js runs on its own (no node_modules beside it).
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { assertBuilt } from './cliProcess';
import { tempDir } from './helpers';

const ROOT = path.resolve(__dirname, '../../..');

describe('the command line as its own npm package', function () {
  this.timeout(60_000);
  const tmp = tempDir('hr-cli-pack-');

  it('stages only the bundles and metadata, and npm pack takes exactly those', () => {
    assertBuilt();
    const stage = path.join(tmp.dir, 'package');
    execFileSync(process.execPath, [path.join(ROOT, 'scripts/packCli.mjs'), '--to', stage], { stdio: 'pipe' });
    const [packed] = JSON.parse(
      execFileSync('npm', ['pack', '--dry-run', '--json'], { cwd: stage, encoding: 'utf8', shell: process.platform === 'win32' }),
    ) as { name: string; files: { path: string }[] }[];
    assert.equal(packed!.name, 'hosted-reasoning');
    const files = packed!.files.map((f) => f.path);
    assert.deepEqual(
      files.filter((f) => !f.startsWith('pdfjs/')).sort(),
      ['LICENSE', 'README.md', 'cli.js', 'package.json', 'preflightChild.js', 'sourceTextWorker.js'].sort(),
    );
    const pdfjs = files.filter((f) => f.startsWith('pdfjs/'));
    assert.ok(pdfjs.includes('pdfjs/pdf.min.mjs') && pdfjs.includes('pdfjs/pdf.worker.min.mjs') && pdfjs.includes('pdfjs/LICENSE'));
    assert.deepEqual(
      pdfjs.filter(
        (f) =>
          !/^pdfjs\/(cmaps\/[\w-]+\.bcmap|cmaps\/LICENSE|standard_fonts\/[\w-]+\.(pfb|ttf)|standard_fonts\/LICENSE_\w+|pdf\.min\.mjs|pdf\.worker\.min\.mjs|LICENSE)$/.test(
            f,
          ),
      ),
      [],
      'only pdfjs files the reader loads',
    );
    assert.ok(!files.some((f) => f.endsWith('.map')), 'no source map');

    const manifest = JSON.parse(fs.readFileSync(path.join(stage, 'package.json'), 'utf8')) as Record<string, unknown>;
    const root = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string; engines: { node: string } };
    assert.deepEqual(manifest.bin, { 'hosted-reasoning': 'cli.js' });
    assert.equal(manifest.version, root.version);
    assert.equal((manifest.engines as { node: string }).node, root.engines.node);
    assert.match(root.engines.node, /^\^20\./, 'Node 20 or later');
    assert.equal(manifest.license, 'MIT');
    assert.equal(manifest.dependencies, undefined, 'everything is bundled');

    for (const bundle of ['cli.js', 'preflightChild.js', 'sourceTextWorker.js']) {
      const text = fs.readFileSync(path.join(stage, bundle), 'utf8');
      assert.doesNotMatch(text, /require\(["']vscode["']\)/, bundle);
      assert.doesNotMatch(text, /sourceMappingURL/, bundle);
      assert.ok(!text.includes(ROOT), `${bundle} names a path of this machine`);
    }
    const readme = fs.readFileSync(path.join(stage, 'README.md'), 'utf8');
    assert.match(readme, /^## Command line$/m);
    assert.match(readme, /^## MCP server/m);
    assert.doesNotMatch(readme, /^## Settings$/m);

    // It runs from the staged folder alone.
    const version = execFileSync(process.execPath, [path.join(stage, 'cli.js'), '--version'], {
      cwd: tmp.dir,
      encoding: 'utf8',
      env: { PATH: process.env.PATH },
    });
    assert.equal(version.trim(), root.version);
  });
});
