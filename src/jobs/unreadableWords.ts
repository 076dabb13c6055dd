// The service's own words in a status answer the extension could not read, as a person reads them: a row that says
// only "unreadable" leaves the person nothing to go on, while the answer's words ("VALIDATING_FILES" -> "Validating
// files") often tell them what the job is doing. Read from the redacted excerpt the error carries for the log (the
// body itself is not kept): the JSON string values that are words, not the keys, nor ids, URLs or numbers with units.
// A hint only: until the service profile (issue 27, parts 1-2) knows where the state is, nothing here decides anything.
import { humanise } from '../api/types';

/** Words shown at most: a hint, not the body. */
const MAX_WORDS = 3;
/** A string value that is a word or a few: letters first, then letters, digits, spaces, `_`, `-`, `.`; not too long. */
const WORDY = /^[A-Za-z][A-Za-z0-9 _.-]{1,39}$/;
/** A value shaped like an identifier rather than a word (a UUID, a hash, a run of digits and letters mixed). */
const ID_LIKE = /^(?:[0-9a-f]{8,}|[0-9a-f-]{20,}|.*\d.*\d.*\d.*)$/i;

/** Up to MAX_WORDS humanised string values of `excerpt` (JSON text, perhaps cut short), or undefined when none. */
export function unreadableWords(excerpt: string | undefined): string | undefined {
  if (!excerpt) return undefined;
  const found: string[] = [];
  // A string value after a colon (an object's value, never its key); the excerpt may be cut short, so no parse.
  for (const m of excerpt.matchAll(/:\s*"((?:[^"\\]|\\.){1,80})"/g)) {
    const value = m[1]!;
    if (!WORDY.test(value) || ID_LIKE.test(value)) continue;
    const word = humanise(value);
    if (!found.includes(word)) found.push(word);
    if (found.length === MAX_WORDS) break;
  }
  return found.length > 0 ? found.join(', ') : undefined;
}
