// Which of the chosen source files can be uploaded for finetuning, and why the others cannot. Checked before the
// upload so a renamed .txt or an oversized file is refused in a second, with its name, instead of after minutes of
// uploading. Pure logic (no VS Code): bytes come from an injected reader, node fs by default.
import { constants } from 'node:fs';
import { lstat, open } from 'node:fs/promises';
import * as path from 'node:path';
import type { UploadFile } from '../../api/client';
import { HARD_LINK_REASON } from '../../api/pathInside';
import { formatOverLimit } from '../../util/byteSize';
import { mapLimited } from '../../util/mapLimited';
import { isNamedInside, isReallyInside, outsideMessage, type SourcePlace } from './realPlace';
import { readZipEntryNames, ZipFormatError } from './zipEntries';

export type { SourcePlace } from './realPlace';

export type DocumentKind = 'pdf' | 'docx';

/** A file as the user chose it. */
export interface SourceFile {
  /** What the reader opens: an absolute path for node fs, or any key an injected reader understands. */
  id: string;
  /** How the user knows the file (a workspace-relative path); every message names the file by this. */
  label: string;
}

export interface CheckedFile extends SourceFile {
  kind: DocumentKind;
  size: number;
  /**
   * The folders whose real path the file's real path was found under (realPlace.ts), to be checked again on the opened
   * file at the upload; absent where no such check applies (a file named by its own path outside the workspace, a
   * virtual workspace's file).
   */
  within?: readonly string[];
}

/** Why a file was refused: lets the UI add the right hint (a setting to change, a file to rename). */
export type ProblemCode =
  | 'unsupported' // not .pdf / .docx
  | 'wrongContent' // the bytes are not what the name says
  | 'empty'
  | 'tooLarge'
  | 'tooMany'
  | 'notFile'
  | 'symlink' // a link is not followed: it could send a file from anywhere under an innocent name
  | 'outsideWorkspace' // a linked folder on its path leads out of the workspace (realPlace.ts)
  | 'hardLink' // a workspace file with another name, which may be outside the workspace
  | 'unreadable'
  | 'incomplete'; // a folder was not searched to the end

export interface FileProblem {
  code: ProblemCode;
  /** The file's (or folder's) label. */
  label: string;
  /** A whole sentence naming the file, fit to show. */
  message: string;
}

export interface FileCheck {
  /** In the order chosen, duplicates removed, at most `maxFiles`. */
  valid: CheckedFile[];
  problems: FileProblem[];
  /** How many entries were dropped because they named a file already in the list. */
  duplicates: number;
}

export interface FileLimits {
  maxFileBytes: number;
  maxFiles: number;
}

export interface FileStat {
  size: number;
  /** A regular file: not a folder, a pipe, a socket or a device. */
  isFile: boolean;
  /** The path itself is a symbolic link (the stat must not follow it). */
  isSymbolicLink?: boolean;
  /** What a non-regular file is, in words fit for "(it is …)", when known. */
  special?: string;
  /** How many names (hard links) the file has, when the file system says. */
  links?: number;
}

/** Where the bytes come from: node fs for local files; the command injects a workspace.fs reader for virtual ones. */
export interface ByteReader {
  stat(id: string): Promise<FileStat>;
  /** Up to `length` bytes at `position` (fewer only at the end of the file). */
  read(id: string, position: number, length: number): Promise<Buffer>;
  /**
   * The id as an absolute path on this machine's file system, whose real path realPlace.ts can check; undefined for a
   * file of a virtual file system, which has no real path to resolve (its provider's links are its own).
   */
  localPath(id: string): string | undefined;
}

/**
 * Opening never follows a link (the path was checked with lstat) and never blocks: a FIFO named .pdf would otherwise
 * wait for a writer forever. Windows has neither flag; it has no FIFOs in the file system either.
 */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

export const nodeByteReader: ByteReader = {
  async stat(id) {
    const s = await lstat(id);
    const special = s.isFIFO()
      ? 'a named pipe'
      : s.isSocket()
        ? 'a socket'
        : s.isCharacterDevice() || s.isBlockDevice()
          ? 'a device'
          : undefined;
    return { size: s.size, isFile: s.isFile(), isSymbolicLink: s.isSymbolicLink(), special, links: s.nlink };
  },
  localPath: (id) => (path.isAbsolute(id) ? id : undefined),
  async read(id, position, length) {
    const fh = await open(id, OPEN_FLAGS);
    try {
      const buf = Buffer.alloc(length);
      const { bytesRead } = await fh.read(buf, 0, length, position);
      return buf.subarray(0, bytesRead);
    } finally {
      await fh.close();
    }
  },
};

export const SUPPORTED_EXTENSIONS: Readonly<Record<string, DocumentKind>> = { '.pdf': 'pdf', '.docx': 'docx' };

export function kindFromName(name: string): DocumentKind | undefined {
  return SUPPORTED_EXTENSIONS[path.extname(name).toLowerCase()];
}

