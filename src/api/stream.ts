// Streaming inference answers: bytes -> pieces of text, for SSE, NDJSON, a JSON array sent over time (each element an
// event, read as it completes), plain chunked text and a single JSON document. The framing is chosen from the
// Content-Type when it is specific, else from the first bytes.
// Framing apart from meaning (issue 36): bytes -> lines -> events `{event, data}` (streamLines.ts, framing only) ->
// what the event says (answerText.ts readEvent, by the run's profile: streamReading.ts) -> its pieces (InferencePiece,
// the one type from here to the screen). A single JSON document is a non-streamed answer, read by the same profile
// rules as one event (decodeInferenceResult).
// Nothing joins the text of several events: a faster path for tiny events (a byte-level lane, text joined per read)
// saved about 0.2 µs a token, 0.4 ms of CPU a second at 2,000 tokens/s, which nobody sees (issue 27; test/bench
// figure 2 measures this path against eventsource-parser + JSON.parse).
//
// Decisions beyond the WHATWG event-stream rules and the spec:
//  - A last SSE event without its blank line is dispatched at the end of the body (browsers drop it).
//  - `event: error` is a ServerError whatever its data; `event: done` dispatches its data, then ends the stream.
//  - NDJSON lines may start with the RFC 7464 record separator (application/json-seq); it is dropped.
//  - application/json whose body starts like SSE (`data:`, `:` ..., never valid JSON) is decoded as SSE.
//  - text/plain and unknown types are sniffed, so a text/plain answer that itself starts with `{` or
//    `data:` would be read as NDJSON / SSE (the price of accepting SSE sent as text/plain).
//  - Plain text has no cap: each chunk is passed on as it comes.
//  - Size caps, one per framing whether the request was streamed or not, counted in input bytes: `maxEventBytes`
//    for one SSE event (the sum of its data lines plus the line being read) or one line of any framing;
//    `maxJsonBytes` (http.ts's MAX_JSON_BYTES, the limit of a non-streamed answer) for a single JSON document.
//  - An error met after some deltas of the same chunk does not lose them: push()/end() return the deltas and
//    the error is thrown by the next push()/end() call, and is readable at once from `error`.

import { decodeInferenceResult, InlineReasoning, mergePieces, readEvent, type InferencePiece } from './answerText';
import { StreamReading } from './streamReading';
import { parseBody } from './answerBody';
import { tryParseJson } from './safeJson';
import { ContractError, unreadable } from './errors';
import { EventDecoder, tooLarge, type EventSink, type StreamEvent } from './streamLines';
import { MAX_JSON_BYTES } from './http';

export type Framing = 'sse' | 'ndjson' | 'text' | 'json';

type LineFraming = 'sse' | 'ndjson' | 'text';

export const DEFAULT_MAX_EVENT_BYTES = 8 * 1024 * 1024;

export interface DecodeOptions {
  contentType?: string;
  /** Largest SSE event, NDJSON line or single JSON body accepted; default 8 MiB. */
  maxEventBytes?: number;
  /** Largest single JSON document accepted (application/json that is not NDJSON); default MAX_JSON_BYTES (32 MiB). */
  maxJsonBytes?: number;
  /**
   * How this run's events are read: the service's kept profile, and what the run learns of it (streamReading.ts). The
   * caller keeps it to ask, after the run, for a profile to keep. Without it the run infers its own from its events.
   */
  reading?: StreamReading;
}

/** What the decoders below have in common; `createDecoder` returns one for a Content-Type. */
export interface IncrementalDecoder {
  /** The pieces completed by this chunk. */
  push(chunk: Uint8Array): InferencePiece[];
  /** The pieces left at the end of the body. */
  end(): InferencePiece[];
  /** True after `[DONE]` or a done event: later bytes are ignored. */
  readonly finished: boolean;
  /** The error that stopped decoding, if any (thrown by the call after the one that returned its deltas). */
  readonly error: Error | undefined;
}

const NDJSON_TYPES = new Set([
  'application/x-ndjson',
  'application/ndjson',
  'application/jsonl',
  'application/x-jsonl',
  'application/jsonlines',
  'application/x-jsonlines',
  'application/json-seq',
  'application/stream+json',
  'application/x-json-stream',
]);

