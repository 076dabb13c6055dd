// The download loop's decisions once a body is written (src/api/downloadAfterWrite.ts) as tables: how the write ended
// and where the transfer stands, and what comes next (check the file, resume, give up, and why); then the finished
// part file's size and checksums, and the verdict (keep it under its name, or remove it). No socket and no file: the
// loop's I/O is tested in download*.test.ts.
import { strict as assert } from 'node:assert';
import { afterWrite, checkFile, checksumVerdict, type Attempts, type Finished, type Written } from '../../src/api/downloadAfterWrite';
import type { ExpectedChecksum } from '../../src/api/checksum';
import { CancelledError, ContractError, IntegrityError, NetworkError, RequestError, TimeoutError } from '../../src/api/errors';

const SHA = 'a'.repeat(64);
const OTHER = 'b'.repeat(64);
const MD5 = 'c'.repeat(32);

/** A step, with an error's class and message in place of the error (comparable with deepEqual). */
function shown(s: { next: string; error?: unknown }): unknown {
  if (s.next !== 'fail') return s;
  const e = s.error as Error;
  return { ...s, error: `${e.name}: ${e.message}` };
}

function codeError(code: string): Error {
  return Object.assign(new Error(`${code}: refused`), { code });
}

const attempts: Attempts = { total: 1000, resumes: 0, maxResumes: 5 };
const lastTry: Attempts = { total: 1000, resumes: 5, maxResumes: 5 };

const afterWriteRows: [string, Written, Attempts, unknown][] = [
  ['a body that reached the total: check the file', { ended: 'end', offset: 1000 }, attempts, { next: 'check' }],
  ['a body of unknown total: check the file', { ended: 'end', offset: 400 }, { ...attempts, total: undefined }, { next: 'check' }],
  [
    'a body that ended early: resume from where it ended',
    { ended: 'end', offset: 400 },
    attempts,
    { next: 'resume', from: 400, resumes: 1, why: 'the body ended early (400 of 1000 bytes)' },
  ],
  [
    'a body that kept ending early: give up',
    { ended: 'end', offset: 400 },
    lastTry,
    { next: 'fail', error: 'IntegrityError: The download kept ending early (400 of 1000 bytes).', removePart: false },
  ],
  [
    'a broken transfer: resume from what reached the disk',
    { ended: 'error', error: new NetworkError('The connection was reset.') },
    attempts,
    { next: 'resume', from: 'disk', resumes: 1, why: 'the transfer broke (The connection was reset.)' },
  ],
  [
    'a stalled transfer: resume from what reached the disk',
    { ended: 'error', error: new TimeoutError('stalled') },
    { ...attempts, resumes: 4 },
    { next: 'resume', from: 'disk', resumes: 5, why: 'the transfer broke (stalled)' },
  ],
  [
    'a transfer that kept breaking: give up with its failure',
    { ended: 'error', error: new NetworkError('The connection was reset.') },
    lastTry,
    { next: 'fail', error: 'NetworkError: The connection was reset.', removePart: false },
  ],
  [
    'cancelled: stop, the part file kept',
    { ended: 'error', error: new CancelledError() },
    attempts,
    { next: 'fail', error: 'CancelledError: Cancelled.', removePart: false },
  ],
  [
    'aborted by a lower layer: stop, the part file kept',
    { ended: 'error', error: Object.assign(new Error('aborted'), { name: 'AbortError' }) },
    attempts,
    { next: 'fail', error: 'AbortError: aborted', removePart: false },
  ],
  [
    'a disk that refused the bytes: stop, the part file kept',
    { ended: 'error', error: codeError('ENOSPC') },
    attempts,
    { next: 'fail', error: 'Error: ENOSPC: refused', removePart: false },
  ],
  [
    'a failure that is not the transfer’s: stop',
    { ended: 'error', error: new TypeError('x is not a function') },
    attempts,
    { next: 'fail', error: 'TypeError: x is not a function', removePart: false },
  ],
  [
    'more bytes than announced: stop, the part file removed',
    { ended: 'error', error: new IntegrityError('more than the 1000 bytes it announced') },
    attempts,
    { next: 'fail', error: 'IntegrityError: more than the 1000 bytes it announced', removePart: true },
  ],
  [
    'a contract broken: stop, the part file kept',
    { ended: 'error', error: new ContractError('not the bytes') },
    attempts,
    { next: 'fail', error: 'ContractError: not the bytes', removePart: false },
  ],
  [
    'a refused request: stop, the part file kept',
    { ended: 'error', error: new RequestError('refused') },
    attempts,
    { next: 'fail', error: 'RequestError: refused', removePart: false },
  ],
];

