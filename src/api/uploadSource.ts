// One source file of a finetune upload, read as exactly the bytes that were checked. The multipart body announces each
// file's length up front, so a file that grew would overrun it (the server reads the surplus as a broken next part
// and the request dies as a network error) and one that shrank would leave the body short (the server waits, and the
// upload ends at the idle timeout). Here the read is bounded to the size, a short read fails at once, and after the
// last byte the file is checked again before the stream ends: a change fails the stream with FileChangedError while
// the multipart body still lacks its end, so the service never sees a complete upload and creates nothing.
// Where the file is, checked again on the handle the bytes are read from (`within`): the checks ran when the files were
// chosen, minutes before, and a folder on the way may have been swapped since for a link leading out of the workspace
// (a same-size file there would pass the size check). So the opened file must be the very file at the path's real
// path (device and inode), that real path must lie under a workspace folder's real path, and the file must have one
// name (a hard link inside the workspace may be a file outside it); then the bytes come from that handle, never from
// the path again.
// The bytes are hashed (SHA-256) as they are read: the finetune's lineage names the exact content that was sent, and a
// second pass over a large file would cost another full read.
import { createHash, type Hash } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { open, realpath, stat, type FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { FileChangedError, RequestError } from './errors';
import { HARD_LINK_REASON, isUnder } from './pathInside';

/** 1 MiB reads: a quarter of the read calls and buffers of 256 KiB reads, for 1 MiB more memory at most. */
const CHUNK_BYTES = 1024 * 1024;
/**
 * Never follow a link (a path checked as a regular file may have been swapped for one since) and never block: a FIFO
 * would wait for a writer forever. Windows has neither flag, nor FIFOs in the file system.
 */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

export interface OpenedSource {
  stream: Readable;
  size: number;
  /** The SHA-256 (hex) of the bytes sent, once the stream has ended with the file unchanged; undefined before. */
  sha256: () => string | undefined;
}

/**
 * Opens `file` for the upload. `expectedSize`, when given, is the size the checks saw: a file of another size now has
 * changed since, and is refused before a byte is sent. `within`, when given, are the folders the file was found
 * inside (see the header): a file no longer really there, or with a second name, is refused before a byte is sent.
 * `label` names the file in every message.
 */
export async function openUploadSource(
  file: string,
  label: string,
  expectedSize?: number,
  within?: readonly string[],
): Promise<OpenedSource> {
  let handle: FileHandle;
  try {
    handle = await open(file, OPEN_FLAGS);
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    if (code === 'ELOOP') throw new RequestError(`Cannot upload ${label}: it is a symbolic link, which is not followed.`);
    throw new RequestError(`Cannot read ${label}: it no longer exists or is not a file.`);
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw new RequestError(`Cannot read ${label}: it is not a regular file.`);
    if (expectedSize !== undefined && st.size !== expectedSize) throw new FileChangedError(label);
    if (within) await checkStillInside(handle, file, label, within);
    const stream = new BoundedFileStream(handle, st, label);
    return { stream, size: st.size, sha256: () => stream.digest };
  } catch (e) {
    await handle.close().catch(() => undefined);
    throw e;
  }
}

/** The opened file is the one at `file`'s real path, under one of `within`'s real paths, with one name. */
async function checkStillInside(handle: FileHandle, file: string, label: string, within: readonly string[]): Promise<void> {
  // bigint: an inode number past 2^53 (Windows' file ids) would compare equal to its neighbours as a number.
  const opened = await handle.stat({ bigint: true });
  let real: string;
  let there;
  try {
    real = await realpath(file);
    there = await stat(real, { bigint: true });
  } catch {
    throw new RequestError(`Cannot upload ${label}: it is no longer where it was checked. Nothing was sent; choose it again.`);
  }
  const roots = await Promise.all(within.map((root) => realpath(root).catch(() => undefined)));
  const inside = roots.some((root) => root !== undefined && isUnder(real, root));
  if (!inside || there.dev !== opened.dev || there.ino !== opened.ino) {
    throw new RequestError(
      `Cannot upload ${label}: it is no longer inside the workspace folders (a folder on its way was replaced by a link leading elsewhere since it was checked). Nothing was sent; choose the file where it really is.`,
    );
  }
  if (opened.nlink > 1n) throw new RequestError(`Cannot upload ${label}: ${HARD_LINK_REASON}`);
}

class BoundedFileStream extends Readable {
  private position = 0;
  private readonly size: number;
  private readonly hash: Hash = createHash('sha256');
  /** Set after the last byte, when the file is known unchanged. */
  digest: string | undefined;

  constructor(
    private readonly handle: FileHandle,
    /** The file as opened: its size bounds the read, and its size and mtime are compared at the end. */
    private readonly opened: Stats,
    private readonly label: string,
  ) {
    super({ highWaterMark: CHUNK_BYTES });
    this.size = opened.size;
  }

  override _read(): void {
    this.next().then(
      (chunk) => this.push(chunk),
      (e: unknown) => this.destroy(e instanceof Error ? e : new Error(String(e))),
    );
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.handle.close().then(
      () => callback(error),
      () => callback(error),
    );
  }

  /** The next chunk, or null after the last byte once the file is known unchanged. */
  private async next(): Promise<Buffer | null> {
    const remaining = this.size - this.position;
    if (remaining === 0) {
      await this.verifyUnchanged();
      this.digest ??= this.hash.digest('hex');
      return null;
    }
    const length = Math.min(CHUNK_BYTES, remaining);
    const buf = Buffer.allocUnsafe(length);
    const { bytesRead } = await this.handle.read(buf, 0, length, this.position);
    if (bytesRead === 0) throw new FileChangedError(this.label); // shrank: the body would fall short of its length
    this.position += bytesRead;
    const chunk = bytesRead === length ? buf : buf.subarray(0, bytesRead);
    this.hash.update(chunk);
    return chunk;
  }

  private async verifyUnchanged(): Promise<void> {
    // A byte past the end means it grew; the stat catches a shrink after the bytes were read, or a rewrite in place.
    const { bytesRead } = await this.handle.read(Buffer.alloc(1), 0, 1, this.size);
    const now = await this.handle.stat();
    if (bytesRead > 0 || now.size !== this.size || now.mtimeMs !== this.opened.mtimeMs) throw new FileChangedError(this.label);
  }
}
