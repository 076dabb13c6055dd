// The name an artifact is saved under, whatever the server or the user supplied: always .gguf, nothing invisible,
// never a Windows device name.
import { strict as assert } from 'node:assert';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { finalFileName, safeFileName } from '../../src/api/fileName';
import { KEY, clientFor, tempDir, useEmulator } from './helpers';

/** Windows' own rule, written out independently: the part before the first dot, trailing spaces dropped. */
function windowsDevice(name: string): boolean {
  const stem = name.split('.')[0]!.replace(/ +$/, '').toUpperCase();
  return ['CON', 'PRN', 'AUX', 'NUL', 'CONIN$', 'CONOUT$'].includes(stem) || /^(COM|LPT)[0-9¹²³]$/.test(stem);
}

describe('download: final file names', () => {
  const reserved = ['CONIN$', 'conout$', 'nul .gguf', 'NUL  .tar.gz', 'con.', 'aux...', 'COM¹.txt', 'lpt³', 'com0', 'LPT9.gguf', 'prn .'];
  for (const name of reserved) {
    it(`"${name}" does not name a Windows device`, () => {
      const out = finalFileName(name, 'model');
      assert.ok(!windowsDevice(out), out);
      assert.ok(!windowsDevice(safeFileName(name, 'x')), safeFileName(name, 'x'));
      assert.match(out, /\.gguf$/);
    });
  }

  for (const [given, expected] of [
    ['evil.exe', 'evil.gguf'],
    ['x.desktop', 'x.gguf'],
    ['model.gguf', 'model.gguf'],
    ['MODEL.GGUF', 'MODEL.gguf'],
    ['llama-3.1-8b', 'llama-3.1-8b.gguf'],
    ['weights.v1.5', 'weights.v1.5.gguf'],
  ]) {
    it(`the server's "${given}" is saved as "${expected}"`, () => {
      assert.equal(finalFileName(given, 'model'), expected);
    });
  }

  it('format and control characters are stripped, not shown and not replaced', () => {
    assert.equal(finalFileName('evil\u202Efdp.exe', 'model'), 'evilfdp.gguf');
    assert.equal(finalFileName('a\u200Bb\u2066c\u2069\uFEFF.gguf', 'model'), 'abc.gguf');
    assert.equal(finalFileName('a\u0007b\u009Fc\u0000.gguf', 'model'), 'abc.gguf');
    assert.equal(safeFileName('\u202E\u200B', 'fallback'), 'fallback');
  });

  it('nothing usable falls back to the model’s name', () => {
    assert.equal(finalFileName('\u202E', 'my-model'), 'my-model.gguf');
    assert.equal(finalFileName(undefined, 'my-model'), 'my-model.gguf');
  });

  describe('end to end', function () {
    this.timeout(20_000);
    const ctx = useEmulator({ artifactBytes: 128 * 1024 });
    const tmp = tempDir();
    before(async () => {
      await ctx.emu.addCustomModel(KEY, 'named-model');
    });

    it('a Content-Disposition naming an .exe with a bidi override is saved as a plain .gguf', async () => {
      const bytes = await fsp.readFile(ctx.emu.artifactPath('named-model')!);
      ctx.emu.faults.add({
        origin: 'storage',
        path: /\/artifacts\//,
        kind: 'body',
        body: bytes,
        contentType: 'application/octet-stream',
        headers: { 'Content-Disposition': `attachment; filename*=UTF-8''${encodeURIComponent('report\u202Efdp.exe')}` },
      });
      const out = await clientFor(ctx.emu).download('named-model', { directory: tmp.dir });
      assert.equal(path.basename(out.path), 'reportfdp.gguf');
    });
  });
});
