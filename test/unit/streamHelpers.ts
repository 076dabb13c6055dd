// What the stream decoder tests share: bodies from text and raw bytes, and a whole decode of chunked input.
import { strict as assert } from 'node:assert';
import { ApiError } from '../../src/api/errors';
import type { InferencePiece } from '../../src/api/answerText';
import type { IncrementalDecoder } from '../../src/api/stream';

export function bytes(...parts: (string | number[])[]): Uint8Array {
  return Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Uint8Array.from(p))));
}

export interface Decoded {
  deltas: InferencePiece[];
  error?: ApiError;
}

/** Feeds chunks to a fresh decoder; an error (thrown, or left in `error` after end()) ends the run. */
export function decodeChunks(make: () => IncrementalDecoder, chunks: Uint8Array[]): Decoded {
  const dec = make();
  const deltas: InferencePiece[] = [];
  try {
    for (const c of chunks) deltas.push(...dec.push(c));
    deltas.push(...dec.end());
    if (dec.error) throw dec.error;
  } catch (e) {
    assert.ok(e instanceof ApiError, `unexpected error ${String(e)}`);
    return { deltas, error: e };
  }
  return { deltas };
}

/** The text of deltas joined, reasoning marked (`⟨r:…⟩`) so that it can never pass for the answer. */
export function joinText(deltas: readonly InferencePiece[]): string {
  return deltas.map((d) => (d.kind === 'answer' ? d.text : `⟨r:${d.text}⟩`)).join('');
}

/** A piece of answer text, and one of reasoning: what a decoder gives. */
export const answer = (text: string): InferencePiece => ({ kind: 'answer', text });
export const reasoning = (text: string): InferencePiece => ({ kind: 'reasoning', text });
