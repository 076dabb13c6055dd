// A download's part file and the validator beside it. The folder is the user's, and anything in it may have been
// planted: a symlink named like the part file would have a resume append to its target, and a server ignoring Range
// rewrite it. So the part file is only ever a regular file, opened without following links, created exclusively.
// A hard link is a second name of one file: a resume would append the artifact to the file of that other name (and a
// check of the length would still pass). So the part file has exactly one name, checked before use and again on the
// open file.
//
// Its name carries a hash of the service and the model: `team-a/llama` and `team-b/llama` (or `a:b` and `a_b`) reduce
// to the same safe name, and one must never resume from the other's bytes. The validator (the ETag, or else the
// Last-Modified, of the answer the first byte came from) is kept in `<part>.json` and sent as If-Range on a resume,
// so a changed artifact is fetched whole instead of spliced onto the old one's prefix.

import { createHash } from 'node:crypto';
import { constants, promises as fsp } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { RequestError } from './errors';
import { finalFileName, insideFolder } from './fileName';

// Not defined on Windows, where a plain open of a reparse point is what there is.
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
// Opening a FIFO for writing would wait for a reader forever; with O_NONBLOCK it fails at once (and the type check
// below refuses it). No effect on a regular file.
const NONBLOCK = constants.O_NONBLOCK ?? 0;

/**
 * The part file a download of `modelName` from the service at `origin` (its base URL, ServiceClient.baseUrl) writes
 * to, named after the file it becomes (`fileName`, else the model's): deterministic, so a later session resumes it.
 */
export function partFilePath(directory: string, modelName: string, fileName: string | undefined, origin: string): string {
  const tag = createHash('sha256').update(`${origin}\n${modelName}`).digest('hex').slice(0, 16);
  return insideFolder(directory, `${finalFileName(fileName, modelName)}.${tag}.part`);
}

function refuse(part: string): RequestError {
  return new RequestError(`${part} is not a regular file (a link or a device?); remove it and download again.`);
}

function refuseLinked(part: string): RequestError {
  return new RequestError(
    `${part} has another name elsewhere (a hard link): the download does not write into a file it shares; remove it and download again.`,
  );
}

/** Refuses a part file that is not a regular file with one name. */
function checkPartStat(part: string, stat: { isFile(): boolean; nlink: number }): void {
  if (!stat.isFile()) throw refuse(part);
  if (stat.nlink > 1) throw refuseLinked(part);
}

/** Bytes in the part file (0 when there is none); refuses anything that is not a regular file with one name. */
export async function partFileSize(part: string): Promise<number> {
  let stat;
  try {
    stat = await fsp.lstat(part);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw e;
  }
  checkPartStat(part, stat);
  return stat.size;
}

/**
 * Opens the part file for writing at a position (writeBody): a fresh one is created exclusively after removing
 * whatever had the name (a link is removed, not its target); an existing one is opened without following links and
 * must be a regular file.
 */
export async function openPartFile(part: string, fresh: boolean): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    if (fresh) {
      await fsp.rm(part, { force: true });
      handle = await fsp.open(part, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o644);
    } else {
      handle = await fsp.open(part, constants.O_WRONLY | NOFOLLOW | NONBLOCK);
    }
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'EEXIST' || code === 'ENXIO' || code === 'EISDIR' || code === 'ERR_FS_EISDIR') throw refuse(part);
    throw e;
  }
  try {
    // On the open file: a name added between the check above and the open is seen here.
    checkPartStat(part, await handle.stat());
  } catch (e) {
    await handle.close();
    throw e;
  }
  return handle;
}

export interface Validator {
  etag?: string;
  lastModified?: string;
}

/** What identifies the version of the artifact an answer carries: a strong ETag (a weak one cannot be If-Range), or Last-Modified. */
export function validatorOf(headers: Record<string, string | undefined>): Validator | undefined {
  const etag = headers['etag']?.trim();
  const lastModified = headers['last-modified']?.trim();
  const v: Validator = {
    ...(etag && !etag.startsWith('W/') ? { etag } : {}),
    ...(lastModified ? { lastModified } : {}),
  };
  return v.etag || v.lastModified ? v : undefined;
}

/** The If-Range value for a resume: the ETag when there is one. */
export function ifRangeValue(v: Validator | undefined): string | undefined {
  return v?.etag ?? v?.lastModified;
}

/** Whether an answer's validator shows a different version than the one the part file started from. */
export function validatorChanged(first: Validator, now: Validator): boolean {
  if (first.etag && now.etag) return first.etag !== now.etag;
  if (first.lastModified && now.lastModified) return first.lastModified !== now.lastModified;
  return false;
}

const sidecar = (part: string) => `${part}.json`;

/** The validator recorded for this part file, if any (a missing, odd or linked sidecar counts as none). */
export async function readValidator(part: string): Promise<Validator | undefined> {
  let text: string;
  try {
    const handle = await fsp.open(sidecar(part), constants.O_RDONLY | NOFOLLOW | NONBLOCK);
    try {
      const stat = await handle.stat();
      if (!stat.isFile() || stat.size > 4096) return undefined;
      text = await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
    const o = JSON.parse(text) as Record<string, unknown>;
    const v: Validator = {
      ...(typeof o.etag === 'string' ? { etag: o.etag } : {}),
      ...(typeof o.lastModified === 'string' ? { lastModified: o.lastModified } : {}),
    };
    return v.etag || v.lastModified ? v : undefined;
  } catch {
    return undefined;
  }
}

/** Records (or, with undefined, forgets) the validator of the part file's bytes. */
export async function writeValidator(part: string, v: Validator | undefined): Promise<void> {
  await fsp.rm(sidecar(part), { force: true });
  if (!v) return;
  const handle = await fsp.open(sidecar(part), constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o644);
  try {
    await handle.writeFile(JSON.stringify(v));
  } finally {
    await handle.close();
  }
}

/** Removes the part file and its validator. */
export async function removePartFile(part: string): Promise<void> {
  await Promise.all([fsp.rm(part, { force: true }), fsp.rm(sidecar(part), { force: true })]);
}
