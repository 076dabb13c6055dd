// Reading the text of an inference answer (spec §4.2, shapes "not shown"): the non-streamed body and each event of a
// stream, told apart into reasoning and answer. Kept apart from decode.ts, which reads every other answer.
//
// Read by structure, with names only as hints among candidates the structure leaves:
//  - A string is text. A list is its items' text in order, except a list of alternatives (records of one shape, each
//    numbered, as OpenAI's `choices`): the first. A record's text is in its text-bearing fields (strings, or records
//    and lists that hold text); numbers, booleans and nulls never are.
//  - Reasoning: a field whose name says so (its words: think, thinking, thought(s), reasoning, analysis, reflection,
//    scratchpad), a record a label field marks so (`type: "thinking_delta"`, `channel: "analysis"`: a short value
//    with those words), an SSE event whose type says so (`event: reasoning`, stream.ts), and text that opens with a
//    `<think>`, `<thinking>`, `<reasoning>` or `<thought>` tag up to its closing tag or the end (InlineReasoning).
//    Inside reasoning everything is reasoning.
//  - The answer: among the other text-bearing fields, the best by rank: a field named like text (words such as
//    text, content, response, output, answer, token, delta, message) first, then one whose value is prose (holds a
//    space), then a lone label-like string (a record's only text-bearing field is its text whatever its name). Fields
//    named like labels (type, kind, object, event, channel, role, id, model, name, status, finish …) are never the
//    answer. Two fields of the best rank: in a stream, the one that carried text before wins; otherwise the answer
//    is refused as ambiguous, naming both, rather than guessed.
//  - Stream events: `[DONE]`, `{done: true}` and `{type: "done"}` end the stream; an `error` field is an error;
//    an event with no text (usage records, pings) is ignored; data that is not JSON is answer text. Where an event's
//    text is, is not decided here event by event: a run reads its events by a profile (paths and a reasoning flag)
//    kept per service or inferred from its first events (streamReading.ts; the rules in streamInference.ts), which
//    uses the words below (keyRole). The rules above read a non-streamed answer and a single JSON document.

import { answerReader, ContractError } from './errors';
import { errorText } from './decode';
import { excerpt } from './redact';
import { tryParseJson } from './safeJson';
import { StreamReading } from './streamReading';

type Obj = Record<string, unknown>;

/** One piece of a run's output: reasoning the model wrote before (or beside) its answer, or the answer itself. */
export interface InferencePiece {
  kind: 'reasoning' | 'answer';
  text: string;
}

/** The text of one JSON value, split. Either may be absent (no such text), or empty. */
export interface AnswerParts {
  reasoning?: string;
  answer?: string;
}

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function contract(what: string, body: unknown): ContractError {
  return new ContractError(`The service sent an answer the extension cannot read (${what}).`, {
    detail: excerpt(body),
  });
}

const MAX_DEPTH = 8;

/** The words of a name: `reasoning_content` → reasoning, content; `thinkingDelta` → thinking, delta. */
function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '');
}

const REASONING_WORDS = new Set(['think', 'thinking', 'thought', 'thoughts', 'reasoning', 'analysis', 'reflection', 'scratchpad']);
const TEXT_WORDS = new Set([
  'text',
  'content',
  'contents',
  'response',
  'output',
  'answer',
  'completion',
  'token',
  'delta',
  'message',
  'generated',
  'generation',
  'result',
  'prediction',
  'reply',
  'chunk',
  'body',
]);
const LABEL_WORDS = new Set([
  'type',
  'kind',
  'object',
  'event',
  'channel',
  'role',
  'id',
  'model',
  'name',
  'status',
  'state',
  'finish',
  'stop',
  'reason',
  'created',
  'at',
  'time',
  'timestamp',
  'date',
  'version',
  'fingerprint',
  'index',
  'lang',
  'language',
  'format',
  'encoding',
  'url',
  'usage',
  'logprobs',
  'metadata',
  'meta',
  'stats',
]);
/** Labels that say what a record is (a discriminator); other labels name things (a model may be "…-thinking"). */
const KIND_WORDS = new Set(['type', 'kind', 'channel', 'event', 'object', 'role', 'category', 'phase', 'stage', 'part', 'mode', 'section']);
const ERROR_WORDS = new Set(['error', 'errors']);

