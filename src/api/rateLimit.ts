// How long the service asked the client to wait, whichever header it said it in. Read by the retries (http.ts) and,
// through the error's `retryAfterMs`, by the job poller, so both wait the same time; the service's word wins over
// the client's own backoff.
//  - `Retry-After` (seconds or an HTTP date) and `retry-after-ms`, on any status that carries them.
//  - On a 429 only (elsewhere they describe a quota, not a refusal): the IETF `RateLimit` field (`"p";r=0;t=30`, or the
//    older `limit=10, remaining=0, reset=30`), `RateLimit-Reset` (seconds), `RateLimit-Policy`'s window (`w=60`) when
//    the quota is spent and no reset is given, and `X-RateLimit-Reset` (epoch seconds or milliseconds, a delta in
//    seconds, or a duration such as `1m30s`).
//  - Only when no header says a wait, the body's (retryAfterInBody): a field (Google's RetryInfo `retryDelay: "3s"`,
//    `retry_after` in seconds, `retry_after_ms`), else the words of its text ("try again in 20s", "Please retry in 1.5
//    seconds"). Bounded as a header's is.

/** Longer waits are read as this long: callers cap far below it, and the number stays finite (no "Infinity s"). */
const MAX_WAIT_MS = 24 * 3600_000;
const NUMBER = /^\d+(?:\.\d+)?$/;

import { wordsOf } from './hintWords';
import { valuesOf } from './errorBody';

export type Headers = Record<string, unknown>;

/** The wait the headers ask for, in ms; undefined when they ask none. `status` 429 (or none given) reads the quota fields. */
export function parseRetryAfter(headers: Headers, now = Date.now(), status?: number): number | undefined {
  const text = (name: string) => {
    const v = headers[name];
    return typeof v === 'string' && v.trim() ? v.trim() : undefined;
  };
  const ms = text('retry-after-ms');
  if (ms && NUMBER.test(ms)) return bounded(Number(ms));
  const ra = text('retry-after');
  if (ra) {
    if (NUMBER.test(ra)) return bounded(Number(ra) * 1000);
    const date = Date.parse(ra);
    if (!Number.isNaN(date)) return bounded(date - now);
  }
  if (status !== undefined && status !== 429) return undefined;
  const ietf = ietfResetSeconds(text('ratelimit'), text('ratelimit-reset'), text('ratelimit-policy'));
  if (ietf !== undefined) return bounded(ietf * 1000);
  const reset = text('x-ratelimit-reset');
  if (reset === undefined) return undefined;
  if (NUMBER.test(reset)) {
    const n = Number(reset);
    // Epoch milliseconds, epoch seconds, or seconds from now.
    return bounded(n > 1e12 ? n - now : n > 1e9 ? n * 1000 - now : n * 1000);
  }
  const duration = durationMs(reset);
  return duration === undefined ? undefined : bounded(duration);
}

/** The wait an error body states, in ms, bounded as a header's; undefined when it states none. */
export function retryAfterInBody(body: unknown): number | undefined {
  let said: number | undefined;
  for (const [key, v] of valuesOf(body)) {
    const words = key === undefined ? [] : wordsOf(key);
    // `retryDelay`, `retry_after`, `retryAfterMs`, `retry_in`: seconds unless the key says ms or the value has units.
    if (words[0] === 'retry' && (words[1] === 'after' || words[1] === 'delay' || words[1] === 'in')) {
      const text = String(v).trim();
      const wait = NUMBER.test(text) || typeof v === 'number' ? Number(v) * (words.includes('ms') ? 1 : 1000) : durationMs(text);
      if (wait !== undefined && !Number.isNaN(wait)) return bounded(wait);
    } else if (said === undefined && typeof v === 'string') {
      said = waitInWords(v);
    }
  }
  return said === undefined ? undefined : bounded(said);
}

/** "try again in 20s", "retry in 1.5 seconds", "retry after 12 seconds", "try again in 1m30s", "in 2 minutes". */
function waitInWords(text: string): number | undefined {
  const m = WAIT_WORDS.exec(text);
  if (!m) return undefined;
  const [, amount, unit] = m as unknown as [string, string, string | undefined];
  if (unit === undefined) return /\d$/.test(amount) ? Number(amount) * 1000 : durationMs(amount);
  if (!NUMBER.test(amount)) return undefined;
  const u = unit.toLowerCase();
  return Number(amount) * (u.startsWith('milli') ? 1 : u.startsWith('h') ? 3600_000 : u.startsWith('m') ? 60_000 : 1000);
}
const WAIT_WORDS =
  /\b(?:try again|retry)\s+(?:in|after)\s+(?:about\s+)?((?:\d+(?:\.\d+)?(?:ms|h|m|s))+|\d+(?:\.\d+)?)(?![\d:-]|\.\d)(?:\s*(milliseconds?|seconds?|secs?|minutes?|mins?|hours?|hrs?)\b)?/i;

const bounded = (ms: number) => Math.min(Math.max(0, Math.ceil(ms)), MAX_WAIT_MS);

/** Seconds until the spent quota resets, from the IETF fields. */
function ietfResetSeconds(rateLimit?: string, reset?: string, policy?: string): number | undefined {
  const param = (s: string, names: string) => new RegExp(`(?:^|[;,\\s])(?:${names})\\s*=\\s*(\\d+(?:\\.\\d+)?)`).exec(s)?.[1];
  let spent = false;
  let wait: number | undefined;
  if (rateLimit) {
    // A list of policies (`"a";r=0;t=5, "b";r=9;t=60`) or one dictionary (`limit=10, remaining=0, reset=5`).
    for (const member of /[;"]/.test(rateLimit) ? rateLimit.split(',') : [rateLimit]) {
      const remaining = param(member, 'r|remaining');
      const t = param(member, 't|reset');
      if (remaining === '0') spent = true;
      if (t !== undefined && (remaining === undefined || remaining === '0')) wait = Math.max(wait ?? 0, Number(t));
    }
  }
  if (wait === undefined && reset && NUMBER.test(reset)) wait = Number(reset);
  const window = policy ? param(policy, 'w') : undefined;
  if (wait === undefined && spent && window !== undefined) wait = Number(window);
  return wait;
}

/** `1m30s`, `6m0s`, `20ms`, `1.5s`, `2h` (the form some gateways use). */
function durationMs(s: string): number | undefined {
  const m = /^(?:(\d+)h)?(?:(\d+)m(?!s))?(?:(\d+(?:\.\d+)?)s)?(?:(\d+)ms)?$/.exec(s);
  if (!m || s === '') return undefined;
  const [, h, min, sec, milli] = m;
  return Number(h ?? 0) * 3600_000 + Number(min ?? 0) * 60_000 + Number(sec ?? 0) * 1000 + Number(milli ?? 0);
}
