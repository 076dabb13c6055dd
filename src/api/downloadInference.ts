// §4.7 the download answer's inference: from one answer, *where* its values are, as the profile's `download` part
// (paths), which downloadAnswer.ts then reads this answer and later ones by. By the shape of values and the words of
// keys, never by whole key names (downloadValues.ts judges each value). Its rules:
//  1. The URL is the answer's absolute https URL whatever its key (http only when the API itself is plain http), at any
//     depth. Two different ones are told apart by the words of their keys: one saying a download (download, signed,
//     media…) first, then one saying only a URL (`url`, `href`), then one saying a URL among other words (`repo_url`),
//     then the rest; a tie is refused (ContractError naming both, their queries redacted): the extension does not guess.
//  2. The SHA-256 is a 64-hex value whatever its key (base64 when its key says sha256); two different ones are told
//     apart by a key saying a checksum, else none is taken (a wrong checksum would delete a good download). An MD5 is
//     a 16-byte digest, a CRC32C a 4-byte one (hex or base64), each only under a key that says it (`md5Hash`,
//     `crc32c`) or with its name before the value (`md5:<hex>`): GCS's object resource announces both. Two different
//     ones of an algorithm give none. The downloader verifies the strongest announced (checksum.ts).
//  3. The size is a byte count whose key says size/bytes/length; keys saying only that first (`size` over
//     `pointerSize`); two different counts at that rank give none (a wrong size fails the download).
//  4. The expiry is a time, or a duration in seconds, whose key says expire/ttl/until: the shallowest, then the first.
//  5. The file name is a base name with an extension under a key made of file/name words: the shallowest, then the first.
// No spread or `apply` over what the service sent (answerReading.ts).

import { contract, eachLeaf } from './answerShape';
import { keySays } from './hintWords';
import {
  CHECKSUM_WORDS,
  DOWNLOAD_WORDS,
  EXPIRY_WORDS,
  expiryValue,
  FILE_NAME_WORDS,
  FILE_WORDS,
  crc32cValue,
  fileNameValue,
  keyIsOnly,
  md5Value,
  sha256Value,
  SIZE_WORDS,
  sizeValue,
  URL_WORDS,
  urlValue,
} from './downloadValues';
import { formatPath, lastKey, parsePath, type Segment } from './profilePath';
import { describeUrl } from './redact';
import type { DownloadProfile } from './profileFormat';

/** A value found, where, and how well its key says it (higher first; then shallower, then earlier). */
interface Found<T> {
  value: T;
  path: Segment[];
  rank: number;
  depth: number;
}

/**
 * The best of a kind, and a different value as good as it (`rival`) when the ranks cannot tell them apart; with
 * `byDepth` the shallower of two equals wins, then the earlier, and there is no rival.
 */
function best<T>(found: Found<T>[], byDepth: boolean): { top?: Found<T>; rival?: Found<T> } {
  let top: Found<T> | undefined;
  let rival: Found<T> | undefined;
  for (const f of found) {
    if (!top || f.rank > top.rank || (byDepth && f.rank === top.rank && f.depth < top.depth)) {
      top = f;
      rival = undefined;
    } else if (!byDepth && f.rank === top.rank && f.value !== top.value) rival ??= f;
  }
  return { top, rival };
}

/** The rank the words of a URL's place give it (rule 1): what a kept inferred place is compared by (downloadAnswer.ts). */
export function urlPlaceRank(path: string): number {
  return urlRank(lastKey(parsePath(path) ?? []));
}

function urlRank(key: string | undefined): number {
  if (key === undefined) return 0;
  if (keySays(key, DOWNLOAD_WORDS)) return 3;
  if (keyIsOnly(key, URL_WORDS)) return 2;
  return keySays(key, URL_WORDS) ? 1 : 0;
}

/**
 * The paths of the answer's URL, expiry, size, checksums (SHA-256, MD5, CRC32C) and file name. Throws a ContractError
 * when it holds no one URL.
 */
export function inferDownloadProfile(
  body: unknown,
  allowHttp: boolean,
  now: number,
  /** The URL's path when a person chose it (Choose How to Read…): only that URL is taken, the rest inferred around it. */
  urlAt?: string,
): DownloadProfile {
  const urls: Found<string>[] = [];
  const shas: Found<string>[] = [];
  const md5s: Found<string>[] = [];
  const crcs: Found<string>[] = [];
  const sizes: Found<number>[] = [];
  const expiries: Found<number>[] = [];
  const names: Found<string>[] = [];
  eachLeaf(body, (v, path, key, depth) => {
    const at = () => path.slice();
    const url = urlValue(v, allowHttp);
    if (url !== undefined) {
      if (urlAt === undefined || formatPath(path) === urlAt) urls.push({ value: url, path: at(), rank: urlRank(key), depth });
      return;
    }
    const sha = sha256Value(v, key);
    if (sha !== undefined) {
      shas.push({ value: sha, path: at(), rank: key !== undefined && keySays(key, CHECKSUM_WORDS) ? 1 : 0, depth });
      return;
    }
    const md5 = md5Value(v, key);
    if (md5 !== undefined) {
      md5s.push({ value: md5, path: at(), rank: 0, depth });
      return;
    }
    const crc = crc32cValue(v, key);
    if (crc !== undefined) {
      crcs.push({ value: crc, path: at(), rank: 0, depth });
      return;
    }
    if (key === undefined) return;
    const size = keySays(key, SIZE_WORDS) ? sizeValue(v) : undefined;
    if (size !== undefined) sizes.push({ value: size, path: at(), rank: keyIsOnly(key, SIZE_WORDS) ? 1 : 0, depth });
    const expiry = keySays(key, EXPIRY_WORDS) ? expiryValue(v, now) : undefined;
    if (expiry !== undefined) expiries.push({ value: expiry, path: at(), rank: 0, depth });
    const name = keyIsOnly(key, FILE_NAME_WORDS) ? fileNameValue(v) : undefined;
    if (name !== undefined) names.push({ value: name, path: at(), rank: keySays(key, FILE_WORDS) ? 1 : 0, depth });
  });
  const { top: url, rival } = best(urls, false);
  if (url === undefined) throw contract('download: neither a redirect nor a download URL', body);
  if (rival !== undefined) {
    throw contract(`download: two URLs could each be the artifact's, ${describeUrl(url.value)} and ${describeUrl(rival.value)}`, body);
  }
  const profile: DownloadProfile = { url: formatPath(url.path), by: 'inferred' };
  // Two different values as good as each other give none: a wrong size or checksum would fail a good download.
  const place = ({ top, rival }: { top?: Found<unknown>; rival?: Found<unknown> }) =>
    top === undefined || rival !== undefined ? undefined : formatPath(top.path);
  const expires = place(best(expiries, true));
  const size = place(best(sizes, false));
  const sha256 = place(best(shas, false));
  const md5 = place(best(md5s, false));
  const crc32c = place(best(crcs, false));
  const fileName = place(best(names, true));
  if (expires !== undefined) profile.expires = expires;
  if (size !== undefined) profile.size = size;
  if (sha256 !== undefined) profile.sha256 = sha256;
  if (md5 !== undefined) profile.md5 = md5;
  if (crc32c !== undefined) profile.crc32c = crc32c;
  if (fileName !== undefined) profile.fileName = fileName;
  return profile;
}