function says(set: ReadonlySet<string>, name: string): boolean {
  return words(name).some((w) => set.has(w));
}

/** A field name that marks reasoning (`reasoning_content`, `thinking`, `thoughts`). */
export function isReasoningName(name: string): boolean {
  return says(REASONING_WORDS, name);
}

/**
 * A label field never holds the answer (`type`, `role`, `model`, `finish_reason`), unless it names text too. The last
 * word of a key says what its value is: `responseId` is an id of a response, `content_type` a type, whatever text word
 * comes before (Gemini's `responseId`, a random token that may hold no digit and so not look opaque).
 */
function isLabelName(name: string): boolean {
  const w = words(name);
  // A key's last word says what its value is (English compounds put the head last): `responseId`, `generation_id`
  // and `message_type` are labels whatever the words before them (a response's id is not the response).
  const last = w[w.length - 1];
  if (last !== undefined && LABEL_WORDS.has(last)) return true;
  return w.some((x) => LABEL_WORDS.has(x)) && !w.some((x) => TEXT_WORDS.has(x));
}

const LABEL_VALUE = /^\S{1,64}$/;

/** What the words of a key say of its value (streamInference.ts reads events by them); see the header. */
export interface KeyRole {
  /** A label (`type`, `id`, `model`): never text, though it may say what its record is. */
  label: boolean;
  /** Its words say reasoning: text under it is reasoning; a flag under it marks its record. */
  reasoning: boolean;
  /** Named like text (`text`, `content`, `delta`, `token`). */
  text: boolean;
  /** A discriminator (`type`, `channel`, `role`): its value may say the record is reasoning. */
  kind: boolean;
  error: boolean;
}

const keyRoles = new Map<string, KeyRole>();

/** keyRole, remembered per name (a stream names its fields alike in every event); bounded, as names come from the service. */
export function keyRole(name: string): KeyRole {
  let role = keyRoles.get(name);
  if (role === undefined) {
    role = {
      label: isLabelName(name),
      reasoning: isReasoningName(name),
      text: says(TEXT_WORDS, name),
      kind: says(KIND_WORDS, name),
      error: says(ERROR_WORDS, name),
    };
    if (keyRoles.size < MAX_REMEMBERED_NAMES) keyRoles.set(name, role);
  }
  return role;
}

/** A short label value (`thinking_delta`, `analysis`): what a discriminator holds, as opposed to text. */
export function isLabelValue(v: string): boolean {
  return LABEL_VALUE.test(v);
}

/** Remembers, along a stream, which field carried the answer: it wins a tie in a later event. */
export interface TextMemory {
  answerField?: string;
  /** Answer or reasoning text came before: an event that says it is done then repeats it, and is not read again. */
  seen?: boolean;
}

const DONE_WORDS = new Set(['done', 'completed', 'complete', 'finished', 'stop', 'end']);

interface Found {
  reasoning: string[];
  answer: string[];
}

/** A loop, not push(...list): an answer may come in more pieces than a spread takes (about 125,000: RangeError). */
function add(into: Found, from: Found | undefined): void {
  if (!from) return;
  for (const s of from.reasoning) into.reasoning.push(s);
  for (const s of from.answer) into.answer.push(s);
}

function holds(f: Found | undefined): f is Found {
  return f !== undefined && (f.reasoning.length > 0 || f.answer.length > 0);
}

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

/** Any string within reach (names aside): whether a field could hold text at all. */
function hasString(v: unknown, depth: number): boolean {
  if (typeof v === 'string') return true;
  if (depth > MAX_DEPTH || typeof v !== 'object' || v === null) return false;
  return Object.values(v).some((x) => hasString(x, depth + 1));
}

function nonEmpty(f: Found): boolean {
  return f.answer.some((s) => s !== '') || f.reasoning.some((s) => s !== '');
}

/**
 * `loose`: a record's lone label-like string is its text (an event or body itself, or a record under a text name);
 * deeper, such a string is a setting (`reasoning: {effort: "high"}`), not text.
 */
/**
 * What echoes the request in a non-streamed answer (the record rules' form of streamInference.ts's rule 2): the
 * values the request sent, and the records (and lists) holding one, directly or through lists, found in one pass.
 */
