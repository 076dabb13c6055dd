// Artifact download (spec 4.7): the API answers a redirect or signed-URL metadata (or, plausibly, the bytes
// themselves). The signed URL is a credential of its own and lives on another origin, so it is fetched with a
// plain node:http(s) request that carries no default headers (storageRequest.ts): the storage origin never sees
// X-API-Key.
//
// The bytes go to `<model>.gguf.part` in the target folder; an interrupted transfer resumes by Range; the
// length (and the SHA-256 when announced) is checked; only then is the part file renamed, atomically, to a
// name that does not overwrite an existing file unless asked. An expired or refused signed URL is renewed.

import { createHash, type Hash } from 'node:crypto';
import { createReadStream, promises as fsp } from 'node:fs';
import { Readable } from 'node:stream';
import * as path from 'node:path';
import {
  ApiError,
  CancelledError,
  ContractError,
  IntegrityError,
  RequestError,
  ServerError,
  isCancellation,
} from './errors';
import { decodeDownloadMetadata, parseBody } from './decode';
import { HttpClient, readCapped, sleep, type StreamResponse } from './http';
import { storageGet, type StorageResponse } from './storageRequest';
import { writeBody, type BodySource } from './writeBody';
import { isLoopbackHost } from './urlPolicy';
import { artifactFileName, fileNameFromContentDisposition, insideFolder, safeFileName } from './fileName';
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
  /** Keep the .part file when cancelled so a later call resumes (default true). */
  keepPartialOnCancel?: boolean;
  /** How many times a refused or expired signed URL is asked for again (default 2). */
  maxRenewals?: number;
  /** How many times a broken transfer is resumed automatically (default 5). */
  maxResumes?: number;
}

export interface DownloadOutcome {
  path: string;
  bytes: number;
  /**
   * The file's SHA-256, computed (and checked) only when the service announced one: hashing costs about as much CPU
   * as the transfer itself, so a download that can only be checked by its length is not hashed.
   */
  sha256?: string;
  verified: 'sha256' | 'length';
  /** Bytes found in the part file at the start (not fetched again). */
  resumedFrom: number;
  renewals: number;
  resumes: number;
}

/** The part file a download of this model writes to: deterministic, so a later session can resume it. */
export function partFilePath(directory: string, modelName: string, fileName?: string): string {
  const base = fileName ? safeFileName(fileName, artifactFileName(modelName)) : artifactFileName(modelName);
  return insideFolder(directory, `${base}.part`);
}

const MAX_HOPS = 5;
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
  /** The body, for the artifact's bytes. */
  source(): BodySource;
  /** Not reading the body: close it. */
  abort(): void;
}

