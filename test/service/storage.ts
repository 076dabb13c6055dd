// The signed-URL origin: a second HTTP server (another port, so "cross-origin" for clients) that serves artifacts
// like an S3 presigned GET: no API key, HMAC signature + expiry in the query, XML errors, Range support.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { checksumHeaders } from './checksums';
import type { CustomModel, State } from './types';

/**
 * Percent-encodes a model name for one path segment. encodeURIComponent leaves `!'()*` alone; encode them too. A name
 * made only of dots would still be a dot-segment (URL parsers treat `%2E%2E` like `..` and drop it), so it gets a
 * `~` suffix. The storage origin looks models up by this encoded form, so the mapping needs no inverse.
 */
export function encodeSegment(value: string): string {
  const encoded = encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return /^\.+$/.test(value) ? `${encoded.replace(/\./g, '%2E')}~` : encoded;
}

/** Short stable id of the owning key, so equal model names of two keys do not collide (the key itself never appears). */
export function ownerId(state: State, key: string): string {
  return createHmac('sha256', state.secret).update(`owner\n${key}`).digest('hex').slice(0, 16);
}

function signature(state: State, path: string, owner: string, expires: string): string {
  return createHmac('sha256', state.secret).update(`${path}\n${owner}\n${expires}`).digest('hex');
}

export interface SignedUrl {
  url: string;
  expiresAt: number;
}

/** `<storageUrl>/artifacts/<encoded model>/<file>.gguf?owner=..&expires=<epoch ms>&sig=<hex hmac>`. */
export function signArtifactUrl(state: State, model: CustomModel): SignedUrl {
  const expiresAt = Date.now() + state.options.signedUrlTtlMs;
  const path = `/artifacts/${encodeSegment(model.name)}/${encodeSegment(model.artifact.filename)}`;
  const owner = ownerId(state, model.key);
  const expires = String(expiresAt);
  const sig = signature(state, path, owner, expires);
  return { url: `${state.storageUrl}${path}?owner=${owner}&expires=${expires}&sig=${sig}`, expiresAt };
}

function xmlError(res: ServerResponse, status: number, code: string, message: string, method: string): void {
  if (res.headersSent || res.destroyed) {
    return;
  }
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;
  res.writeHead(status, { 'Content-Type': 'application/xml', 'Content-Length': String(Buffer.byteLength(body)) });
  res.end(method === 'HEAD' ? undefined : body);
}

/** The model whose encoded name is exactly this path segment (as signed), among the owner's models. */
function findModel(state: State, owner: string, segment: string): CustomModel | undefined {
  for (const [key, models] of state.customModels) {
    if (ownerId(state, key) !== owner) {
      continue;
    }
    for (const model of models.values()) {
      if (encodeSegment(model.name) === segment) {
        return model;
      }
    }
  }
  return undefined;
}

type ParsedRange = { kind: 'none' } | { kind: 'range'; start: number; end: number } | { kind: 'unsatisfiable' };

/**
 * RFC 9110 13.1.5: a Range is honoured only when If-Range (if sent) names the current version: an ETag compared
 * strongly, or the exact Last-Modified date. Otherwise the whole representation is sent (200).
 */
export function rangeStillValid(ifRange: string | undefined, etag: string, lastModified: string): boolean {
  if (ifRange === undefined) {
    return true;
  }
  const v = ifRange.trim();
  if (v.startsWith('"') || v.startsWith('W/')) {
    return v === etag;
  }
  return v === lastModified;
}

/** Single byte ranges only (`bytes=N-`, `bytes=N-M`, `bytes=-N`); anything else is ignored (full 200), as RFC 9110 allows. */
export function parseRange(header: string | undefined, size: number): ParsedRange {
  if (!header) {
    return { kind: 'none' };
  }
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) {
    return { kind: 'none' };
  }
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) {
      return { kind: 'unsatisfiable' };
    }
    return { kind: 'range', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || end < start) {
    return { kind: 'unsatisfiable' };
  }
  return { kind: 'range', start, end };
}

