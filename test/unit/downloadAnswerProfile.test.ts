// The download answer when it is not a redirect (§4.7; issue 27): the download URL is the answer's absolute https URL
// whatever its key (two different ones are told apart by the words of their keys, else refused); a SHA-256 is a 64-hex
// value whatever its key; expiry, size and file name by the words of their keys and the shape of their values. Where
// each was found is the profile's `download` part: later answers are read by it, one it no longer fits is inferred again.
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { Crc32c } from '../../src/api/crc32c';
import { ContractError } from '../../src/api/errors';
import { checkServiceProfile } from '../../src/api/profileFormat';
import { partLines } from '../../src/api/profileWords';
import { decodeDownloadMetadata, readDownloadAnswer } from './readers';

const NOW = Date.parse('2026-11-27T03:00:00Z');
const SHA = '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08';
const SHA_BASE64 = Buffer.from(SHA, 'hex').toString('base64');

/** An S3 presigned URL (SigV4), as `aws s3 presign` prints it. */
const S3_URL =
  'https://acme-models.s3.us-east-1.amazonaws.com/artifacts/my-model.gguf?X-Amz-Algorithm=AWS4-HMAC-SHA256' +
  '&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20261127%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20261127T030000Z' +
  '&X-Amz-Expires=900&X-Amz-SignedHeaders=host' +
  '&X-Amz-Signature=fe5f80f77d5fa3beca038a248ff027d0445342fe2855ddc963176630326f1024';
/** A GCS V4 signed URL. */
const GCS_SIGNED =
  'https://storage.googleapis.com/acme-models/my-model.gguf?X-Goog-Algorithm=GOOG4-RSA-SHA256' +
  '&X-Goog-Credential=svc%40acme.iam.gserviceaccount.com%2F20261127%2Fauto%2Fstorage%2Fgoog4_request' +
  '&X-Goog-Date=20261127T030000Z&X-Goog-Expires=900&X-Goog-SignedHeaders=host&X-Goog-Signature=8c1a5b';

