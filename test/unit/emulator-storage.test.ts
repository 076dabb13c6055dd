// The storage origin as a real store behaves for downloads: If-Range, the checksum header each kind of store sends,
// and 'body' faults with any status and headers (a hostile 206, an encoded artifact), also through the control API.
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { crc32c } from '../service/checksums';
import { startEmulator, type Emulator, type StorageChecksum } from '../service/emulator';
import { headers, KEY } from './emulator-helpers';

describe('emulator: storage for downloads', function () {
  let em: Emulator;
  const MODEL = 'storage-model';
  before(async () => {
    em = await startEmulator({ artifactBytes: 64 * 1024 + 3 });
    await em.addCustomModel(KEY, MODEL);
  });
  afterEach(() => {
    em.faults.clear();
    em.configure({ storageChecksum: 'none' });
  });
  after(async () => {
    await em.close();
  });

  async function location(): Promise<string> {
    const res = await fetch(`${em.url}/cr/finetune_model/download?model_name=${MODEL}`, { headers: headers(), redirect: 'manual' });
    return res.headers.get('location')!;
  }

  it('If-Range: the Range is honoured for the current ETag or Last-Modified, otherwise the whole artifact (200)', async () => {
    const loc = await location();
    const first = await fetch(loc);
    const etag = first.headers.get('etag')!;
    const lastModified = first.headers.get('last-modified')!;
    const whole = Buffer.from(await first.arrayBuffer());
    const ask = async (ifRange: string) => {
      const res = await fetch(loc, { headers: { Range: 'bytes=10-', 'If-Range': ifRange } });
      return { status: res.status, body: Buffer.from(await res.arrayBuffer()) };
    };
    assert.deepEqual(await ask(etag), { status: 206, body: whole.subarray(10) });
    assert.deepEqual(await ask(lastModified), { status: 206, body: whole.subarray(10) });
    assert.deepEqual(await ask('"another"'), { status: 200, body: whole });
    assert.deepEqual(await ask(`W/${etag}`), { status: 200, body: whole }, 'a weak ETag never matches');
    assert.deepEqual(await ask('Thu, 01 Jan 1970 00:00:00 GMT'), { status: 200, body: whole });
  });

  it('storageChecksum: each header carries the artifact’s real digest; Content-MD5 only on a whole answer', async () => {
    const bytes = await readFile(em.artifactPath(MODEL)!);
    const sha = createHash('sha256').update(bytes).digest();
    const md5 = createHash('md5').update(bytes).digest();
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32c(bytes));
    const expected: Record<Exclude<StorageChecksum, 'none'>, [string, string]> = {
      'x-checksum-sha256': ['x-checksum-sha256', sha.toString('hex')],
      'x-checksum-sha256-base64': ['x-checksum-sha256', sha.toString('base64')],
      'x-amz-checksum-sha256': ['x-amz-checksum-sha256', sha.toString('base64')],
      'repr-digest': ['repr-digest', `sha-256=:${sha.toString('base64')}:`],
      digest: ['digest', `SHA-256=${sha.toString('base64')}`],
      'digest-md5': ['digest', `MD5=${md5.toString('base64')}`],
      'x-goog-hash': ['x-goog-hash', `crc32c=${crc.toString('base64')},md5=${md5.toString('base64')}`],
      'x-goog-hash-crc32c': ['x-goog-hash', `crc32c=${crc.toString('base64')}`],
      'content-md5': ['content-md5', md5.toString('base64')],
    };
    for (const [kind, [name, value]] of Object.entries(expected)) {
      em.configure({ storageChecksum: kind as StorageChecksum });
      const res = await fetch(await location());
      await res.arrayBuffer();
      assert.equal(res.headers.get(name), value, kind);
    }
    em.configure({ storageChecksum: 'content-md5' });
    const partial = await fetch(await location(), { headers: { Range: 'bytes=1-' } });
    await partial.arrayBuffer();
    assert.equal(partial.status, 206);
    assert.equal(partial.headers.get('content-md5'), null);
  });

  it('a body fault answers any status with the headers given, set through the control API too', async () => {
    const set = await fetch(`${em.url}/_emulator/faults`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        origin: 'storage',
        pathRegex: '^/artifacts/',
        kind: 'body',
        status: 206,
        body: 'abc',
        contentType: 'application/octet-stream',
        headers: { 'Content-Range': 'bytes 7-9/100', 'Content-Encoding': 'gzip' },
      }),
    });
    assert.equal(set.status, 200);
    const res = await fetch(await location(), { headers: { 'Accept-Encoding': 'identity' } });
    assert.equal(res.status, 206);
    assert.equal(res.headers.get('content-range'), 'bytes 7-9/100');
    assert.equal(res.headers.get('content-encoding'), 'gzip');
    const configured = await fetch(`${em.url}/_emulator/configure`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ storageChecksum: 'x-goog-hash' }),
    });
    assert.equal(configured.status, 200);
    assert.equal(em.options.storageChecksum, 'x-goog-hash');
  });
});
