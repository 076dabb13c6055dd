// What reaches the disk, and what the disk does back: links planted where the download writes, a disk that refuses
// the bytes, and bodies that are not the artifact's bytes (encoded, or longer than announced).
import { strict as assert } from 'node:assert';
import { promises as fsp, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { ContractError, DiskError, RequestError } from '../../src/api/errors';
import { partFilePath } from '../../src/api/download';
import { openPartFile, partFileSize } from '../../src/api/partFile';
import { clientFor, useDownloadEmulator } from './helpers';

describe('download: files on disk', function () {
  this.timeout(30_000);
  const MODEL = 'file-model';
  const ctx = useDownloadEmulator(MODEL, 384 * 1024, { downloadMode: 'redirect' });
  const tmp = ctx.tmp;
  const ARTIFACT = /\/artifacts\//;
  let outside: string;

  beforeEach(() => {
    outside = mkdtempSync(path.join(os.tmpdir(), 'hr-outside-'));
  });
  afterEach(() => rmSync(outside, { recursive: true, force: true }));
  const artifact = () => fsp.readFile(ctx.emu.artifactPath(MODEL)!);

  describe('links', () => {
    it('a symlink planted at the part file is refused, and its target is left as it was', async () => {
      const client = clientFor(ctx.emu);
      const target = path.join(outside, 'precious');
      await fsp.writeFile(target, 'precious bytes');
      const part = partFilePath(tmp.dir, MODEL, undefined, client.baseUrl);
      await fsp.symlink(target, part);
      await assert.rejects(
        client.download(MODEL, { directory: tmp.dir }),
        (e: unknown) => e instanceof RequestError && /not a regular file/.test(e.message),
      );
      assert.equal(await fsp.readFile(target, 'utf8'), 'precious bytes');
      assert.ok((await fsp.lstat(part)).isSymbolicLink(), 'the link was not renamed to the final name');
      assert.deepEqual(readdirSync(tmp.dir), [path.basename(part)]);
    });

    it('a dangling symlink at the part file is refused too (a fresh part file would be created through it)', async () => {
      const client = clientFor(ctx.emu);
      const target = path.join(outside, 'created-through-link');
      const part = partFilePath(tmp.dir, MODEL, undefined, client.baseUrl);
      await fsp.symlink(target, part);
      await assert.rejects(client.download(MODEL, { directory: tmp.dir }), RequestError);
      await assert.rejects(fsp.stat(target), 'nothing was created outside the folder');
    });

    it('a hard link planted at the part file is refused, and the file it shares is left as it was', async () => {
      const client = clientFor(ctx.emu);
      const target = path.join(outside, 'precious');
      await fsp.writeFile(target, 'precious bytes');
      const part = partFilePath(tmp.dir, MODEL, undefined, client.baseUrl);
      await fsp.link(target, part);
      await assert.rejects(
        client.download(MODEL, { directory: tmp.dir }),
        (e: unknown) => e instanceof RequestError && /another name|hard link/.test(e.message),
      );
      assert.equal(await fsp.readFile(target, 'utf8'), 'precious bytes', 'the artifact was appended to the linked file');
      assert.deepEqual(readdirSync(tmp.dir), [path.basename(part)], 'nothing was renamed to the final name');
    });

    it('a part file given a second name after it was measured is refused when opened (checked on the open file)', async () => {
      const part = path.join(tmp.dir, 'raced.part');
      await fsp.writeFile(part, 'abc');
      assert.equal(await partFileSize(part), 3);
      await fsp.link(part, path.join(outside, 'second-name'));
      await assert.rejects(openPartFile(part, false), (e: unknown) => e instanceof RequestError && /hard link/.test(e.message));
      await assert.rejects(partFileSize(part), RequestError);
    });

    it('the final name is never a link: not renamed over, even with overwrite, even when dangling', async () => {
      const target = path.join(outside, 'victim');
      const final = path.join(tmp.dir, `${MODEL}.gguf`);
      await fsp.symlink(target, final);
      const out = await clientFor(ctx.emu).download(MODEL, { directory: tmp.dir, overwrite: true });
      assert.equal(path.basename(out.path), `${MODEL} (1).gguf`);
      assert.ok((await fsp.lstat(final)).isSymbolicLink());
      assert.ok((await fsp.readFile(out.path)).equals(await artifact()));
    });
  });

  describe('a disk that refuses the bytes', () => {
    let restore: (() => void) | undefined;
    afterEach(() => restore?.());

    /** Makes every file write after the first `allowed` bytes fail with `code`, as a full or read-only disk does. */
    async function failWritesAfter(allowed: number, code: string): Promise<void> {
      const probe = await fsp.open(path.join(outside, 'probe'), 'w');
      const proto = Object.getPrototypeOf(probe) as FileHandle;
      await probe.close();
      // The originals, called back below with the patched handle as `this`.
      // eslint-disable-next-line @typescript-eslint/unbound-method
      const { write, writev } = proto;
      let seen = 0;
      const fail = (n: number) => {
        seen += n;
        if (seen <= allowed) return undefined;
        return Promise.reject(Object.assign(new Error(`${code}: emulated`), { code }));
      };
      const patched = proto as unknown as Record<string, unknown>;
      patched.write = function (this: FileHandle, ...args: unknown[]) {
        const b = args[0] as Buffer;
        return fail(typeof args[2] === 'number' ? args[2] : b.length) ?? (write as (...a: unknown[]) => unknown).apply(this, args);
      };
      patched.writev = function (this: FileHandle, ...args: unknown[]) {
        const n = (args[0] as Buffer[]).reduce((sum, b) => sum + b.length, 0);
        return fail(n) ?? (writev as (...a: unknown[]) => unknown).apply(this, args);
      };
      restore = () => {
        patched.write = write;
        patched.writev = writev;
        restore = undefined;
      };
    }

    it('a folder that cannot be made (forbidden, read-only) is a DiskError of that cause, keeping nothing', async () => {
      const mkdir = fsp.mkdir;
      for (const code of ['EACCES', 'EROFS']) {
        fsp.mkdir = (() => Promise.reject(Object.assign(new Error(`${code}: emulated`), { code }))) as typeof fsp.mkdir;
        try {
          const failure = await clientFor(ctx.emu)
            .download(MODEL, { directory: path.join(tmp.dir, 'not-made') })
            .then(
              () => assert.fail('the download should fail'),
              (e: unknown) => e,
            );
          assert.ok(failure instanceof DiskError, String(failure));
          assert.equal(failure.code, code);
          assert.equal(failure.keptBytes, 0);
        } finally {
          fsp.mkdir = mkdir;
        }
      }
    });

    it('a DiskError is told apart from other refused requests', () => {
      assert.ok(!(new RequestError('refused') instanceof DiskError));
      const disk = new DiskError('full', 'ENOSPC', 10, '/x.part');
      assert.ok(disk instanceof DiskError && disk instanceof RequestError);
      assert.equal(disk.kind, 'request');
    });

    for (const code of ['ENOSPC', 'EROFS', 'EDQUOT', 'EACCES', 'EPERM']) {
      it(`${code}: fails at once with a DiskError saying how much the part file keeps, and keeps it`, async () => {
        const client = clientFor(ctx.emu);
        await failWritesAfter(64 * 1024, code);
        const failure = await client.download(MODEL, { directory: tmp.dir }).then(
          () => assert.fail('the download should fail'),
          (e: unknown) => e,
        );
        restore?.();
        assert.ok(failure instanceof DiskError, String(failure));
        assert.equal(failure.code, code);
        const part = partFilePath(tmp.dir, MODEL, undefined, client.baseUrl);
        assert.equal(failure.partFile, part);
        assert.equal(failure.keptBytes, (await fsp.stat(part)).size);
        assert.ok(failure.keptBytes > 0);
        assert.equal(ctx.emu.received.filter((r) => r.origin === 'storage').length, 1, 'not retried');
        assert.deepEqual(client.delays, []);
      });
    }
  });

  describe('bodies that are not the artifact’s bytes', () => {
    it('asks for identity, and a gzip-encoded artifact is a ContractError that keeps nothing', async () => {
      const bytes = await artifact();
      ctx.emu.faults.add({
        origin: 'storage',
        path: ARTIFACT,
        kind: 'body',
        body: gzipSync(bytes),
        contentType: 'application/octet-stream',
        headers: { 'Content-Encoding': 'gzip' },
      });
      await assert.rejects(clientFor(ctx.emu).download(MODEL, { directory: tmp.dir }), ContractError);
      const [request] = ctx.emu.received.filter((r) => r.origin === 'storage');
      assert.ok(request);
      assert.equal(request.headers['accept-encoding'], 'identity');
      assert.deepEqual(readdirSync(tmp.dir), []);
    });

    it('the API answering a brotli-encoded artifact itself: refused, never decompressed, nothing kept', async () => {
      const bomb = brotliCompressSync(Buffer.alloc(8 * 1024 * 1024));
      ctx.emu.faults.add({
        origin: 'api',
        path: '/cr/finetune_model/download',
        kind: 'body',
        body: bomb,
        contentType: 'application/octet-stream',
        headers: { 'Content-Encoding': 'br' },
      });
      await assert.rejects(clientFor(ctx.emu).download(MODEL, { directory: tmp.dir }), ContractError);
      const [request] = ctx.emu.received.filter((r) => r.origin === 'api');
      assert.ok(request);
      assert.equal(request.headers['accept-encoding'], 'identity');
      assert.deepEqual(readdirSync(tmp.dir), []);
    });
  });
});
