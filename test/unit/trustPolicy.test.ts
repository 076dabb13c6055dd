// Which local models wait for workspace trust in Restricted Mode (src/local/trustPolicy.ts): every chosen .gguf, and a
// download only when its file lies in a folder of the window.
import { strict as assert } from 'node:assert';
import { isInsideFolder, waitsForTrust } from '../../src/local/trustPolicy';

describe('which local models wait for workspace trust', () => {
  const folders = ['/home/u/project'];

  it('a chosen .gguf waits, wherever it lies (the record does not say which window trusted it)', () => {
    assert.equal(waitsForTrust({ source: 'file' }, ['/home/u/project/m.gguf'], folders), true);
    assert.equal(waitsForTrust({ source: 'file' }, ['/elsewhere/m.gguf'], folders), true);
    assert.equal(waitsForTrust({ source: 'file' }, ['/elsewhere/m.gguf'], []), true);
  });

  it('a download waits only inside a workspace folder, by any of its names (a link into the folder counts)', () => {
    assert.equal(waitsForTrust({ source: 'download' }, ['/home/u/Downloads/m.gguf'], folders), false);
    assert.equal(waitsForTrust({ source: 'download' }, ['/home/u/project/models/m.gguf'], folders), true);
    assert.equal(waitsForTrust({ source: 'download' }, ['/home/u/Downloads/m.gguf', '/home/u/project/m.gguf'], folders), true);
    assert.equal(waitsForTrust({ source: 'download' }, ['/home/u/project/m.gguf'], []), false);
  });

  it('is inside a folder by path components, not by a shared prefix', () => {
    assert.equal(isInsideFolder('/home/u/project-2/m.gguf', '/home/u/project'), false);
    assert.equal(isInsideFolder('/home/u/project/../other/m.gguf', '/home/u/project'), false);
    assert.equal(isInsideFolder('/home/u/project/..m.gguf', '/home/u/project'), true);
    assert.equal(isInsideFolder('/home/u/project', '/home/u/project'), true);
  });
});
