// Finetune upload sources through the real client against the emulator: a file that grows or shrinks while it is
// uploaded, or changed after its check, fails at once with FileChangedError and the service sees no complete upload
// (so no job); links and FIFOs are refused before a byte is sent. The changes are made from the progress callback,
// whose first call is the first part's multipart header: no byte of the file has been read at that point.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, promises as fsp, truncateSync } from 'node:fs';
import { checkFinetuneFiles, uploadFiles, type CheckedFile } from '../../src/features/finetune/finetuneFiles';
import * as path from 'node:path';
import { FileChangedError, IntegrityError, RequestError } from '../../src/api/errors';
import { openUploadSource } from '../../src/api/uploadSource';
import { writePdf } from '../service/fixtures';
import type { RecordedRequest } from '../service/types';
import { clientFor, tempDir, until, useEmulator } from './helpers';

const START = '/cr/generate_questions';
const PARAGRAPHS = ['The warranty lasts two years.', 'Returns are accepted within 30 days.'];

describe('finetune upload sources', function () {
  this.timeout(20_000);
  const ctx = useEmulator();
  const tmp = tempDir('hr-upload-source-');
  let n = 0;

  const starts = (): RecordedRequest[] => ctx.emu.received.filter((r) => r.origin === 'api' && r.path.split('?')[0] === START);
  const request = async (files: Parameters<ReturnType<typeof clientFor>['startFinetune']>[0]['files']) => {
    const client = clientFor(ctx.emu);
    const [base] = await client.listModels();
    assert.ok(base);
    return {
      client,
      req: { files, numQs: 5, mode: 'pretraining', modelName: `src-${++n}-${process.pid}`, modelType: base.name, useCase: '' },
    };
  };
  /** Runs `change` once, on the first progress report: after the files were opened, before any was read. */
  const onFirstProgress = (change: () => void) => {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      change();
    };
  };

  beforeEach(() => ctx.emu.clearReceived());

  it('a file that grows during the upload fails with FileChangedError, and the service created nothing', async () => {
    const pdf = path.join(tmp.dir, 'report.pdf');
    await writePdf(pdf, PARAGRAPHS);
    const { client, req } = await request([pdf]);
    const error = await client.startFinetune(req, { onProgress: onFirstProgress(() => appendFileSync(pdf, 'appended')) }).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(error instanceof FileChangedError, String(error));
    assert.equal(error.message, 'report.pdf changed during upload; nothing was created, start again.');
    // The body was cut before its end: the service saw an aborted request and answered nothing.
    const [seen] = await until(async () => (starts()[0]?.aborted ? starts() : undefined));
    assert.ok(seen);
    assert.equal(seen.status, undefined);
    // The same model name is still free: a job created by the cut upload would hold it.
    assert.ok((await client.startFinetune(req)).jobId);
  });

  it('a file that shrinks during the upload fails at once with FileChangedError (not the idle timeout)', async () => {
    const pdf = path.join(tmp.dir, 'report.pdf');
    await writePdf(pdf, PARAGRAPHS);
    const half = (await fsp.stat(pdf)).size >> 1;
    // An idle timeout far above the test's own: without the fix this test times out instead of seeing the error.
    const client = clientFor(ctx.emu, undefined, {
      timeouts: { requestMs: 5_000, streamIdleMs: 2_000, connectMs: 5_000, uploadIdleMs: 600_000 },
    });
    const { req } = await request([{ path: pdf, size: (await fsp.stat(pdf)).size, label: 'docs/report.pdf' }]);
    const error = await client.startFinetune(req, { onProgress: onFirstProgress(() => truncateSync(pdf, half)) }).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(error instanceof FileChangedError, String(error));
    assert.equal(error.message, 'docs/report.pdf changed during upload; nothing was created, start again.');
    const [seen] = await until(async () => (starts()[0]?.aborted ? starts() : undefined));
    assert.ok(seen);
    assert.equal(seen.status, undefined);
  });

  it('a file whose size differs from the checked one is refused before anything is sent', async () => {
    const pdf = path.join(tmp.dir, 'report.pdf');
    await writePdf(pdf, PARAGRAPHS);
    const checked = (await fsp.stat(pdf)).size;
    await fsp.appendFile(pdf, 'edited after the check');
    const { client, req } = await request([{ path: pdf, size: checked, label: 'report.pdf' }]);
    await assert.rejects(
      client.startFinetune(req),
      (e: unknown) => e instanceof FileChangedError && /^report\.pdf changed/.test(e.message),
    );
    assert.deepEqual(starts(), []);
  });

  it('an unchanged file of the checked size uploads as before', async () => {
    const pdf = path.join(tmp.dir, 'report.pdf');
    await writePdf(pdf, PARAGRAPHS);
    const { client, req } = await request([{ path: pdf, size: (await fsp.stat(pdf)).size, label: 'report.pdf' }]);
    assert.ok((await client.startFinetune(req)).jobId);
  });

  it('the client answers the SHA-256 of each file as sent, in the order of the files', async () => {
    const a = path.join(tmp.dir, 'a.pdf');
    const b = path.join(tmp.dir, 'b.pdf');
    await writePdf(a, PARAGRAPHS);
    await writePdf(b, ['A different document.']);
    const sha = async (f: string) =>
      createHash('sha256')
        .update(await fsp.readFile(f))
        .digest('hex');
    const { client, req } = await request([b, { path: a, size: (await fsp.stat(a)).size, label: 'docs/a.pdf' }]);
    const started = await client.startFinetune(req);
    assert.ok(started.jobId);
    assert.deepEqual(started.sha256, [await sha(b), await sha(a)]);
  });

  it('the digest covers every chunk of a file read in several, and is there only once the stream has ended', async () => {
    const file = path.join(tmp.dir, 'big.pdf');
    // Three chunks and a bit, with bytes that differ from chunk to chunk so a chunk hashed twice or skipped shows.
    const bytes = Buffer.alloc(3 * 1024 * 1024 + 5);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31 + (i >> 20)) & 0xff;
    await fsp.writeFile(file, bytes);
    const opened = await openUploadSource(file, 'big.pdf', bytes.length);
    assert.equal(opened.sha256(), undefined);
    for await (const chunk of opened.stream) assert.ok((chunk as Buffer).length > 0);
    assert.equal(opened.sha256(), createHash('sha256').update(bytes).digest('hex'));
  });

  it('a symbolic link and a FIFO are refused before anything is sent', async function () {
    if (process.platform === 'win32') this.skip();
    const real = path.join(tmp.dir, 'real.pdf');
    await writePdf(real, PARAGRAPHS);
    await fsp.symlink(real, path.join(tmp.dir, 'linked.pdf'));
    execFileSync('mkfifo', [path.join(tmp.dir, 'pipe.pdf')]);
    for (const [name, words] of [
      ['linked.pdf', /linked\.pdf: it is a symbolic link/],
      ['pipe.pdf', /pipe\.pdf: it is not a regular file/],
    ] as const) {
      const { client, req } = await request([path.join(tmp.dir, name)]);
      await assert.rejects(client.startFinetune(req), (e: unknown) => e instanceof RequestError && words.test(e.message));
    }
    assert.deepEqual(starts(), []);
  });

  it('reads exactly the opened size, and an IntegrityError is not taken for a FileChangedError', async () => {
    const file = path.join(tmp.dir, 'data.pdf');
    const bytes = Buffer.alloc(3 * 1024 * 1024 + 5, 7);
    await fsp.writeFile(file, bytes);
    const { stream, size } = await openUploadSource(file, 'data.pdf', bytes.length);
    let read = 0;
    for await (const chunk of stream) read += (chunk as Buffer).length;
    assert.equal(size, bytes.length);
    assert.equal(read, bytes.length);
    assert.ok(!(new IntegrityError('length mismatch') instanceof FileChangedError));
    assert.ok(new FileChangedError('x.pdf') instanceof IntegrityError);
  });

  // Issue 35, finding 4: the checks run when the files are chosen; the person then spends minutes in the review. The
  // upload takes the files as every entry point hands them over (uploadFiles, as startFinetuneJob does).
  describe('where each file really is, checked again on the opened file', function () {
    before(function () {
      if (process.platform === 'win32') this.skip(); // links need privileges there
    });

    /** A workspace with docs/report.pdf, and a folder outside it holding a different file of the same size. */
    const setUp = async () => {
      const workspace = path.join(tmp.dir, 'workspace');
      const outside = path.join(tmp.dir, 'private');
      await fsp.mkdir(path.join(workspace, 'docs'), { recursive: true });
      await fsp.mkdir(path.join(outside, 'docs'), { recursive: true });
      const inside = path.join(workspace, 'docs', 'report.pdf');
      await writePdf(inside, PARAGRAPHS);
      const secret = Buffer.from(await fsp.readFile(inside));
      secret.write('PRIVATE-TAX-RETURN', secret.length >> 1, 'latin1');
      await fsp.writeFile(path.join(outside, 'docs', 'report.pdf'), secret);
      const check = await checkFinetuneFiles(
        [{ id: inside, label: 'docs/report.pdf' }],
        { maxFileBytes: 1 << 30, maxFiles: 10 },
        { roots: [workspace] },
      );
      assert.deepEqual(check.problems, []);
      return { workspace, outside, inside, secret, valid: check.valid };
    };
    const upload = async (valid: CheckedFile[]) => {
      const { client, req } = await request(
        uploadFiles(
          valid,
          valid.map((f) => f.id),
        ),
      );
      return client.startFinetune(req).then(
        () => undefined,
        (e: unknown) => e,
      );
    };

    it('a parent folder swapped for a link to an outside folder after the check is refused in words; nothing is sent', async () => {
      const { workspace, outside, secret, valid } = await setUp();
      assert.equal((await fsp.stat(path.join(outside, 'docs', 'report.pdf'))).size, secret.length);
      await fsp.rename(path.join(workspace, 'docs'), path.join(workspace, 'docs-before'));
      await fsp.symlink(path.join(outside, 'docs'), path.join(workspace, 'docs'));
      const error = await upload(valid);
      assert.ok(error instanceof RequestError, `the upload went ahead: ${String(error)}`);
      assert.match(error.message, /^Cannot upload docs\/report\.pdf: it is no longer inside the workspace folders/);
      assert.deepEqual(starts(), []);
    });

    it('the file replaced by a hard link to a file outside after the check is refused in words; nothing is sent', async () => {
      const { outside, inside, valid } = await setUp();
      await fsp.rm(inside);
      await fsp.link(path.join(outside, 'docs', 'report.pdf'), inside);
      const error = await upload(valid);
      assert.ok(error instanceof RequestError, `the upload went ahead: ${String(error)}`);
      assert.match(error.message, /^Cannot upload docs\/report\.pdf: it has another name elsewhere \(a hard link\)/);
      assert.deepEqual(starts(), []);
    });

    it('an unchanged file inside the workspace uploads, reached through a workspace folder opened by a link', async () => {
      const { workspace, valid } = await setUp();
      const linked = path.join(tmp.dir, 'workspace-link');
      await fsp.symlink(workspace, linked);
      const viaLink = valid.map((f) => ({ ...f, id: path.join(linked, 'docs', 'report.pdf') }));
      const again = await checkFinetuneFiles(viaLink, { maxFileBytes: 1 << 30, maxFiles: 10 }, { roots: [linked] });
      assert.deepEqual(again.problems, []);
      assert.equal(await upload(again.valid), undefined);
      assert.equal(starts().length, 1);
    });
  });
});
