// Bytes -> lines, the first step of the stream path for SSE and NDJSON (stream.ts reads the lines as events). The
// shape of openai-node's LineDecoder, and of WHATWG's event-stream parser: `\n`, `\r\n` and a lone `\r` end a line,
// including a `\r` at the end of one chunk and its `\n` at the start of the next.
//
// Line ends are found in the bytes, and each line is decoded from UTF-8 whole. A line end is one ASCII byte, never part
// of a character, so however the body is cut the same lines come out, invalid bytes and characters cut by a chunk's
// end included, with no decoder state to carry between chunks.
//
// Work and memory: every byte is looked at once. The open line's bytes (a line the chunk did not end) are copied once
// into a list and joined once when its end comes; nothing is scanned again as more arrives. The decoder never refuses
// a line itself: the caller reads `heldBytes` after each push and refuses a line over its cap, so a body without a line
// end is held only up to the cap and one chunk.

const LF = 0x0a;
const CR = 0x0d;

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