describe('download answer: by structure, whatever its keys', () => {
  it('the one absolute https URL, whatever its key', () => {
    assert.equal(decodeDownloadMetadata({ where: 'https://cdn.example/m.gguf?sig=1' }, NOW).url, 'https://cdn.example/m.gguf?sig=1');
    assert.equal(decodeDownloadMetadata({ artifact: { location: { value: S3_URL } } }, NOW).url, S3_URL);
  });

  it('an AWS-style answer: presignedUrl, expiresIn, contentLength, a base64 checksumSHA256', () => {
    const t = decodeDownloadMetadata(
      { presignedUrl: S3_URL, expiresIn: 900, contentLength: 4096, checksumSHA256: SHA_BASE64, eTag: '"d41d8cd98f00b204e9800998ecf8427e"' },
      NOW,
    );
    assert.deepEqual([t.url, t.expiresAt, t.size, t.sha256], [S3_URL, NOW + 900_000, 4096, SHA]);
  });

  it('a GCS object resource: mediaLink over selfLink, a size as a string of digits', () => {
    const body = {
      kind: 'storage#object',
      selfLink: 'https://www.googleapis.com/storage/v1/b/acme-models/o/my-model.gguf',
      mediaLink: 'https://storage.googleapis.com/download/storage/v1/b/acme-models/o/my-model.gguf?generation=1732676400&alt=media',
      name: 'my-model.gguf',
      size: '4096',
      md5Hash: '1B2M2Y8AsgTpgAmY7PhCfg==',
      timeCreated: '2026-11-27T03:00:00.000Z',
    };
    const t = decodeDownloadMetadata(body, NOW);
    assert.deepEqual([t.url, t.size, t.fileName], [body.mediaLink, 4096, 'my-model.gguf']);
  });

  it('a Google signed URL with its expiry time', () => {
    const t = decodeDownloadMetadata({ signedUri: GCS_SIGNED, expireTime: '2026-11-27T03:15:00Z', sha256Hash: SHA }, NOW);
    assert.deepEqual([t.url, t.expiresAt, t.sha256], [GCS_SIGNED, Date.parse('2026-11-27T03:15:00Z'), SHA]);
  });

  it('an OpenAI-style list of one ({data: [{url}]}), the URL an Azure SAS URL', () => {
    const sas =
      'https://oaidalleapiprodscus.blob.core.windows.net/private/org-1/m.gguf?st=2026-11-27T02%3A00%3A00Z&se=2026-11-27T04%3A00%3A00Z&sp=r&sig=abc%3D';
    assert.equal(decodeDownloadMetadata({ created: 1732676400, data: [{ url: sas }] }, NOW).url, sas);
  });

  it("a Hugging Face file entry: the LFS oid is the SHA-256, the file's size not the pointer's", () => {
    const body = {
      type: 'file',
      oid: 'a9993e364706816aba3e25717850c26c9cd0d89d',
      size: 4096,
      lfs: { oid: SHA, size: 4096, pointerSize: 134 },
      path: 'my-model.gguf',
      url: 'https://huggingface.co/acme/my-model/resolve/main/my-model.gguf',
    };
    const t = decodeDownloadMetadata(body, NOW);
    assert.deepEqual([t.url, t.sha256, t.size], [body.url, SHA, 4096]);
  });

  it("the emulator's own answer", () => {
    const body = {
      url: 'http://127.0.0.1:9000/artifacts/m.gguf?expires=1&sig=x',
      expires_at: '2026-11-27T03:05:00.000Z',
      size: 4096,
      sha256: SHA,
      filename: 'm.gguf',
    };
    const t = decodeDownloadMetadata(body, NOW, 'http://127.0.0.1:8787/cr/finetune_model/download?model_name=m');
    assert.deepEqual(t, { url: body.url, expiresAt: Date.parse(body.expires_at), size: 4096, sha256: SHA, fileName: 'm.gguf' });
  });

  it('an http URL only when the API itself is plain http', () => {
    const body = { url: 'http://127.0.0.1:9000/a.gguf' };
    assert.throws(() => decodeDownloadMetadata(body, NOW, 'https://api.example/cr/finetune_model/download'), ContractError);
    assert.throws(() => decodeDownloadMetadata(body, NOW), ContractError);
    assert.equal(decodeDownloadMetadata(body, NOW, 'http://localhost:8787/').url, body.url);
  });

  it('two different URLs the words of their keys do not tell apart are refused, naming neither whole', () => {
    assert.throws(
      () => decodeDownloadMetadata({ primary: 'https://a.example/m.gguf?sig=s1', mirror: 'https://b.example/m.gguf?sig=s2' }, NOW),
      (e: unknown) => e instanceof ContractError && /two/.test(e.message) && !e.message.includes('sig=s1'),
    );
    // A key that says a download wins over one that says only a link; one that says only a url over a docs link.
    const docs = { download_url: 'https://a.example/m.gguf', docs: 'https://b.example/readme' };
    assert.equal(decodeDownloadMetadata(docs, NOW).url, 'https://a.example/m.gguf');
    const repo = { url: 'https://a.example/m.gguf', repo_url: 'https://b.example/acme/m' };
    assert.equal(decodeDownloadMetadata(repo, NOW).url, 'https://a.example/m.gguf');
  });

  it('a 64-hex value is a SHA-256 whatever its key; two different ones tell by their keys, else none', () => {
    assert.equal(decodeDownloadMetadata({ url: 'https://s/x', integrity: `sha256:${SHA.toUpperCase()}` }, NOW).sha256, SHA);
    const two = { url: 'https://s/x', digest: SHA, request: 'b'.repeat(64) };
    assert.equal(decodeDownloadMetadata(two, NOW).sha256, SHA);
    assert.equal(decodeDownloadMetadata({ url: 'https://s/x', a: SHA, b: 'b'.repeat(64) }, NOW).sha256, undefined);
  });

  it("a GCS object resource's md5Hash and crc32c (base64) are its MD5 and CRC32C, kept in the profile", () => {
    const artifact = Buffer.from('GGUF the artifact bytes');
    const md5 = createHash('md5').update(artifact).digest();
    const crc = new Crc32c();
    crc.update(artifact);
    const crcHex = crc.digest('hex');
    const body = {
      kind: 'storage#object',
      name: 'tunedModels/acme-support-0a1b2/acme-support.gguf',
      mediaLink: GCS_SIGNED,
      expireTime: '2026-11-27T03:15:00Z',
      size: String(artifact.length),
      md5Hash: md5.toString('base64'),
      crc32c: Buffer.from(crcHex, 'hex').toString('base64'),
      contentType: 'application/octet-stream',
    };
    const { target, profile, change } = readDownloadAnswer(body, { now: NOW });
    assert.deepEqual([target.md5, target.crc32c, target.sha256], [md5.toString('hex'), crcHex, undefined]);
    assert.deepEqual([profile.md5, profile.crc32c], ['md5Hash', 'crc32c']);
    assert.match(change ?? '', /MD5 at md5Hash; CRC32C at crc32c/);
    // A later answer is read by the profile alone, its checksums too.
    const later = readDownloadAnswer({ ...body, md5Hash: 'A'.repeat(22) + '==' }, { now: NOW, known: profile });
    assert.equal(later.change, undefined);
    assert.equal(later.target.md5, '0'.repeat(32));
    // The part is checked when stored or written in the setting.
    const checked = checkServiceProfile({ download: { url: 'mediaLink', md5: 'md5Hash', crc32c: 'crc32c' } }, 'setting');
    assert.ok('value' in checked, JSON.stringify(checked));
    assert.equal(checked.value.download?.md5, 'md5Hash');
  });

  it('an MD5 or a CRC32C in hex, or named by its value; a digest of that size under another key is no checksum', () => {
    const md5 = '5d41402abc4b2a76b9719d911017c592';
    const read = (extra: Record<string, unknown>) => decodeDownloadMetadata({ url: 'https://s.example/m.gguf', ...extra }, NOW);
    // An S3-like head: the ETag looks like an MD5 (it is one only for a single-part upload), and its key says nothing.
    assert.equal(read({ ETag: `"${md5}"`, contentMd5: md5 }).md5, md5);
    assert.equal(read({ ETag: md5 }).md5, undefined);
    assert.equal(read({ checksum: `md5:${md5.toUpperCase()}` }).md5, md5);
    assert.equal(read({ object_id: md5 }).md5, undefined);
    assert.equal(read({ crc32C: 'e3069283' }).crc32c, 'e3069283');
    assert.equal(read({ checksums: { crc32c: '4waSgw==' } }).crc32c, 'e3069283');
    // A plain CRC32 is another checksum; a CRC32C of the wrong size is none.
    assert.equal(read({ crc32: 'e3069283' }).crc32c, undefined);
    assert.equal(read({ crc32c: 'e3069283ab' }).crc32c, undefined);
    // Two different MD5s tell nothing apart: none (a wrong one would delete a good download).
    assert.equal(read({ md5: md5, content_md5: 'f'.repeat(32) }).md5, undefined);
  });

  it('no URL is a ContractError', () => {
    assert.throws(() => decodeDownloadMetadata({ expires_in: 3, size: 4 }, NOW), ContractError);
    assert.throws(() => decodeDownloadMetadata({ id: 'file-abc123', object: 'file', bytes: 4096, filename: 'm.gguf' }, NOW), ContractError);
  });
});

