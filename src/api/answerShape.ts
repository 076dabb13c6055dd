// What every reader of an answer knows of its shape, whatever the kind of answer: the words of a key, a value that is
// an identifier or text a person wrote, words that say a model's kind. Shared by the readers of answerReading.ts and the model list's
// inference (modelListInference.ts); no reader here, only the tests they are built from and the one walk of an
// answer's values by path (eachLeaf).

import { ContractError } from './errors';
import { excerpt } from './redact';
import type { Segment } from './profilePath';
import type { ModelKind } from './types';
import { BASE_WORDS, CUSTOM_WORDS, MODELS_KEY_WORDS, TYPE_WORDS, wordsOf } from './hintWords';

export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The error of an answer no reading fits, with a redacted excerpt of it for the log. */
export function contract(what: string, body: unknown): ContractError {
  return new ContractError(`The service sent an answer the extension cannot read (${what}).`, {
    detail: excerpt(body),
  });
}

/** How deep the readers look for a list, an id, a state or progress: any real wrapping is a few levels. */
export const MAX_DEPTH = 10;

/**
 * Each value below `body` that is no list or record (to MAX_DEPTH), in order, with its path (an item of a list by its
 * index; the walk's own array: copy it to keep it), the key it is under (an item of a list is said by the list's key)
 * and its depth. The walk stops once `leaf` says false, or past `maxVisits` values looked at (lists and records too).
 */
export function eachLeaf(
  body: unknown,
  leaf: (v: unknown, path: readonly Segment[], key: string | undefined, depth: number) => boolean | void,
  maxVisits = Infinity,
): void {
  const path: Segment[] = [];
  let visits = 0;
  let stopped = false;
  const visit = (v: unknown, key: string | undefined, depth: number): void => {
    if (depth > MAX_DEPTH) return;
    if (++visits > maxVisits) stopped = true;
    else if (Array.isArray(v)) {
      for (let i = 0; i < v.length && !stopped; i++) {
        path.push(i);
        visit(v[i], key, depth + 1);
        path.pop();
      }
    } else if (isObj(v)) {
      for (const k of Object.keys(v)) {
        if (stopped) return;
        path.push(k);
        visit(v[k], k, depth + 1);
        path.pop();
      }
    } else stopped = leaf(v, path, key, depth) === false;
  };
  visit(body, undefined, 0);
}

// eslint-disable-next-line no-control-regex -- control characters are what this refuses
const ONE_TOKEN = /^[^\s\u0000-\u001f\u007f-\u009f\u2028\u2029]{1,256}$/;

/** One token that can name a thing the service keeps: not text, not a URL, not a date. */
export function isIdentifier(v: unknown): v is string {
  return typeof v === 'string' && ONE_TOKEN.test(v) && /[\p{L}\p{N}]/u.test(v) && !v.includes('://') && !/^\d{4}-\d\d-\d\d/.test(v);
}

/**
 * An identifier or an opaque blob (an id, a signature, encrypted content, a URL): a value nobody reads as text, so never
 * answer or reasoning text (issue 27). One token of at least 12 characters that mixes letters and digits, or of at
 * least 48 in base64's alphabet, or a URL. A token a model writes is far shorter; a word without digits is not opaque.
 */
export function isOpaque(v: string): boolean {
  if (v.length < 12 || /\s/.test(v)) return false;
  if (v.includes('://')) return true;
  if (v.length >= 48 && /^[A-Za-z0-9+/=_.:-]+$/.test(v)) return true;
  return /^[A-Za-z0-9_.:-]+$/.test(v) && /\d/.test(v) && /[A-Za-z]/.test(v);
}

/**
 * Citations (streamInference.ts, rule 2): a list whose items are all records, each holding a link (an absolute URL) among its own values.
 * Retrieval `sources` (`{title, snippet, url}`), search results and annotations quote documents: their text is not the
 * model's, whether or not the event also carries the answer. Each item's own fields are looked at once.
 */
export function isCitationList(list: readonly unknown[]): boolean {
  if (list.length === 0) return false;
  for (const x of list) {
    if (!isObj(x)) return false;
    let link = false;
    for (const k of Object.keys(x)) {
      const y = x[k];
      if (typeof y === 'string' && isLink(y)) {
        link = true;
        break;
      }
    }
    if (!link) return false;
  }
  return true;
}

/** An absolute URL: a scheme, `://`, no whitespace. */
function isLink(v: string): boolean {
  return v.length <= 4096 && /^[a-z][a-z0-9+.-]*:\/\/\S+$/i.test(v);
}

/** Text a person wrote: it has a space between two words. */
export const isHumanText = (v: unknown): v is string => typeof v === 'string' && /\S\s+\S/.test(v);

// ------------------------------------------------------------------------------------------- model kinds
// What the answer says wins: a `ft:` model listed with `type: base` stays base.
export const CUSTOM_NAME_PREFIX = /^(?:ft|custom):/i;

/**
 * A key that names models: a word of it says model, or every word says a kind or a type (`tunedModels`, `yours`,
 * `base`). A list beside one under such a key, under a key that does not (`datasets`, `files`, `jobs`), is another
 * thing's list, however like a list of names it looks (issue 36).
 */
export function keyNamesModels(key: string): boolean {
  const said = wordsOf(key);
  return said.some((w) => MODELS_KEY_WORDS.has(w)) || (said.length > 0 && said.every((w) => TYPE_WORDS.has(w)));
}

/** The kind words say: custom when any word says custom, base when any says base (custom first: "fine_tuned_base"). */
export function kindOfWords(words: readonly string[]): ModelKind {
  let kind: ModelKind = 'unknown';
  for (const w of words) {
    if (CUSTOM_WORDS.has(w)) return 'custom';
    if (BASE_WORDS.has(w)) kind = 'base';
  }
  return kind;
}

/** A value made only of type words ("base", "fine-tuned", "model"): it says a kind, it names nothing. */
export function isTypeValue(v: string): boolean {
  if (v.length > 40 || /\d/.test(v)) return false;
  for (const w of wordsOf(v)) if (!TYPE_WORDS.has(w)) return false;
  return true;
}

export function isModelName(v: unknown): v is string {
  if (typeof v !== 'string') return false;
  // Most names are plain ASCII with a letter: one test stands for the token and letter tests (the profile's reader
  // runs this once per listed model, test/bench figure 7); the rest take the full tests.
  const token = PLAIN_NAME.test(v) || (isIdentifier(v) && /\p{L}/u.test(v));
  return token && !v.includes('://') && !DATE_PREFIX.test(v) && !isTypeValue(v);
}
const PLAIN_NAME = /^(?=[^a-zA-Z]*[a-zA-Z])[\w.:/@+-]{1,256}$/;
const DATE_PREFIX = /^\d{4}-\d\d-\d\d/;

/** Alternatives (OpenAI's `choices`): records of one shape, each numbered. Only the first is read. */
export function isAlternatives(list: unknown[]): boolean {
  if (list.length < 2 || !list.every(isObj)) return false;
  const keys = Object.keys(list[0] as Obj)
    .sort()
    .join('\n');
  return list.every(
    (o) => Object.keys(o).sort().join('\n') === keys && Object.values(o).some((x) => typeof x === 'number' && Number.isInteger(x)),
  );
}

export function compareRanks(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}
