// What a download says when the disk refuses it (src/features/download/diskErrorAdvice.ts): each cause in its own
// words, and Resume only where bytes were kept and more room helps.
import { strict as assert } from 'node:assert';
import { diskErrorAdvice } from '../../src/features/download/diskErrorAdvice';

const part = '/data/models/m.gguf.0123456789abcdef.part';
const advice = (code: string, keptBytes: number) => diskErrorAdvice('m', { code, keptBytes, partFile: part });

describe('a download the disk refuses', () => {
  it('a full disk or a used-up quota with bytes kept: free space, then Resume', () => {
    for (const code of ['ENOSPC', 'EDQUOT']) {
      const a = advice(code, 3 * 1024 * 1024);
      assert.equal(a.action, 'resume', code);
      assert.match(a.message, code === 'ENOSPC' ? /the disk that holds \/data\/models is full/ : /quota for \/data\/models is used up/);
      assert.match(a.message, /3\.0 MB are kept in \/data\/models\/m\.gguf\.0123456789abcdef\.part/);
      assert.match(a.message, /Free space, then Resume/);
    }
  });

  it('a full disk with nothing kept: no Resume of nothing, but Try Again once there is room', () => {
    const a = advice('ENOSPC', 0);
    assert.equal(a.action, 'tryAgain');
    assert.doesNotMatch(a.message, /kept|Resume|0\.0 MB/);
    assert.match(a.message, /Free space, then try again/);
  });

  it('a read-only or forbidden folder is told so, offers nothing, and never says free space', () => {
    for (const [code, words] of [
      ['EROFS', /\/data\/models is on a read-only disk/],
      ['EACCES', /\/data\/models cannot be written here \(permission denied\)/],
      ['EPERM', /\/data\/models cannot be written here \(permission denied\)/],
    ] as const) {
      for (const kept of [0, 1024 * 1024]) {
        const a = advice(code, kept);
        assert.equal(a.action, undefined, `${code} ${kept}`);
        assert.match(a.message, words);
        assert.match(a.message, /Choose another folder/);
        assert.doesNotMatch(a.message, /free space|Resume/i);
        assert.equal(/kept in/.test(a.message), kept > 0, `${code} ${kept}: says what is kept only when something is`);
      }
    }
  });

  it('a file too large for the file system: another disk, no Resume', () => {
    const a = advice('EFBIG', 4 * 1024 ** 3 - 1);
    assert.equal(a.action, undefined);
    assert.match(a.message, /does not allow a file this large/);
    assert.match(a.message, /another disk/);
    assert.doesNotMatch(a.message, /free space|Resume/i);
  });
});
