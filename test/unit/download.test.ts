// Downloads: the storage origin never sees the key, resume after a cut, renewal of an expired URL,
// verification, and file names that cannot escape the chosen folder.
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { promises as fsp, readdirSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { CancelledError, ContractError, IntegrityError, TimeoutError } from '../../src/api/errors';
import { ServiceClient } from '../../src/api/client';
import { partFilePath } from '../../src/api/download';
import { KEY, clientFor, tempDir, useDownloadEmulator } from './helpers';

async function sameBytes(a: string, b: string): Promise<void> {
  const [x, y] = await Promise.all([fsp.readFile(a), fsp.readFile(b)]);
  assert.equal(x.length, y.length, 'same length');
  assert.ok(x.equals(y), 'byte-identical');
}

describe('download', function () {
  this.timeout(60_000);
  const MODEL = 'dl-model';
  const ctx = useDownloadEmulator(MODEL, 3 * 1024 * 1024, { downloadMode: 'redirect', redirectStatus: 302, signedUrlTtlMs: 60_000 });
  const tmp = ctx.tmp;

  const storageSawNoKey = () => {
    const storage = ctx.emu.received.filter((r) => r.origin === 'storage');
    assert.ok(storage.length > 0, 'the storage origin was used');
    for (const r of storage) assert.equal(r.headers['x-api-key'], undefined, `storage received the key on ${r.path}`);
    const api = ctx.emu.received.filter((r) => r.origin === 'api');
    assert.ok(api.every((r) => r.headers['x-api-key'] === KEY));
  };

  for (const status of [301, 302, 307, 308] as const) {
    it(`redirect ${status}: byte-identical file, key never sent to storage`, async () => {
      ctx.emu.configure({ redirectStatus: status });
      const out = await clientFor(ctx.emu).download(MODEL, { directory: tmp.dir });
      await sameBytes(out.path, ctx.emu.artifactPath(MODEL)!);
      assert.equal(path.dirname(out.path), tmp.dir);
      assert.match(path.basename(out.path), /\.gguf$/);
      storageSawNoKey();
    });
  }

  it('signed-URL metadata: fetched without the key and verified by its SHA-256', async () => {
    ctx.emu.configure({ downloadMode: 'metadata' });
    const out = await clientFor(ctx.emu).download(MODEL, { directory: tmp.dir });
    assert.equal(out.verified, 'sha256');
    await sameBytes(out.path, ctx.emu.artifactPath(MODEL)!);
    storageSawNoKey();
  });

  for (const [kind, what] of [
    ['truncate', 'a truncated transfer'],
    ['reset', 'a connection reset mid-transfer'],
  ] as const) {
    it(`${what} resumes by Range and ends byte-identical`, async () => {
      ctx.emu.faults.add({ origin: 'storage', path: /\/artifacts\//, kind, afterBytes: 1024 * 1024, times: 1 });
      const out = await clientFor(ctx.emu).download(MODEL, { directory: tmp.dir });
      await sameBytes(out.path, ctx.emu.artifactPath(MODEL)!);
      assert.equal(out.resumes, 1);
      const storage = ctx.emu.received.filter((r) => r.origin === 'storage');
      assert.equal(storage.length, 2);
      assert.match(String(storage[1]?.headers.range), /^bytes=\d+-$/);
      // A clean early end leaves all it sent on disk; a reset may drop what the socket held unread.
      if (kind === 'truncate') assert.ok(Number(/=(\d+)-/.exec(String(storage[1]?.headers.range))![1]) >= 1024 * 1024 - 65536);
      storageSawNoKey();
    });
  }

  it('a storage response that stalls after its headers is cut by the idle watchdog, then resumed', async () => {
    ctx.emu.faults.add({ origin: 'storage', path: /\/artifacts\//, kind: 'stall', times: 1 });
    const out = await clientFor(ctx.emu, KEY, { timeouts: { streamIdleMs: 300 } }).download(MODEL, { directory: tmp.dir });
    await sameBytes(out.path, ctx.emu.artifactPath(MODEL)!);
    assert.equal(out.resumes, 1);
    const storage = ctx.emu.received.filter((r) => r.origin === 'storage');
    assert.equal(storage.length, 2);
    assert.equal(storage[0]?.fault, 'stall');
  });

  it('a storage response that keeps stalling fails with a TimeoutError once the resumes are spent', async () => {
    ctx.emu.faults.add({ origin: 'storage', path: /\/artifacts\//, kind: 'stall', times: 2 });
    await assert.rejects(
      clientFor(ctx.emu, KEY, { timeouts: { streamIdleMs: 200 } }).download(MODEL, { directory: tmp.dir, maxResumes: 1 }),
      (e: unknown) => e instanceof TimeoutError && /stalled/.test(e.message),
    );
    assert.equal(ctx.emu.received.filter((r) => r.origin === 'storage').length, 2);
  });

  it('storage that sends no headers in time is a TimeoutError, not a hang', async () => {
    ctx.emu.faults.add({ origin: 'storage', path: /\/artifacts\//, kind: 'latency', ms: 5_000, times: 1 });
    await assert.rejects(
      clientFor(ctx.emu, KEY, { timeouts: { connectMs: 200 } }).download(MODEL, { directory: tmp.dir, maxResumes: 0 }),
      (e: unknown) => e instanceof TimeoutError && /no answer/.test(e.message),
    );
  });

  it('storage that sends no headers waits hostedReasoning.requestTimeoutSeconds, the limit README tells a person to raise', async () => {
    // The client as the extension makes it (src/connection/session.ts): the setting gives requestMs, nothing else.
    const client = new ServiceClient({ baseUrl: ctx.emu.url, apiKey: KEY, timeouts: { requestMs: 3_000 } });
    ctx.emu.faults.add({ origin: 'storage', path: /\/artifacts\//, kind: 'latency', ms: 15_000, times: 1 });
    await assert.rejects(
      client.download(MODEL, { directory: tmp.dir, maxResumes: 0 }),
      (e: unknown) => e instanceof TimeoutError && /no answer within 3 s\./.test(e.message),
    );
  });

  it('a cancelled download keeps its .part file and the next call resumes it', async () => {
    const controller = new AbortController();
    const client = clientFor(ctx.emu);
    const first = client.download(MODEL, {
      directory: tmp.dir,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.received > 0) controller.abort(); // the first progress report comes with the first chunk
      },
    });
    await assert.rejects(first, CancelledError);
    const part = partFilePath(tmp.dir, MODEL, undefined, client.baseUrl);
    const kept = (await fsp.stat(part)).size;
    assert.ok(kept > 0, 'the part file was kept');
    const out = await client.download(MODEL, { directory: tmp.dir });
    assert.equal(out.resumedFrom, kept);
    await sameBytes(out.path, ctx.emu.artifactPath(MODEL)!);
    await assert.rejects(fsp.stat(part), 'the part file is gone after the rename');
  });

  it('an expired signed URL is renewed from the API', async () => {
    ctx.emu.configure({ signedUrlTtlMs: 300 });
    ctx.emu.faults.add({ origin: 'storage', path: /\/artifacts\//, kind: 'latency', ms: 600, times: 1 });
    const out = await clientFor(ctx.emu).download(MODEL, { directory: tmp.dir });
    assert.equal(out.renewals, 1);
    await sameBytes(out.path, ctx.emu.artifactPath(MODEL)!);
    const storage = ctx.emu.received.filter((r) => r.origin === 'storage');
    assert.equal(storage[0]?.status, 403);
    assert.equal(ctx.emu.received.filter((r) => r.origin === 'api').length, 2);
  });

  it('never overwrites an existing file silently', async () => {
    const client = clientFor(ctx.emu);
    const a = await client.download(MODEL, { directory: tmp.dir });
    const b = await client.download(MODEL, { directory: tmp.dir });
    assert.notEqual(a.path, b.path);
    assert.match(path.basename(b.path), / \(1\)\.gguf$/);
  });

  it('hostile model names stay inside the target folder', async () => {
    for (const name of ['../../evil', 'a/b', 'CON', '..']) {
      await ctx.emu.addCustomModel(KEY, name);
      const out = await clientFor(ctx.emu).download(name, { directory: tmp.dir });
      assert.equal(path.dirname(out.path), tmp.dir, `${name} -> ${out.path}`);
      await sameBytes(out.path, ctx.emu.artifactPath(name)!);
    }
    for (const f of readdirSync(path.dirname(tmp.dir))) assert.ok(!f.startsWith('evil'), 'nothing escaped');
  });
});

/** A hand-written pair of origins for the answers the emulator does not give: hostile headers, wrong checksums. */
describe('download: hostile servers', function () {
  this.timeout(20_000);
  const tmp = tempDir();
  const body = Buffer.alloc(100_000, 7);
  let api: http.Server;
  let storage: http.Server;
  let apiUrl = '';
  let storageUrl = '';
  let answer: (res: http.ServerResponse) => void = () => undefined;
  const storageHeaders: http.IncomingHttpHeaders[] = [];
  let disposition = '';
  let chunked = false;

  before(async () => {
    storage = http.createServer((req, res) => {
      storageHeaders.push(req.headers);
      res.writeHead(200, { ...(chunked ? {} : { 'Content-Length': body.length }), 'Content-Disposition': disposition });
      res.end(body);
    });
    api = http.createServer((_req, res) => answer(res));
    await Promise.all([
      new Promise<void>((r) => storage.listen(0, '127.0.0.1', r)),
      new Promise<void>((r) => api.listen(0, '127.0.0.1', r)),
    ]);
    apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
    storageUrl = `http://127.0.0.1:${(storage.address() as AddressInfo).port}`;
  });
  after(() => {
    api.close();
    storage.close();
  });
  const client = () => new ServiceClient({ baseUrl: apiUrl, apiKey: 'k-hostile-1', sleep: async () => undefined });

  for (const header of [
    'attachment; filename="../../../evil.gguf"',
    'attachment; filename="/etc/passwd"',
    'attachment; filename="..\\..\\x.gguf"',
    "attachment; filename*=UTF-8''..%2F..%2Fnul%00.gguf",
    'attachment; filename=".."',
  ]) {
    it(`Content-Disposition ${header} stays inside the folder`, async () => {
      disposition = header;
      answer = (res) => res.writeHead(302, { Location: `${storageUrl}/a.bin?sig=1` }).end();
      const out = await client().download('m', { directory: tmp.dir });
      assert.equal(path.dirname(out.path), tmp.dir);
      assert.equal(storageHeaders.at(-1)?.['x-api-key'], undefined);
    });
  }

  it('a checksum mismatch is an IntegrityError and leaves no file behind', async () => {
    disposition = 'attachment; filename="m.gguf"';
    answer = (res) =>
      res
        .writeHead(200, { 'Content-Type': 'application/json' })
        .end(JSON.stringify({ url: `${storageUrl}/a.bin`, sha256: 'f'.repeat(64) }));
    await assert.rejects(client().download('m', { directory: tmp.dir }), IntegrityError);
    assert.deepEqual(readdirSync(tmp.dir), []);
  });

  it('a body longer than the announced size is cut off at that size, an IntegrityError, and no part file is left', async () => {
    chunked = true;
    answer = (res) =>
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ url: `${storageUrl}/a.bin`, size: 1000 }));
    try {
      await assert.rejects(
        client().download('m', { directory: tmp.dir }),
        (e: unknown) => e instanceof IntegrityError && /more than/.test(e.message),
      );
    } finally {
      chunked = false;
    }
    assert.deepEqual(readdirSync(tmp.dir), []);
  });

  it('storage announcing another size than the service is an IntegrityError before anything is written', async () => {
    answer = (res) =>
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ url: `${storageUrl}/a.bin`, size: 1000 }));
    await assert.rejects(
      client().download('m', { directory: tmp.dir }),
      (e: unknown) => e instanceof IntegrityError && /announced 1000/.test(e.message),
    );
    assert.deepEqual(readdirSync(tmp.dir), []);
  });

  it('the right checksum verifies', async () => {
    const sha = createHash('sha256').update(body).digest('hex');
    answer = (res) =>
      res
        .writeHead(200, { 'Content-Type': 'application/json' })
        .end(JSON.stringify({ url: `${storageUrl}/a.bin`, sha256: sha, size: body.length }));
    const out = await client().download('m', { directory: tmp.dir });
    assert.equal(out.verified, 'sha256');
  });

  it('the API answering the bytes itself (no redirect) is written and checked by length', async () => {
    const before = storageHeaders.length;
    answer = (res) => res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': body.length }).end(body);
    const out = await client().download('m', { directory: tmp.dir });
    assert.equal(out.verified, 'length');
    assert.ok((await fsp.readFile(out.path)).equals(body), 'byte-identical');
    assert.equal(storageHeaders.length, before, 'storage not asked');
  });

  it('a redirect to plain http on a public host is refused', async () => {
    answer = (res) => res.writeHead(302, { Location: 'http://example.com/a.gguf?sig=secret' }).end();
    await assert.rejects(
      client().download('m', { directory: tmp.dir }),
      (e: unknown) => e instanceof ContractError && !e.message.includes('secret'),
    );
  });
});
