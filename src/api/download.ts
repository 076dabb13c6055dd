// Artifact download (spec 4.7): the API answers a redirect or signed-URL metadata (or, plausibly, the bytes
// themselves). The signed URL is a credential of its own and lives on another origin, so it is fetched with a
// plain node:http(s) request that carries no default headers (storageRequest.ts): the storage origin never sees
// X-API-Key.
//
// The bytes go to a part file in the target folder (partFile.ts: its name, its validator, no links followed); an
// interrupted transfer resumes by Range with If-Range; the length and the strongest checksum announced (checksum.ts)
// are checked; only then is the part file renamed, atomically, to a name that does not overwrite an existing file
// unless asked and never replaces a link. An expired or refused signed URL is renewed.
//
// The bytes are the artifact's, not an encoding of them: every request asks for `identity`, nothing is decompressed
// (a small compressed body can expand without bound), and an answer with another Content-Encoding is refused. A
// range answer that does not fit where the part file ends is retried with backoff and counted like a resume.
// A disk that refuses the bytes (full, read-only, quota, permission) stops the download at once with a DiskError:
// retrying cannot help, and the part file keeps what it holds for a Resume once space is freed.

import { promises as fsp } from 'node:fs';
import { Readable } from 'node:stream';
import * as path from 'node:path';
import { ApiError, CancelledError, ContractError, DiskError, RequestError, ServerError, isCancellation } from './errors';
import { parseBody } from './answerBody';
import { readAnswer } from './answerReading';
import { DOWNLOAD_ANSWER, downloadContext } from './downloadAnswer';
import type { ProfileBook } from './profileBook';
import { HttpClient, readCapped, type StreamResponse } from './http';
import { storageGet, type StorageResponse } from './storageRequest';
import { writeBody, type BodySource } from './writeBody';
import { isLoopbackHost } from './urlPolicy';
import { fileNameFromContentDisposition, finalFileName, insideFolder } from './fileName';
import {
  digestFilePrefix,
  newDigest,
  strongestAlgorithm,
  type ChecksumAlgorithm,
  type ExpectedChecksum,
  type RunningDigest,
} from './checksum';
import { ifRangeValue, openPartFile, partFilePath, partFileSize, readValidator, removePartFile, writeValidator } from './partFile';
import { lockPartFile, type PartLock } from './partLock';
import { contentEncoding, nextStep, type Step, type Write } from './downloadStep';
import { afterWrite, checkFile, checksumVerdict, diskCode, type Keep, type Written } from './downloadAfterWrite';
import { describeUrl } from './redact';
import type { DownloadTarget } from './types';

export interface DownloadProgress {
  received: number;
  total?: number;
  /** Bytes that were already on disk when this attempt started (resumed, not fetched again). */
  resumedFrom: number;
}

export interface DownloadOptions {
  directory: string;
  /** A name the user chose (still reduced to a safe base name). Otherwise the server's or the model's. */
  fileName?: string;
  overwrite?: boolean;
  signal?: AbortSignal;
  onProgress?: (p: DownloadProgress) => void;
  /** How many times a refused or expired signed URL is asked for again (default 2). */
  maxRenewals?: number;
  /** How many times a broken transfer is resumed automatically (default 5). */
  maxResumes?: number;
}

export interface DownloadOutcome {
  path: string;
  bytes: number;
  /** The file's SHA-256, when that is the checksum it was verified by. */
  sha256?: string;
  /**
   * What the file was checked against besides its length: the strongest checksum the service or the storage's
   * headers announced (checksum.ts). Hashing costs about as much CPU as the transfer itself, so a download that can
   * only be checked by its length is not hashed.
   */
  verified: ChecksumAlgorithm | 'length';
  /** Bytes found in the part file at the start (not fetched again). */
  resumedFrom: number;
  renewals: number;
  resumes: number;
}

export { partFilePath } from './partFile';

const MAX_METADATA_BYTES = 1024 * 1024;

