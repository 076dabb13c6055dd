// Framing only, the first steps of the stream path for SSE and NDJSON: bytes -> lines (LineDecoder) -> events
// (EventDecoder: `{event, data}`, as openai-node's SSEDecoder gives them). What an event means (its text, the end of the
// stream, an error) is the reading's (answerText.ts readEvent), never decided here. The shape of openai-node's
// LineDecoder, and of WHATWG's event-stream parser: `\n`, `\r\n` and a lone `\r` end a line, including a `\r` at the
// end of one chunk and its `\n` at the start of the next.
//
// Line ends are found in the bytes, and each line is decoded from UTF-8 whole. A line end is one ASCII byte, never part
// of a character, so however the body is cut the same lines come out, invalid bytes and characters cut by a chunk's
// end included, with no decoder state to carry between chunks.
//
// Work and memory: every byte is looked at once. The open line's bytes (a line the chunk did not end) are copied once
// into a list and joined once when its end comes; nothing is scanned again as more arrives. The decoder never refuses
// a line itself: the caller reads `heldBytes` after each push and refuses a line over its cap, so a body without a line
// end is held only up to the cap and one chunk.

import { ContractError } from './errors';

const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const RS = 0x1e;

/** Where the lines go. `stopped`: the stream has ended (`[DONE]`), so the rest of the chunk is not split. */
export interface LineSink {
  line(text: string, bytes: number): void;
  readonly stopped: boolean;
}

export class LineDecoder {
  private held: Uint8Array[] = [];
  private heldCount = 0;
  private afterCR = false; // the last chunk ended with \r: a \n first in the next one belongs to that line end

  /** Bytes of the open line, not yet ended. */
  get heldBytes(): number {
    return this.heldCount;
  }

  /** Splits `chunk` into lines for `sink`; keeps the bytes after the last line end. */
  push(chunk: Uint8Array, sink: LineSink): void {
    const n = chunk.length;
    let pos = 0;
    if (this.afterCR && n > 0) {
      this.afterCR = false;
      if (chunk[0] === LF) pos = 1;
    }
    const text = Buffer.from(chunk.buffer, chunk.byteOffset, n); // a view, for its UTF-8 decoding
    let nextLF = chunk.indexOf(LF, pos);
    let nextCR = chunk.indexOf(CR, pos); // -1 on most streams: then never searched again for this chunk
    while (pos < n && !sink.stopped) {
      if (nextLF !== -1 && nextLF < pos) nextLF = chunk.indexOf(LF, pos);
      if (nextCR !== -1 && nextCR < pos) nextCR = chunk.indexOf(CR, pos);
      const eol = nextLF === -1 ? nextCR : nextCR === -1 || nextLF < nextCR ? nextLF : nextCR;
      if (eol === -1) break;
      const start = pos;
      pos = eol + 1;
      if (chunk[eol] === CR) {
        if (pos === n) this.afterCR = true;
        else if (chunk[pos] === LF) pos++;
      }
      if (this.heldCount === 0) sink.line(text.toString('utf8', start, eol), eol - start);
      else {
        this.held.push(chunk.subarray(start, eol));
        this.heldCount += eol - start;
        const bytes = this.heldCount;
        sink.line(this.take(), bytes);
      }
    }
    if (pos < n && !sink.stopped) {
      // A copy (Buffer's slice would be a view): the caller may reuse its chunk, and a few bytes should not keep a
      // whole chunk alive.
      const rest = new Uint8Array(n - pos);
      rest.set(chunk.subarray(pos));
      this.held.push(rest);
      this.heldCount += n - pos;
    }
  }

  /** End of the body: the open line, if any, as the last line. */
  end(sink: LineSink): void {
    this.afterCR = false;
    if (this.heldCount === 0 || sink.stopped) return;
    const bytes = this.heldCount;
    sink.line(this.take(), bytes);
  }

  /** Forgets the open line (the stream ended). */
  clear(): void {
    this.held = [];
    this.heldCount = 0;
  }

  private take(): string {
    const line = Buffer.concat(this.held, this.heldCount).toString('utf8');
    this.clear();
    return line;
  }
}

