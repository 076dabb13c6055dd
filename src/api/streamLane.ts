// The byte-level lane of the stream decoder (stream.ts): takes the common events straight from the socket's bytes,
// `data: {"token":"..."}` + blank line (SSE) and `{"token":"..."}` lines (NDJSON), with any text field of decode.ts.
// The text of the events it takes is copied as bytes into one buffer and decoded once, so such an event costs no
// UTF-8 decoding of its framing, no line or field strings and no JSON.parse: at ~28 bytes per event those were most
// of the decoder's time (CPU profile of the stream figure, test/bench/REPORT.md).
//
// It gives exactly what the general path gives (tested against it on every split): it only takes an event that is
// whole in the chunk, with nothing else on its lines (no spaces around the JSON, one member, a text field, a JSON
// string whose escapes it decodes as JSON.parse does), valid UTF-8 (so decoding the joined bytes gives the same text
// as decoding each event), a string of at most LONGEST_STRING bytes, within the size cap. Anything else (other
// fields, comments ending in \r, a lone \r, `[DONE]`, invalid UTF-8, an escaped lone surrogate, a long string, an event
// cut by the chunk's end) stops the lane at that event's first byte, and the general path reads on from there. The
// caller runs it only between events (nothing pending).

import { isTextField } from './answerText';
import type { Delta } from './stream';

const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const OPEN = 0x7b;
const CLOSE = 0x7d;
const DATA = 0x64617461; // `data`, read as one big-endian 32-bit word
const LONGEST_FIELD = 32;
// Longer strings are left to the general path, whose native string functions beat a JavaScript loop per byte once the
// event is a few hundred bytes (the stream figure measures both in memory, on events of 1024-char tokens too).
const LONGEST_STRING = 256;

/** Result of reading one JSON string: the index after its closing quote, or STOP. */
const STOP = -1;

export class TokenLane {
  private buf: Buffer = Buffer.allocUnsafe(0);
  private used = 0;
  // `{"token":"` (or the last text field seen), learnt again when another field comes; compared 4 bytes at a time.
  private key: Uint8Array = new Uint8Array(0);
  private keyWords = new Uint32Array(0);

  /**
   * @param sse SSE events, else NDJSON lines.
   * @param max the decoder's cap: a line longer than this is left to the general path, which refuses it.
   * @param perEvent one delta per event (pushed as taken) instead of the text of many events joined by `flush`.
   */
  constructor(
    private readonly sse: boolean,
    private readonly max: number,
    private readonly perEvent: boolean,
  ) {
    this.learn(Buffer.from('{"token":"', 'latin1'));
  }

  /**
   * Takes the events at `chunk[pos..]`; returns the index of the first byte not taken. The usual event (the known
   * field, plain ASCII text) is read inline, 4 bytes at a time for the framing, without a call per event.
   */
  take(chunk: Uint8Array, pos: number, out: Delta[]): number {
    const n = chunk.length;
    if (this.buf.length < this.used + n - pos) this.grow(this.used + n - pos);
    const buf = this.buf;
    const view = new DataView(chunk.buffer, chunk.byteOffset, n);
    const key = this.key;
    const words = this.keyWords;
    let p = pos;
    while (p < n) {
      const b = chunk[p];
      let i = p;
      if (this.sse) {
        // Between events: a blank line dispatches nothing and a comment is ignored.
        if (b === LF) {
          p++;
          continue;
        }
        if (b === CR) {
          if (p + 1 < n && chunk[p + 1] === LF) {
            p += 2;
            continue;
          }
          break;
        }
        if (b === COLON) {
          const end = commentEnd(chunk, p, n);
          if (end === STOP || end - p > this.max + 1) break;
          p = end;
          continue;
        }
        if (p + 5 >= n || view.getUint32(p) !== DATA || chunk[p + 4] !== COLON) break;
        i = p + 5;
        if (chunk[i] === SPACE) i++;
      } else if (b === LF) {
        p++; // a blank NDJSON line
        continue;
      }
      // The key: the known one, else learnt.
      let w = 0;
      if (i + key.length <= n) while (w < words.length && view.getUint32(i + 4 * w) === words[w]) w++;
      let j = 4 * w;
      if (w === words.length) while (j < key.length && chunk[i + j] === key[j]) j++;
      i = j === key.length ? i + j : this.learnKey(chunk, i, n);
      if (i === STOP) break;
      // The string: plain ASCII up to its closing quote inline, else (escapes, UTF-8, its end not here) readString.
      const start = this.used;
      let o = start;
      j = i;
      let c = 0;
      const limit = Math.min(n, i + LONGEST_STRING);
      while (j < limit && PLAIN[(c = chunk[j]!)] === 1) {
        buf[o++] = c;
        j++;
      }
      let q: number;
      if (c === QUOTE && j < limit) {
        this.used = o;
        q = j + 1;
      } else q = this.readString(chunk, j, limit, o);
      if (q === STOP || q >= n || chunk[q] !== CLOSE) {
        this.used = start;
        break;
      }
      // q is the `}`: the line is [p, q]; then its line end, and for SSE the blank line.
      let e = lineEnd(chunk, q + 1, n);
      if (e !== STOP && this.sse) e = lineEnd(chunk, e, n);
      if (e === STOP || q + 1 - p > this.max) {
        this.used = start;
        break;
      }
      if (this.perEvent && this.used > start) {
        out.push(this.buf.toString('utf8', start, this.used));
        this.used = start;
      }
      p = e;
    }
    return p;
  }