interface Echoes {
  sent: ReadonlySet<string>;
  holders: WeakSet<object>;
}

/** Marks in `into` the records (and lists) that hold a sent value; true when one was met and no record took it yet. */
function markEchoes(v: unknown, sent: ReadonlySet<string>, into: WeakSet<object>, depth: number): boolean {
  if (typeof v === 'string') return sent.has(v);
  if (depth > MAX_DEPTH || typeof v !== 'object' || v === null) return false;
  if (Array.isArray(v)) {
    let echo = false;
    for (const x of v) if (markEchoes(x, sent, into, depth + 1)) echo = true;
    if (echo) into.add(v);
    return echo;
  }
  let echo = false;
  for (const k of Object.keys(v)) if (markEchoes((v as Obj)[k], sent, into, depth + 1)) echo = true;
  if (echo) into.add(v);
  return false;
}

function isEcho(x: unknown, echoes: Echoes | undefined): boolean {
  if (!echoes) return false;
  return typeof x === 'string' ? echoes.sent.has(x) : typeof x === 'object' && x !== null && echoes.holders.has(x);
}

function read(
  v: unknown,
  reasoning: boolean,
  depth: number,
  memory: TextMemory | undefined,
  loose: boolean,
  echoes?: Echoes,
): Found | undefined {
  if (typeof v === 'string') return reasoning ? { reasoning: [v], answer: [] } : { reasoning: [], answer: [v] };
  if (depth > MAX_DEPTH) return undefined;
  if (Array.isArray(v)) {
    const items = isAlternatives(v) ? v.slice(0, 1) : v;
    const out: Found = { reasoning: [], answer: [] };
    for (const x of items) add(out, read(x, reasoning, depth + 1, undefined, loose, echoes));
    return holds(out) ? out : undefined;
  }
  if (!isObj(v)) return undefined;
  // A field echoing the request (the prompt, the record holding it) is no text of the answer: `request` beside `result`.
  const textBearing = Object.entries(v).filter(([, x]) => !isEcho(x, echoes) && hasString(x, depth + 1));
  // A label whose value says reasoning marks the record, when the record has other text to mark.
  const marked =
    reasoning ||
    (textBearing.length > 1 &&
      textBearing.some(([k, x]) => says(KIND_WORDS, k) && typeof x === 'string' && LABEL_VALUE.test(x) && isReasoningName(x)));
  const out: Found = { reasoning: [], answer: [] };
  const candidates: { key: string; rank: number; found: Found }[] = [];
  for (const [key, x] of textBearing) {
    if (isReasoningName(key)) {
      add(out, read(x, true, depth + 1, undefined, false, echoes));
      continue;
    }
    if (isLabelName(key) || says(ERROR_WORDS, key)) continue;
    const named = says(TEXT_WORDS, key);
    const found = read(x, marked, depth + 1, undefined, named, echoes);
    if (!found) continue;
    const prose = typeof x !== 'string' || /\s/.test(x);
    const rank = named ? 3 : prose ? 2 : loose && textBearing.length === 1 ? 1 : 0;
    if (rank > 0) candidates.push({ key, rank, found });
  }
  const best = candidates.reduce((m, c) => Math.max(m, c.rank), 0); // a record may have more fields than a spread takes
  const top = candidates.filter((c) => c.rank === best);
  let chosen = top[0];
  if (top.length > 1) {
    // Fields that hold only empty strings do not compete (`content: ""` beside `text: "x"`); then the field that
    // carried the answer earlier in the stream.
    const filled = top.filter((c) => nonEmpty(c.found));
    chosen = filled.length <= 1 ? (filled[0] ?? top[0]) : filled.find((c) => c.key === memory?.answerField);
    if (!chosen) {
      throw new ContractError(
        `The service sent an answer with two texts and nothing to tell which one is the answer (${filled.map((c) => c.key).join(', ')}).`,
        { detail: excerpt(v) },
      );
    }
  }
  if (chosen) {
    add(out, chosen.found);
    if (memory && chosen.found.answer.some((s) => s !== '')) memory.answerField = chosen.key;
  }
  return holds(out) ? out : undefined;
}

/**
 * The reasoning and the answer in one JSON value (a body or an event), by structure (see the header). Absent parts
 * are undefined; throws a ContractError when two fields could each be the answer.
 */
