// Checksums a storage host announces in its headers, as real stores send them: verified on both paths (redirect and
// signed-URL metadata), the strongest one used, the resumed prefix covered, a mismatch leaves nothing behind.
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { promises as fsp, readdirSync } from 'node:fs';
import { CancelledError, IntegrityError } from '../../src/api/errors';
import { checksumsFromHeaders } from '../../src/api/checksum';
import { Crc32c } from '../../src/api/crc32c';
import { partFilePath } from '../../src/api/download';
import { crc32c as emulatorCrc32c } from '../service/checksums';
import type { StorageChecksum } from '../service/emulator';
import { KEY, clientFor, tempDir, useDownloadEmulator, useEmulator } from './helpers';

describe('download: checksums in headers', function () {
  this.timeout(30_000);
  const MODEL = 'sum-model';
  const ctx = useDownloadEmulator(MODEL, 384 * 1024, { downloadMode: 'redirect', storageChecksum: 'none' });
  const tmp = ctx.tmp;
  const ARTIFACT = /\/artifacts\//;

  const artifact = () => fsp.readFile(ctx.emu.artifactPath(MODEL)!);

  const kinds: [StorageChecksum, string][] = [
    ['x-checksum-sha256', 'sha256'],
    ['x-checksum-sha256-base64', 'sha256'],
    ['x-amz-checksum-sha256', 'sha256'],
    ['repr-digest', 'sha256'],
    ['digest', 'sha256'],
    ['digest-md5', 'md5'],
    ['x-goog-hash', 'md5'],
    ['x-goog-hash-crc32c', 'crc32c'],
    ['content-md5', 'md5'],
  ];
  for (const [kind, algorithm] of kinds) {
    it(`${kind}: verified by ${algorithm} (redirect)`, async () => {
      ctx.emu.configure({ storageChecksum: kind });
      const out = await clientFor(ctx.emu).download(MODEL, { directory: tmp.dir });
      assert.equal(out.verified, algorithm);
      assert.ok((await fsp.readFile(out.path)).equals(await artifact()));
    });
  }

  it('signed-URL metadata: a header checksum is verified beside the metadata one', async () => {
    ctx.emu.configure({ downloadMode: 'metadata' });
    const bytes = await artifact();
    const wrong = 'cd'.repeat(32);
    ctx.emu.faults.add({
      origin: 'storage',
      path: ARTIFACT,
      kind: 'body',
      body: bytes,
      contentType: 'application/octet-stream',
      headers: { 'x-checksum-sha256': wrong },
    });
    await assert.rejects(clientFor(ctx.emu).download(MODEL, { directory: tmp.dir }), IntegrityError);
    assert.deepEqual(readdirSync(tmp.dir), []);
  });

  const zeros = (n: number) => Buffer.alloc(n).toString('base64');
  for (const [name, value] of [
    ['x-checksum-sha256', 'ab'.repeat(32)],
    ['x-amz-checksum-sha256', zeros(32)],
    ['Repr-Digest', `sha-256=:${zeros(32)}:`],
    ['Digest', `MD5=${zeros(16)}`],
    ['x-goog-hash', `crc32c=${zeros(4)}`],
    ['Content-MD5', zeros(16)],
  ] as const) {
    it(`a wrong ${name} is an IntegrityError and keeps nothing, neither the final name nor the part file`, async () => {
      const bytes = await artifact();
      ctx.emu.faults.add({
        origin: 'storage',
        path: ARTIFACT,
        kind: 'body',
        body: bytes,
        contentType: 'application/octet-stream',
        headers: { [name]: value },
      });
      await assert.rejects(clientFor(ctx.emu).download(MODEL, { directory: tmp.dir }), IntegrityError);
      assert.deepEqual(readdirSync(tmp.dir), []);
    });
  }

  for (const kind of ['digest-md5', 'x-goog-hash-crc32c'] as const) {
    it(`${kind} on a resumed download covers the prefix already on disk`, async () => {
      ctx.emu.configure({ storageChecksum: kind });
      const controller = new AbortController();
      const client = clientFor(ctx.emu);
      await assert.rejects(
        client.download(MODEL, { directory: tmp.dir, signal: controller.signal, onProgress: (p) => p.received > 0 && controller.abort() }),
        CancelledError,
      );
      const part = partFilePath(tmp.dir, MODEL, undefined, client.baseUrl);
      const handle = await fsp.open(part, 'r+');
      await handle.write(Buffer.from('corrupt'), 0, 7, 0);
      await handle.close();
      await assert.rejects(client.download(MODEL, { directory: tmp.dir }), IntegrityError);
      assert.deepEqual(readdirSync(tmp.dir), []);
    });
  }

  it('an intact resumed prefix verifies', async () => {
    ctx.emu.configure({ storageChecksum: 'x-goog-hash-crc32c' });
    ctx.emu.faults.add({ origin: 'storage', path: ARTIFACT, kind: 'reset', afterBytes: 100 * 1024 });
    const out = await clientFor(ctx.emu).download(MODEL, { directory: tmp.dir });
    assert.equal(out.resumes, 1);
    assert.equal(out.verified, 'crc32c');
  });
});

