// Reading the text of an inference answer (spec §4.2, shapes "not shown"): the non-streamed body and each event of a
// stream, told apart into reasoning and answer. The other kinds of answer are indexed in answerReading.ts.
//
// One reader for both (issue 36): a non-streamed answer, and a single JSON document answering a streamed request, is
// one event, read as a stream's events are, by the run's profile (paths and a reasoning flag) kept per service or
// inferred from the events (streamReading.ts; the rules in streamInference.ts, by the words below: keyRole). What
// those rules cannot decide (two texts tied, no text) is refused, naming what was found, and handed to the person
// (client.ts, Choose How to Read…), whose choice is kept: never guessed again at each call.
//  - Reasoning is also an SSE event whose type says so (`event: reasoning`, stream.ts), and text that opens with a
//    `<think>`, `<thinking>`, `<reasoning>` or `<thought>` tag up to its closing tag or the end (InlineReasoning).
//  - Stream events: `[DONE]`, `{done: true}` and `{type: "done"}` end the stream; an `error` field is an error;
//    an event with no text (usage records, pings) is ignored; data that is not JSON is answer text.

import { answerReader, ContractError, ServerError } from './errors';
import { errorText } from './errorBody';
import { parseBody } from './answerBody';
import { excerpt, redact } from './redact';
import type { StreamEvent } from './streamLines';
import { DONE_WORDS, isReasoningName, keyRole, KIND_WORDS, nameSays } from './hintWords';
import { tryParseJson } from './safeJson';
import { StreamReading } from './streamReading';
import { contract, isObj } from './answerShape';

/** One piece of a run's output: reasoning the model wrote before (or beside) its answer, or the answer itself. */
export interface InferencePiece {
  kind: 'reasoning' | 'answer';
  text: string;
}

/**
 * A non-streamed answer as pieces: its reasoning (a field, a flag, or inline tags), then its answer. Read as one event
 * of a stream is, by a profile (`reading`: the one kept for the service, else one inferred from this answer, which the
 * caller may keep: streamReading.ts), leaving out what echoes the request (the prompt it sent, the record holding it).
 * An answer the profile's rules cannot read (two texts tied, no text) is a ContractError, for the person to choose
 * how to read it (client.ts hands it to the profile book): never guessed again at each call.
 */
export const decodeInferenceResult = answerReader(function decodeInferenceResult(
  body: unknown,
  inlineTags: boolean = true,
  reading?: StreamReading,
): InferencePiece[] {
  const run = reading ?? new StreamReading(undefined, [], 'answer');
  // A JSON string is the text itself, as a stream event's is.
  const read: InferencePiece[] = typeof body === 'string' ? [{ kind: 'answer', text: body }] : run.read(body, false, 0).concat(run.end());
  if (read.length === 0) throw contract('inference: no text in the answer', body);
  if (!inlineTags) return mergePieces(read);
  const out: InferencePiece[] = [];
  const inline = new InlineReasoning();
  for (const p of read) {
    if (p.kind === 'reasoning') out.push(p);
    else for (const q of inline.push(p.text)) out.push(q);
  }
  for (const q of inline.end()) out.push(q);
  return mergePieces(out);
});

/** Joins neighbouring pieces of one kind and drops empty ones. */
export function mergePieces(pieces: readonly InferencePiece[]): InferencePiece[] {
  const out: InferencePiece[] = [];
  for (const p of pieces) {
    if (p.text === '') continue;
    const last = out[out.length - 1];
    if (last?.kind === p.kind) last.text += p.text;
    else out.push({ ...p });
  }
  return out;
}

// --------------------------------------------------------------------------------------------- inline tags

const OPEN_TAGS = ['think', 'thinking', 'reasoning', 'thought'].map((t) => `<${t}>`);
const LONGEST_OPEN = Math.max(...OPEN_TAGS.map((t) => t.length));
/**
 * Whitespace held back at most, before the open tag or after the reasoning written so far. Past it the whitespace is
 * given out (before a tag, the text is then an answer without one), so a body of nothing but whitespace streams
 * through in bounded memory. Far above what a model writes there: a few newlines, a few thousand at most.
 */
export const MAX_HELD_WHITESPACE = 64 * 1024;

/**
 * Splits answer text that opens with `<think>` (or `<thinking>`, `<reasoning>`, `<thought>`; any case; after
 * whitespace) into reasoning up to the matching close tag, then the answer. Tags may be cut anywhere across pieces;
 * a block never closed is reasoning to the end. Only the start is looked at: once the text has begun otherwise,
 * everything passes through untouched (a tag later in an answer is the answer's own text).
 * Each piece is looked at once: held whitespace is only appended to (never scanned again), and a partial tag is
 * shorter than the tag, so a piece costs what its own length costs however many came before.
 */