/** Where the bytes come from: the signed URL (bare) or the API itself (keyed). */
interface Source {
  target: DownloadTarget;
  /** The API answered the artifact directly: refetch through the keyed client. */
  direct?: StreamResponse;
}

const WHAT = 'Downloading the model';

/** One answer in the transfer loop, from the storage origin (node:http) or from the API itself (keyed client). */
interface Answer {
  status: number;
  headers: Record<string, string | undefined>;
  /** The body, for a short error message. */
  chunks: AsyncIterable<Buffer>;
  /** From the storage URL (whose redirects are followed), not from the API. */
  fromUrl: boolean;
  /** The body, for the artifact's bytes. */
  source(): BodySource;
  /** Not reading the body: close it. */
  abort(): void;
}

function fromStorage(res: StorageResponse): Answer {
  return { status: res.status, headers: res.headers, chunks: res.body, fromUrl: true, source: () => res, abort: () => res.body.destroy() };
}

/**
 * The API answered the bytes itself (rare): its keyed stream already has an idle watchdog and maps its errors; a
 * Readable over it gives the file writer the one interface it reads.
 */
function fromApi(http: HttpClient, res: StreamResponse): Answer {
  return {
    status: res.status,
    headers: res.headers,
    chunks: res.body,
    fromUrl: false,
    source: () => {
      const body = Readable.from(res.body, { objectMode: false });
      return {
        body,
        fail: (reason) => {
          res.abort();
          body.destroy(reason);
        },
        mapError: (e) => (e instanceof ApiError ? e : http.mapThrown(WHAT, e, new AbortController().signal)),
      };
    },
    abort: () => res.abort(),
  };
}

export function checkSignedUrl(raw: string, base: string): string {
  let u: URL;
  try {
    u = new URL(raw, base);
  } catch {
    throw new ContractError('The download URL the service gave is not a valid URL.');
  }
  if (u.protocol !== 'https:' && !(u.protocol === 'http:' && isLoopbackHost(u.hostname))) {
    throw new ContractError(`The download URL must use https; refusing ${describeUrl(u.href)}.`);
  }
  if (u.username || u.password) throw new ContractError('The download URL must not carry credentials.');
  return u.href;
}

async function resolveSource(http: HttpClient, modelName: string, signal: AbortSignal | undefined, book?: ProfileBook): Promise<Source> {
  const url = http.url('/cr/finetune_model/download', { model_name: modelName });
  const res = await http.stream(
    'Requesting the download',
    // This answer may be the artifact itself: never decompressed (see the header).
    { method: 'GET', url, headers: { 'Accept-Encoding': 'identity' }, decompress: false },
    { signal, idempotent: true, allowRedirect: true, accept: 'application/json, application/octet-stream' },
  );
  const encoding = contentEncoding(res.headers);
  if (encoding) {
    res.abort();
    throw new ContractError(`The service answered the download encoded (${encoding}) although asked for the bytes as they are.`);
  }
  if (res.status >= 300 && res.status < 400) {
    res.abort();
    const location = res.headers['location'];
    if (!location) throw new ContractError(`The service answered a redirect (${res.status}) without a Location.`);
    return { target: { url: checkSignedUrl(location, url) } };
  }
  const type = (res.headers['content-type'] ?? '').toLowerCase();
  if (type.includes('json') || type.startsWith('text/')) {
    const text = await readCapped(res.body, MAX_METADATA_BYTES);
    const body = parseBody(text);
    try {
      const { value: target, profile, change } = readAnswer(DOWNLOAD_ANSWER, body, book?.profile('download'), downloadContext(url));
      const checked = checkSignedUrl(target.url as string, url);
      // A download profile is always kept (DOWNLOAD_ANSWER keeps every reading).
      book?.learned('download', { profile: profile!, change, body, context: { modelName } });
      return { target: { ...target, url: checked } };
    } catch (error) {
      // No URL the client can use (none, two alike, or one refused): kept for Choose How to Read…, with the model.
      if (error instanceof ContractError && book) {
        book.unreadable('download', body, { modelName });
        error.choosable = 'download';
      }
      throw error;
    }
  }
  // The API answered with the bytes themselves: same origin, so the keyed client may fetch them again.
  return {
    target: { fileName: fileNameFromContentDisposition(res.headers['content-disposition']) },
    direct: res,
  };
}

