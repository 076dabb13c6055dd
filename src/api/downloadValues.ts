// §4.7 what each value of a download answer is, judged by its shape (and, where the shape alone cannot say, by the
// words of its key): shared by the inference (downloadInference.ts) and the reading by a kept profile
// (downloadAnswer.ts), so that both take and refuse the same values. A checksum is read by its value's shape (a
// digest of the algorithm's size, in hex or base64) and, for MD5 and CRC32C, its key's words or the value's prefix.

import { BYTES, digestHex } from './checksum';

import { CHECKSUM_WORDS, DOWNLOAD_WORDS, EXPIRY_WORDS, FILE_NAME_WORDS, FILE_WORDS, SIZE_WORDS, URL_WORDS, wordsOf } from './hintWords';

export { CHECKSUM_WORDS, SIZE_WORDS, EXPIRY_WORDS, URL_WORDS, DOWNLOAD_WORDS, FILE_NAME_WORDS, FILE_WORDS };

/** Ten years in seconds: an expiry number below this is a duration (`expires_in: 900`), above it a time. */
const LONGEST_DURATION_S = 10 * 365 * 24 * 3600;

/**
 * The URL a value is, when it is an absolute https URL (or http, when `allowHttp`: the API itself is plain http, as
 * the emulator on this machine is). download.ts's checkSignedUrl still judges its host and credentials.
 */
export function urlValue(v: unknown, allowHttp: boolean): string | undefined {
  if (typeof v !== 'string' || !/^https?:\/\//i.test(v.trim())) return undefined;
  try {
    const u = new URL(v.trim());
    return u.protocol === 'https:' || (u.protocol === 'http:' && allowHttp) ? v.trim() : undefined;
  } catch {
    return undefined;
  }
}

/** A SHA-256 in hex (lower case): a 64-hex value whatever its key (`sha256:` prefix allowed); base64 when its key says sha256. */
export function sha256Value(v: unknown, key: string | undefined): string | undefined {
  if (typeof v !== 'string') return undefined;
  const t = v.trim().replace(/^sha-?256[:=]/i, '');
  if (/^[0-9a-f]{64}$/i.test(t)) return t.toLowerCase();
  if (key !== undefined && saysSha256(key) && /^[A-Za-z0-9+/]{43}=$/.test(t)) return Buffer.from(t, 'base64').toString('hex');
  return undefined;
}

/**
 * An MD5 (16 bytes) in hex, when its key says md5 (`md5Hash`, `content_md5`, `md5sum`) or the value does (`md5:<hex>`),
 * written as hex or base64 (GCS's `md5Hash`). A 16-byte value under any other key is not taken: an ETag or an id may
 * look the same, and a wrong checksum would delete a good download.
 */
export function md5Value(v: unknown, key: string | undefined): string | undefined {
  if (typeof v !== 'string') return undefined;
  const prefixed = /^md5[:=]/i.test(v.trim());
  if (!prefixed && (key === undefined || !wordsOf(key).some((w) => w.startsWith('md5')))) return undefined;
  return digestHex(v.trim().replace(/^md5[:=]/i, ''), BYTES.md5);
}

/**
 * A CRC32C (4 bytes) in hex, when its key says crc32c (`crc32c`, `crc32C`, `crc_32c`) or the value does
 * (`crc32c:<hex>`), written as hex or base64 (GCS's `crc32c`). A plain CRC32 is another checksum: never taken.
 */
export function crc32cValue(v: unknown, key: string | undefined): string | undefined {
  if (typeof v !== 'string') return undefined;
  const prefixed = /^crc32c[:=]/i.test(v.trim());
  if (!prefixed && (key === undefined || !wordsOf(key).join('').includes('crc32c'))) return undefined;
  return digestHex(v.trim().replace(/^crc32c[:=]/i, ''), BYTES.crc32c);
}

function saysSha256(key: string): boolean {
  const w = wordsOf(key);
  return w.includes('sha256') || (w.includes('sha') && w.includes('256'));
}

/** A byte count: a non-negative safe integer, or a string of digits (Google's JSON writes int64 as strings). */
export function sizeValue(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d{1,16}$/.test(v.trim()) ? Number(v) : undefined;
  return n !== undefined && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/** When the URL expires (ms since the epoch): a date, epoch seconds or milliseconds, or a duration in seconds from `now`. */
export function expiryValue(v: unknown, now: number): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d{1,16}$/.test(v.trim()) ? Number(v) : undefined;
  if (n !== undefined) {
    if (!Number.isFinite(n) || n < 0) return undefined;
    if (n < LONGEST_DURATION_S) return now + n * 1000;
    return n < 1e12 ? n * 1000 : n;
  }
  if (typeof v !== 'string' || !/^\d{4}-\d\d-\d\d/.test(v.trim())) return undefined;
  const t = Date.parse(v);
  return Number.isNaN(t) ? undefined : t;
}

/** A file's base name with an extension (`my-model.gguf`): no path, no URL. download.ts reduces it further. */
export function fileNameValue(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  const t = v.trim();
  return t.length <= 255 && /^[^/\\]+\.[A-Za-z0-9]{1,10}$/.test(t) && !t.includes('://') ? t : undefined;
}

/** Does every word of `key` belong to `set` (and it has one)? */
export function keyIsOnly(key: string, set: ReadonlySet<string>): boolean {
  const w = wordsOf(key);
  return w.length > 0 && w.every((x) => set.has(x));
}