export function framingFromContentType(contentType: string | undefined): Framing | undefined {
  if (!contentType) return undefined;
  const type = contentType.split(';', 1)[0]!.trim().toLowerCase();
  if (type === 'text/event-stream') return 'sse';
  if (NDJSON_TYPES.has(type)) return 'ndjson';
  if (type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'))) return 'json';
  if (type === 'text/plain') return 'text';
  return undefined;
}

// ------------------------------------------------------------------------------------------------ sniffing

const BOM = [0xef, 0xbb, 0xbf];
const SSE_STARTS = ['data:', 'event:', 'id:', 'retry:'];

function isSpace(b: number): boolean {
  return b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;
}

/** Decides the framing from the first significant bytes, fed in pieces; `undefined` while undecided. */
class Sniffer {
  private offset = 0;
  private bom = 0;
  private head = '';

  feed(chunk: Uint8Array): LineFraming | undefined {
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i]!;
      const at = this.offset++;
      if (at < 3 && this.bom === at && b === BOM[at]) {
        this.bom++;
        continue;
      }
      if (this.bom > 0 && this.bom < 3) return 'text'; // a broken BOM: not a stream format we know
      if (this.head === '' && isSpace(b)) continue;
      if (b >= 0x80) return 'text';
      this.head += String.fromCharCode(b);
      const f = judge(this.head, false);
      if (f) return f;
    }
    return undefined;
  }

  final(): LineFraming {
    return judge(this.head, true) ?? 'text';
  }
}

function judge(head: string, final: boolean): LineFraming | undefined {
  if (head === '') return final ? 'text' : undefined;
  if (head[0] === '{') return 'ndjson';
  if (head[0] === ':') return 'sse';
  let possible = false;
  for (const s of SSE_STARTS) {
    if (head.startsWith(s)) return 'sse';
    if (s.startsWith(head)) possible = true;
  }
  return possible && !final ? undefined : 'text';
}

/** Framing of a body from its first bytes (after an optional BOM and whitespace). */
export function sniffFraming(firstBytes: Uint8Array): 'sse' | 'ndjson' | 'text' {
  const s = new Sniffer();
  return s.feed(firstBytes) ?? s.final();
}

// ----------------------------------------------------------------------------------------- StreamDecoder

/**
 * Incremental, synchronous decoder for one framing: its framing (streamLines.ts: bytes -> lines -> `{event, data}`)
 * apart from its meaning (answerText.ts readEvent: the event's pieces, the end, an error), its pieces. Plain
 * text is decoded and passed on chunk by chunk.
 */
export class StreamDecoder implements IncrementalDecoder, EventSink {
  /** SSE and NDJSON: the events of the body; plain text has none. */
  private readonly events: EventDecoder | undefined;
  /** Plain text only; it drops a leading BOM itself. */
  private readonly utf8 = new TextDecoder();
  private out: InferencePiece[] = [];
  private done = false;
  private failure: Error | undefined;
  /** Where the events hold the answer and the reasoning: the run's profile (streamReading.ts). */
  private readonly reading: StreamReading;

  constructor(
    readonly framing: LineFraming,
    options: { maxEventBytes?: number; reading?: StreamReading } = {},
  ) {
    if (framing !== 'text') this.events = new EventDecoder(framing, options.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES);
    this.reading = options.reading ?? new StreamReading();
  }

  get finished(): boolean {
    return this.done;
  }

  get error(): Error | undefined {
    return this.failure;
  }

  /** EventSink: no more events once the stream has ended. */
  get stopped(): boolean {
    return this.done;
  }

  push(chunk: Uint8Array): InferencePiece[] {
    return this.guarded(() => {
      if (chunk.byteLength === 0) return;
      if (this.events) this.events.push(chunk, this);
      else this.text(this.utf8.decode(chunk, { stream: true }));
    });
  }

  end(): InferencePiece[] {
    return this.guarded(() => {
      if (!this.events) this.text(this.utf8.decode());
      else {
        this.events.end(this);
        if (!this.done) this.flush();
      }
    });
  }

