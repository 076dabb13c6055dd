// One download per part file across windows (src/api/partLock.ts): a second download of the same model into the same
// folder is refused with who holds it, while the first one's bytes stay whole; a lock left by a process that is gone
// or whose heartbeat stopped, or that is dated beyond the heartbeat's window either way, is taken over. Two takers
// racing for one stale lock: partLockRace.test.ts.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { promises as fsp, readdirSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { partFilePath } from '../../src/api/download';
import { RequestError } from '../../src/api/errors';
import { LOCK_STALE_MS, PartFileBusyError, lockPartFile, partLockHeld } from '../../src/api/partLock';
import { untrustedText } from '../../src/util/untrustedText';
import { KEY, clientFor, tempDir, useEmulator } from './helpers';

/** The id of a process that has ended (spawned and waited for). */
function endedPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('download: one at a time per part file', function () {
  this.timeout(30_000);
  const ctx = useEmulator({ artifactBytes: 256 * 1024 });
  const tmp = tempDir();
  const MODEL = 'locked-model';

  before(async () => {
    await ctx.emu.addCustomModel(KEY, MODEL);
  });
  beforeEach(() => ctx.emu.configure({ downloadMode: 'redirect' }));

  it('refuses a second download while the first holds the part file, naming the holder; then downloads once it is released', async () => {
    const client = clientFor(ctx.emu);
    const part = partFilePath(tmp.dir, MODEL, undefined, client.baseUrl);
    await fsp.writeFile(part, 'bytes of the running download');
    const held = await lockPartFile(part);
    const storageBefore = ctx.emu.received.filter((r) => r.origin === 'storage').length;
    await assert.rejects(
      client.download(MODEL, { directory: tmp.dir }),
      (e: unknown) => e instanceof PartFileBusyError && e.message.includes(`process ${process.pid}`) && /let it finish/.test(e.message),
    );
    assert.equal(await fsp.readFile(part, 'utf8'), 'bytes of the running download', 'the running download’s part file was touched');
    assert.equal(ctx.emu.received.filter((r) => r.origin === 'storage').length, storageBefore, 'the refused one fetched bytes');
    await held.release();
    await fsp.rm(part);
    const out = await client.download(MODEL, { directory: tmp.dir });
    assert.ok((await fsp.readFile(out.path)).equals(await fsp.readFile(ctx.emu.artifactPath(MODEL)!)));
    assert.deepEqual(readdirSync(tmp.dir), [path.basename(out.path)], 'the lock (or the part file) was left behind');
  });

  it('takes over a lock whose process has ended (a window that crashed)', async () => {
    const part = path.join(tmp.dir, 'crashed.part');
    await fsp.writeFile(`${part}.lock`, JSON.stringify({ pid: endedPid(), host: os.hostname(), token: 'old' }));
    const lock = await lockPartFile(part);
    const holder = JSON.parse(await fsp.readFile(`${part}.lock`, 'utf8')) as { pid: number };
    assert.equal(holder.pid, process.pid);
    await lock.release();
    await assert.rejects(fsp.stat(`${part}.lock`), 'the lock was not removed');
  });

  it('takes over a lock whose heartbeat stopped, even if its process id runs again (reused)', async () => {
    const part = path.join(tmp.dir, 'reused.part');
    await fsp.writeFile(`${part}.lock`, JSON.stringify({ pid: process.pid, host: os.hostname(), token: 'old' }));
    const old = new Date(Date.now() - LOCK_STALE_MS - 5_000);
    await fsp.utimes(`${part}.lock`, old, old);
    const lock = await lockPartFile(part);
    await lock.release();
  });

  it('keeps a live lock of another machine (a shared folder): its heartbeat says it runs', async () => {
    const part = path.join(tmp.dir, 'elsewhere.part');
    await fsp.writeFile(`${part}.lock`, JSON.stringify({ pid: endedPid(), host: 'another-machine', token: 'theirs' }));
    await assert.rejects(lockPartFile(part), (e: unknown) => e instanceof PartFileBusyError && /on another-machine/.test(e.message));
    await fsp.rm(`${part}.lock`);
  });

  it('a lock another download took over after ours went stale is not removed by our release', async () => {
    const part = path.join(tmp.dir, 'taken.part');
    const ours = await lockPartFile(part);
    await fsp.writeFile(`${part}.lock`, JSON.stringify({ pid: process.pid, host: os.hostname(), token: 'theirs' }));
    await ours.release();
    assert.match(await fsp.readFile(`${part}.lock`, 'utf8'), /theirs/);
    await fsp.rm(`${part}.lock`);
  });

  it('a link planted at the lock’s name is never written through', async () => {
    const part = path.join(tmp.dir, 'linked.part');
    const outside = await fsp.mkdtemp(path.join(os.tmpdir(), 'hr-lock-'));
    try {
      const target = path.join(outside, 'precious');
      await fsp.writeFile(target, 'precious');
      await fsp.symlink(target, `${part}.lock`);
      const lock = await lockPartFile(part);
      assert.equal(await fsp.readFile(target, 'utf8'), 'precious');
      assert.ok((await fsp.lstat(`${part}.lock`)).isFile());
      await lock.release();
    } finally {
      await fsp.rm(outside, { recursive: true, force: true });
    }
  });
  it('a takeover left unfinished by a crashed window does not block the next one; one under way does', async () => {
    const part = path.join(tmp.dir, 'claimed.part');
    const stale = JSON.stringify({ pid: endedPid(), host: os.hostname(), token: 'old' });
    await fsp.writeFile(`${part}.lock`, stale);
    await fsp.writeFile(`${part}.lock.takeover0`, JSON.stringify({ pid: process.pid, host: 'another-machine', token: 'taking' }));
    await assert.rejects(lockPartFile(part), (e: unknown) => e instanceof PartFileBusyError && /on another-machine/.test(e.message));
    assert.equal(await fsp.readFile(`${part}.lock`, 'utf8'), stale, 'the lock was replaced under a takeover under way');
    await fsp.writeFile(`${part}.lock.takeover0`, stale);
    const lock = await lockPartFile(part);
    assert.equal((JSON.parse(await fsp.readFile(`${part}.lock`, 'utf8')) as { pid: number }).pid, process.pid);
    await lock.release();
    assert.deepEqual(await fsp.readdir(tmp.dir), ['claimed.part.lock.takeover0'], 'only the crashed taker’s claim stays');
  });

  it('takes over a lock dated in the future beyond the heartbeat’s window (a clock far ahead, or a planted file)', async () => {
    const part = path.join(tmp.dir, 'future.part');
    await fsp.writeFile(`${part}.lock`, JSON.stringify({ pid: 1, host: 'another-machine', token: 'ahead' }));
    const ahead = new Date(Date.now() + 365 * 24 * 3600_000);
    await fsp.utimes(`${part}.lock`, ahead, ahead);
    assert.equal(await partLockHeld(part), false);
    const lock = await lockPartFile(part);
    assert.equal((JSON.parse(await fsp.readFile(`${part}.lock`, 'utf8')) as { pid: number }).pid, process.pid);
    await lock.release();
  });

  it('keeps a live lock dated a few seconds ahead (another machine whose clock is a little fast)', async () => {
    const part = path.join(tmp.dir, 'fast-clock.part');
    await fsp.writeFile(`${part}.lock`, JSON.stringify({ pid: 1, host: 'another-machine', token: 'theirs' }));
    const ahead = new Date(Date.now() + 5_000);
    await fsp.utimes(`${part}.lock`, ahead, ahead);
    await assert.rejects(lockPartFile(part), PartFileBusyError);
    assert.match(await fsp.readFile(`${part}.lock`, 'utf8'), /theirs/);
  });

  it('names the lock file when another download holds it; shown, its path is inert', async () => {
    const folder = path.join(tmp.dir, '[x](command:hostedReasoning.evil)');
    await fsp.mkdir(folder);
    const part = path.join(folder, 'held.part');
    const held = await lockPartFile(part);
    try {
      await assert.rejects(lockPartFile(part), (e: unknown) => {
        assert.ok(e instanceof PartFileBusyError);
        assert.ok(e.message.includes(`${part}.lock`), e.message);
        // What notify.ts shows: the name stays readable, its link syntax does not act.
        const shown = untrustedText(e.message, { maxChars: 1000 });
        assert.ok(shown.includes('held.part.lock') && !shown.includes('](command:'), shown);
        return true;
      });
    } finally {
      await held.release();
    }
  });

  it('refuses a folder at the lock’s name in its own words, keeps the folder, and does not loop', async () => {
    const part = path.join(tmp.dir, 'folder.part');
    await fsp.mkdir(`${part}.lock`);
    await fsp.writeFile(path.join(`${part}.lock`, 'kept'), 'a file of the user');
    for (let i = 0; i < 2; i++) {
      await assert.rejects(lockPartFile(part), (e: unknown) => {
        assert.ok(e instanceof RequestError && !(e instanceof PartFileBusyError), String(e));
        assert.ok(e.message.includes(`${part}.lock`), e.message);
        assert.match(e.message, /is a folder/);
        assert.doesNotMatch(e.message, /EISDIR/);
        return true;
      });
    }
    assert.equal(await fsp.readFile(path.join(`${part}.lock`, 'kept'), 'utf8'), 'a file of the user');
  });
});
