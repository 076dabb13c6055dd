// The UI run checks the universal package against the platform one it installs: same files but the local runtime's.
import { strict as assert } from 'node:assert';
import { universalPackageDifferences } from '../runners/packagedExtension';

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
