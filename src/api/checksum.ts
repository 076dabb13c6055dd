// The checksums a download can be verified against: the service's metadata (its answer's sha256, md5 and crc32c:
// downloadValues.ts) and the headers storage hosts send. Which headers, as real stores send them:
//   x-checksum-sha256        hex or base64 (Artifactory, Nexus, many CDNs in front of them)
//   x-amz-checksum-sha256    base64 (S3 with checksum mode; a multipart object's "<b64>-<parts>" is a checksum of
//                            part checksums, not of the bytes, and is ignored)
//   Repr-Digest              RFC 9530, `sha-256=:<b64>:` (also md5 is not defined there; only sha-256 is read)
//   Digest                   RFC 3230, `SHA-256=<b64>`, `MD5=<b64>`
//   x-goog-hash              GCS, `crc32c=<b64>, md5=<b64>` (composite objects carry only crc32c)
//   Content-MD5              base64 MD5 of this message's body: of the whole artifact only on a 200
// Only the strongest algorithm announced is computed (hashing costs about as much CPU as the transfer), and every
// value announced for it must match.

import { createHash } from 'node:crypto';
import { constants, promises as fsp } from 'node:fs';
import { Crc32c } from './crc32c';

export type ChecksumAlgorithm = 'sha256' | 'md5' | 'crc32c';

export interface ExpectedChecksum {
  algorithm: ChecksumAlgorithm;
  hex: string;
  /** Where it was announced ('metadata' or a header name), for messages. */
  source: string;
}

/** What writeBody feeds and the download reads back: node:crypto's Hash or a Crc32c. */
export interface RunningDigest {
  update(data: Buffer): unknown;
  digest(encoding: 'hex'): string;
}

export const BYTES: Record<ChecksumAlgorithm, number> = { sha256: 32, md5: 16, crc32c: 4 };
const STRENGTH: ChecksumAlgorithm[] = ['sha256', 'md5', 'crc32c'];

/** A digest written as hex or (standard or URL-safe) base64, as hex; undefined when it is not `bytes` long. */
export function digestHex(value: string, bytes: number): string | undefined {
  const v = value.trim();
  if (new RegExp(`^[0-9a-fA-F]{${bytes * 2}}$`).test(v)) return v.toLowerCase();
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(v)) return undefined;
  const raw = Buffer.from(v, 'base64');
  return raw.length === bytes ? raw.toString('hex') : undefined;
}

/** `name=value` pairs of a comma-separated header (RFC 3230 Digest, x-goog-hash, RFC 9530 dictionaries). */
function pairs(header: string): [string, string][] {
  const out: [string, string][] = [];
  for (const item of header.split(',')) {
    const eq = item.indexOf('=');
    if (eq > 0) out.push([item.slice(0, eq).trim().toLowerCase(), item.slice(eq + 1).trim()]);
  }
  return out;
}

/**
 * The whole-artifact checksums an answer's headers announce. `partial`: the answer is a 206, whose Content-MD5 covers
 * only the range sent.
 */
export function checksumsFromHeaders(headers: Record<string, string | undefined>, partial: boolean): ExpectedChecksum[] {
  const found: ExpectedChecksum[] = [];
  const add = (algorithm: ChecksumAlgorithm, value: string, source: string) => {
    const hex = digestHex(value, BYTES[algorithm]);
    if (hex) found.push({ algorithm, hex, source });
  };
  const h = (name: string) => headers[name];
  const plain = h('x-checksum-sha256');
  if (plain) add('sha256', plain, 'x-checksum-sha256');
  const amz = h('x-amz-checksum-sha256');
  if (amz) add('sha256', amz, 'x-amz-checksum-sha256');
  const repr = h('repr-digest');
  if (repr) {
    for (const [k, v] of pairs(repr)) if (k === 'sha-256' && /^:.*:$/.test(v)) add('sha256', v.slice(1, -1), 'Repr-Digest');
  }
  const digest = h('digest');
  if (digest) {
    for (const [k, v] of pairs(digest)) {
      if (k === 'sha-256') add('sha256', v, 'Digest');
      else if (k === 'md5') add('md5', v, 'Digest');
    }
  }
  const goog = h('x-goog-hash');
  if (goog) {
    for (const [k, v] of pairs(goog)) {
      if (k === 'md5') add('md5', v, 'x-goog-hash');
      else if (k === 'crc32c') add('crc32c', v, 'x-goog-hash');
    }
  }
  const md5 = h('content-md5');
  if (md5 && !partial) add('md5', md5, 'Content-MD5');
  return found;
}

/** The strongest algorithm among the announced checksums, or undefined when none was announced. */
export function strongestAlgorithm(expected: readonly ExpectedChecksum[]): ChecksumAlgorithm | undefined {
  return STRENGTH.find((a) => expected.some((e) => e.algorithm === a));
}

export function newDigest(algorithm: ChecksumAlgorithm): RunningDigest {
  return algorithm === 'crc32c' ? new Crc32c() : createHash(algorithm);
}

/** The digest of a file's first `length` bytes. */
export async function digestFilePrefix(file: string, length: number, algorithm: ChecksumAlgorithm): Promise<RunningDigest> {
  const digest = newDigest(algorithm);
  if (length === 0) return digest;
  const handle = await fsp.open(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  try {
    for await (const chunk of handle.createReadStream({ end: length - 1, highWaterMark: 1024 * 1024, autoClose: false })) {
      digest.update(chunk as Buffer);
    }
  } finally {
    await handle.close();
  }
  return digest;
}