  /** The text of the events taken since the last flush, as one delta. */
  flush(out: Delta[]): void {
    if (this.used === 0) return;
    out.push(this.buf.toString('utf8', 0, this.used));
    this.used = 0;
  }

  private grow(size: number): void {
    const next = Buffer.allocUnsafe(Math.max(size, 2 * this.buf.length));
    this.buf.copy(next, 0, 0, this.used);
    this.buf = next;
  }

  /**
   * At `{"<field>":"` where the field is not the known one: learns it if it is a text field (rare: the shape of a
   * stream does not change per event) and returns the index of the string's first byte, else STOP.
   */
  private learnKey(chunk: Uint8Array, i: number, n: number): number {
    if (chunk[i] !== OPEN || chunk[i + 1] !== QUOTE) return STOP;
    let j = i + 2;
    const last = Math.min(n, j + LONGEST_FIELD);
    while (j < last && chunk[j] !== QUOTE && chunk[j] !== BACKSLASH && chunk[j]! > SPACE && chunk[j]! < 0x7f) j++;
    if (j + 2 >= n || chunk[j] !== QUOTE || chunk[j + 1] !== COLON || chunk[j + 2] !== QUOTE) return STOP;
    if (!isTextField(Buffer.from(chunk.buffer, chunk.byteOffset + i + 2, j - i - 2).toString('latin1'))) return STOP;
    this.learn(chunk.subarray(i, j + 3));
    return j + 3;
  }

  private learn(key: Uint8Array): void {
    this.key = Uint8Array.from(key);
    const view = new DataView(this.key.buffer);
    this.keyWords = Uint32Array.from({ length: key.length >> 2 }, (_, w) => view.getUint32(4 * w));
  }

  /**
   * Reads the rest of a JSON string's content from `i` up to its closing quote, appending its UTF-8 bytes to the buffer
   * at `o`; returns the index after the quote, or STOP when the string is invalid, not valid UTF-8, or not closed
   * before `n` (the chunk's end or the length limit).
   */
  private readString(c: Uint8Array, i: number, n: number, o: number): number {
    const buf = this.buf;
    while (i < n) {
      const b = c[i]!;
      if (PLAIN[b] === 1) {
        buf[o++] = b;
        i++;
        continue;
      }
      if (b === QUOTE) {
        this.used = o;
        return i + 1;
      }
      if (b < SPACE) return STOP; // a raw control character: not JSON
      if (b === BACKSLASH) {
        if (i + 1 >= n) return STOP;
        const e = c[i + 1]!;
        const simple = ESCAPES[e]!;
        if (simple !== 0) {
          buf[o++] = simple;
          i += 2;
          continue;
        }
        if (e !== 0x75) return STOP; // not \u: not JSON
        let cp = hex4(c, i + 2, n);
        i += 6;
        if (cp >= 0xd800 && cp <= 0xdbff) {
          // A surrogate pair, escaped; a lone surrogate cannot be UTF-8: left to the general path.
          const low = c[i] === BACKSLASH && c[i + 1] === 0x75 ? hex4(c, i + 2, n) : STOP;
          if (low < 0xdc00 || low > 0xdfff) return STOP;
          cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
          i += 6;
        } else if (cp === STOP || (cp >= 0xdc00 && cp <= 0xdfff)) return STOP;
        o = putUtf8(buf, o, cp);
        continue;
      }
      const len = utf8Length(c, i, n);
      if (len === STOP) return STOP;
      for (let j = 0; j < len; j++) buf[o++] = c[i + j]!;
      i += len;
    }
    return STOP;
  }
}

