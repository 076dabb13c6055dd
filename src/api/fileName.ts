// File names that come from the network (a model name, Content-Disposition, a URL path) are untrusted:
// they are reduced to one safe base name that cannot leave the chosen folder on any OS.

import * as path from 'node:path';
import { parse as parseContentDisposition } from 'content-disposition';

// Windows maps these names to devices whatever extension follows and whatever spaces end the part before it
// ("nul .gguf", "CONIN$.txt"), also with superscript digits (COM¹).
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)$/i;
const MAX_NAME_BYTES = 200; // below the 255-byte limit of common file systems, leaving room for the part file's suffix and " (n)"
// Control and format characters (Unicode Cc, Cf): bidi overrides make "evil\u202Efuug.exe" read as "evilexe.gguf",
// zero-width ones make two names look alike.
const INVISIBLE = /[\p{Cc}\p{Cf}]/gu;
// What a sender may have meant as an extension (".exe", ".desktop"), as opposed to a version dot ("v1.5", "3.1-8b").
const EXTENSION_LIKE = /^\.[a-z][a-z0-9]{0,9}$/i;

function isWindowsReserved(name: string): boolean {
  return WINDOWS_RESERVED.test(name.split('.')[0]!.replace(/\s+$/, ''));
}

/** The safe form of `name`, or '' when nothing usable is left. */
function cleanName(name: string): string {
  let s = name.normalize('NFC').replace(INVISIBLE, '');
  // Keep only the last path segment, whichever separator the sender used.
  s = s.split(/[/\\]/).pop() ?? '';
  s = s.replace(/[<>:"|?*]/g, '_');
  s = s.replace(/^[.\s]+/, '').replace(/[.\s]+$/, '');
  if (isWindowsReserved(s)) s = `_${s}`;
  s = truncateUtf8(s, MAX_NAME_BYTES);
  return s === '.' || s === '..' ? '' : s;
}

/**
 * A base name safe to join to a folder: no separators, no `..`, no control or format characters, no Windows
 * reserved device names or trailing dots/spaces, bounded length. Returns `fallback` when nothing usable is left.
 */
export function safeFileName(name: string | undefined, fallback: string): string {
  const s = cleanName(name ?? '');
  if (!s) return fallback === '' ? 'download' : safeFileName(fallback, 'download');
  return s;
}

/**
 * The name an artifact is saved under: `name` (the user's or the server's) made safe, its extension replaced by .gguf
 * (the server does not choose what the file opens with), or the model's default name.
 */
export function finalFileName(name: string | undefined, modelName: string): string {
  const clean = cleanName(name ?? '');
  if (!clean) return artifactFileName(modelName);
  const ext = path.extname(clean);
  const stem = EXTENSION_LIKE.test(ext) ? clean.slice(0, clean.length - ext.length) : clean;
  return cleanName(`${stem}.gguf`) || artifactFileName(modelName);
}

function truncateUtf8(s: string, maxBytes: number): string {
  if (Buffer.byteLength(s) <= maxBytes) return s;
  const ext = path.extname(s).slice(0, 16);
  let stem = s.slice(0, s.length - ext.length);
  while (Buffer.byteLength(stem + ext) > maxBytes) stem = [...stem].slice(0, -1).join('');
  return stem + ext;
}

/** The file name a Content-Disposition header suggests (RFC 6266, `filename*` preferred), or undefined. */
export function fileNameFromContentDisposition(header: string | undefined): string | undefined {
  if (!header) return undefined;
  try {
    const name = parseContentDisposition(header).parameters.filename;
    return typeof name === 'string' && name.trim() ? name : undefined;
  } catch {
    // A malformed header is common enough; fall back to the next source of a name.
    const m = /filename\s*=\s*"?([^";]+)"?/i.exec(header);
    return m?.[1];
  }
}

/** The default artifact name for a model: its safe name with a .gguf extension. */
export function artifactFileName(modelName: string): string {
  const base = safeFileName(modelName, 'model');
  return /\.gguf$/i.test(base) ? base : `${base}.gguf`;
}

/** Joins a safe name to `dir` and proves the result is directly inside it. */
export function insideFolder(dir: string, name: string): string {
  const root = path.resolve(dir);
  const full = path.resolve(root, name);
  if (path.dirname(full) !== root) throw new Error(`Refusing a file name outside the download folder: ${name}`);
  return full;
}