export class InlineReasoning {
  private phase: 'start' | 'inside' | 'afterClose' | 'through' = 'start';
  /** Whitespace kept back: before the open tag, or after the last reasoning text (the close tag may follow). */
  private space = '';
  /** The start of a tag cut by the piece's end: the open tag (phase start) or the close tag (inside). */
  private partial = '';
  private close = '';
  /** Nothing of the block written yet: its leading whitespace is dropped. */
  private leading = true;

  push(text: string): InferencePiece[] {
    if (this.phase === 'through') return text === '' ? [] : [{ kind: 'answer', text }];
    let rest = text;
    if (this.phase === 'start') {
      if (this.partial === '') {
        const lead = leadingSpace(rest);
        this.space += rest.slice(0, lead);
        rest = rest.slice(lead);
        if (rest === '') return this.space.length > MAX_HELD_WHITESPACE ? this.through('') : [];
      }
      const head = this.partial + rest;
      const start = head.slice(0, LONGEST_OPEN).toLowerCase();
      const open = OPEN_TAGS.find((t) => start.startsWith(t));
      if (!open) {
        if (start.length < LONGEST_OPEN && OPEN_TAGS.some((t) => t.startsWith(start))) {
          this.partial = head; // the start of a tag: wait for more
          return [];
        }
        return this.through(head);
      }
      this.phase = 'inside';
      this.close = `</${open.slice(1)}`;
      this.space = '';
      this.partial = '';
      rest = head.slice(open.length);
    }
    const out: InferencePiece[] = [];
    if (this.phase === 'inside') {
      const s = this.partial + rest;
      this.partial = '';
      const lower = s.toLowerCase();
      const at = lower.indexOf(this.close);
      const cut = at === -1 ? s.length - partialSuffix(lower, this.close) : at;
      // Whitespace at the start and end of the block belongs to the tags, not to the reasoning.
      const end = cut - trailingSpace(s, cut);
      const start = this.leading ? Math.min(leadingSpace(s), end) : 0;
      if (end > start) {
        this.leading = false;
        out.push({ kind: 'reasoning', text: this.space + s.slice(start, end) });
        this.space = '';
      }
      if (at === -1) {
        // Kept back: whitespace after the reasoning so far (none before it: dropped), and a partial close tag.
        if (!this.leading) this.space += s.slice(Math.max(start, end), cut);
        this.partial = s.slice(cut);
        if (this.space.length > MAX_HELD_WHITESPACE) {
          out.push({ kind: 'reasoning', text: this.space });
          this.space = '';
        }
        return out;
      }
      this.space = '';
      rest = s.slice(at + this.close.length);
      this.phase = 'afterClose';
    }
    // The whitespace between the close tag and the answer belongs to neither.
    const trimmed = rest.trimStart();
    if (trimmed !== '') {
      this.phase = 'through';
      out.push({ kind: 'answer', text: trimmed });
    }
    return out;
  }

  /** What is held at the end: a partial tag is text of the part it was in. */
  end(): InferencePiece[] {
    const held = this.space + this.partial;
    const partial = this.partial;
    this.space = '';
    this.partial = '';
    if (this.phase === 'inside') return partial === '' ? [] : [{ kind: 'reasoning', text: held }];
    return held === '' ? [] : [{ kind: 'answer', text: held }];
  }

  /** No tag opens the text: the whitespace held and `text` (which holds any partial tag) are the answer, as is all after. */
  private through(text: string): InferencePiece[] {
    this.phase = 'through';
    const all = this.space + text;
    this.space = '';
    this.partial = '';
    return all === '' ? [] : [{ kind: 'answer', text: all }];
  }
}

const NOT_SPACE = /\S/;

/** How many whitespace characters `text` starts with. */
function leadingSpace(text: string): number {
  const at = text.search(NOT_SPACE);
  return at === -1 ? text.length : at;
}

/** How many whitespace characters come just before `text[cut]`. */
function trailingSpace(text: string, cut: number): number {
  let i = cut;
  while (i > 0 && /\s/.test(text.charAt(i - 1))) i--;
  return cut - i;
}

/** The length of the longest suffix of `text` that is a proper prefix of `tag`. */
function partialSuffix(text: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) {
    if (tag.startsWith(text.slice(text.length - n))) return n;
  }
  return 0;
}

// ------------------------------------------------------------------------------------------- stream events