function fromStorage(res: StorageResponse): Answer {
  return { status: res.status, headers: res.headers, chunks: res.body, source: () => res, abort: () => res.body.destroy() };
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
    abort: res.abort,
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

async function resolveSource(http: HttpClient, modelName: string, signal: AbortSignal | undefined): Promise<Source> {
  const url = http.url('/cr/finetune_model/download', { model_name: modelName });
  const res = await http.stream(
    'Requesting the download',
    { method: 'GET', url },
    { signal, idempotent: true, allowRedirect: true, accept: 'application/json, application/octet-stream' },
  );
  if (res.status >= 300 && res.status < 400) {
    res.abort();
    const location = res.headers['location'];
    if (!location) throw new ContractError(`The service answered a redirect (${res.status}) without a Location.`);
    return { target: { url: checkSignedUrl(location, url) } };
  }
  const type = (res.headers['content-type'] ?? '').toLowerCase();
  if (type.includes('json') || type.startsWith('text/')) {
    const text = await readCapped(res.body, MAX_METADATA_BYTES);
    const target = decodeDownloadMetadata(parseBody(text));
    return { target: { ...target, url: checkSignedUrl(target.url as string, url) } };
  }
  // The API answered with the bytes themselves: same origin, so the keyed client may fetch them again.
  return {
    target: { fileName: fileNameFromContentDisposition(res.headers['content-disposition']) },
    direct: res,
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

async function fileSize(p: string): Promise<number> {
  try {
    return (await fsp.stat(p)).size;
  } catch {
    return 0;
  }
}

async function hashFilePrefix(p: string, length: number): Promise<Hash> {
  const hash = createHash('sha256');
  if (length === 0) return hash;
  for await (const chunk of createReadStream(p, { end: length - 1, highWaterMark: 1024 * 1024 })) hash.update(chunk as Buffer);
  return hash;
}

async function freeName(dir: string, name: string, overwrite: boolean): Promise<string> {
  const ext = path.extname(name);
  const stem = name.slice(0, name.length - ext.length);
  for (let i = 0; i < 1000; i++) {
    const candidate = insideFolder(dir, i === 0 ? name : `${stem} (${i})${ext}`);
    if (overwrite) return candidate;
    try {
      await fsp.access(candidate);
    } catch {
      return candidate;
    }
  }
  throw new RequestError(`Too many files named like ${name} in ${dir}.`);
}

export async function downloadArtifact(http: HttpClient, modelName: string, options: DownloadOptions): Promise<DownloadOutcome> {
  const { directory, signal } = options;
  const maxRenewals = options.maxRenewals ?? 2;
  const maxResumes = options.maxResumes ?? 5;
  await fsp.mkdir(directory, { recursive: true });
  const part = partFilePath(directory, modelName, options.fileName);
  const resumedFrom = await fileSize(part);

  let source = await resolveSource(http, modelName, signal);
  let renewals = 0;
  let resumes = 0;
  let offset = resumedFrom;
  let hash: Hash | undefined;
  let total: number | undefined = source.target.size;
  let serverName = source.target.fileName;
  let hops = 0;
  let url = source.target.url;

  const renew = async (why: string) => {
    if (renewals >= maxRenewals) throw new RequestError(`The download link was refused again after renewal (${why}).`);
    renewals++;
    source.direct?.abort();
    source = await resolveSource(http, modelName, signal);
    url = source.target.url;
    hops = 0;
  };

  try {
    for (;;) {
      if (signal?.aborted) throw new CancelledError();
      // A URL known to expire within seconds is renewed before use rather than failing midway.
      if (source.target.expiresAt !== undefined && source.target.expiresAt - Date.now() < 2_000 && url) {
        await renew('expired');
        continue;
      }
      // The part file's hash is rebuilt before asking for the rest, not between the answer and its body: a body left
      // unread for the seconds a large prefix takes can be reset or cancelled before anything listens to it.
      if (source.target.sha256 !== undefined && offset > 0) hash ??= await hashFilePrefix(part, offset);
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
            headers: { Accept: 'application/octet-stream', ...(offset > 0 ? { Range: `bytes=${offset}-` } : {}) },
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
            { method: 'GET', url: http.url('/cr/finetune_model/download', { model_name: modelName }), headers: offset > 0 ? { Range: `bytes=${offset}-` } : {} },
            { signal, idempotent: true, accept: 'application/octet-stream' },
          ),
        );
      }

      const status = res.status;
      if (status >= 300 && status < 400 && url) {
        res.abort();
        if (++hops > MAX_HOPS) throw new ContractError('The download redirected too many times.');
        const location = res.headers['location'];
        if (!location) throw new ContractError(`The storage answered a redirect (${status}) without a Location.`);
        url = checkSignedUrl(location, url);
        continue;
      }
      if (status === 401 || status === 403 || status === 410) {
        res.abort();
        await renew(`storage answered ${status}`);
        continue;
      }
      if (status === 416) {
        res.abort();
        const range = /\/(\d+)\s*$/.exec(res.headers['content-range'] ?? '');
        const announced = range ? Number(range[1]) : total;
        if (announced !== undefined && offset === announced) {
          total = announced;
          break; // the part file already holds everything
        }
        await fsp.rm(part, { force: true });
        offset = 0;
        hash = undefined;
        continue;
      }
      if (status >= 500 || status === 429 || status === 408) {
        res.abort();
        if (++resumes > maxResumes) throw new ServerError(`The download failed (${status}) ${maxResumes} times.`, { status });
        await sleep(Math.min(500 * 2 ** resumes, 8_000), signal);
        continue;
      }
      if (status < 200 || status >= 300) {
        // The error's own words, unless its body stalls: then the status alone.
        const stall = setTimeout(() => res.abort(), http.timeouts.streamIdleMs);
        const text = await readCapped(res.chunks, 64 * 1024)
          .catch(() => '')
          .finally(() => clearTimeout(stall));
        throw http.statusError(WHAT, status, res.headers, parseBody(text));
      }

      serverName ??= fileNameFromContentDisposition(res.headers['content-disposition']);
      if (status === 206) {
        const range = parseContentRange(res.headers['content-range']);
        if (!range || range.start !== offset) {
          // A range we did not ask for: start again from the beginning rather than splice wrong bytes.
          res.abort();
          await fsp.rm(part, { force: true });
          offset = 0;
          hash = undefined;
          continue;
        }
        if (range.total !== undefined) total = range.total;
      } else {
        // 200: the whole file (the server ignored or was not asked for a Range).
        if (offset > 0) {
          offset = 0;
          hash = undefined;
        }
        const len = Number(res.headers['content-length']);
        if (Number.isSafeInteger(len) && len >= 0) total = len;
      }

      // From byte 0 here (a 200, or nothing on disk yet); a resumed prefix was hashed before the request.
      if (source.target.sha256 !== undefined) hash ??= createHash('sha256');
      try {
        offset = await writeBody(res.source(), {
          part,
          offset,
          hash,
          what: WHAT,
          idleMs: http.timeouts.streamIdleMs,
          onProgress: (received) => options.onProgress?.({ received, total, resumedFrom }),
        });
      } catch (e) {
        if (isCancellation(e) || (e instanceof ApiError && e.kind === 'cancelled')) throw e;
        // A broken transfer: resume from what reached the disk.
        offset = await fileSize(part);
        hash = undefined;
        if (++resumes > maxResumes) throw e;
        continue;
      }
      if (total === undefined || offset >= total) break;
      // The body ended early without an error (a truncated answer): resume.
      hash = undefined;
      if (++resumes > maxResumes) {
        throw new IntegrityError(`The download kept ending early (${offset} of ${total} bytes).`);
      }
    }

    const size = await fileSize(part);
    if (total !== undefined && size !== total) {
      throw new IntegrityError(`The downloaded file has ${size} bytes; the service announced ${total}.`);
    }
    let digest: string | undefined;
    if (source.target.sha256) {
      digest = (hash ?? (await hashFilePrefix(part, size))).digest('hex');
      if (digest !== source.target.sha256) {
        await fsp.rm(part, { force: true });
        throw new IntegrityError('The downloaded file does not match its announced SHA-256 checksum; it was removed.');
      }
    }
    const finalName = options.fileName
      ? safeFileName(options.fileName, artifactFileName(modelName))
      : safeFileName(serverName, artifactFileName(modelName));
    const finalPath = await freeName(directory, finalName, options.overwrite ?? false);
    await fsp.rename(part, finalPath);
    return {
      path: finalPath,
      bytes: size,
      sha256: digest,
      verified: source.target.sha256 ? 'sha256' : 'length',
      resumedFrom,
      renewals,
      resumes,
    };
  } catch (e) {
    source.direct?.abort();
    const cancelled = e instanceof CancelledError || isCancellation(e);
    if (cancelled && options.keepPartialOnCancel === false) await fsp.rm(part, { force: true });
    if (e instanceof ApiError) throw e;
    if (cancelled) throw new CancelledError();
    throw new RequestError(`Cannot write the download: ${e instanceof Error ? e.message : String(e)}`);
  }
}
