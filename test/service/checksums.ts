// The checksum headers real stores send with an object, computed here on their own (the client's CRC32C is not
// reused, so a mistake in one cannot hide the same mistake in the other). Which header the storage origin sends is
// the `storageChecksum` option; 'none' (the default) sends none.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { StorageChecksum } from './types';

const CRC32C_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) {
      c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
    }
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC32C of `data` continuing from `crc` (start with 0). */
export function crc32c(data: Uint8Array, crc = 0): number {
  let c = ~crc >>> 0;
  for (const byte of data) {
    c = (CRC32C_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8)) >>> 0;
  }
  return ~c >>> 0;
}

interface Digests {
  sha256: Buffer;
  md5: Buffer;
  crc32c: Buffer;
}

const cache = new Map<string, { key: string; digests: Digests }>();

/** The artifact's digests, cached while its size and modification time stay the same. */
export async function digestsOf(path: string): Promise<Digests> {
  const s = await stat(path);
  const key = `${s.size}:${s.mtimeMs}`;
  const hit = cache.get(path);
  if (hit?.key === key) {
    return hit.digests;
  }
  const sha = createHash('sha256');
  const md5 = createHash('md5');
  let crc = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 })) {
    sha.update(chunk as Buffer);
    md5.update(chunk as Buffer);
    crc = crc32c(chunk as Buffer, crc);
  }
  const crcBytes = Buffer.alloc(4);
  crcBytes.writeUInt32BE(crc);
  const digests = { sha256: sha.digest(), md5: md5.digest(), crc32c: crcBytes };
  cache.set(path, { key, digests });
  return digests;
}

/** The headers announcing the artifact's checksum the way `kind` says; Content-MD5 only on a whole-body answer. */
export async function checksumHeaders(kind: StorageChecksum, path: string, partial: boolean): Promise<Record<string, string>> {
  if (kind === 'none') {
    return {};
  }
  const d = await digestsOf(path);
  switch (kind) {
    case 'x-checksum-sha256':
      return { 'x-checksum-sha256': d.sha256.toString('hex') };
    case 'x-checksum-sha256-base64':
      return { 'x-checksum-sha256': d.sha256.toString('base64') };
    case 'x-amz-checksum-sha256':
      return { 'x-amz-checksum-sha256': d.sha256.toString('base64'), 'x-amz-checksum-type': 'FULL_OBJECT' };
    case 'repr-digest':
      return { 'Repr-Digest': `sha-256=:${d.sha256.toString('base64')}:` };
    case 'digest':
      return { Digest: `SHA-256=${d.sha256.toString('base64')}` };
    case 'digest-md5':
      return { Digest: `MD5=${d.md5.toString('base64')}` };
    case 'x-goog-hash':
      return { 'x-goog-hash': `crc32c=${d.crc32c.toString('base64')},md5=${d.md5.toString('base64')}` };
    case 'x-goog-hash-crc32c':
      return { 'x-goog-hash': `crc32c=${d.crc32c.toString('base64')}` };
    case 'content-md5':
      return partial ? {} : { 'Content-MD5': d.md5.toString('base64') };
  }
}
