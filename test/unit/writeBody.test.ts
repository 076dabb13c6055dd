// writeBody (src/api/writeBody.ts) on its own: what reaches the part file, and that it always settles.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { IntegrityError, NetworkError, type ApiError } from '../../src/api/errors';
import { writeBody } from '../../src/api/writeBody';

function source(body: Readable) {
  return {
    body,
    fail: (reason: ApiError) => body.destroy(reason),
    mapError: (e: unknown) => (e instanceof NetworkError ? e : new NetworkError(`mapped: ${String(e)}`)),
  };
}

describe('writeBody', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hr-writebody-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const options = async (part: string, offset = 0) => ({
    part,
    file: await fs.promises.open(part, offset > 0 ? 'r+' : 'w'),
    offset,
    what: 'Downloading',
    idleMs: 5_000,
    onProgress: () => undefined,
  });

  it('appends the body to the part file and resolves with its new size', async () => {
    const part = path.join(dir, 'a.part');
    fs.writeFileSync(part, 'abc');
    const size = await writeBody(source(Readable.from([Buffer.from('def'), Buffer.from('gh')])), await options(part, 3));
    assert.equal(size, 8);
    assert.equal(fs.readFileSync(part, 'utf8'), 'abcdefgh');
  });

  it('rejects at once, with the file closed, when the body was destroyed before it was read', async () => {
    const part = path.join(dir, 'b.part');
    const body = new Readable({ read() {} });
    body.on('error', () => undefined); // the error happened while nobody listened
    body.destroy(new Error('socket hang up'));
    await new Promise((r) => setImmediate(r));
    await assert.rejects(
      writeBody(source(body), await options(part)),
      (e: unknown) => e instanceof NetworkError && /socket hang up/.test(e.message),
    );
    assert.equal(fs.readFileSync(part).length, 0);
  });

  it('rejects with the mapped error when the body fails midway, after what came before is on disk', async () => {
    const part = path.join(dir, 'c.part');
    const body = new Readable({ read() {} });
    body.push(Buffer.from('first'));
    // Fails once the first bytes are written (a condition, not a timer: on a loaded machine a 20 ms timer fired before
    // writeBody listened, and the error went uncaught).
    const opts = { ...(await options(part)), onProgress: () => setImmediate(() => body.destroy(new Error('reset'))) };
    await assert.rejects(writeBody(source(body), opts), /mapped: Error: reset/);
    assert.equal(fs.readFileSync(part, 'utf8'), 'first');
  });

  it('cuts the file to the offset first: bytes past it from an earlier attempt are not kept', async () => {
    const part = path.join(dir, 'd.part');
    fs.writeFileSync(part, 'abcSTALE');
    const size = await writeBody(source(Readable.from([Buffer.from('de')])), await options(part, 3));
    assert.equal(size, 5);
    assert.equal(fs.readFileSync(part, 'utf8'), 'abcde');
  });

  it('leaves a part file that already ends at the offset untouched: no truncate, which ext4 answers with a flush at close', async () => {
    // A truncate stamps the file's mtime even when its size does not change; an empty body writes nothing, so an
    // unchanged mtime shows no truncate was made.
    const past = new Date('2001-01-01T00:00:00Z');
    const fresh = path.join(dir, 'f.part');
    const file = await fs.promises.open(fresh, 'wx');
    fs.utimesSync(fresh, past, past);
    const opts = { part: fresh, file, offset: 0, what: 'Downloading', idleMs: 5_000, onProgress: () => undefined };
    assert.equal(await writeBody(source(Readable.from([])), opts), 0);
    assert.equal(fs.statSync(fresh).mtime.getTime(), past.getTime());
    const resumed = path.join(dir, 'r.part');
    fs.writeFileSync(resumed, 'abc');
    fs.utimesSync(resumed, past, past);
    assert.equal(await writeBody(source(Readable.from([])), await options(resumed, 3)), 3);
    assert.equal(fs.statSync(resumed).mtime.getTime(), past.getTime());
  });

  it('fails with an IntegrityError before writing past the announced length', async () => {
    const part = path.join(dir, 'e.part');
    const body = Readable.from([Buffer.from('1234'), Buffer.from('5678')]);
    await assert.rejects(writeBody(source(body), { ...(await options(part)), limit: 6 }), IntegrityError);
    assert.equal(fs.readFileSync(part, 'utf8'), '1234');
  });
});
