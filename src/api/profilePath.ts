// A place in an answer, as a service profile keeps it and a person reads it: `results.items[].model.id`. The same text
// is stored, shown, written by hand in the setting and parsed back, so it has one syntax, here:
//  - keys joined by `.`; `[]` every item of a list; `[2]` one item of it;
//  - a key that is not a plain word (it holds `.`, `[`, `]`, `"`, a space, or is empty) is written as a JSON string in
//    brackets, `["model.name"]`, so any key the service uses has a path;
//  - '' is the answer itself (a bare list of names is `[]`).

/** The place of an id given only in the Location header (a path cannot be this: a key with a space is quoted). */
export const LOCATION_HEADER = 'Location header';

/** A key, one item (its index), or every item (EACH). */
export type Segment = string | number;
export const EACH = -1;

const PLAIN_KEY = /^[A-Za-z_$][\w$-]*$/;

export function formatPath(path: readonly Segment[]): string {
  let out = '';
  for (const s of path) {
    if (typeof s === 'number') out += s === EACH ? '[]' : `[${s}]`;
    else if (PLAIN_KEY.test(s)) out += out === '' ? s : `.${s}`;
    else out += `[${JSON.stringify(s)}]`;
  }
  return out;
}

/** The segments of a path written by formatPath (or by hand in the same syntax); undefined when it is not one. */
export function parsePath(text: string): Segment[] | undefined {
  const out: Segment[] = [];
  let i = 0;
  while (i < text.length) {
    if (text[i] === '.' && out.length > 0) i++;
    if (text[i] === '[') {
      const close = text[i + 1] === '"' ? closingQuote(text, i + 1) : text.indexOf(']', i);
      if (close < 0) return undefined;
      const inner = text.slice(i + 1, text[i + 1] === '"' ? close + 1 : close);
      const end = text[i + 1] === '"' ? close + 1 : close;
      if (text[end] !== ']') return undefined;
      if (inner === '') out.push(EACH);
      else if (/^\d{1,9}$/.test(inner)) out.push(Number(inner));
      else if (inner.startsWith('"')) {
        try {
          out.push(JSON.parse(inner) as string);
        } catch {
          return undefined;
        }
      } else return undefined;
      i = end + 1;
      continue;
    }
    const m = /^[A-Za-z_$][\w$-]*/.exec(text.slice(i));
    if (!m) return undefined;
    out.push(m[0]);
    i += m[0].length;
    if (i < text.length && text[i] !== '.' && text[i] !== '[') return undefined;
  }
  return out;
}

function closingQuote(text: string, open: number): number {
  for (let i = open + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return -1;
}

/** The value at a path of keys and indexes (EACH is not followed here: see valuesAt). */
export function valueAt(root: unknown, path: readonly Segment[]): unknown {
  let v = root;
  for (const s of path) {
    if (typeof s === 'number') {
      if (!Array.isArray(v) || s === EACH) return undefined;
      v = v[s];
    } else {
      if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
      // Own fields only: `constructor` or `__proto__` in a hand-written path reaches nothing.
      if (!Object.prototype.hasOwnProperty.call(v, s)) return undefined;
      v = (v as Record<string, unknown>)[s];
    }
  }
  return v;
}

/** The last key of a path (an item of a list is said by the list's key), undefined when it has none. */
export function lastKey(path: readonly Segment[]): string | undefined {
  for (let i = path.length - 1; i >= 0; i--) {
    const s = path[i];
    if (typeof s === 'string') return s;
  }
  return undefined;
}

/** `path` followed by one key, written as formatPath writes it (built as a walk goes down, without re-formatting). */
export function appendKey(path: string, key: string): string {
  if (PLAIN_KEY.test(key)) return path === '' ? key : `${path}.${key}`;
  return `${path}[${JSON.stringify(key)}]`;
}
