// §7 error bodies, and the words of an error wherever the service puts one: FastAPI's `detail` list of `{loc, msg}`,
// an S3-like XML `<Message>`, else the human text of the body (a string, an object's human text, or a list of them,
// joined); an HTML page says nothing.
// No profile part is kept for error bodies (issue 27), unlike the other answers: one service answers errors in several
// shapes at once (its framework's 422 `detail` list, its own 404 text, a proxy's HTML 502, a storage's XML), so a kept
// path would misfit about as often as it fits; an error body is read once per failure, not once per poll or listed
// model, so reading it by its shape costs nothing a person could notice; and what it yields is only text shown beside
// the status, which decides the error's kind and its fixing action on its own (http.ts).

import { isHumanText, isObj, MAX_DEPTH } from './answerShape';
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
