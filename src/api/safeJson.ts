// The one JSON.parse for text the service sent. V8 parses any depth, but every reader that walks the value afterwards
// (decoders, errorText, JSON.stringify in excerpts, String() of arrays) recurses and dies with a RangeError around
// 10,000 levels; a body nested deeper than any real answer is refused here, before anything walks it, with a
// ContractError the caller can show. No real answer of the service nests more than a handful of levels.
import { ContractError } from './errors';
import { excerpt } from './redact';

export const MAX_JSON_DEPTH = 64;

/**
 * Whether JSON text opens more than `max` arrays/objects at once. One pass over the characters, skipping strings,
 * without building anything: cheap next to JSON.parse itself. Text that is not JSON gives a meaningless answer
 * (JSON.parse refuses it anyway).
 */
export function nestingExceeds(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0, n = text.length; i < n; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) {
        i++;
      } // a backslash escapes the next character, a quote included
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

/** Parses JSON text from the service. Too deep: ContractError; not JSON: ContractError. Never a RangeError. */
export function parseJson(text: string, what = 'answer'): unknown {
  if (mayNest(text) && nestingExceeds(text)) throw tooDeep(text, what);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ContractError(`The service sent an ${what} that is not valid JSON.`, { detail: excerpt(text, 200) });
  }
}

/** Like parseJson, but text that is not JSON is returned as undefined instead of refused; too deep still throws. */
export function tryParseJson(text: string, what = 'answer'): { value: unknown } | undefined {
  if (mayNest(text) && nestingExceeds(text)) throw tooDeep(text, what);
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

/**
 * False for text opening with a quote: JSON.parse makes one string of it or refuses it, never a nested value. Spares
 * the scan on the string of every streamed event (answerText.ts), which cost as much as its JSON.parse.
 */
function mayNest(text: string): boolean {
  return text.charCodeAt(0) !== 0x22;
}

function tooDeep(text: string, what: string): ContractError {
  return new ContractError(`The service sent an ${what} nested deeper than ${MAX_JSON_DEPTH} levels.`, {
    detail: excerpt(text.slice(0, 200), 200),
  });
}