// A quote, a backslash or a control character (invalid unescaped in JSON): the string needs JSON.parse.
// eslint-disable-next-line no-control-regex
const NEEDS_JSON_PARSE = /["\\\u0000-\u001f]/;

/**
 * The name and string of a JSON object text that is exactly `{"<name>":"<string>"}` (no spaces, one member), else
 * undefined. For such an object whose name the reading accepts, the general reader returns this very string, so this
 * only skips building an object: the string is sliced as is when it has no escapes, else parsed on its own.
 */
function singleField(t: string): { name: string; value: string } | undefined {
  const n = t.length;
  if (t.charCodeAt(1) !== 0x22 || t.charCodeAt(n - 1) !== 0x7d || t.charCodeAt(n - 2) !== 0x22) return undefined;
  const k = t.indexOf('"', 2);
  // `"`, `:`, `"` after the name, and the value's closing quote after its opening one.
  if (k < 0 || n < k + 5 || t.charCodeAt(k + 1) !== 0x3a || t.charCodeAt(k + 2) !== 0x22) return undefined;
  const name = t.slice(2, k);
  if (name.includes('\\')) return undefined;
  const value = t.slice(k + 3, n - 2);
  if (value.indexOf('\\') === -1 && !NEEDS_JSON_PARSE.test(value)) return { name, value };
  // Escapes (or a quote that may end the string early, as in `{"token":"a","token":"b"}`): valid only if the
  // whole quoted part is one JSON string.
  const parsed = tryParseJson(t.slice(k + 2, n - 1));
  return typeof parsed?.value === 'string' ? { name, value: parsed.value } : undefined;
}

function serverError(message: string, data: string): ServerError {
  const text = redact(message).trim();
  return new ServerError(text || 'The service reported an error in the stream.', { detail: excerpt(data) });
}

function notJson(data: string): ContractError {
  return new ContractError('The stream sent a line that is not JSON.', { detail: excerpt(data) });
}

/**
 * What one event of a stream says (its framing is streamLines.ts's): its pieces, pushed to `out`, and true when the
 * stream ends with it. `[DONE]`, `{done: true}`, a `type`/`event` of `done` and an SSE `event: done` (after its data) end
 * the stream; an SSE `event: error` and an `error` field are a ServerError; an SSE type that says reasoning
 * (`event: thinking`) makes the event's text reasoning; a JSON value with no text (usage records, pings) gives nothing;
 * data that is not JSON is the text itself, unless the framing says each event is JSON (`json`: NDJSON, a JSON array's
 * elements: then a ContractError). `run` reads the events of one stream by its profile (streamReading.ts).
 */
export function readEvent(e: StreamEvent, json: boolean, run: StreamReading, out: InferencePiece[]): boolean {
  const { event, data } = e;
  if (event === 'error') {
    const v = parseBody(data);
    throw serverError(typeof v === 'string' ? v : errorText(v), data);
  }
  const ends = event === 'done';
  const reasoning = event !== '' && isReasoningName(event);
  const kind = reasoning ? 'reasoning' : 'answer';
  const t = data.trim();
  if (t === '[DONE]') return true;
  if (t.charCodeAt(0) === 0x7b && !reasoning) {
    // Fast path, same result as the profile's reading below: most events are exactly `{"token":"..."}`.
    const field = singleField(t);
    const known = field === undefined ? undefined : run.fieldKind(field.name);
    // Not a field the general reading looks at first (an `error`, a `type` that may say error or done).
    const role = known === undefined ? undefined : keyRole(field!.name);
    if (field !== undefined && known !== undefined && !role!.error && !role!.kind) {
      if (field.value !== '') {
        run.seen = true;
        out.push({ kind: known, text: field.value });
      }
      return ends;
    }
  }
  if (!(t.startsWith('{') || t.startsWith('[') || t.startsWith('"'))) {
    if (json) {
      if (t === '') return ends;
      throw notJson(data);
    }
    if (data !== '') out.push({ kind, text: data });
    return ends;
  }
  const parsed = tryParseJson(t, 'event');
  if (!parsed) {
    if (json) throw notJson(data);
    out.push({ kind, text: data });
    return ends;
  }
  const v = parsed.value;
  if (isObj(v)) {
    const err = v.error ?? (v.type === 'error' ? v : undefined);
    if (err !== undefined && err !== null && err !== false) throw serverError(errorText(err), data);
  }
  // OpenAI's Responses stream ends with events that repeat the whole text (`response.output_text.done`,
  // `response.completed`): after text has come, an event whose label says done holds no new text.
  if (
    run.seen &&
    isObj(v) &&
    Object.entries(v).some(([k, x]) => nameSays(KIND_WORDS, k) && typeof x === 'string' && nameSays(DONE_WORDS, x))
  ) {
    return ends;
  }
  // A JSON string is text, as data that is not JSON is.
  if (typeof v === 'string') {
    if (v !== '') out.push({ kind, text: v });
    return ends;
  }
  let read = false;
  for (const p of run.read(v, reasoning, t.length)) {
    if (p.text === '') continue;
    out.push(p);
    read = true;
  }
  if (read) return ends;
  return ends || (isObj(v) && (v.done === true || v.finished === true || v.type === 'done' || v.event === 'done'));
}
