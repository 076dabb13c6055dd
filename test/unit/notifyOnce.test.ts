// The notify-once markers under one real temp folder, claimed by several "windows" (markerFiles instances).
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { MARKER_AGE_MS, markerFiles } from '../../src/jobs/notifyOnce';
import { tempDir } from './helpers';

describe('notify-once markers', () => {
  const tmp = tempDir('hr-notice-');

  it('announces each job once across windows', async () => {
    const windows = Array.from({ length: 8 }, () => markerFiles(tmp.dir));
    const claims = await Promise.all(windows.map((claim) => claim('scope\nevaluation:7')));
    assert.equal(claims.filter(Boolean).length, 1);
    assert.equal(await windows[0]!('scope\nevaluation:7'), false);
    assert.equal(await windows[0]!('scope\nevaluation:8'), true);
  });

  it('keeps hostile job ids inside its folder', async () => {
    const claim = markerFiles(tmp.dir);
    for (const id of ['../../escape', '/abs/path', 'a\0b', 'C:\\win', '.'.repeat(300)]) assert.equal(await claim(id), true);
    assert.ok(readdirSync(tmp.dir).every((n) => /^[0-9a-f]{40}\.notified$/.test(n)));
    assert.equal(existsSync(path.join(tmp.dir, '..', 'escape')), false);
  });

  it('creates its folder on first use', async () => {
    const nested = path.join(tmp.dir, 'a', 'b');
    assert.equal(await markerFiles(nested)('j'), true);
    assert.equal(readdirSync(nested).length, 1);
  });

  it('removes files older than the marker age at its first claim, and keeps younger ones', async () => {
    mkdirSync(tmp.dir, { recursive: true });
    const stale = new Date(Date.now() - MARKER_AGE_MS - 60_000);
    const young = new Date(Date.now() - MARKER_AGE_MS + 60 * 60_000);
    for (const [name, at] of [
      ['old.notified', stale],
      ['old.0.lease', stale],
      ['young.notified', young],
    ] as const) {
      writeFileSync(path.join(tmp.dir, name), '');
      utimesSync(path.join(tmp.dir, name), at, at);
    }
    await markerFiles(tmp.dir)('j');
    assert.deepEqual(
      readdirSync(tmp.dir)
        .filter((n) => !/^[0-9a-f]{40}\./.test(n))
        .sort(),
      ['young.notified'],
    );
  });
});