/** 1 for the bytes a JSON string holds as they are (printable ASCII but `"` and `\`). */
const PLAIN = new Uint8Array(256);
for (let b = SPACE; b < 0x80; b++) PLAIN[b] = b === QUOTE || b === BACKSLASH ? 0 : 1;

/** Byte written for `\x` when x is a one-letter JSON escape, else 0. */
const ESCAPES = new Uint8Array(256);
ESCAPES[QUOTE] = QUOTE;
ESCAPES[BACKSLASH] = BACKSLASH;
ESCAPES[0x2f] = 0x2f; // \/
ESCAPES[0x62] = 0x08; // \b
ESCAPES[0x66] = 0x0c; // \f
ESCAPES[0x6e] = LF; // \n
ESCAPES[0x72] = CR; // \r
ESCAPES[0x74] = 0x09; // \t

function hexDigit(b: number): number {
  if (b >= 0x30 && b <= 0x39) return b - 0x30;
  const l = b | 0x20;
  return l >= 0x61 && l <= 0x66 ? l - 0x61 + 10 : STOP;
}

/** The value of 4 hex digits at `i`, or STOP. */
function hex4(c: Uint8Array, i: number, n: number): number {
  if (i + 4 > n) return STOP;
  const a = hexDigit(c[i]!);
  const b = hexDigit(c[i + 1]!);
  const d = hexDigit(c[i + 2]!);
  const e = hexDigit(c[i + 3]!);
  if (a === STOP || b === STOP || d === STOP || e === STOP) return STOP;
  return (a << 12) | (b << 8) | (d << 4) | e;
}

function putUtf8(buf: Buffer, o: number, cp: number): number {
  if (cp < 0x80) {
    buf[o++] = cp;
  } else if (cp < 0x800) {
    buf[o++] = 0xc0 | (cp >> 6);
    buf[o++] = 0x80 | (cp & 0x3f);
  } else if (cp < 0x10000) {
    buf[o++] = 0xe0 | (cp >> 12);
    buf[o++] = 0x80 | ((cp >> 6) & 0x3f);
    buf[o++] = 0x80 | (cp & 0x3f);
  } else {
    buf[o++] = 0xf0 | (cp >> 18);
    buf[o++] = 0x80 | ((cp >> 12) & 0x3f);
    buf[o++] = 0x80 | ((cp >> 6) & 0x3f);
    buf[o++] = 0x80 | (cp & 0x3f);
  }
  return o;
}

/**
 * Length of the well-formed UTF-8 sequence starting at `i` (lead byte ≥ 0x80), or STOP if it is ill-formed or cut:
 * the WHATWG decoder's ranges (no overlongs, no surrogates, nothing above U+10FFFF).
 */
function utf8Length(c: Uint8Array, i: number, n: number): number {
  const b = c[i]!;
  let len: number;
  let lo = 0x80;
  let hi = 0xbf;
  if (b >= 0xc2 && b <= 0xdf) len = 2;
  else if (b >= 0xe0 && b <= 0xef) {
    len = 3;
    if (b === 0xe0) lo = 0xa0;
    else if (b === 0xed) hi = 0x9f;
  } else if (b >= 0xf0 && b <= 0xf4) {
    len = 4;
    if (b === 0xf0) lo = 0x90;
    else if (b === 0xf4) hi = 0x8f;
  } else return STOP;
  if (i + len > n) return STOP;
  const b1 = c[i + 1]!;
  if (b1 < lo || b1 > hi) return STOP;
  for (let j = 2; j < len; j++) {
    const x = c[i + j]!;
    if (x < 0x80 || x > 0xbf) return STOP;
  }
  return len;
}

/** At the end of a line: the index after its line end (\n or \r\n), else STOP (a lone \r is left to the general path). */
function lineEnd(c: Uint8Array, i: number, n: number): number {
  if (i >= n) return STOP;
  if (c[i] === LF) return i + 1;
  return c[i] === CR && i + 1 < n && c[i + 1] === LF ? i + 2 : STOP;
}

/** The index after a comment line starting at `i`, or STOP when it is cut or ends in \r. */
function commentEnd(c: Uint8Array, i: number, n: number): number {
  for (let j = i; j < n; j++) {
    if (c[j] === LF) return j + 1;
    if (c[j] === CR) return STOP;
  }
  return STOP;
}