/** An answer that is not the bytes, as an error in its own words (unless its body stalls: then its status alone). */
async function answerError(http: HttpClient, res: Answer): Promise<ApiError> {
  const stall = setTimeout(() => res.abort(), http.timeouts.streamIdleMs);
  const text = await readCapped(res.chunks, 64 * 1024)
    .catch(() => '')
    .finally(() => clearTimeout(stall));
  return http.statusError(WHAT, res.status, res.headers, parseBody(text));
}

/**
 * The first name like `name` that is free, or with `overwrite` that holds a regular file: a link (or anything else)
 * under a name is never replaced, whatever it points to.
 */
async function freeName(dir: string, name: string, overwrite: boolean): Promise<string> {
  const ext = path.extname(name);
  const stem = name.slice(0, name.length - ext.length);
  for (let i = 0; i < 1000; i++) {
    const candidate = insideFolder(dir, i === 0 ? name : `${stem} (${i})${ext}`);
    const stat = await fsp.lstat(candidate).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return undefined;
      throw e;
    });
    if (!stat || (overwrite && stat.isFile())) return candidate;
  }
  throw new RequestError(`Too many files named like ${name} in ${dir}.`);
}

const DISK_WORDS: Record<string, string> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'the disk is read-only',
  EFBIG: 'the file system does not allow a file this large',
  EACCES: 'permission denied',
  EPERM: 'the operation is not permitted',
};

async function toDiskError(code: string, part: string, cause: unknown): Promise<DiskError> {
  const kept = await partFileSize(part).catch(() => 0);
  const why = DISK_WORDS[code] ?? code;
  return new DiskError(`Cannot write the download: ${why}. ${kept} bytes are kept in ${part}.`, code, kept, part, { cause });
}

export async function downloadArtifact(
  http: HttpClient,
  modelName: string,
  options: DownloadOptions,
  book?: ProfileBook,
): Promise<DownloadOutcome> {
  const { directory } = options;
  const part = partFilePath(directory, modelName, options.fileName, http.base.href);
  let lock: PartLock;
  try {
    await fsp.mkdir(directory, { recursive: true });
    // One download per part file, across windows (partLock.ts); released however this one ends.
    lock = await lockPartFile(part);
  } catch (e) {
    // A folder that cannot be made or written (read-only, forbidden, full) is told by its cause, as a refused write is.
    if (e instanceof ApiError) throw e;
    const code = diskCode(e);
    if (code !== undefined) throw await toDiskError(code, part, e);
    throw new RequestError(`Cannot write the download: ${e instanceof Error ? e.message : String(e)}`);
  }
  try {
    return await transfer(http, modelName, options, part, book);
  } finally {
    await lock.release();
  }
}