export function findParts(v: unknown, memory?: TextMemory, reasoning = false, sent?: ReadonlySet<string>): AnswerParts {
  let echoes: Echoes | undefined;
  if (sent !== undefined && sent.size > 0) {
    echoes = { sent, holders: new WeakSet() };
    markEchoes(v, sent, echoes.holders, 0);
  }
  const found = read(v, reasoning, 0, memory, true, echoes);
  if (!found) return {};
  return {
    ...(found.reasoning.length > 0 ? { reasoning: found.reasoning.join('') } : {}),
    ...(found.answer.length > 0 ? { answer: found.answer.join('') } : {}),
  };
}

/** The answer text of one JSON value, reasoning left out (see findParts). */
export function findText(v: unknown): string | undefined {
  return findParts(v).answer;
}

/**
 * A non-streamed answer as pieces: its reasoning (a field, a flag, or inline tags), then its answer. Read by a profile
 * as one event of a stream is (`reading`: the one kept for the service, else one inferred from this answer, which the
 * caller may keep: streamReading.ts); an answer the profile's rules cannot read (two texts tied, no sure text) is read
 * by the record rules of findParts, which refuse what they cannot tell. Both leave out what echoes the request (the
 * prompt it sent, the record holding it): the profile's rules drop the echo's record, the record rules its field.
 */
export const decodeInferenceResult = answerReader(function decodeInferenceResult(
  body: unknown,
  inlineTags: boolean = true,
  reading?: StreamReading,
): InferencePiece[] {
  const run = reading ?? new StreamReading(undefined, [], 'answer');
  let read: InferencePiece[] = [];
  if (typeof body !== 'string') {
    try {
      read = run.read(body, false, 0).concat(run.end());
    } catch (e) {
      if (!(e instanceof ContractError)) throw e;
    }
  }
  if (read.length === 0) return byRecords(body, inlineTags, run.sent);
  const out: InferencePiece[] = [];
  const inline = new InlineReasoning();
  for (const p of read) {
    if (p.kind === 'reasoning' || !inlineTags) out.push(p);
    else for (const q of inline.push(p.text)) out.push(q);
  }
  if (inlineTags) for (const q of inline.end()) out.push(q);
  return mergePieces(out);
});

/** A non-streamed answer read by the record rules (findParts): its reasoning, then its answer. */
function byRecords(body: unknown, inlineTags: boolean, sent: ReadonlySet<string>): InferencePiece[] {
  const parts = findParts(body, undefined, false, sent);
  if (parts.answer === undefined && parts.reasoning === undefined) throw contract('inference: no text in the answer', body);
  const out: InferencePiece[] = [];
  if (parts.reasoning) out.push({ kind: 'reasoning', text: parts.reasoning });
  if (!inlineTags) {
    out.push({ kind: 'answer', text: parts.answer ?? '' });
    return mergePieces(out);
  }
  const inline = new InlineReasoning();
  return mergePieces(out.concat(inline.push(parts.answer ?? ''), inline.end()));
}

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

export type StreamPayload =
  | { kind: 'text'; text: string; reasoning?: boolean }
  | { kind: 'parts'; reasoning: string; answer: string }
  /** Several pieces: an event of reasoning and answer parts mixed, or held events a later one let be read. */
  | { kind: 'pieces'; pieces: InferencePiece[] }
  | { kind: 'done' }
  | { kind: 'error'; message: string }
  | { kind: 'ignore' };

/**
 * True when `{"<name>":"<string>"}` is read as that string, the answer (see `singleTextField`). A record's only string
 * is its answer unless its name says reasoning or label.
 */
export function isTextField(name: string): boolean {
  return name !== '' && !isReasoningName(name) && !isLabelName(name) && !says(ERROR_WORDS, name);
}

/**
 * isTextField, remembered per name: a stream names its field alike in every event, and splitting the name into words
 * each time was most of an event's cost (CPU profile of the stream figure). Bounded, as the names come from the service.
 */
const textFieldNames = new Map<string, boolean>();
const MAX_REMEMBERED_NAMES = 256;

function isTextFieldName(name: string): boolean {
  let known = textFieldNames.get(name);
  if (known === undefined) {
    known = isTextField(name);
    if (textFieldNames.size < MAX_REMEMBERED_NAMES) textFieldNames.set(name, known);
  }
  return known;
}
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

