// Range answers that do not fit where the part file ends, and part files that must not be shared: between two models
// whose names reduce to one file name, and between two versions of one artifact (If-Range).
import { strict as assert } from 'node:assert';
import { promises as fsp, readdirSync } from 'node:fs';
import { CancelledError, ContractError } from '../../src/api/errors';
import { partFilePath } from '../../src/api/download';
import { KEY, clientFor, useDownloadEmulator } from './helpers';

describe('download: range answers and part files', function () {
  this.timeout(30_000);
  const MODEL = 'range-model';
  const ctx = useDownloadEmulator(MODEL, 512 * 1024, { downloadMode: 'redirect', redirectStatus: 302, signedUrlTtlMs: 60_000 });
  const tmp = ctx.tmp;
  const ARTIFACT = /\/artifacts\//;

  const storage = () => ctx.emu.received.filter((r) => r.origin === 'storage');
  const artifactOf = (model: string) => fsp.readFile(ctx.emu.artifactPath(model)!);

  /** Starts a download of `model` and cancels it at its first chunk: the part file keeps a prefix. */
  async function partial(model: string): Promise<number> {
    const controller = new AbortController();
    const client = clientFor(ctx.emu);
    await assert.rejects(
      client.download(model, {
        directory: tmp.dir,
        signal: controller.signal,
        onProgress: (p) => {
          if (p.received > 0) controller.abort();
        },
      }),
      CancelledError,
    );
    const kept = (await fsp.stat(partFilePath(tmp.dir, model, undefined, client.baseUrl))).size;
    assert.ok(kept > 0, 'a prefix was kept');
    ctx.emu.clearReceived();
    return kept;
  }

  it('a 206 without Content-Range to a request without Range: one retry after a backoff, then a ContractError', async () => {
    const bytes = await artifactOf(MODEL);
    ctx.emu.faults.add({
      origin: 'storage',
      path: ARTIFACT,
      kind: 'body',
      status: 206,
      body: bytes,
      contentType: 'application/octet-stream',
      times: 1000,
    });
    const client = clientFor(ctx.emu);
    await assert.rejects(client.download(MODEL, { directory: tmp.dir }), ContractError);
    assert.equal(storage().length, 2);
    assert.deepEqual(client.delays, [1000]);
    assert.deepEqual(readdirSync(tmp.dir), [], 'nothing kept: no byte fitted');
  });

  it('a 416 to a request without Range: one retry after a backoff, then a ContractError', async () => {
    ctx.emu.faults.add({ origin: 'storage', path: ARTIFACT, kind: 'status', status: 416, times: 1000 });
    const client = clientFor(ctx.emu);
    await assert.rejects(client.download(MODEL, { directory: tmp.dir }), ContractError);
    assert.equal(storage().length, 2);
    assert.equal(storage()[0]!.headers.range, undefined);
    assert.deepEqual(client.delays, [1000]);
  });

  it('a 206 starting elsewhere on a resume starts over with a growing backoff, and a repeat from byte 0 is a ContractError', async () => {
    await partial(MODEL);
    const bytes = await artifactOf(MODEL);
    const wrong = `bytes 7-${bytes.length - 1}/${bytes.length}`;
    ctx.emu.faults.add({
      origin: 'storage',
      path: ARTIFACT,
      kind: 'body',
      status: 206,
      body: bytes.subarray(7),
      contentType: 'application/octet-stream',
      headers: { 'Content-Range': wrong },
      times: 1000,
    });
    const client = clientFor(ctx.emu);
    await assert.rejects(client.download(MODEL, { directory: tmp.dir }), ContractError);
    const asked = storage().map((r) => r.headers.range);
    assert.equal(asked.length, 3);
    assert.match(String(asked[0]), /^bytes=\d+-$/, 'the first asked for the rest');
    assert.deepEqual(asked.slice(1), [undefined, undefined], 'then the whole file');
    assert.deepEqual(client.delays, [1000, 2000]);
  });

  it('range mismatches count against the resume limit', async () => {
    await partial(MODEL);
    ctx.emu.faults.add({
      origin: 'storage',
      path: ARTIFACT,
      kind: 'body',
      status: 206,
      body: 'x',
      contentType: 'application/octet-stream',
      times: 1000,
    });
    const client = clientFor(ctx.emu);
    await assert.rejects(client.download(MODEL, { directory: tmp.dir, maxResumes: 0 }), ContractError);
    assert.equal(storage().length, 1);
  });

  it('a changed artifact is fetched whole (If-Range answered 200), not spliced onto the old prefix', async () => {
    const model = 'changing-model';
    await ctx.emu.addCustomModel(KEY, model, { baseModel: 'base-one' });
    await partial(model);
    const firstTag = ctx.emu.artifactInfo(model)!.sha256.slice(0, 32);
    await ctx.emu.addCustomModel(KEY, model, { baseModel: 'base-two' });
    const now = await artifactOf(model);
    const out = await clientFor(ctx.emu).download(model, { directory: tmp.dir });
    assert.ok((await fsp.readFile(out.path)).equals(now), 'the new artifact, byte for byte');
    const [resume] = storage();
    assert.ok(resume);
    assert.equal(resume.headers['if-range'], `"${firstTag}"`, 'the resume named the version its prefix came from');
    assert.match(String(resume.headers.range), /^bytes=\d+-$/);
    assert.equal(resume.status, 200);
  });

  it('two models whose names reduce to the same file name never resume from each other', async () => {
    await ctx.emu.addCustomModel(KEY, 'team-a/llama');
    await ctx.emu.addCustomModel(KEY, 'team-b/llama');
    await partial('team-a/llama');
    const out = await clientFor(ctx.emu).download('team-b/llama', { directory: tmp.dir });
    assert.equal(out.resumedFrom, 0);
    assert.ok((await fsp.readFile(out.path)).equals(await artifactOf('team-b/llama')));
    const [first] = storage();
    assert.ok(first);
    assert.equal(first.headers.range, undefined);
  });

  it('the part file is named for the service and the model, not only the file name they reduce to', () => {
    const a = 'https://a.example/';
    const b = 'https://b.example/';
    assert.notEqual(partFilePath(tmp.dir, 'team-a/llama', undefined, a), partFilePath(tmp.dir, 'team-b/llama', undefined, a));
    assert.notEqual(partFilePath(tmp.dir, 'a:b', undefined, a), partFilePath(tmp.dir, 'a_b', undefined, a));
    assert.notEqual(partFilePath(tmp.dir, 'llama', undefined, a), partFilePath(tmp.dir, 'llama', undefined, b));
    assert.equal(partFilePath(tmp.dir, 'llama', undefined, a), partFilePath(tmp.dir, 'llama', undefined, a), 'stable across sessions');
  });
});