describe('download answer: the profile part', () => {
  const emulator = (n: number) => ({
    url: `https://storage.example/artifacts/m${n}.gguf?sig=${n}`,
    expires_at: '2026-11-27T03:05:00.000Z',
    size: 4096 + n,
    sha256: SHA,
    filename: `m${n}.gguf`,
  });

  it('says where each value was found, and reads a later answer by it alone', () => {
    const first = readDownloadAnswer(emulator(1), { now: NOW });
    assert.deepEqual(first.profile, {
      url: 'url',
      expires: 'expires_at',
      size: 'size',
      sha256: 'sha256',
      fileName: 'filename',
      by: 'inferred',
    });
    assert.match(first.change ?? '', /url/);
    // A later answer with a second URL beside the first (which inference would refuse): read by the profile.
    const later = readDownloadAnswer({ ...emulator(2), docs: 'https://docs.example/x' }, { now: NOW, known: first.profile });
    assert.equal(later.change, undefined);
    assert.equal(later.profile, first.profile);
    assert.deepEqual([later.target.url, later.target.size, later.target.fileName], [emulator(2).url, 4098, 'm2.gguf']);
  });

  it('an answer the profile no longer fits is inferred again, and the change is said', () => {
    const known = readDownloadAnswer(emulator(1), { now: NOW }).profile;
    const moved = readDownloadAnswer({ data: { signedUrl: 'https://s.example/m.gguf', ttl: 60 } }, { now: NOW, known });
    assert.deepEqual(moved.profile, { url: 'data.signedUrl', expires: 'data.ttl', by: 'inferred' });
    assert.equal(moved.target.expiresAt, NOW + 60_000);
    assert.match(moved.change ?? '', /no longer fits/);
    // A value at a kept place that is not of its kind (a checksum that is no SHA-256) does not fit either.
    const odd = readDownloadAnswer({ ...emulator(3), sha256: 'md5:abc' }, { now: NOW, known });
    assert.equal(odd.target.sha256, undefined);
    assert.ok(odd.change);
  });

  it('is checked when stored or written in the setting, and said in words', () => {
    const ok = checkServiceProfile({ download: { url: 'data.signedUrl', size: 'data.bytes' } }, 'setting');
    assert.ok('value' in ok, JSON.stringify(ok));
    assert.deepEqual(ok.value.download, { url: 'data.signedUrl', size: 'data.bytes', by: 'setting' });
    for (const bad of [{ size: 'bytes' }, { url: 'a..b' }, { url: 'u', other: 'x' }, []]) {
      assert.ok('problem' in checkServiceProfile({ download: bad }), JSON.stringify(bad));
    }
    assert.match(partLines('download', ok.value.download).join('\n'), /URL at data\.signedUrl.*size at data\.bytes/);
  });
});
