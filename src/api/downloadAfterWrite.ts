// What the download loop (download.ts) does once an answer's body is written, and with the finished part file: pure
// decisions from how the write ended and where the transfer stands, so each case is a row of a table test
// (test/unit/downloadAfterWrite.test.ts) and the loop only does the I/O (the answer itself: downloadStep.ts).
//
// After a body:
// - it reached the announced size (or none was announced): check the file;
// - it ended early without an error (a truncated answer): resume from where it ended, counted like any resume;
// - the caller cancelled, the disk refused the bytes, or something that is not the transfer failed: stop at once (the
//   part file keeps its bytes for a Resume; retrying cannot help);
// - more bytes than announced (IntegrityError): what is on disk can only be wrong: stop and remove the part file;
// - a broken contract or a refused request: stop;
// - any other failure of the transfer (reset, stall, server error midway): resume from what reached the disk.
// A resume past `maxResumes` gives up with the failure (or, for a body that kept ending early, says so).
//
// The finished file: its size must be the announced one; then the strongest checksum announced (checksum.ts) is
// judged, by the digest kept up as the bytes arrived when it saw every byte by that algorithm, else by hashing the file;
// every announced checksum of that algorithm must match, else the file is removed. A file that passes is kept: renamed
// from the part file to its name.

import { strongestAlgorithm, type ChecksumAlgorithm, type ExpectedChecksum } from './checksum';
import { ApiError, ContractError, IntegrityError, RequestError, isCancellation } from './errors';

/** How writing one body ended: the part file's new size, or what the write failed with. */
export type Written = { ended: 'end'; offset: number } | { ended: 'error'; error: unknown };

/** Where the transfer stands after a body. */
export interface Attempts {
  /** The artifact's size as known so far. */
  total?: number;
  /** Resumes so far, and how many are allowed. */
  resumes: number;
  maxResumes: number;
}

export type AfterWrite =
  /** Every byte is on disk: check the file. */
  | { next: 'check' }
  /** Ask for the rest from `from` (`disk`: the part file's size, whatever reached it), the resumes now counted. */
  | { next: 'resume'; from: number | 'disk'; resumes: number; why: string }
  /** Stop with `error`; `removePart`: the part file's bytes can only be wrong. */
  | { next: 'fail'; error: unknown; removePart: boolean };

const DISK_CODES = new Set(['ENOSPC', 'EROFS', 'EDQUOT', 'EACCES', 'EPERM', 'EFBIG']);

/** The code of an error of a disk that refuses bytes (full, read-only, quota, permission, too large), if it is one. */
export function diskCode(e: unknown): string | undefined {
  const code = typeof e === 'object' && e !== null ? (e as { code?: unknown }).code : undefined;
  return typeof code === 'string' && DISK_CODES.has(code) ? code : undefined;
}

/** What comes after writing a body. */
export function afterWrite(written: Written, at: Attempts): AfterWrite {
  const resumes = at.resumes + 1;
  if (written.ended === 'end') {
    const { offset } = written;
    if (at.total === undefined || offset >= at.total) return { next: 'check' };
    if (resumes > at.maxResumes) {
      const error = new IntegrityError(`The download kept ending early (${offset} of ${at.total} bytes).`);
      return { next: 'fail', error, removePart: false };
    }
    return { next: 'resume', from: offset, resumes, why: `the body ended early (${offset} of ${at.total} bytes)` };
  }
  const { error } = written;
  const stop = (removePart = false): AfterWrite => ({ next: 'fail', error, removePart });
  if (isCancellation(error) || (error instanceof ApiError && error.kind === 'cancelled')) return stop();
  if (diskCode(error) !== undefined || !(error instanceof ApiError)) return stop();
  if (error instanceof IntegrityError) return stop(true);
  if (error instanceof ContractError || error instanceof RequestError) return stop();
  if (resumes > at.maxResumes) return stop();
  return { next: 'resume', from: 'disk', resumes, why: `the transfer broke (${error.message})` };
}

/** The finished part file. */
export interface Finished {
  /** Its size on disk. */
  size: number;
  /** The size announced, if any. */
  total?: number;
  /** Where the last body ended: a digest kept up as the bytes arrived saw the file's first `offset` bytes. */
  offset: number;
  /** Every checksum announced (the service's and the storage's headers'). */
  sums: ExpectedChecksum[];
  /** The algorithm of the digest kept up as the bytes arrived, if one was. */
  running?: ChecksumAlgorithm;
}

/** Keep the file: rename the part file to its name. `sha256`: its SHA-256, when that is what it was verified by. */
export interface Keep {
  next: 'keep';
  verified: ChecksumAlgorithm | 'length';
  sha256?: string;
}

export type Check =
  /** Nothing to check beyond its length. */
  | (Keep & { verified: 'length' })
  /** Judge it by `algorithm`'s digest: the one kept up as the bytes arrived, or the file hashed now. */
  | { next: 'hash'; algorithm: ChecksumAlgorithm; from: 'running' | 'file' }
  | { next: 'fail'; error: IntegrityError; removePart: false };

/** How the finished part file is checked. */
export function checkFile(f: Finished): Check {
  if (f.total !== undefined && f.size !== f.total) {
    const error = new IntegrityError(`The downloaded file has ${f.size} bytes; the service announced ${f.total}.`);
    return { next: 'fail', error, removePart: false };
  }
  const algorithm = strongestAlgorithm(f.sums);
  if (algorithm === undefined) return { next: 'keep', verified: 'length' };
  return { next: 'hash', algorithm, from: f.running === algorithm && f.offset === f.size ? 'running' : 'file' };
}

export type Verdict = (Keep & { verified: ChecksumAlgorithm }) | { next: 'fail'; error: IntegrityError; removePart: true };

/** The verdict on the file whose `algorithm` digest is `digest`: every announced checksum of that algorithm must match. */
export function checksumVerdict(algorithm: ChecksumAlgorithm, digest: string, sums: readonly ExpectedChecksum[]): Verdict {
  const wrong = sums.find((c) => c.algorithm === algorithm && c.hex !== digest);
  if (wrong) {
    const error = new IntegrityError(
      `The downloaded file does not match the ${algorithm} checksum announced by ${wrong.source}; it was removed.`,
    );
    return { next: 'fail', error, removePart: true };
  }
  return { next: 'keep', verified: algorithm, sha256: algorithm === 'sha256' ? digest : undefined };
}