/**
 * Pieces as one payload: the common shapes (one text, reasoning then answer) as they were, else the list. `merge`: an
 * event read alone; a run's pieces are not joined, as held events released together are each a piece of their own.
 */
function payloadOf(pieces: readonly InferencePiece[], merge: boolean): StreamPayload | undefined {
  const list: InferencePiece[] = merge ? mergePieces(pieces) : pieces.filter((p) => p.text !== '');
  const [first, second] = list;
  if (!first) return undefined;
  if (list.length === 1) {
    return first.kind === 'reasoning' ? { kind: 'text', text: first.text, reasoning: true } : { kind: 'text', text: first.text };
  }
  if (merge && list.length === 2 && first.kind === 'reasoning' && second?.kind === 'answer') {
    return { kind: 'parts', reasoning: first.text, answer: second.text };
  }
  return { kind: 'pieces', pieces: list };
}

/**
 * Reads one event of a stream (an SSE `data` or an NDJSON line). `[DONE]`, `{done: true}` and a `type`/`event` of
 * `done` end the stream; an `error` field is an error event; a JSON value with no text (usage records, pings) is
 * ignored; non-JSON data is the text itself. `reasoning`: the event's type said so (SSE `event: thinking`).
 * `run` reads the events of one stream by its profile, inferred from its first events (streamReading.ts); without it
 * the event is read alone, as the whole of a run.
 */
export function readStreamPayload(data: string, jsonOnly = false, reasoning = false, run?: StreamReading): StreamPayload {
  const t = data.trim();
  if (t === '[DONE]') return { kind: 'done' };
  if (t.charCodeAt(0) === 0x7b && !reasoning) {
    // Fast path, same result as the general one below: most events are exactly `{"token":"..."}`.
    const field = singleField(t);
    const kind = field === undefined ? undefined : run ? run.fieldKind(field.name) : isTextFieldName(field.name) ? 'answer' : undefined;
    if (field !== undefined && kind !== undefined) {
      if (field.value === '') return { kind: 'ignore' };
      if (run) run.seen = true;
      return kind === 'reasoning' ? { kind: 'text', text: field.value, reasoning: true } : { kind: 'text', text: field.value };
    }
  }
  const plain = (): StreamPayload => (reasoning ? { kind: 'text', text: data, reasoning: true } : { kind: 'text', text: data });
  let v: unknown;
  if (t.startsWith('{') || t.startsWith('[') || t.startsWith('"')) {
    const parsed = tryParseJson(t, 'event');
    if (!parsed) {
      if (jsonOnly) throw new ContractError('The stream sent a line that is not JSON.', { detail: excerpt(data) });
      return plain();
    }
    v = parsed.value;
  } else {
    if (jsonOnly) {
      if (t === '') return { kind: 'ignore' };
      throw new ContractError('The stream sent a line that is not JSON.', { detail: excerpt(data) });
    }
    return plain();
  }
  if (isObj(v)) {
    const err = v.error ?? (v.type === 'error' ? v : undefined);
    if (err !== undefined && err !== null && err !== false) return { kind: 'error', message: errorText(err) };
  }
  // OpenAI's Responses stream ends with events that repeat the whole text (`response.output_text.done`,
  // `response.completed`): after text has come, an event whose label says done holds no new text.
  if (run?.seen && isObj(v) && Object.entries(v).some(([k, x]) => says(KIND_WORDS, k) && typeof x === 'string' && says(DONE_WORDS, x))) {
    return { kind: 'ignore' };
  }
  // A JSON string is text, as data that is not JSON is.
  if (typeof v === 'string') {
    return v === '' ? { kind: 'ignore' } : reasoning ? { kind: 'text', text: v, reasoning: true } : { kind: 'text', text: v };
  }
  const reading = run ?? new StreamReading();
  const pieces = reading.read(v, reasoning, t.length);
  const read = run ? payloadOf(pieces, false) : payloadOf(pieces.concat(reading.end()), true);
  if (read) return read;
  if (isObj(v) && (v.done === true || v.finished === true || v.type === 'done' || v.event === 'done')) return { kind: 'done' };
  return { kind: 'ignore' };
}
