// What the download loop (download.ts) does with one answer to a request for the artifact's bytes: a pure decision
// from the answer's status and headers and from where the transfer stands, so each case is a row of a table test
// (test/unit/downloadStep.test.ts) and the loop only does the I/O: asking, reading, writing, hashing, waiting.
//
// The cases, in the order they are judged:
// - a redirect from the storage is followed (at most MAX_HOPS since the link was last asked for);
// - 401/403/410: the signed link expired or was refused: ask the service for a new one;
// - 416 with the part file already as long as the artifact: nothing left to fetch; any other 416 is a range mismatch;
// - 408/429/5xx: a failure worth trying again after a wait;
// - any other status that is not 2xx: the error, in the service's words (the loop reads its body);
// - an encoded body: refused (the bytes are the artifact's, never decompressed);
// - 206 that does not start where the part file ends, or without a valid Content-Range: a range mismatch;
// - 206 of another version than the part file's (a server that ignored If-Range): start over;
// - 200, or a 206 that fits: write it; 200 means the whole file from byte 0, whatever was asked.
// A size that differs from the one the service announced fails at once: those bytes can only be wrong.

import { checksumsFromHeaders, type ExpectedChecksum } from './checksum';
import { ContractError, IntegrityError } from './errors';
import { validatorChanged, validatorOf, type Validator } from './partFile';

/** Redirects followed for one link before the download gives up. */
export const MAX_HOPS = 5;

/** Where the transfer stands when an answer comes. */
export interface TransferAt {
  /** Bytes the part file holds: where the answer's bytes must start. */
  offset: number;
  /** The artifact's size as known so far. */
  total?: number;
  /** The size the service announced, which every answer must agree with. */
  announced?: number;
  /** The version of the artifact the part file's bytes came from. */
  validator?: Validator;
  /** Redirects followed since the link was last asked for. */
  hops: number;
  /** The answer came from a storage URL (whose redirects are followed), not from the API itself. */
  fromUrl: boolean;
}

export interface Answered {
  status: number;
  headers: Record<string, string | undefined>;
}

export type Step =
  /** A redirect: ask `location` (relative to the URL asked; the loop checks it is a URL it may fetch). */
  | { next: 'follow'; location: string }
  /** The link expired or was refused: ask the service for a new one. */
  | { next: 'renew'; why: string }
  /** The part file already holds the whole artifact of `total` bytes. */
  | { next: 'complete'; total: number }
  /** The bytes do not start where the part file ends: start over (after a wait; given up when it keeps happening). */
  | { next: 'mismatch'; what: string }
  /** Another version than the part file's: start over after a wait. */
  | { next: 'changed' }
  /** A failure worth trying again after a wait. */
  | { next: 'retry'; status: number }
  /** Not the bytes: the error is the answer's own, in its words (the loop reads its body). */
  | { next: 'error'; status: number }
  /** Nothing more to try. */
  | { next: 'fail'; error: Error }
  /** Write the body from `from` (0: the whole file, the part file emptied first). */
  | Write;

export interface Write {
  next: 'write';
  from: number;
  total?: number;
  /** The version the part file's bytes now come from, and whether it must be recorded (a new start). */
  validator?: Validator;
  recordValidator: boolean;
  /** Checksums the answer's headers announce; `addSums`: beside those of earlier answers (a resume), else instead. */
  sums: ExpectedChecksum[];
  addSums: boolean;
}

/** What to do with `answer`, given where the transfer stands. */
export function nextStep(answer: Answered, at: TransferAt): Step {
  const { status, headers } = answer;
  if (status >= 300 && status < 400 && at.fromUrl) {
    if (at.hops + 1 > MAX_HOPS) return { next: 'fail', error: new ContractError('The download redirected too many times.') };
    const location = headers['location'];
    if (!location) return { next: 'fail', error: new ContractError(`The storage answered a redirect (${status}) without a Location.`) };
    return { next: 'follow', location };
  }
  if (status === 401 || status === 403 || status === 410) return { next: 'renew', why: `storage answered ${status}` };
  if (status === 416) {
    const range = /\/(\d+)\s*$/.exec(headers['content-range'] ?? '');
    const total = range ? Number(range[1]) : at.total;
    if (at.offset > 0 && total !== undefined && at.offset === total) return { next: 'complete', total };
    return { next: 'mismatch', what: '416 (range not satisfiable)' };
  }
  if (status >= 500 || status === 429 || status === 408) return { next: 'retry', status };
  if (status < 200 || status >= 300) return { next: 'error', status };
  const encoding = contentEncoding(headers);
  if (encoding) {
    return {
      next: 'fail',
      error: new ContractError(`The storage sent the artifact encoded (${encoding}) although asked for the bytes as they are.`),
    };
  }
  if (status === 206) return partial(headers, at);
  // 200: the whole file (not asked for a Range, Range ignored, or the artifact changed since the part file began).
  const length = headers['content-length'];
  const len = Number(length);
  const total = length !== undefined && Number.isSafeInteger(len) && len >= 0 ? len : at.total;
  const wrong = wrongSize(total, at);
  if (wrong) return wrong;
  return {
    next: 'write',
    from: 0,
    total,
    validator: validatorOf(headers),
    recordValidator: true,
    sums: checksumsFromHeaders(headers, false),
    addSums: false,
  };
}

function partial(headers: Record<string, string | undefined>, at: TransferAt): Step {
  const range = parseContentRange(headers['content-range']);
  if (!range || range.start !== at.offset) {
    return { next: 'mismatch', what: range ? `bytes from ${range.start} instead of ${at.offset}` : 'a 206 without a valid Content-Range' };
  }
  const now = validatorOf(headers);
  // A server that ignored If-Range sent the rest of another version.
  if (at.offset > 0 && at.validator && now && validatorChanged(at.validator, now)) return { next: 'changed' };
  const total = range.total ?? at.total;
  const wrong = wrongSize(range.total, at);
  if (wrong) return wrong;
  const fresh = at.offset === 0;
  return {
    next: 'write',
    from: at.offset,
    total,
    validator: fresh ? now : at.validator,
    recordValidator: fresh,
    sums: checksumsFromHeaders(headers, true),
    addSums: true,
  };
}

/** An answer's size that is not the one the service announced. */
function wrongSize(size: number | undefined, at: TransferAt): Step | undefined {
  if (size === undefined || at.announced === undefined || size === at.announced) return undefined;
  return {
    next: 'fail',
    error: new IntegrityError(`The storage sends an artifact of ${size} bytes; the service announced ${at.announced}.`),
  };
}

interface RangeInfo {
  start: number;
  total?: number;
}

function parseContentRange(h: string | undefined): RangeInfo | undefined {
  const m = /^bytes\s+(\d+)-(\d+)\/(\d+|\*)$/i.exec(h?.trim() ?? '');
  if (!m) return undefined;
  return { start: Number(m[1]), total: m[3] === '*' ? undefined : Number(m[3]) };
}

/** A Content-Encoding other than identity, or undefined. */
export function contentEncoding(headers: Record<string, string | undefined>): string | undefined {
  const value = headers['content-encoding']?.trim().toLowerCase();
  return value && value !== 'identity' ? value : undefined;
}
