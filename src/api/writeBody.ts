// Appending a download's response body to its part file, with the idle watchdog and progress. The body is read with
// 'data' events and paused while the file stream is full: no promise per chunk and no re-copying of buffered chunks
// (an async iterator over a Readable reads all it holds at once, which concatenates the chunks into a new buffer;
// with two iterators stacked that path cost about twice the bare pipe's CPU, test/bench/PERFORMANCE.md, figure 5).

import { createWriteStream, fstatSync, ftruncateSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { RunningDigest } from './checksum';
import { IntegrityError, TimeoutError, type ApiError } from './errors';
import { secs } from './http';

/** A response body with the means to end its transfer (see storageRequest.ts). */
export interface BodySource {
  body: Readable;
  fail(reason: ApiError): void;
  mapError(e: unknown): ApiError;
}

export interface WriteBodyOptions {
  /** The part file, for messages. */
  part: string;
  /** The part file, opened (partFile.ts); writeBody closes it. */
  file: FileHandle;
  /** Where the body's first byte goes: the file is cut to this length first, so it never keeps stale bytes. */
  offset: number;
  hash?: RunningDigest;
  /**
   * The size the file must not exceed (the announced length): a body with more bytes fails with an IntegrityError
   * before the first byte too many is written.
   */
  limit?: number;
  what: string;
  /** No byte received for this long while waiting for the network: the transfer is failed with a TimeoutError. */
  idleMs: number;
  onProgress: (received: number) => void;
}

/**
 * The file stream's buffer. Socket reads arrive in chunks of at most 64 KiB; while one write is in flight the stream
 * gathers the next ones into a single writev. The chunks are handed on, not copied into blocks: fresh blocks cost page
 * faults that outweighed the fewer writes (test/bench/PERFORMANCE.md, figure 5). Not larger: chunks held longer survive into
 * V8's old generation, whose buffers are freed only by a full collection, and at 4 MiB the process's peak memory grew
 * past the 64 MiB goal in one run of five. The body is paused while the buffer is full, so memory stays bounded.
 */
const WRITE_BUFFER_BYTES = 1024 * 1024;
const PROGRESS_INTERVAL_MS = 100;

/**
 * Resolves with the part file's new size once every received byte is flushed and the file closed; rejects with the
 * body's failure (mapped) or the file's, also only after the file is closed, so the size on disk is what a resume
 * starts from.
 */
export function writeBody(source: BodySource, opts: WriteBodyOptions): Promise<number> {
  const { body } = source;
  try {
    // Synchronous, so the body's listeners are attached in this same turn (see the destroyed-body check below).
    // Only a file holding bytes past the offset is cut: on ext4 a truncate to zero, even of an empty file, marks it to
    // be flushed at close (auto_da_alloc), and close() of a fresh 2 GiB download then waited about 0.6 s for the
    // writeback to be queued (test/bench/PERFORMANCE.md, figure 5).
    if (fstatSync(opts.file.fd).size !== opts.offset) ftruncateSync(opts.file.fd, opts.offset);
  } catch (e) {
    return opts.file.close().then(
      () => Promise.reject(e),
      () => Promise.reject(e),
    );
  }
  const out = createWriteStream(opts.part, { fd: opts.file, start: opts.offset, highWaterMark: WRITE_BUFFER_BYTES });
  let written = opts.offset;
  let lastReport = 0;
  let failure: unknown;
  let finished = false;
  // The clock runs only while waiting for the network: a slow disk (body paused) is not a stalled server.
  const onIdle = () => source.fail(new TimeoutError(`${opts.what}: the transfer stalled (no data for ${secs(opts.idleMs)}).`));
  let idle: NodeJS.Timeout | undefined = setTimeout(onIdle, opts.idleMs);

  const onData = (chunk: Buffer) => {
    if (opts.limit !== undefined && written + chunk.length > opts.limit) {
      finish(new IntegrityError(`${opts.what}: the server sent more than the ${opts.limit} bytes it announced.`));
      return;
    }
    written += chunk.length;
    if (out.write(chunk)) {
      idle?.refresh();
    } else {
      clearTimeout(idle);
      idle = undefined;
      body.pause();
      out.once('drain', onDrain);
    }
    // Hashed after the chunk is handed to the file: a write the stream starts now runs in libuv's thread pool while
    // this thread hashes, rather than waiting for the hash (test/bench/PERFORMANCE.md, figure 5).
    opts.hash?.update(chunk);
    const now = Date.now();
    if (now - lastReport > PROGRESS_INTERVAL_MS) {
      lastReport = now;
      report();
    }
  };
  // A throwing callback must not escape into the socket's event handler: it ends the transfer instead.
  const report = () => {
    try {
      opts.onProgress(written);
    } catch (e) {
      failure ??= e;
      finish(e);
    }
  };
  const onDrain = () => {
    if (finished) return;
    idle = setTimeout(onIdle, opts.idleMs);
    body.resume();
  };
  const finish = (e?: unknown) => {
    if (finished) return;
    finished = true;
    failure = e;
    clearTimeout(idle);
    body.off('data', onData);
    out.off('drain', onDrain);
    // Destroying the body also closes its connection.
    if (e !== undefined && !body.destroyed) body.destroy();
    out.end();
    if (e === undefined) report();
  };

  return new Promise<number>((resolve, reject) => {
    out.once('error', (e) => {
      failure ??= e; // also when the body had already ended: the bytes did not all reach the disk
      finish(e);
    });
    // Passes on what the body, the disk or onProgress failed with.
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
    out.once('close', () => (failure === undefined ? resolve(written) : reject(failure)));
    // A body destroyed before we listened (reset while unread) emits nothing more: fail now rather than wait forever.
    if (body.destroyed) {
      finish(source.mapError(body.errored ?? new Error('The connection closed before the download started.')));
      return;
    }
    body.once('end', () => finish());
    body.once('error', (e) => finish(source.mapError(e)));
    body.on('data', onData);
  });
}