describe('checksum headers and CRC32C', () => {
  it('CRC32C matches the standard check value and the emulator’s own implementation', () => {
    assert.equal(new Crc32c().update(Buffer.from('123456789')).digest('hex'), 'e3069283');
    const data = createHash('sha256').update('seed').digest();
    const mine = new Crc32c().update(data.subarray(0, 10)).update(data.subarray(10)).digest('hex');
    assert.equal(mine, emulatorCrc32c(data).toString(16).padStart(8, '0'));
  });

  it('reads hex or base64, ignores a multipart S3 checksum, and Content-MD5 of a range', () => {
    const sha = createHash('sha256').update('x').digest();
    const md5 = createHash('md5').update('x').digest();
    assert.deepEqual(
      checksumsFromHeaders({ 'x-checksum-sha256': sha.toString('base64') }, false).map((c) => c.hex),
      [sha.toString('hex')],
    );
    assert.deepEqual(checksumsFromHeaders({ 'x-amz-checksum-sha256': `${sha.toString('base64')}-3` }, false), []);
    assert.deepEqual(checksumsFromHeaders({ 'content-md5': md5.toString('base64') }, true), []);
    assert.deepEqual(
      checksumsFromHeaders({ 'x-goog-hash': `crc32c=AAAAAA==, md5=${md5.toString('base64')}` }, true).map((c) => c.algorithm),
      ['crc32c', 'md5'],
    );
  });
});

// The service's own answer may announce checksums too (GCS's object resource: md5Hash and crc32c, base64): they are
// expected beside the headers' ones, the strongest verified, and every value announced for it must match.
describe('download: checksums in the service’s answer', function () {
  this.timeout(30_000);
  const ctx = useEmulator({ artifactBytes: 96 * 1024 });
  const tmp = tempDir();
  const MODEL = 'answer-sum-model';

  before(async () => {
    await ctx.emu.addCustomModel(KEY, MODEL);
  });
  beforeEach(() => {
    ctx.emu.faults.clear();
    ctx.emu.configure({ downloadMode: 'metadata', storageChecksum: 'none' });
  });

  /** The service answers a GCS object resource for the artifact (its signed URL the emulator's own). */
  async function answerAsGcsObject(sums: { md5?: Buffer; crc32c?: Buffer }, headers: Record<string, string> = {}) {
    const bytes = await fsp.readFile(ctx.emu.artifactPath(MODEL)!);
    const res = await fetch(`${ctx.emu.url}/cr/finetune_model/download?model_name=${MODEL}`, { headers: { 'X-API-Key': KEY } });
    const { url } = (await res.json()) as { url: string };
    const body = {
      kind: 'storage#object',
      mediaLink: url,
      size: String(bytes.length),
      ...(sums.md5 ? { md5Hash: sums.md5.toString('base64') } : {}),
      ...(sums.crc32c ? { crc32c: sums.crc32c.toString('base64') } : {}),
    };
    ctx.emu.faults.add({ path: '/cr/finetune_model/download', kind: 'body', body: JSON.stringify(body), contentType: 'application/json' });
    if (Object.keys(headers).length > 0) {
      ctx.emu.faults.add({
        origin: 'storage',
        path: ARTIFACT,
        kind: 'body',
        body: bytes,
        contentType: 'application/octet-stream',
        headers,
      });
    }
    return bytes;
  }
  const ARTIFACT = /\/artifacts\//;
  const md5Of = (b: Buffer) => createHash('md5').update(b).digest();
  const crcOf = (b: Buffer) => {
    const c = new Crc32c();
    c.update(b);
    return Buffer.from(c.digest('hex'), 'hex');
  };

  it('md5Hash and crc32c announced: verified by MD5, the strongest', async () => {
    const bytes = await fsp.readFile(ctx.emu.artifactPath(MODEL)!);
    await answerAsGcsObject({ md5: md5Of(bytes), crc32c: crcOf(bytes) });
    const out = await clientFor(ctx.emu).download(MODEL, { directory: tmp.dir });
    assert.equal(out.verified, 'md5');
    assert.ok((await fsp.readFile(out.path)).equals(bytes));
  });

  it('a wrong md5Hash is an IntegrityError naming the service, and keeps nothing', async () => {
    await answerAsGcsObject({ md5: Buffer.alloc(16) });
    await assert.rejects(
      clientFor(ctx.emu).download(MODEL, { directory: tmp.dir }),
      (e: unknown) => e instanceof IntegrityError && /md5 checksum announced by the service/.test(e.message),
    );
    assert.deepEqual(readdirSync(tmp.dir), []);
  });

  it('a right md5Hash beside a wrong Content-MD5 header: every MD5 announced must match', async () => {
    const bytes = await fsp.readFile(ctx.emu.artifactPath(MODEL)!);
    await answerAsGcsObject({ md5: md5Of(bytes) }, { 'Content-MD5': Buffer.alloc(16).toString('base64') });
    await assert.rejects(clientFor(ctx.emu).download(MODEL, { directory: tmp.dir }), IntegrityError);
    assert.deepEqual(readdirSync(tmp.dir), []);
  });

  it('only a crc32c announced: verified by CRC32C; a wrong one fails', async () => {
    const bytes = await fsp.readFile(ctx.emu.artifactPath(MODEL)!);
    await answerAsGcsObject({ crc32c: crcOf(bytes) });
    assert.equal((await clientFor(ctx.emu).download(MODEL, { directory: tmp.dir, overwrite: true })).verified, 'crc32c');
    await answerAsGcsObject({ crc32c: Buffer.from([1, 2, 3, 4]) });
    await assert.rejects(clientFor(ctx.emu).download(MODEL, { directory: tmp.dir, overwrite: true }), IntegrityError);
  });
});