/**
 * One event as its framing gives it: an SSE event's type (`''` when it has none) and its data lines joined; an NDJSON
 * line, an element of a JSON array, has data alone.
 */
export interface StreamEvent {
  event: string;
  data: string;
}

/** Where the events go. `stopped`: the reading ended the stream, so the rest of the chunk is not framed. */
export interface EventSink {
  event(e: StreamEvent): void;
  readonly stopped: boolean;
}

export function tooLarge(max: number): ContractError {
  return new ContractError(`The stream sent an event larger than the limit of ${max} bytes.`);
}

/**
 * Lines -> events, for SSE (WHATWG's rules: `data` lines joined by `\n`, `event` its type, comments and `id`/`retry`
 * left out, a blank line dispatches) and NDJSON (each non-empty line an event; the RFC 7464 record separator of
 * application/json-seq dropped). A U+FEFF opening the first line is the BOM. Past `max` bytes (one SSE event's data
 * lines plus the line being read, or one line) it throws a ContractError.
 */
export class EventDecoder implements LineSink {
  private readonly lines = new LineDecoder();
  private firstLine = true;
  // SSE event being built: its first data line, the others, their count and size (whole lines, in bytes).
  private data = '';
  private moreData: string[] = [];
  private dataCount = 0;
  private dataBytes = 0;
  private eventType = '';
  private sink: EventSink | undefined;

  constructor(
    readonly framing: 'sse' | 'ndjson',
    private readonly max: number,
  ) {}

  /** LineSink: no more lines once the reading has ended the stream. */
  get stopped(): boolean {
    return this.sink?.stopped ?? false;
  }

  /** Frames `chunk` into events for `sink`; keeps the open line and event. */
  push(chunk: Uint8Array, sink: EventSink): void {
    this.sink = sink;
    this.lines.push(chunk, this);
    // The open line counts as soon as it is held: a body without a line end fails here, not at its end.
    if (this.lines.heldBytes + this.dataBytes > this.max) throw tooLarge(this.max);
  }

  /** End of the body: the open line, and a last SSE event without its blank line (browsers drop it). */
  end(sink: EventSink): void {
    this.sink = sink;
    this.lines.end(this);
    if (this.framing === 'sse' && !sink.stopped) this.dispatch();
  }

  /** Forgets what is held (the stream ended). */
  clear(): void {
    this.lines.clear();
    this.data = '';
    this.moreData = [];
    this.dataCount = 0;
    this.dataBytes = 0;
  }

  /** LineSink: one line of the body, without its line end. */
  line(text: string, bytes: number): void {
    if (bytes + this.dataBytes > this.max) throw tooLarge(this.max);
    let line = text;
    if (this.firstLine) {
      this.firstLine = false;
      if (line.charCodeAt(0) === 0xfeff) line = line.slice(1);
    }
    if (this.framing === 'ndjson') {
      if (line.length > 0) this.sink!.event({ event: '', data: line.charCodeAt(0) === RS ? line.slice(1) : line });
      return;
    }
    if (line.length === 0) {
      this.dispatch();
      return;
    }
    const colon = line.indexOf(':');
    if (colon === 0) return; // comment
    let field: string;
    let value: string;
    if (colon === -1) {
      field = line;
      value = '';
    } else {
      field = line.slice(0, colon);
      value = line.charCodeAt(colon + 1) === SPACE ? line.slice(colon + 2) : line.slice(colon + 1);
    }
    switch (field) {
      case 'data':
        if (this.dataCount === 0) this.data = value;
        else this.moreData.push(value);
        this.dataCount++;
        this.dataBytes += bytes;
        break;
      case 'event':
        this.eventType = value;
        break;
      default:
        break; // id and retry serve reconnection, which a run never does (a stopped run is not resumed); others are unknown
    }
  }

  private dispatch(): void {
    const event = this.eventType;
    this.eventType = '';
    if (this.dataCount === 0) return;
    let data = this.data;
    if (this.dataCount > 1) {
      data = `${data}\n${this.moreData.join('\n')}`;
      this.moreData = [];
    }
    this.data = '';
    this.dataCount = 0;
    this.dataBytes = 0;
    this.sink!.event({ event, data });
  }
}