  /**
   * One whole event framed elsewhere (an element of a JSON array: JsonArrayDecoder), read as an NDJSON line is; its
   * deltas. Errors as push() says.
   */
  element(data: string): InferencePiece[] {
    return this.guarded(() => this.event({ event: '', data }));
  }

  /** The pieces `step` yields: none once ended; a kept error thrown first, a new one kept as fail() says. */
  private guarded(step: () => void): InferencePiece[] {
    if (this.failure) throw this.failure;
    if (this.done) return [];
    const out: InferencePiece[] = [];
    this.out = out;
    try {
      step();
    } catch (e) {
      this.fail(e);
    }
    return out;
  }

  private text(text: string): void {
    if (text !== '') this.out.push({ kind: 'answer', text });
  }

  /** EventSink: what the event means, read by the run's reading; its pieces. */
  event(e: StreamEvent): void {
    if (readEvent(e, this.framing !== 'sse', this.reading, this.out)) this.finish();
  }

  /** Keeps the error for the next call; throws it now only when this call has no deltas to return first. */
  private fail(e: unknown): void {
    this.failure = unreadable(e);
    this.events?.clear();
    if (this.out.length === 0) throw this.failure;
  }

  /** The events the run held undecided (streamReading.ts), read now that none will follow. */
  private flush(): void {
    for (const x of this.reading.end()) if (x.text !== '') this.out.push(x);
  }

  private finish(): void {
    this.flush();
    this.done = true;
    this.events?.clear();
  }
}

// ------------------------------------------------------------------------------ sniffing / JSON decoders

const LF = 0x0a;
const CR = 0x0d;

function concat(chunks: Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const all = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  return all;
}

/** Pushes the held bytes into a fresh decoder without losing deltas to an error (see `IncrementalDecoder`). */
function replay(decoder: StreamDecoder, chunks: Uint8Array[], total: number, final: boolean): InferencePiece[] {
  const out: InferencePiece[] = [];
  try {
    if (total > 0) for (const d of decoder.push(concat(chunks, total))) out.push(d);
    if (final && !decoder.error && !decoder.finished) for (const d of decoder.end()) out.push(d);
  } catch (e) {
    if (out.length === 0) throw e;
  }
  return out;
}

/** Holds the first bytes of a body until its framing is known, then hands them to a StreamDecoder. */
abstract class HoldingDecoder implements IncrementalDecoder {
  protected inner: StreamDecoder | undefined;
  protected failure: Error | undefined;
  protected held: Uint8Array[] = [];
  protected heldBytes = 0;

  constructor(
    protected readonly max: number,
    protected readonly reading?: StreamReading,
  ) {}

  get finished(): boolean {
    return this.inner?.finished ?? false;
  }

  get error(): Error | undefined {
    return this.inner?.error ?? this.failure;
  }

  abstract push(chunk: Uint8Array): InferencePiece[];
  abstract end(): InferencePiece[];

  protected start(framing: LineFraming, final: boolean): InferencePiece[] {
    this.inner = new StreamDecoder(framing, { maxEventBytes: this.max, reading: this.reading });
    const held = this.held;
    this.held = [];
    return replay(this.inner, held, this.heldBytes, final);
  }
}

/** text/plain or no/unknown Content-Type: holds the first bytes until the framing is known. */
class SniffingDecoder extends HoldingDecoder {
  private readonly sniffer = new Sniffer();

  push(chunk: Uint8Array): InferencePiece[] {
    if (this.inner) return this.inner.push(chunk);
    this.held.push(chunk);
    this.heldBytes += chunk.byteLength;
    // Only whitespace (or a partial `retry:`) so far; past the cap it is plain text.
    const f = this.sniffer.feed(chunk) ?? (this.heldBytes > this.max ? 'text' : undefined);
    return f ? this.start(f, false) : [];
  }

  end(): InferencePiece[] {
    if (this.inner) return this.inner.end();
    return this.start(this.sniffer.final(), true);
  }
}

function isJsonText(bytes: Uint8Array): boolean {
  try {
    return tryParseJson(new TextDecoder().decode(bytes)) !== undefined;
  } catch {
    return true; // JSON nested too deep: it is JSON, and reading it later refuses it with a ContractError
  }
}

