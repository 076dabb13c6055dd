// Choose How to Read… for a download answer that gave no URL the client can use (issue 27, item 2): the places of
// the answer holding a URL the client would download from (absolute https; plain http only when the service itself
// is plain http on this machine, as downloadValues.ts's urlValue judges every download URL), and the download part a
// person's choice makes: the URL at the chosen place, the expiry, size, checksums and file name inferred around it.
// A URL is shown by describeUrl (its query, a signature, redacted), and a place that holds anything else is never
// offered: a relative or plain http URL, or one carrying credentials, cannot be chosen.

import type { AnswerField } from './answerFields';
import { MAX_DEPTH, isObj } from './answerShape';
import { inferDownloadProfile } from './downloadInference';
import { urlValue } from './downloadValues';
import { formatPath, parsePath, valueAt, type Segment } from './profilePath';
import { describeUrl } from './redact';
import type { DownloadProfile } from './profileFormat';

/** URLs looked at in all: an answer holds a few; a hostile one holding millions costs no more than this. */
const MAX_URLS = 40;
const MAX_VISITS = 5_000;

/** The URL a download may come from, or undefined (not absolute, not https, or carrying credentials). */
function usableUrl(v: unknown, allowHttp: boolean): string | undefined {
  const url = urlValue(v, allowHttp);
  if (url === undefined) return undefined;
  const u = new URL(url);
  return u.username || u.password ? undefined : url;
}

/** Each place of `body` holding a usable URL (each item of a list its own place), in the order they appear. */
export function downloadUrlFields(body: unknown, allowHttp: boolean): AnswerField[] {
  const out: AnswerField[] = [];
  let visits = 0;
  const path: Segment[] = [];
  const visit = (v: unknown, depth: number): void => {
    if (depth > MAX_DEPTH || out.length >= MAX_URLS || ++visits > MAX_VISITS) return;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length && out.length < MAX_URLS; i++) {
        path.push(i);
        visit(v[i], depth + 1);
        path.pop();
      }
    } else if (isObj(v)) {
      for (const k of Object.keys(v)) {
        path.push(k);
        visit(v[k], depth + 1);
        path.pop();
      }
    } else if (usableUrl(v, allowHttp) !== undefined) {
      out.push({ path: formatPath(path), segments: path.slice(), samples: [describeUrl(v as string)], seen: 1, types: ['text'] });
    }
  };
  visit(body, 0);
  return out;
}

/**
 * The download part of a person's choice: the URL at `urlPath`, the other values inferred around it. Throws when
 * that place holds no usable URL (a choice is checked as any answer is).
 */
export function chosenDownloadProfile(body: unknown, urlPath: string, allowHttp: boolean, now = Date.now()): DownloadProfile {
  const segments = parsePath(urlPath);
  if (segments === undefined || usableUrl(valueAt(body, segments), allowHttp) === undefined) {
    throw new Error(`${urlPath} is not a URL the extension can download from`);
  }
  return { ...inferDownloadProfile(body, allowHttp, now, formatPath(segments)), by: 'chosen' };
}