async function transfer(
  http: HttpClient,
  modelName: string,
  options: DownloadOptions,
  part: string,
  book: ProfileBook | undefined,
): Promise<DownloadOutcome> {
  const { directory, signal } = options;
  const maxRenewals = options.maxRenewals ?? 2;
  const maxResumes = options.maxResumes ?? 5;
  const resumedFrom = await partFileSize(part);
  // The version of the artifact the part file's bytes came from: a resume accepts only the rest of that version.
  let validator = resumedFrom > 0 ? await readValidator(part) : undefined;

  let source = await resolveSource(http, modelName, signal, book);
  let renewals = 0;
  let resumes = 0;
  let offset = resumedFrom;
  /** A digest of the part file's first `offset` bytes, kept up as they arrive. */
  let running: { algorithm: ChecksumAlgorithm; digest: RunningDigest } | undefined;
  /** Checksums the storage's headers announced for the version being fetched. */
  let headerSums: ExpectedChecksum[] = [];
  let total: number | undefined = source.target.size;
  let serverName = source.target.fileName;
  let hops = 0;
  let url = source.target.url;
  let mismatchesFromStart = 0;

  /** The service's checksums (its answer's) and the storage's headers' ones: every one of the strongest must match. */
  const expected = (): ExpectedChecksum[] => {
    const sums: ExpectedChecksum[] = [];
    const { sha256, md5, crc32c } = source.target;
    if (sha256) sums.push({ algorithm: 'sha256', hex: sha256, source: 'the service' });
    if (md5) sums.push({ algorithm: 'md5', hex: md5, source: 'the service' });
    if (crc32c) sums.push({ algorithm: 'crc32c', hex: crc32c, source: 'the service' });
    for (const h of headerSums) sums.push(h);
    return sums;
  };

  const renew = async (why: string) => {
    if (renewals >= maxRenewals) throw new RequestError(`The download link was refused again after renewal (${why}).`);
    renewals++;
    source.direct?.abort();
    source = await resolveSource(http, modelName, signal, book);
    url = source.target.url;
    hops = 0;
  };
  /** A failed attempt: counted against the resumes, then a wait that grows, so a broken server is not hammered. */
  const backOff = async (failure: () => ApiError) => {
    if (++resumes > maxResumes) throw failure();
    await http.sleepFn(Math.min(500 * 2 ** resumes, 8_000), signal);
  };
  const startOver = async () => {
    await removePartFile(part);
    offset = 0;
    running = undefined;
    validator = undefined;
  };
  /** The answer's bytes do not start where the part file ends: its bytes cannot be used. */
  const rangeMismatch = async (what: string) => {
    if (offset === 0 && ++mismatchesFromStart >= 2) {
      throw new ContractError(`The storage answered ${what} to a request for the whole file, twice.`);
    }
    await startOver();
    await backOff(() => new ContractError(`The storage kept answering ${what} (${maxResumes} times).`));
  };

  /** What a step other than writing does before the next request. */
  const act = async (step: Exclude<Step, Write | { next: 'complete' | 'error' }>): Promise<void> => {
    switch (step.next) {
      case 'follow':
        hops++;
        url = checkSignedUrl(step.location, url ?? http.base.href);
        return;
      case 'renew':
        return renew(step.why);
      case 'mismatch':
        return rangeMismatch(step.what);
      case 'changed':
        await startOver();
        return backOff(() => new ContractError(`The artifact kept changing while it was downloaded (${maxResumes} times).`));
      case 'retry':
        return backOff(() => new ServerError(`The download failed (${step.status}) ${maxResumes} times.`, { status: step.status }));
      case 'fail':
        throw step.error;
    }
  };

  try {
    for (;;) {
      if (signal?.aborted) throw new CancelledError();
      // A URL known to expire within seconds is renewed before use rather than failing midway.
      if (source.target.expiresAt !== undefined && source.target.expiresAt - Date.now() < 2_000 && url) {
        await renew('expired');
        continue;
      }
      // The part file's digest is rebuilt before asking for the rest, not between the answer and its body: a body left
      // unread for the seconds a large prefix takes can be reset or cancelled before anything listens to it. (When
      // only the answer's headers announce a checksum, the whole file is hashed at the end instead.)
      const known = strongestAlgorithm(expected());
      if (known !== undefined && offset > 0 && running?.algorithm !== known) {
        running = { algorithm: known, digest: await digestFilePrefix(part, offset, known) };
      }
      const ifRange = offset > 0 ? ifRangeValue(validator) : undefined;
      const want: Record<string, string> = {
        'Accept-Encoding': 'identity',
        ...(offset > 0 ? { Range: `bytes=${offset}-` } : {}),
        ...(ifRange ? { 'If-Range': ifRange } : {}),
      };
      let res: Answer;
      if (source.direct) {
        res = fromApi(http, source.direct);
        source.direct = undefined;
        if (offset > 0) {
          // The first answer started at byte 0; ask again from where the part file ends.
          res.abort();
          continue;
        }
      } else if (url) {
        res = fromStorage(
          await storageGet(url, {
            what: WHAT,
            headers: { Accept: 'application/octet-stream', ...want },
            signal,
            connectMs: http.timeouts.connectMs,
            mapThrown: (e, s) => http.mapThrown(WHAT, e, s),
          }),
        );
      } else {
        res = fromApi(
          http,
          await http.stream(
            WHAT,
            { method: 'GET', url: http.url('/cr/finetune_model/download', { model_name: modelName }), headers: want, decompress: false },
            { signal, idempotent: true, accept: 'application/octet-stream' },
          ),
        );
      }

      const step = nextStep(res, { offset, total, announced: source.target.size, validator, hops, fromUrl: res.fromUrl });
      if (step.next === 'error') throw await answerError(http, res);
      if (step.next !== 'write') {
        res.abort();
        if (step.next === 'complete') {
          total = step.total;
          break; // the part file already holds everything
        }
        await act(step);
        continue;
      }

      serverName ??= fileNameFromContentDisposition(res.headers['content-disposition']);
      if (step.from === 0) running = undefined;
      offset = step.from;
      total = step.total;
      headerSums = step.addSums ? [...headerSums, ...step.sums] : step.sums;
      validator = step.validator;
      // Written while the body flows (not awaited before it: see above); awaited before the next attempt.
      const recordValidator = step.recordValidator ? writeValidator(part, validator) : undefined;

      const algorithm = strongestAlgorithm(expected());
      if (algorithm !== undefined && offset === 0) running = { algorithm, digest: newDigest(algorithm) };
      else if (running !== undefined && running.algorithm !== algorithm) running = undefined;
      let written: Written;
      try {
        const file = await openPartFile(part, offset === 0);
        written = {
          ended: 'end',
          offset: await writeBody(res.source(), {
            part,
            file,
            offset,
            hash: running?.digest,
            limit: total,
            what: WHAT,
            idleMs: http.timeouts.streamIdleMs,
            onProgress: (received) => options.onProgress?.({ received, total, resumedFrom }),
          }),
        };
      } catch (error) {
        res.abort();
        await recordValidator?.catch(() => undefined);
        written = { ended: 'error', error };
      }
      if (written.ended === 'end') {
        offset = written.offset;
        await recordValidator;
      }
      const after = afterWrite(written, { total, resumes, maxResumes });
      if (after.next === 'check') break;
      if (after.next === 'fail') {
        if (after.removePart) await removePartFile(part);
        throw after.error;
      }
      resumes = after.resumes;
      offset = after.from === 'disk' ? await partFileSize(part) : after.from;
      running = undefined;
    }

    const size = await partFileSize(part);
    const sums = expected();
    const check = checkFile({ size, total, offset, sums, running: running?.algorithm });
    if (check.next === 'fail') throw check.error;
    let kept: Keep;
    if (check.next === 'hash') {
      const d = check.from === 'running' && running ? running.digest : await digestFilePrefix(part, size, check.algorithm);
      const verdict = checksumVerdict(check.algorithm, d.digest('hex'), sums);
      if (verdict.next === 'fail') {
        await removePartFile(part);
        throw verdict.error;
      }
      kept = verdict;
    } else {
      kept = check;
    }
    const finalPath = await freeName(directory, finalFileName(options.fileName ?? serverName, modelName), options.overwrite ?? false);
    await fsp.rename(part, finalPath);
    await writeValidator(part, undefined);
    return {
      path: finalPath,
      bytes: size,
      sha256: kept.sha256,
      verified: kept.verified,
      resumedFrom,
      renewals,
      resumes,
    };
  } catch (e) {
    source.direct?.abort();
    const cancelled = e instanceof CancelledError || isCancellation(e);
    if (e instanceof ApiError) throw e;
    if (cancelled) throw new CancelledError();
    const code = diskCode(e);
    if (code !== undefined) throw await toDiskError(code, part, e);
    throw new RequestError(`Cannot write the download: ${e instanceof Error ? e.message : String(e)}`);
  }
}