const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const COMMA = 0x2c;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * A JSON array sent over time (Gemini's streamGenerateContent without `alt=sse`: `[{…}\n,\r\n{…}\n]`): each
 * element is an event, read as it completes (an NDJSON line is), so text shows as it arrives whatever the framing.
 * The bytes are scanned once for the element's end (a `,` or `]` outside strings and nesting); only the element being
 * read is held, up to `max` bytes (a whole document's limit: an element may be all of an answer). UTF-8's multi-byte
 * characters never hold a structural byte, so an element is cut only between characters.
 */
class JsonArrayDecoder implements IncrementalDecoder {
  private readonly inner: StreamDecoder;
  /** Before the `[`, inside the array (between elements or in one), or after its `]`. */
  private phase: 'before' | 'inside' | 'after' = 'before';
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** The element being read: its chunks so far, their size, and whether it has begun. */
  private parts: Uint8Array[] = [];
  private partBytes = 0;
  private inElement = false;
  private failure: Error | undefined;
  private readonly utf8 = new TextDecoder();

  constructor(
    private readonly max: number,
    reading: StreamReading | undefined,
  ) {
    this.inner = new StreamDecoder('ndjson', { reading });
  }

  get finished(): boolean {
    return this.inner.finished;
  }

  get error(): Error | undefined {
    return this.failure ?? this.inner.error;
  }

  push(chunk: Uint8Array): InferencePiece[] {
    if (this.failure) throw this.failure;
    const out: InferencePiece[] = [];
    try {
      this.scan(chunk, out);
    } catch (e) {
      this.failure = unreadable(e);
      this.parts = [];
      if (out.length === 0) throw this.failure;
    }
    return out;
  }

  end(): InferencePiece[] {
    if (this.failure) throw this.failure;
    if (this.inner.finished) return [];
    if (this.phase !== 'after') {
      this.failure = new ContractError('The stream ended inside its JSON array.');
      this.parts = [];
      throw this.failure;
    }
    return this.inner.end();
  }

  private scan(chunk: Uint8Array, out: InferencePiece[]): void {
    let start = 0; // where the element's bytes in this chunk begin
    for (let i = 0; i < chunk.length && !this.inner.finished; i++) {
      const b = chunk[i]!;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (b === BACKSLASH) this.escaped = true;
        else if (b === QUOTE) {
          this.inString = false;
          // A string element is whole at its closing quote.
          if (this.depth === 0) this.complete(chunk, start, i, out);
        }
        continue;
      }
      if (this.phase === 'before' || this.phase === 'after') {
        if (isSpace(b) || (this.phase === 'before' && i < 3 && b === BOM[i])) continue;
        if (this.phase === 'after') throw new ContractError('The stream sent more after its JSON array.');
        if (b !== OPEN_BRACKET) throw new ContractError('The stream is not a JSON array.');
        this.phase = 'inside';
        continue;
      }
      if (this.depth === 0 && (b === COMMA || b === CLOSE_BRACKET)) {
        if (this.inElement) {
          this.take(chunk.subarray(start, i));
          this.give(out);
        }
        if (b === CLOSE_BRACKET) this.phase = 'after';
        continue;
      }
      if (!this.inElement) {
        if (isSpace(b)) continue;
        this.inElement = true;
        start = i;
      }
      if (b === QUOTE) this.inString = true;
      else if (b === OPEN_BRACE || b === OPEN_BRACKET) this.depth++;
      else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
        // A record or list element is whole at its closing bracket: read now, not when the `,` after it comes (a
        // service sends the separator with the next element).
        if (--this.depth === 0) this.complete(chunk, start, i, out);
      }
    }
    if (this.inElement) this.take(chunk.subarray(start));
  }

  /** The element ending at `chunk[end]` (its last byte), begun at `start` or in an earlier chunk: read now. */
  private complete(chunk: Uint8Array, start: number, end: number, out: InferencePiece[]): void {
    this.take(chunk.subarray(start, end + 1));
    this.give(out);
  }

  /** Holds a part of the element being read; past the limit it fails while still incomplete. */
  private take(bytes: Uint8Array): void {
    if (bytes.byteLength === 0) return;
    this.partBytes += bytes.byteLength;
    if (this.partBytes > this.max) throw tooLarge(this.max);
    // A copy: the caller may reuse its buffer once push() returns.
    this.parts.push(bytes.slice());
  }

  /** The element read whole: its deltas, as an event's. */
  private give(out: InferencePiece[]): void {
    const text = this.utf8.decode(concat(this.parts, this.partBytes));
    this.parts = [];
    this.partBytes = 0;
    this.inElement = false;
    for (const d of this.inner.element(text)) out.push(d);
    if (this.inner.error) throw this.inner.error;
  }
}