/** Acrobat accepts `%PDF-` anywhere in the first 1024 bytes (a BOM, a mail header, junk); so do we. */
const PDF_HEADER_WINDOW = 1024;
const HEAD_BYTES = PDF_HEADER_WINDOW;
/** Several files are read at once, but not hundreds of handles. */
const CONCURRENCY = 8;

/** What the first bytes say a file is, in words fit for "(it looks like …)". */
export type Sniffed = { kind: 'pdf' } | { kind: 'zip' } | { kind: 'other'; looksLike: string };

export function sniff(head: Buffer): Sniffed {
  if (head.subarray(0, PDF_HEADER_WINDOW).includes('%PDF-', 0, 'latin1')) return { kind: 'pdf' };
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) return { kind: 'zip' };
  if (startsWith(head, [0x50, 0x4b, 0x05, 0x06])) return { kind: 'other', looksLike: 'an empty ZIP archive' };
  const magic: [number[], string][] = [
    [[0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], 'an older Office document (.doc); save it as .docx'],
    [[0x89, 0x50, 0x4e, 0x47], 'a PNG image'],
    [[0xff, 0xd8, 0xff], 'a JPEG image'],
    [[0x47, 0x49, 0x46, 0x38], 'a GIF image'],
    [[0x1f, 0x8b], 'a gzip archive'],
    [[0x52, 0x61, 0x72, 0x21], 'a RAR archive'],
    [[0x37, 0x7a, 0xbc, 0xaf], 'a 7-Zip archive'],
  ];
  for (const [bytes, words] of magic) if (startsWith(head, bytes)) return { kind: 'other', looksLike: words };
  const text = asText(head);
  if (text !== undefined) {
    const start = text.trimStart().slice(0, 200).toLowerCase();
    if (start.startsWith('{\\rtf')) return { kind: 'other', looksLike: 'an RTF document' };
    if (start.startsWith('<!doctype html') || start.startsWith('<html')) return { kind: 'other', looksLike: 'an HTML page' };
    if (start.startsWith('<?xml')) return { kind: 'other', looksLike: 'XML text' };
    return { kind: 'other', looksLike: 'text' };
  }
  return { kind: 'other', looksLike: 'binary data of an unknown kind' };
}

/**
 * Checks every file and returns the usable ones and, all at once, why the others are not. Never throws for a bad
 * file: an unreadable one is a problem like any other. `place` says where the files may really be (realPlace.ts):
 * required, so no entry point can leave the check out.
 */
export async function checkFinetuneFiles(
  files: readonly (string | SourceFile)[],
  limits: FileLimits,
  place: SourcePlace,
  reader: ByteReader = nodeByteReader,
): Promise<FileCheck> {
  const unique: SourceFile[] = [];
  const seen = new Set<string>();
  for (const f of files) {
    const source = typeof f === 'string' ? { id: f, label: path.basename(f) } : f;
    const key = identity(source.id);
    if (seen.has(key)) continue;
    seen.add(key);
    unique.push(source);
  }

  const outcomes = await mapLimited(unique, CONCURRENCY, (f) => checkOne(f, limits, place, reader));
  const valid: CheckedFile[] = [];
  const problems: FileProblem[] = [];
  for (const outcome of outcomes) {
    if ('message' in outcome) problems.push(outcome);
    else valid.push(outcome);
  }
  if (valid.length > limits.maxFiles) {
    // Keep the first ones (the order the user sees) and name each one left out, so nothing is dropped silently.
    for (const left of valid.splice(limits.maxFiles)) {
      problems.push({
        code: 'tooMany',
        label: left.label,
        message: `${left.label} is left out: at most ${limits.maxFiles} files can be used in one job.`,
      });
    }
  }
  return { valid, problems, duplicates: files.length - unique.length };
}

