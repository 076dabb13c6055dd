// The UI run checks the universal package against the platform one it installs: same files but the local runtime's.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import JSZip from 'jszip';
import { packageSizeProblems, statedPackageSizes, universalPackageDifferences, vsixFiles } from '../runners/packagedExtension';

const common = ['extension.vsixmanifest', 'extension/package.json', 'extension/dist/main.js', 'extension/media/icon.png'];
const runtime = ['extension/dist/localRuntime.js', 'extension/node_modules/node-llama-cpp/dist/index.js'];

describe('the universal package beside the platform one', () => {
  it('matches when it carries every file but the runtime', () => {
    assert.deepEqual(universalPackageDifferences(common, [...common, ...runtime]), []);
  });

  it('names a file it lacks and a file only it carries', () => {
    assert.deepEqual(universalPackageDifferences([...common.slice(1), 'extension/dist/main.js.map'], [...common, ...runtime]), [
      'missing from the universal package: extension.vsixmanifest',
      'only in the universal package: extension/dist/main.js.map',
    ]);
  });

  it('names runtime files shipped in the universal package', () => {
    assert.deepEqual(universalPackageDifferences([...common, runtime[0]!], [...common, ...runtime]), [
      'only in the universal package: extension/dist/localRuntime.js',
    ]);
  });
});

describe('the files of a .vsix', () => {
  // Windows has no `unzip`, and `npm run package:target` checks the package it wrote by listing it: the listing needs
  // no program on PATH.
  it('are listed without any program on PATH, folders left out', async () => {
    const zip = new JSZip();
    zip.file('extension.vsixmanifest', '<xml/>');
    zip.folder('extension/dist');
    zip.file('extension/dist/main.js', 'x');
    zip.file('extension/node_modules/@node-llama-cpp/linux-x64/bins/linux-x64/llama-addon.node', Buffer.alloc(64));
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hr-vsix-')), 'x.vsix');
    fs.writeFileSync(file, await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' }));
    const pathBefore = process.env['PATH'];
    process.env['PATH'] = '';
    try {
      assert.deepEqual((await vsixFiles(file)).sort(), [
        'extension.vsixmanifest',
        'extension/dist/main.js',
        'extension/node_modules/@node-llama-cpp/linux-x64/bins/linux-x64/llama-addon.node',
      ]);
    } finally {
      process.env['PATH'] = pathBefore;
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    }
  });
});

describe('the package sizes README states', () => {
  const readme = fs.readFileSync(path.resolve(__dirname, '../../../README.md'), 'utf8');
  const MB = 1024 * 1024;

  it('are found in README (the UI run compares them with the packages it built)', () => {
    const stated = statedPackageSizes(readme);
    assert.ok(stated.platform !== undefined && stated.universal !== undefined, JSON.stringify(stated));
  });

  it('agree with packages of about those sizes, and not with a platform package grown by a quarter', () => {
    const { platform, universal } = statedPackageSizes(readme);
    assert.deepEqual(packageSizeProblems(readme, { platform: platform! * MB, universal: universal! * 1.1 * MB }), []);
    assert.deepEqual(packageSizeProblems(readme, { platform: platform! * 1.25 * MB, universal: universal! * MB }), [
      `README says the platform package is about ${platform} MB; it is ${(platform! * 1.25).toFixed(1)} MB`,
    ]);
  });
});