const enum JsonPhase {
  Lead, // whitespace before the first line
  Line1,
  Gap, // blank lines after the first line
  Line2,
  Doc, // decided: one document
}

/**
 * application/json: a JSON array when its first significant byte is `[` (JsonArrayDecoder: each element an event, as
 * it completes); NDJSON when the first line and the next non-empty line are each JSON; otherwise one JSON document,
 * held whole (up to the cap) and read by `decodeInferenceResult` at the end. A body that starts like SSE (`data:`,
 * `:` ...; never valid JSON) is decoded as SSE.
 */
class JsonBodyDecoder extends HoldingDecoder {
  /** One document is held whole up to the JSON limit, as a non-streamed answer is; NDJSON lines keep the event limit. */
  constructor(
    max: number,
    private readonly jsonMax: number,
    reading?: StreamReading,
  ) {
    super(max, reading);
  }

  private sniffer: Sniffer | undefined = new Sniffer(); // only to catch SSE sent as application/json
  private phase = JsonPhase.Lead;
  private line1Start = 0;
  private line1End = 0;
  private line2Start = 0;
  /** A body that opens with `[`: its elements, each an event as it completes. */
  private array: JsonArrayDecoder | undefined;
  /** Bytes looked at for the body's first significant one (after a BOM and whitespace). */
  private looked = 0;

  override get finished(): boolean {
    return this.array ? this.array.finished : super.finished;
  }

  override get error(): Error | undefined {
    return this.array ? this.array.error : super.error;
  }

  push(chunk: Uint8Array): InferencePiece[] {
    if (this.array) return this.array.push(chunk);
    if (this.inner) return this.inner.push(chunk);
    if (this.failure) throw this.failure;
    const base = this.heldBytes;
    this.held.push(chunk);
    this.heldBytes += chunk.byteLength;
    // A JSON array is a stream of its elements (Gemini's default), never held whole to the end: text shows as it arrives.
    if (this.phase === JsonPhase.Lead && this.opensArray(chunk)) {
      this.array = new JsonArrayDecoder(this.jsonMax, this.reading);
      const held = this.held;
      this.held = [];
      return this.array.push(concat(held, this.heldBytes));
    }
    if (this.sniffer) {
      const f = this.sniffer.feed(chunk);
      if (f !== undefined) this.sniffer = undefined;
      if (f === 'sse') return this.start('sse', false);
    }
    if (this.phase !== JsonPhase.Doc && this.advance(chunk, base)) return this.start('ndjson', false);
    if (this.heldBytes > this.jsonMax) this.fail(tooLarge(this.jsonMax));
    return [];
  }

  end(): InferencePiece[] {
    if (this.array) return this.array.end();
    if (this.inner) return this.inner.end();
    if (this.failure) throw this.failure;
    if (this.phase === JsonPhase.Line2 && this.secondLineIsJson(this.heldBytes)) return this.start('ndjson', true);
    const body = new TextDecoder().decode(concat(this.held, this.heldBytes));
    this.held = [];
    let pieces: InferencePiece[];
    try {
      // Inline reasoning tags are split by decodePieces, as for every framing.
      pieces = decodeInferenceResult(parseBody(body), false);
    } catch (e) {
      this.fail(unreadable(e));
    }
    return pieces;
  }

  /** Whether the body's first significant byte, once in `chunk`, is `[`; each byte is looked at once. */
  private opensArray(chunk: Uint8Array): boolean {
    if (this.looked === Infinity) return false;
    for (let i = 0; i < chunk.length; i++) {
      const at = this.looked++;
      const b = chunk[i]!;
      if ((at < 3 && b === BOM[at]) || isSpace(b)) continue;
      this.looked = Infinity;
      return b === OPEN_BRACKET;
    }
    return false;
  }