async function checkOne(file: SourceFile, limits: FileLimits, place: SourcePlace, reader: ByteReader): Promise<CheckedFile | FileProblem> {
  const { label } = file;
  const problem = (code: ProblemCode, message: string): FileProblem => ({ code, label, message });
  const expected = kindFromName(label) ?? kindFromName(file.id);
  if (!expected) return problem('unsupported', `${label} is not a PDF or DOCX file.`);

  let st: FileStat;
  try {
    st = await reader.stat(file.id);
  } catch (e) {
    return problem('unreadable', `${label} cannot be read (${reason(e)}).`);
  }
  if (st.isSymbolicLink) return problem('symlink', symlinkMessage(label));
  const local = reader.localPath(file.id);
  // The workspace's own files; the upload checks again on the opened file that each still is one of them.
  const within = local !== undefined && (!place.outsideAllowed || isNamedInside(local, place.roots)) ? place.roots : undefined;
  if (within && !(await isReallyInside(local!, within))) return problem('outsideWorkspace', outsideMessage(label));
  if (st.special) return problem('notFile', `${label} is not a regular file (it is ${st.special}).`);
  if (!st.isFile) return problem('notFile', `${label} is not a file.`);
  // A folder counts its entries as names: only a regular file's count says it has another name.
  if (within && st.links !== undefined && st.links > 1) return problem('hardLink', `${label} cannot be used: ${HARD_LINK_REASON}`);
  const checked = (kind: DocumentKind): CheckedFile => ({ ...file, kind, size: st.size, ...(within ? { within } : {}) });
  if (st.size === 0) return problem('empty', `${label} is empty.`);
  if (st.size > limits.maxFileBytes) {
    const shown = formatOverLimit(st.size, limits.maxFileBytes);
    return problem('tooLarge', `${label} is ${shown.size}; the limit is ${shown.limit}.`);
  }

  try {
    const head = await reader.read(file.id, 0, Math.min(HEAD_BYTES, st.size));
    const found = sniff(head);
    const name = expected === 'pdf' ? 'PDF' : 'DOCX';
    if (expected === 'pdf') {
      if (found.kind === 'pdf') return checked('pdf');
      const words = found.kind === 'zip' ? await describeZip(file.id, st.size, reader) : found.looksLike;
      const hint = found.kind === 'zip' && words === DOCX_WORDS ? '; rename it to .docx' : '';
      return problem('wrongContent', `${label} is not a ${name} file (it looks like ${words}${hint}).`);
    }
    if (found.kind === 'pdf') {
      return problem('wrongContent', `${label} is not a ${name} file (it looks like a PDF document; rename it to .pdf).`);
    }
    if (found.kind === 'other') return problem('wrongContent', `${label} is not a ${name} file (it looks like ${found.looksLike}).`);
    let names: string[];
    try {
      names = await readZipEntryNames(st.size, (position, length) => reader.read(file.id, position, length));
    } catch (e) {
      if (e instanceof ZipFormatError) {
        return problem('wrongContent', `${label} is not a ${name} file (its ZIP structure is damaged: ${e.message}).`);
      }
      throw e;
    }
    if (!names.includes(DOCX_MAIN_PART)) {
      return problem('wrongContent', `${label} is not a ${name} file (it is a ZIP archive without ${DOCX_MAIN_PART}).`);
    }
    return checked('docx');
  } catch (e) {
    return problem('unreadable', `${label} cannot be read (${reason(e)}).`);
  }
}

/**
 * The checked files as the upload takes them (`paths`: one disk path per file, in order: a virtual workspace's files
 * are copies): each sends exactly the size that was checked, from a file still inside the folders it was found in.
 */
export function uploadFiles(files: readonly CheckedFile[], paths: readonly string[]): UploadFile[] {
  return files.map((f, i) => ({ path: paths[i]!, size: f.size, label: f.label, ...(f.within ? { within: f.within } : {}) }));
}

/** Shared with the folder search, which skips links in the same words. */
export function symlinkMessage(label: string, target: 'file' | 'folder' = 'file'): string {
  return `${label} is a symbolic link, which is not followed; choose the ${target} it points to instead.`;
}

const DOCX_MAIN_PART = 'word/document.xml';
const DOCX_WORDS = 'a DOCX document';

async function describeZip(id: string, size: number, reader: ByteReader): Promise<string> {
  try {
    const names = await readZipEntryNames(size, (position, length) => reader.read(id, position, length));
    return names.includes(DOCX_MAIN_PART) ? DOCX_WORDS : 'a ZIP archive';
  } catch {
    return 'a ZIP archive';
  }
}

function startsWith(buf: Buffer, bytes: readonly number[]): boolean {
  return buf.length >= bytes.length && bytes.every((b, i) => buf[i] === b);
}

/** The head as text when it is UTF-8 (a cut multi-byte character at the end allowed) without control bytes. */
function asText(head: Buffer): string | undefined {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(trimPartialUtf8(head));
  } catch {
    return undefined;
  }
  const t = text.replace(/^\uFEFF/, '');
  // eslint-disable-next-line no-control-regex -- control bytes are exactly what tells binary from text
  return /[\x00-\x08\x0e-\x1a\x1c-\x1f\x7f]/.test(t) ? undefined : t;
}

/** Drops an incomplete UTF-8 sequence at the end: the head is cut at a byte count, not a character. */
function trimPartialUtf8(buf: Buffer): Buffer {
  for (let back = 1; back <= Math.min(3, buf.length); back++) {
    const b = buf[buf.length - back]!;
    if ((b & 0xc0) === 0x80) continue; // continuation byte: look further back for the lead
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return need > back ? buf.subarray(0, buf.length - back) : buf;
  }
  return buf;
}

/** Two spellings of one file count once (`a/../b.pdf`, a trailing separator; case on case-insensitive systems). */
function identity(id: string): string {
  if (!path.isAbsolute(id)) return id;
  const p = path.resolve(id);
  return process.platform === 'win32' || process.platform === 'darwin' ? p.toLowerCase() : p;
}

function reason(e: unknown): string {
  const code = typeof e === 'object' && e !== null ? (e as { code?: unknown }).code : undefined;
  if (code === 'ENOENT') return 'it no longer exists';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (typeof code === 'string') return code;
  return e instanceof Error ? e.message : String(e);
}