const sha: ExpectedChecksum = { algorithm: 'sha256', hex: SHA, source: 'the service' };
const md5: ExpectedChecksum = { algorithm: 'md5', hex: MD5, source: 'content-md5' };
const whole: Finished = { size: 1000, total: 1000, offset: 1000, sums: [] };

const checkFileRows: [string, Finished, unknown][] = [
  [
    'a file of another size than announced: give up, the part file kept',
    { ...whole, size: 999 },
    { next: 'fail', error: 'IntegrityError: The downloaded file has 999 bytes; the service announced 1000.', removePart: false },
  ],
  ['no checksum announced: kept, checked by its length', whole, { next: 'keep', verified: 'length' }],
  ['no size or checksum announced: kept', { ...whole, total: undefined }, { next: 'keep', verified: 'length' }],
  [
    'a checksum hashed as the bytes arrived: its digest',
    { ...whole, sums: [sha, md5], running: 'sha256' },
    { next: 'hash', algorithm: 'sha256', from: 'running' },
  ],
  ['a checksum not hashed on the way: the file hashed', { ...whole, sums: [sha] }, { next: 'hash', algorithm: 'sha256', from: 'file' }],
  [
    'a weaker checksum hashed on the way: the file hashed by the strongest',
    { ...whole, sums: [md5, sha], running: 'md5' },
    { next: 'hash', algorithm: 'sha256', from: 'file' },
  ],
  [
    'a digest that did not see every byte: the file hashed',
    { ...whole, offset: 600, sums: [sha], running: 'sha256' },
    { next: 'hash', algorithm: 'sha256', from: 'file' },
  ],
];

const verdictRows: [string, Parameters<typeof checksumVerdict>, unknown][] = [
  ['a matching SHA-256: kept, its digest told', ['sha256', SHA, [sha]], { next: 'keep', verified: 'sha256', sha256: SHA }],
  ['a matching MD5: kept', ['md5', MD5, [md5]], { next: 'keep', verified: 'md5', sha256: undefined }],
  [
    'a wrong SHA-256: removed, its announcer named',
    ['sha256', OTHER, [sha]],
    {
      next: 'fail',
      error: 'IntegrityError: The downloaded file does not match the sha256 checksum announced by the service; it was removed.',
      removePart: true,
    },
  ],
  [
    'two SHA-256 announced, one wrong: removed, the wrong one’s announcer named',
    ['sha256', SHA, [sha, { algorithm: 'sha256', hex: OTHER, source: 'x-checksum-sha256' }]],
    {
      next: 'fail',
      error: 'IntegrityError: The downloaded file does not match the sha256 checksum announced by x-checksum-sha256; it was removed.',
      removePart: true,
    },
  ],
  [
    'a weaker checksum that differs is not the one judged',
    ['sha256', SHA, [sha, { ...md5, hex: 'd'.repeat(32) }]],
    {
      next: 'keep',
      verified: 'sha256',
      sha256: SHA,
    },
  ],
];

describe('download: after a body is written', () => {
  for (const [name, written, at, expected] of afterWriteRows) {
    it(name, () => assert.deepEqual(shown(afterWrite(written, at)), expected));
  }

  it('gives up with the failure itself, not a copy', () => {
    const error = new NetworkError('reset');
    const step = afterWrite({ ended: 'error', error }, lastTry);
    assert.equal(step.next === 'fail' && step.error, error);
  });
});

describe('download: the finished part file', () => {
  for (const [name, finished, expected] of checkFileRows) {
    it(name, () => assert.deepEqual(shown(checkFile(finished)), expected));
  }
  for (const [name, args, expected] of verdictRows) {
    it(name, () => assert.deepEqual(shown(checksumVerdict(...args)), expected));
  }
});
