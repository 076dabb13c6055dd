// The download loop's decision (src/api/downloadStep.ts) as a table: one answer's status and headers, where the
// transfer stands, and the step it leads to. No socket and no file: the loop's I/O is tested in download*.test.ts.
import { strict as assert } from 'node:assert';
import { MAX_HOPS, nextStep, type Answered, type Step, type TransferAt } from '../../src/api/downloadStep';

const SHA = 'a'.repeat(64);
const SHA_B64 = Buffer.from(SHA, 'hex').toString('base64');
const fresh: TransferAt = { offset: 0, hops: 0, fromUrl: true };
const resuming: TransferAt = { offset: 100, total: 1000, validator: { etag: '"v1"' }, hops: 0, fromUrl: true };

/** The step, with an error's class and message in place of the error (comparable with deepEqual). */
function step(answer: Answered, at: TransferAt): unknown {
  const s: Step = nextStep(answer, at);
  return s.next === 'fail' ? { next: 'fail', error: `${s.error.name}: ${s.error.message}` } : s;
}

const rows: [string, Answered, TransferAt, unknown][] = [
  ['a redirect is followed', { status: 302, headers: { location: '/elsewhere' } }, fresh, { next: 'follow', location: '/elsewhere' }],
  [
    'a redirect past the last hop fails',
    { status: 307, headers: { location: '/x' } },
    { ...fresh, hops: MAX_HOPS },
    { next: 'fail', error: 'ContractError: The download redirected too many times.' },
  ],
  [
    'a redirect without a Location fails',
    { status: 301, headers: {} },
    fresh,
    { next: 'fail', error: 'ContractError: The storage answered a redirect (301) without a Location.' },
  ],
  [
    'a redirect from the API itself is its error',
    { status: 302, headers: { location: '/x' } },
    { ...fresh, fromUrl: false },
    { next: 'error', status: 302 },
  ],
  ['403 renews the link', { status: 403, headers: {} }, resuming, { next: 'renew', why: 'storage answered 403' }],
  ['410 renews the link', { status: 410, headers: {} }, fresh, { next: 'renew', why: 'storage answered 410' }],
  [
    '416 when the part file is whole completes',
    { status: 416, headers: { 'content-range': 'bytes */100' } },
    resuming,
    { next: 'complete', total: 100 },
  ],
  [
    '416 with the known total reached completes',
    { status: 416, headers: {} },
    { ...resuming, total: 100 },
    { next: 'complete', total: 100 },
  ],
  [
    '416 otherwise is a mismatch',
    { status: 416, headers: { 'content-range': 'bytes */1000' } },
    resuming,
    { next: 'mismatch', what: '416 (range not satisfiable)' },
  ],
  ['503 is tried again', { status: 503, headers: {} }, fresh, { next: 'retry', status: 503 }],
  ['429 is tried again', { status: 429, headers: {} }, fresh, { next: 'retry', status: 429 }],
  ['408 is tried again', { status: 408, headers: {} }, fresh, { next: 'retry', status: 408 }],
  ['404 is the answer’s error', { status: 404, headers: {} }, fresh, { next: 'error', status: 404 }],
  [
    'an encoded body is refused',
    { status: 200, headers: { 'content-encoding': 'gzip' } },
    fresh,
    { next: 'fail', error: 'ContractError: The storage sent the artifact encoded (gzip) although asked for the bytes as they are.' },
  ],
  [
    '200 writes the whole file, its version and checksums',
    { status: 200, headers: { 'content-length': '1000', etag: '"v2"', 'x-checksum-sha256': SHA } },
    resuming,
    {
      next: 'write',
      from: 0,
      total: 1000,
      validator: { etag: '"v2"' },
      recordValidator: true,
      sums: [{ algorithm: 'sha256', hex: SHA, source: 'x-checksum-sha256' }],
      addSums: false,
    },
  ],
  [
    '200 of another size than announced fails',
    { status: 200, headers: { 'content-length': '999' } },
    { ...fresh, announced: 1000 },
    { next: 'fail', error: 'IntegrityError: The storage sends an artifact of 999 bytes; the service announced 1000.' },
  ],
  [
    '200 without a length keeps the known total',
    { status: 200, headers: {} },
    { ...fresh, total: 1000 },
    { next: 'write', from: 0, total: 1000, validator: undefined, recordValidator: true, sums: [], addSums: false },
  ],
  [
    '206 from the part file’s end writes the rest of the same version',
    { status: 206, headers: { 'content-range': 'bytes 100-999/1000', etag: '"v1"' } },
    resuming,
    { next: 'write', from: 100, total: 1000, validator: { etag: '"v1"' }, recordValidator: false, sums: [], addSums: true },
  ],
  [
    '206 from 0 records its version',
    { status: 206, headers: { 'content-range': 'bytes 0-999/*', etag: '"v3"' } },
    fresh,
    { next: 'write', from: 0, total: undefined, validator: { etag: '"v3"' }, recordValidator: true, sums: [], addSums: true },
  ],
  [
    '206 from elsewhere is a mismatch',
    { status: 206, headers: { 'content-range': 'bytes 0-999/1000' } },
    resuming,
    { next: 'mismatch', what: 'bytes from 0 instead of 100' },
  ],
  [
    '206 without a range is a mismatch',
    { status: 206, headers: {} },
    resuming,
    { next: 'mismatch', what: 'a 206 without a valid Content-Range' },
  ],
  [
    '206 of another version starts over',
    { status: 206, headers: { 'content-range': 'bytes 100-999/1000', etag: '"v2"' } },
    resuming,
    { next: 'changed' },
  ],
  [
    '206 of another size than announced fails',
    { status: 206, headers: { 'content-range': 'bytes 100-998/999' } },
    { ...resuming, announced: 1000 },
    { next: 'fail', error: 'IntegrityError: The storage sends an artifact of 999 bytes; the service announced 1000.' },
  ],
];

describe('download: the next step for an answer', () => {
  for (const [name, answer, at, expected] of rows) {
    it(name, () => assert.deepEqual(step(answer, at), expected));
  }

  it('takes a resumed answer’s whole-file checksum, to add to the earlier ones, but not its Content-MD5 (of the range)', () => {
    const headers = { 'content-range': 'bytes 100-999/1000', 'x-amz-checksum-sha256': SHA_B64, 'content-md5': SHA_B64.slice(0, 24) };
    const s = nextStep({ status: 206, headers }, resuming);
    assert.deepEqual(s.next === 'write' ? [s.sums, s.addSums] : s, [
      [{ algorithm: 'sha256', hex: SHA, source: 'x-amz-checksum-sha256' }],
      true,
    ]);
  });
});