  private fail(e: Error): never {
    this.failure = e;
    this.held = [];
    throw e;
  }

  /** Moves the line state machine over a new chunk; true when the body is known to be NDJSON. */
  private advance(chunk: Uint8Array, base: number): boolean {
    let i = 0;
    const n = chunk.byteLength;
    while (i < n && this.phase !== JsonPhase.Doc) {
      if (this.phase === JsonPhase.Lead || this.phase === JsonPhase.Gap) {
        while (i < n && isSpace(chunk[i]!)) i++;
        if (i === n) break;
        if (this.phase === JsonPhase.Lead) {
          this.line1Start = base + i;
          this.phase = JsonPhase.Line1;
        } else {
          this.line2Start = base + i;
          this.phase = JsonPhase.Line2;
        }
      }
      const lf = chunk.indexOf(LF, i);
      const cr = chunk.indexOf(CR, i);
      const eol = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
      if (eol === -1) break;
      if (this.phase === JsonPhase.Line1) {
        this.line1End = base + eol;
        const all = concat(this.held, this.heldBytes);
        this.phase = isJsonText(all.subarray(this.line1Start, this.line1End)) ? JsonPhase.Gap : JsonPhase.Doc;
        i = eol;
      } else {
        if (this.secondLineIsJson(base + eol)) return true;
        this.phase = JsonPhase.Doc;
      }
    }
    return false;
  }

  private secondLineIsJson(line2End: number): boolean {
    return isJsonText(concat(this.held, this.heldBytes).subarray(this.line2Start, line2End));
  }
}

/** The decoder for a response: the Content-Type decides when it is specific, else the first bytes. */
export function createDecoder(options: DecodeOptions = {}): IncrementalDecoder {
  const max = options.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES;
  const framing = framingFromContentType(options.contentType);
  const reading = options.reading;
  if (framing === 'sse' || framing === 'ndjson') return new StreamDecoder(framing, { maxEventBytes: max, reading });
  if (framing === 'json') return new JsonBodyDecoder(max, options.maxJsonBytes ?? MAX_JSON_BYTES, reading);
  return new SniffingDecoder(max, reading);
}

/**
 * Deltas of a streamed body: answer text as strings, reasoning as `{reasoning}`. Stopping early (break / return())
 * closes `source` (its finally runs, so the caller's abort happens); errors of `source` propagate as thrown; after
 * `[DONE]` the source is closed without reading further.
 */
export async function* decodeStream(
  source: AsyncIterable<Uint8Array | string>,
  options: DecodeOptions = {},
): AsyncGenerator<InferencePiece, void, undefined> {
  // A plain loop per delta, not `yield*` over each read's list: that costs an extra await per event.
  for await (const deltas of readDeltas(source, options)) for (const d of deltas) yield d;
}

/** The deltas of each read of `source`, then those of the end; errors as decodeStream says. */
async function* readDeltas(
  source: AsyncIterable<Uint8Array | string>,
  options: DecodeOptions,
): AsyncGenerator<InferencePiece[], void, undefined> {
  const decoder = createDecoder(options);
  for await (const raw of source) {
    yield decoder.push(typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw);
    if (decoder.error) throw decoder.error;
    if (decoder.finished) return;
  }
  yield decoder.end();
  if (decoder.error) throw decoder.error;
}

/**
 * Typed pieces of a streamed body (what ServiceClient.infer yields): reasoning from fields, events and inline tags
 * at the start of the answer (InlineReasoning), and the answer: a piece as each event arrives, whatever the framing
 * (plain text: as each read arrives), so text shows as it comes.
 */
export async function* decodePieces(
  source: AsyncIterable<Uint8Array | string>,
  options: DecodeOptions = {},
): AsyncGenerator<InferencePiece, void, undefined> {
  const inline = new InlineReasoning();
  for await (const deltas of readDeltas(source, options)) {
    for (const d of deltas) {
      if (d.kind === 'answer') for (const p of mergePieces(inline.push(d.text))) yield p;
      else if (d.text !== '') yield d;
    }
  }
  for (const p of inline.end()) yield p;
}
