// Discarding a partial download (Discard Partial Downloads…, a paused download's Discard) never deletes a part file a
// download in progress holds: its lock (`<part>.lock`, src/api/partLock.ts) is live, whether the download runs in this
// window or another. A stale lock (its window crashed, its heartbeat stopped) holds nothing: it goes with the part.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import { LOCK_STALE_MS, lockPartFile, partLockHeld } from '../../src/api/partLock';
import {
  discardPending,
  pendingDownloads,
  pendingPartFile,
  setPending,
  type PendingDownload,
} from '../../src/features/download/pendingDownloads';
import { EchoingWorkbench, servicesOver } from './echoingState';
import { tempDir } from './helpers';

/** The id of a process that has ended (spawned and waited for). */
function endedPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('discarding a partial download: the lock of a download in progress is respected', () => {
  const tmp = tempDir('hr-discard-');

  async function recorded(modelName: string) {
    const services = servicesOver(new EchoingWorkbench().window());
    const download: PendingDownload = { modelName, directory: tmp.dir, scope: 'http://127.0.0.1:1#0123456789abcdef' };
    await setPending(services, download, true);
    const part = pendingPartFile(download);
    await fsp.writeFile(part, 'bytes so far');
    return { services, download, part };
  }

  it('keeps the part file, its lock and its record while a download of this window holds it', async () => {
    const { services, download, part } = await recorded('running-here');
    const lock = await lockPartFile(part);
    try {
      assert.equal(await partLockHeld(part), true);
      const result = await discardPending(services, [download]);
      assert.equal(await fsp.readFile(part, 'utf8'), 'bytes so far', 'the running download’s part file was deleted');
      assert.ok(await fsp.stat(`${part}.lock`), 'its lock was removed');
      assert.deepEqual(pendingDownloads(services), [download]);
      assert.deepEqual(result, { discarded: [], inUse: [download] });
    } finally {
      await lock.release();
    }
  });

  it('keeps a part file whose lock another machine’s download holds (heartbeat fresh)', async () => {
    const { services, download, part } = await recorded('running-elsewhere');
    await fsp.writeFile(`${part}.lock`, JSON.stringify({ pid: 1, host: 'another-machine', token: 'theirs' }));
    assert.equal(await partLockHeld(part), true);
    const result = await discardPending(services, [download]);
    assert.equal(await fsp.readFile(part, 'utf8'), 'bytes so far');
    assert.equal((JSON.parse(await fsp.readFile(`${part}.lock`, 'utf8')) as { token: string }).token, 'theirs', 'their lock was taken');
    assert.deepEqual(result.inUse, [download]);
  });

  it('deletes a part file whose lock is stale (the process is gone) together with the lock file, and forgets it', async () => {
    const { services, download, part } = await recorded('crashed');
    await fsp.writeFile(`${part}.lock`, JSON.stringify({ pid: endedPid(), host: os.hostname(), token: 'old' }));
    assert.equal(await partLockHeld(part), false);
    const result = await discardPending(services, [download]);
    assert.deepEqual(await fsp.readdir(tmp.dir), [], 'the part file or its lock was left behind');
    assert.deepEqual(pendingDownloads(services), []);
    assert.deepEqual(result, { discarded: [download], inUse: [] });
  });

  it('deletes a part file whose lock’s heartbeat stopped, though its process id runs again (reused)', async () => {
    const { services, download, part } = await recorded('reused');
    await fsp.writeFile(`${part}.lock`, JSON.stringify({ pid: process.pid, host: os.hostname(), token: 'old' }));
    const old = new Date(Date.now() - LOCK_STALE_MS - 5_000);
    await fsp.utimes(`${part}.lock`, old, old);
    assert.equal(await partLockHeld(part), false);
    await discardPending(services, [download]);
    assert.deepEqual(await fsp.readdir(tmp.dir), []);
  });

  it('deletes an unlocked part file and its record, and forgets a record whose folder is gone', async () => {
    const { services, download } = await recorded('paused');
    const gone: PendingDownload = { modelName: 'gone', directory: `${tmp.dir}/removed-folder`, scope: download.scope };
    await setPending(services, gone, true);
    const result = await discardPending(services, [download, gone]);
    assert.deepEqual(await fsp.readdir(tmp.dir), []);
    assert.deepEqual(pendingDownloads(services), []);
    assert.deepEqual(result, { discarded: [download, gone], inUse: [] });
  });
});
