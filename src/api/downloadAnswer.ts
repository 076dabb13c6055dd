// §4.7 the download answer when it is not a redirect: where the artifact is, until when, its size and checksum.

import { answerReader } from './errors';
import { contract, isObj, type Obj } from './answerShape';
import type { DownloadTarget } from './types';

type Json = unknown;

function firstString(o: Obj, fields: readonly string[]): string | undefined {
  for (const f of fields) {
    const v = o[f];
    if (typeof v === 'string' && v.trim() !== '') return v;
    if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  }
  return undefined;
}

function readExpiry(o: Obj, now: number): number | undefined {
  const at = o.expires_at ?? o.expiresAt ?? o.expiry ?? o.expires ?? o.expiration;
  if (typeof at === 'number' && Number.isFinite(at)) return at < 1e12 ? at * 1000 : at;
  if (typeof at === 'string') {
    if (/^\d+$/.test(at.trim())) {
      const n = Number(at);
      return n < 1e12 ? n * 1000 : n;
    }
    const t = Date.parse(at);
    if (!Number.isNaN(t)) return t;
  }
  const inSec = o.expires_in ?? o.expiresIn ?? o.ttl;
  if (typeof inSec === 'number' && Number.isFinite(inSec)) return now + inSec * 1000;
  return undefined;
}

export const decodeDownloadMetadata = answerReader(function decodeDownloadMetadata(body: Json, now: number = Date.now()): DownloadTarget {
  let o: Obj | undefined = isObj(body) ? body : undefined;
  if (o && !firstString(o, ['url', 'signed_url', 'download_url', 'presigned_url', 'href']) && isObj(o.data)) {
    o = o.data;
  }
  const url = o && firstString(o, ['url', 'signed_url', 'signedUrl', 'download_url', 'downloadUrl', 'presigned_url', 'href']);
  if (!o || !url) throw contract('download: neither a redirect nor a download URL', body);
  let sha256 = firstString(o, ['sha256', 'checksum', 'sha256_checksum', 'digest'])?.trim().toLowerCase();
  if (sha256?.startsWith('sha256:') || sha256?.startsWith('sha256=')) sha256 = sha256.slice(7);
  if (sha256 && !/^[0-9a-f]{64}$/.test(sha256)) sha256 = undefined; // another algorithm: not verified
  const sizeRaw = o.size ?? o.content_length ?? o.bytes ?? o.size_bytes;
  const size = typeof sizeRaw === 'number' && Number.isSafeInteger(sizeRaw) && sizeRaw >= 0 ? sizeRaw : undefined;
  return {
    url,
    expiresAt: readExpiry(o, now),
    size,
    sha256,
    fileName: firstString(o, ['filename', 'file_name', 'fileName', 'name']),
  };
});