export async function handleStorage(state: State, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const method = req.method ?? 'GET';
  if (method !== 'GET' && method !== 'HEAD') {
    res.setHeader('Allow', 'GET, HEAD');
    xmlError(res, 405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.', method);
    return;
  }
  const raw = req.url ?? '/';
  const q = raw.indexOf('?');
  // Verify against the path exactly as sent (still percent-encoded): that is what was signed.
  const path = q < 0 ? raw : raw.slice(0, q);
  const params = new URLSearchParams(q < 0 ? '' : raw.slice(q + 1));
  const m = /^\/artifacts\/([^/]+)\/([^/]+)$/.exec(path);
  if (!m) {
    xmlError(res, 404, 'NoSuchKey', 'The specified key does not exist.', method);
    return;
  }
  const owner = params.get('owner') ?? '';
  const expires = params.get('expires') ?? '';
  const sig = params.get('sig') ?? '';
  if (!expires || !sig) {
    xmlError(res, 403, 'AccessDenied', 'Query-string authentication requires the sig and expires parameters', method);
    return;
  }
  const expected = Buffer.from(signature(state, path, owner, expires), 'hex');
  const given = Buffer.from(sig, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    xmlError(res, 403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided.', method);
    return;
  }
  if (!/^\d+$/.test(expires) || Number(expires) < Date.now()) {
    xmlError(res, 403, 'AccessDenied', 'Request has expired', method);
    return;
  }
  const model = findModel(state, owner, m[1]!);
  let size: number;
  try {
    if (!model) {
      throw new Error('gone');
    }
    size = (await stat(model.artifact.path)).size;
  } catch {
    xmlError(res, 404, 'NoSuchKey', 'The specified key does not exist.', method);
    return;
  }
  const etag = `"${model.artifact.sha256.slice(0, 32)}"`;
  const lastModified = new Date(model.createdAt).toUTCString();
  const headers: Record<string, string> = {
    'Content-Type': 'application/octet-stream',
    'Content-Disposition': `attachment; filename="${model.artifact.filename}"`,
    ETag: etag,
    'Last-Modified': lastModified,
    'Accept-Ranges': 'bytes',
    'Cache-Control': 'private, max-age=0',
  };
  const ifRange = typeof req.headers['if-range'] === 'string' ? req.headers['if-range'] : undefined;
  const rangeHeader = typeof req.headers.range === 'string' && rangeStillValid(ifRange, etag, lastModified) ? req.headers.range : undefined;
  const range = parseRange(rangeHeader, size);
  Object.assign(headers, await checksumHeaders(state.options.storageChecksum, model.artifact.path, range.kind === 'range'));
  if (range.kind === 'unsatisfiable') {
    res.writeHead(416, { 'Content-Range': `bytes */${size}`, 'Content-Type': 'application/xml' });
    res.end(
      method === 'HEAD'
        ? undefined
        : '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>InvalidRange</Code><Message>The requested range is not satisfiable</Message></Error>',
    );
    return;
  }
  const start = range.kind === 'range' ? range.start : 0;
  const end = range.kind === 'range' ? range.end : size - 1;
  const length = size === 0 ? 0 : end - start + 1;
  if (range.kind === 'range') {
    headers['Content-Range'] = `bytes ${start}-${end}/${size}`;
  }
  res.writeHead(range.kind === 'range' ? 206 : 200, { ...headers, 'Content-Length': String(length) });
  if (method === 'HEAD' || length === 0) {
    res.end();
    return;
  }
  try {
    // Streamed from disk: a multi-GB artifact costs one read buffer, and a client that stops reading is backpressure.
    await pipeline(createReadStream(model.artifact.path, { start, end, highWaterMark: 256 * 1024 }), res);
  } catch {
    // Client went away or a fault cut the socket: nothing left to answer.
  }
}
