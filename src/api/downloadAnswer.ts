// §4.7 the download answer when it is not a redirect, as a kind of answer (answerReading.ts reads it): where the
// artifact is, until when, its size and checksum, read where the service's profile says they are (its `download`
// part), and when none is known or the answer no longer fits it (or, the kept one inferred, the answer has its URL at
// a better place), where downloadInference.ts finds them now; the caller keeps that profile (and logs `change`).
// Each value is judged by its kind (downloadValues.ts) whichever way it was found, so a kept path never reads a value
// of another kind.

import { betterPlace, type AnswerKind } from './answerReading';
import { inferDownloadProfile, urlPlaceRank } from './downloadInference';
import { crc32cValue, expiryValue, fileNameValue, md5Value, sha256Value, sizeValue, urlValue } from './downloadValues';
import { parsePath, valueAt } from './profilePath';
import { describeDownloadProfile } from './profileWords';
import type { DownloadProfile } from './profileFormat';
import type { DownloadTarget } from './types';

const MISFIT = Symbol('misfit');

/** The target `profile` reads from `body`, or MISFIT when a value is not at its path or not of its kind. */
function readBy(body: unknown, profile: DownloadProfile, allowHttp: boolean, now: number): DownloadTarget | typeof MISFIT {
  const get = <T>(p: string | undefined, judge: (v: unknown, key: string | undefined) => T | undefined): T | undefined | typeof MISFIT => {
    if (p === undefined) return undefined;
    const segments = parsePath(p);
    if (segments === undefined) return MISFIT;
    let last: string | undefined;
    for (const s of segments) if (typeof s === 'string') last = s;
    return judge(valueAt(body, segments), last) ?? MISFIT;
  };
  const url = get(profile.url, (v) => urlValue(v, allowHttp));
  const expiresAt = get(profile.expires, (v) => expiryValue(v, now));
  const size = get(profile.size, sizeValue);
  const sha256 = get(profile.sha256, sha256Value);
  const md5 = get(profile.md5, md5Value);
  const crc32c = get(profile.crc32c, crc32cValue);
  const fileName = get(profile.fileName, fileNameValue);
  if (url === MISFIT || expiresAt === MISFIT || size === MISFIT || sha256 === MISFIT || fileName === MISFIT) return MISFIT;
  if (md5 === MISFIT || crc32c === MISFIT) return MISFIT;
  const target: DownloadTarget = { url, expiresAt, size, sha256, fileName };
  // Only when announced: most answers carry neither, and a target is compared whole in tests and logs.
  if (md5 !== undefined) target.md5 = md5;
  if (crc32c !== undefined) target.crc32c = crc32c;
  return target;
}

/** What a download answer is read with: whether a plain http URL may be taken, and now (ms since the epoch). */
export interface DownloadContext {
  /** The answer came from a plain http URL (the emulator on this machine): a download URL may be plain http too. */
  allowHttp: boolean;
  /** A duration (`expires_in`) is counted from it. */
  now: number;
}

/** The context of an answer that came from `apiUrl`. */
export function downloadContext(apiUrl: string | undefined, now = Date.now()): DownloadContext {
  return { allowHttp: apiUrl !== undefined && /^http:/i.test(apiUrl), now };
}

export const DOWNLOAD_ANSWER: AnswerKind<DownloadProfile, DownloadTarget, DownloadContext> = {
  part: 'download',
  read: (body, profile, { allowHttp, now }) => {
    const target = readBy(body, profile, allowHttp, now);
    return target === MISFIT ? undefined : target;
  },
  infer: (body, { allowHttp, now }) => ({ profile: inferDownloadProfile(body, allowHttp, now) }),
  describe: describeDownloadProfile,
  // `repo_url` kept from a first answer gives way to `download_url` beside it.
  revise: (_body, known, _target, _context, inferAgain) =>
    betterPlace(DOWNLOAD_ANSWER, 'URL', (p) => urlPlaceRank(p.url), known, inferAgain),
};
