// Lease files under one real temp folder, shared by several "windows" (FileLeases instances) on a fake clock.
import { strict as assert } from 'node:assert';
import { existsSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { FileLeases } from '../../src/jobs/pollLease';
import { tempDir } from './helpers';

describe('poll leases', () => {
  const tmp = tempDir('hr-lease-');
  let t: number;
  const now = () => t;
  const window = (name: string) => new FileLeases(tmp.dir, name, now);
  const leaseFiles = () => readdirSync(tmp.dir).filter((n) => n.endsWith('.lease'));

  beforeEach(() => {
    t = 1_000_000;
  });

  it('goes to exactly one of several windows asking at once', async () => {
    const windows = Array.from({ length: 8 }, (_, i) => window(`w${i}`));
    const won = await Promise.all(windows.map((w) => w.acquire('scope\nfinetune:1', 60_000)));
    assert.equal(won.filter(Boolean).length, 1);
    const again = await Promise.all(windows.map((w) => w.acquire('scope\nfinetune:1', 60_000)));
    assert.deepEqual(again, won, 'the holder keeps it, the others stay out');
  });

  it('is renewed by its holder without touching files until half the hold is used', async () => {
    const a = window('a');
    assert.equal(await a.acquire('j', 60_000), true);
    const [file] = leaseFiles();
    const first = readFileSync(path.join(tmp.dir, file!), 'utf8');
    t += 29_000;
    assert.equal(await a.acquire('j', 60_000), true);
    assert.equal(readFileSync(path.join(tmp.dir, file!), 'utf8'), first, 'no write while more than half remains');
    t += 2_000;
    assert.equal(await a.acquire('j', 60_000), true);
    assert.deepEqual(JSON.parse(readFileSync(path.join(tmp.dir, file!), 'utf8')), { owner: 'a', expiresAt: t + 60_000 });
    t += 40_000; // past the old expiry, within the renewed one
    assert.equal(await window('b').acquire('j', 60_000), false);
  });

  it('once expired, is taken over by exactly one of several windows, and its old holder knows it lost', async () => {
    const old = window('old');
    assert.equal(await old.acquire('j', 10_000), true);
    t += 10_001;
    const takers = Array.from({ length: 8 }, (_, i) => window(`t${i}`));
    const won = await Promise.all(takers.map((w) => w.acquire('j', 10_000)));
    assert.equal(won.filter(Boolean).length, 1);
    assert.equal(await old.acquire('j', 10_000), false, 'the stalled holder does not renew over the new one');
    assert.deepEqual(old.held(), []);
    assert.equal(leaseFiles().length, 1, 'older generations are cleaned up');
  });

  it('once released, is free at once; retired, only when it expires', async () => {
    const a = window('a');
    const b = window('b');
    await a.acquire('released', 60_000);
    await a.acquire('retired', 60_000);
    await a.release('released');
    a.retire('retired');
    assert.equal(await b.acquire('released', 60_000), true);
    assert.equal(await b.acquire('retired', 60_000), false);
    t += 60_001;
    assert.equal(await b.acquire('retired', 60_000), true);
  });

  it('releases everything synchronously for a closing window', async () => {
    const a = window('a');
    for (const id of ['1', '2', '3']) await a.acquire(id, 60_000);
    a.releaseAllSync();
    const b = window('b');
    for (const id of ['1', '2', '3']) assert.equal(await b.acquire(id, 60_000), true);
  });

  it('lets a late taker that created a lower generation lose', async () => {
    const a = window('a');
    await a.acquire('j', 10_000);
    t += 10_001;
    const b = window('b');
    assert.equal(await b.acquire('j', 10_000), true); // generation 1, generation 0 removed
    // A taker that listed the folder before b won now creates generation 0 again.
    const late = window('late');
    const [file] = leaseFiles();
    const base = file!.replace(/\.\d+\.lease$/, '');
    writeFileSync(path.join(tmp.dir, `${base}.0.lease`), JSON.stringify({ owner: 'a', expiresAt: 0 }));
    assert.equal(await late.acquire('j', 10_000), false, 'b holds the highest generation');
    assert.equal(await b.acquire('j', 10_000), true);
  });

  it('treats a fresh unreadable file as being written, an old one as garbage', async () => {
    const base = 'x';
    const a = window('a');
    await a.acquire(base, 10_000);
    const [file] = leaseFiles();
    writeFileSync(path.join(tmp.dir, file!), '');
    assert.equal(await window('b').acquire(base, 10_000), false, 'fresh and empty: its creator is writing it');
    const old = new Date(Date.now() - 60_000);
    utimesSync(path.join(tmp.dir, file!), old, old);
    assert.equal(await window('b').acquire(base, 10_000), true, 'old and unreadable: taken over');
  });

  it('announces each job once across windows', async () => {
    const windows = Array.from({ length: 8 }, (_, i) => window(`w${i}`));
    const claims = await Promise.all(windows.map((w) => w.claimNotice('scope\nevaluation:7')));
    assert.equal(claims.filter(Boolean).length, 1);
    assert.equal(await windows[0]!.claimNotice('scope\nevaluation:7'), false);
    assert.equal(await windows[0]!.claimNotice('scope\nevaluation:8'), true);
  });

  it('keeps hostile job ids inside its folder', async () => {
    const a = window('a');
    for (const id of ['../../escape', '/abs/path', 'a\0b', 'C:\\win', '.'.repeat(300)]) {
      assert.equal(await a.acquire(id, 10_000), true);
      assert.equal(await a.claimNotice(id), true);
    }
    assert.ok(readdirSync(tmp.dir).every((n) => /^[0-9a-f]{40}\.(\d+\.lease|notified)$/.test(n)));
    assert.equal(existsSync(path.join(tmp.dir, '..', 'escape')), false);
  });

  it('creates its folder on first use', async () => {
    const nested = new FileLeases(path.join(tmp.dir, 'a', 'b'), 'w', now);
    assert.equal(await nested.acquire('j', 1000), true);
    assert.equal(readdirSync(path.join(tmp.dir, 'a', 'b')).length, 1);
  });
});
