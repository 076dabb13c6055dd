// Reading the text of an inference answer (spec §4.2, shapes "not shown"): the non-streamed body and each event of a
// stream. Kept apart from decode.ts, which reads every other answer.

import { ContractError } from './errors';
import { errorText } from './decode';
import { excerpt } from './redact';
import { tryParseJson } from './safeJson';

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function contract(what: string, body: unknown): ContractError {
  return new ContractError(`The service sent an answer the extension cannot read (${what}).`, {
    detail: excerpt(body),
  });
}

const TEXT_FIELDS = [
  'response',
  'text',
  'output',
  'completion',
  'content',
  'answer',
  'generated_text',
  'result',
  'prediction',
  'token',
  'delta',
] as const;

/** Finds the text in one JSON value: a string itself, a known field, or OpenAI/Anthropic-like nesting. */
export function findText(v: unknown, depth = 0): string | undefined {
  if (typeof v === 'string') return v;
  if (depth > 4) return undefined;
  if (Array.isArray(v)) {
    // e.g. Anthropic-like content blocks: concatenate their texts.
    const parts = v.map((x) => findText(x, depth + 1)).filter((x): x is string => x !== undefined);
    return parts.length ? parts.join('') : undefined;
  }
  if (!isObj(v)) return undefined;
  if (Array.isArray(v.choices) && v.choices.length > 0) {
    const c: unknown = v.choices[0];
    if (isObj(c)) {
      const t = findText(c.delta, depth + 1) ?? findText(c.message, depth + 1) ?? findText(c.text, depth + 1);
      if (t !== undefined) return t;
    }
  }
  for (const f of TEXT_FIELDS) {
    if (f in v) {
      const t = findText(v[f], depth + 1);
      if (t !== undefined) return t;
    }
  }
  if (isObj(v.data)) return findText(v.data, depth + 1);
  return undefined;
}

export function decodeInferenceResult(body: unknown): string {
  const text = findText(body);
  if (text === undefined) throw contract('inference: no text in the answer', body);
  return text;
}

export type StreamPayload = { kind: 'text'; text: string } | { kind: 'done' } | { kind: 'error'; message: string } | { kind: 'ignore' };

const TEXT_FIELD_SET: ReadonlySet<string> = new Set(TEXT_FIELDS);

/**
 * True when `{"<name>":"<string>"}` is read as that string (see `singleTextField`): the byte-level lane of
 * stream.ts (streamLane.ts) takes such events without building strings for their framing.
 */
export function isTextField(name: string): boolean {
  return TEXT_FIELD_SET.has(name);
}
// A quote, a backslash or a control character (invalid unescaped in JSON): the string needs JSON.parse.
// eslint-disable-next-line no-control-regex
const NEEDS_JSON_PARSE = /["\\\u0000-\u001f]/;

/**
 * The string of a JSON object text that is exactly `{"<one of TEXT_FIELDS>":"<string>"}` (no spaces, one member),
 * else undefined. For such an object the general reader returns this very string (findText finds the one field), so
 * this only skips building an object: the string is sliced as is when it has no escapes, else parsed on its own.
 */
function singleTextField(t: string): string | undefined {
  const n = t.length;
  if (t.charCodeAt(1) !== 0x22 || t.charCodeAt(n - 1) !== 0x7d || t.charCodeAt(n - 2) !== 0x22) return undefined;
  const k = t.indexOf('"', 2);
  // `"`, `:`, `"` after the name, and the value's closing quote after its opening one.
  if (k < 0 || n < k + 5 || t.charCodeAt(k + 1) !== 0x3a || t.charCodeAt(k + 2) !== 0x22) return undefined;
  if (!TEXT_FIELD_SET.has(t.slice(2, k))) return undefined;
  const value = t.slice(k + 3, n - 2);
  if (value.indexOf('\\') === -1 && !NEEDS_JSON_PARSE.test(value)) return value;
  // Escapes (or a quote that may end the string early, as in `{"token":"a","token":"b"}`): valid only if the
  // whole quoted part is one JSON string.
  const parsed = tryParseJson(t.slice(k + 2, n - 1));
  return typeof parsed?.value === 'string' ? parsed.value : undefined;
}

/**
 * Reads one event of a stream (an SSE `data` or an NDJSON line). `[DONE]`, `{done: true}` and a
 * `finish_reason` without text end the stream; an `error` field is an error event; a JSON value with no
 * text (usage records, pings) is ignored; non-JSON data is the text itself.
 */
export function readStreamPayload(data: string, jsonOnly = false): StreamPayload {
  const t = data.trim();
  if (t === '[DONE]') return { kind: 'done' };
  if (t.charCodeAt(0) === 0x7b) {
    // Fast path, same result as the general one below: most events are exactly `{"token":"..."}`.
    const text = singleTextField(t);
    if (text !== undefined) return text === '' ? { kind: 'ignore' } : { kind: 'text', text };
  }
  let v: unknown;
  if (t.startsWith('{') || t.startsWith('[') || t.startsWith('"')) {
    const parsed = tryParseJson(t, 'event');
    if (!parsed) {
      if (jsonOnly) throw new ContractError('The stream sent a line that is not JSON.', { detail: excerpt(data) });
      return { kind: 'text', text: data };
    }
    v = parsed.value;
  } else {
    if (jsonOnly) {
      if (t === '') return { kind: 'ignore' };
      throw new ContractError('The stream sent a line that is not JSON.', { detail: excerpt(data) });
    }
    return { kind: 'text', text: data };
  }
  if (isObj(v)) {
    const err = v.error ?? (v.type === 'error' ? v : undefined);
    if (err !== undefined && err !== null && err !== false) return { kind: 'error', message: errorText(err) };
    const text = findText(v);
    if (text !== undefined && text !== '') return { kind: 'text', text };
    if (v.done === true || v.finished === true || v.type === 'done' || v.event === 'done') return { kind: 'done' };
    return { kind: 'ignore' };
  }
  const text = findText(v);
  return text !== undefined ? { kind: 'text', text } : { kind: 'ignore' };
}
