// An answer's body as the readers get it: JSON parsed by safeJson.ts only (depth 64), any other text as itself.

import { tryParseJson } from './safeJson';

type Json = unknown;

/**
 * Parses JSON text; a body that is not JSON is returned as the string it is. JSON nested too deep to walk safely is a
 * ContractError (safeJson.ts).
 */
export function parseBody(text: string): Json {
  const t = text.trim();
  if (t === '') return '';
  const parsed = tryParseJson(t);
  return parsed ? parsed.value : text;
}

/**
 * An error answer's body, for its message only: the status already says what went wrong, so a body too deep to read
 * says nothing (undefined) rather than turning a 503 into another kind of failure.
 */
export function parseErrorBody(text: string): Json {
  try {
    return parseBody(text);
  } catch {
    return undefined;
  }
}
