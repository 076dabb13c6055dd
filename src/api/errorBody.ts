// §7 error bodies, and the words of an error wherever the service puts one: FastAPI's `detail` list of `{loc, msg}`,
// an S3-like XML `<Message>`, else the human text of the body (a string, an object's human text, or a list of them,
// joined); an HTML page says nothing.
// No profile part is kept for error bodies (issue 27), unlike the other answers: one service answers errors in several
// shapes at once (its framework's 422 `detail` list, its own 404 text, a proxy's HTML 502, a storage's XML), so a kept
// path would misfit about as often as it fits; an error body is read once per failure, not once per poll or listed
// model, so reading it by its shape costs nothing a person could notice; and what it yields is only text shown beside
// the status, which decides the error's kind and its fixing action on its own (http.ts).

import { isHumanText, isObj, MAX_DEPTH } from './answerShape';
import { wordsOf } from './hintWords';
import { capText } from './types';

type Json = unknown;

/** Error text from whatever shape the service used: a string, an object's own text, or a list of them, joined. */
export function errorText(err: unknown): string {
  const said = textOf(err, 0);
  if (said !== undefined) return said;
  try {
    return JSON.stringify(err);
  } catch {
    return String(err);
  }
}

/** The text a value says: a string; of an object, its human text (else its longest string); a list's, joined. */
function textOf(v: unknown, depth: number): string | undefined {
  if (typeof v === 'string') return v.trim() ? v : undefined;
  if (depth > MAX_DEPTH) return undefined;
  if (Array.isArray(v)) {
    const parts = v.map((x) => textOf(x, depth + 1)).filter((x): x is string => x !== undefined);
    return parts.length ? parts.join('; ') : undefined;
  }
  if (!isObj(v)) return undefined;
  const strings = Object.values(v).filter((x): x is string => typeof x === 'string' && x.trim() !== '');
  const human = strings.find(isHumanText);
  if (human) return human;
  const inner = Object.values(v)
    .filter((x) => typeof x === 'object' && x !== null)
    .map((x) => textOf(x, depth + 1))
    .find((x) => x !== undefined);
  return inner ?? strings.sort((a, b) => b.length - a.length)[0];
}

/** The message a server put in an error body, if any; `undefined` when it said nothing readable. */
export function decodeErrorMessage(body: Json): string | undefined {
  if (typeof body === 'string') {
    const t = body.trim();
    if (!t) return undefined;
    // An HTML error page says nothing useful; an S3-like XML error has a <Message>.
    const xml = /<Message>([^<]{1,300})<\/Message>/i.exec(t);
    if (xml) return xml[1];
    if (t.startsWith('<')) return undefined;
    return capText(t, 300);
  }
  // FastAPI validation errors: {detail: [{loc: [...], msg: "..."}]}, each said with the field it is about.
  if (isObj(body) && Array.isArray(body.detail)) {
    return body.detail
      .map((e) => {
        if (!isObj(e) || !Array.isArray(e.loc) || typeof e.msg !== 'string') return errorText(e);
        const loc = e.loc.filter((x) => x !== 'body').join('.');
        return loc ? `${loc}: ${e.msg}` : e.msg;
      })
      .join('; ');
  }
  const said = isObj(body) || Array.isArray(body) ? textOf(body, 0) : undefined;
  return said === undefined ? undefined : capText(said, 300);
}

/**
 * The strings and numbers of an error body (a string body included) with the key each is under, depth first: at most
 * MAX_VALUES, within MAX_DEPTH (the body is capped before it is parsed; a deep or wide one is still read in bounded time).
 */
export function* valuesOf(body: unknown): Generator<[key: string | undefined, value: string | number]> {
  let left = MAX_VALUES;
  function* walk(v: unknown, key: string | undefined, depth: number): Generator<[string | undefined, string | number]> {
    if (left <= 0 || depth > MAX_DEPTH) return;
    if (typeof v === 'string' || typeof v === 'number') {
      left--;
      yield [key, v];
    } else if (Array.isArray(v)) {
      for (const x of v) yield* walk(x, key, depth + 1);
    } else if (isObj(v)) {
      for (const k of Object.keys(v)) yield* walk(v[k], k, depth + 1);
    }
  }
  yield* walk(body, undefined, 0);
}
const MAX_VALUES = 200;

/**
 * Whether an error body says the API key itself is invalid: a reason code (Google's `API_KEY_INVALID`, OpenAI's
 * `invalid_api_key`) or the words "API key not valid", "invalid API key", "API key expired". Services answer an
 * unknown key with a 400 as often as a 401, and the person's fix is the key either way. A key of the request's data
 * (`Field 'key' is required`, `unexpected key "x"`) is not the API key: the words must say "API key".
 */
export function saysKeyInvalid(body: unknown): boolean {
  for (const [, v] of valuesOf(body)) {
    if (typeof v !== 'string') continue;
    if (/\s/.test(v) ? KEY_INVALID_WORDS.test(v) : v.length <= 64 && isKeyInvalidCode(wordsOf(v))) return true;
  }
  return false;
}
const KEY_INVALID_WORDS =
  /\b(?:invalid|incorrect|expired|unknown)\s+api[\s_-]?key\b|\bapi[\s_-]?key\s+(?:(?:is|was|has|provided)\s+)?(?:not\s+valid|invalid|expired|incorrect|not\s+recognized)\b/i;
const KEY_INVALID_STATES = new Set(['invalid', 'incorrect', 'expired', 'unknown']);

/** A code's words name the API key and say it is invalid: API_KEY_INVALID, invalid_api_key, ApiKeyExpired. */
function isKeyInvalidCode(words: readonly string[]): boolean {
  const key = words.includes('apikey') || words.some((w, i) => w === 'api' && words[i + 1] === 'key');
  return key && words.some((w) => KEY_INVALID_STATES.has(w));
}
