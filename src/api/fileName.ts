// File names that come from the network (a model name, Content-Disposition, a URL path) are untrusted:
// they are reduced to one safe base name that cannot leave the chosen folder on any OS.

import * as path from 'node:path';
import { parse as parseContentDisposition } from 'content-disposition';

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;
const MAX_NAME_BYTES = 200; // below the 255-byte limit of common file systems, leaving room for ".part" and " (n)"

/**
 * A base name safe to join to a folder: no separators, no `..`, no NUL or control characters, no Windows
 * reserved device names or trailing dots/spaces, bounded length. Returns `fallback` when nothing usable is left.
 */
export function safeFileName(name: string | undefined, fallback: string): string {
  let s = (name ?? '').normalize('NFC');
  // Keep only the last path segment, whichever separator the sender used.
  s = s.split(/[/\\]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex -- control characters are exactly what must go
  s = s.replace(/[\u0000-\u001f\u007f<>:"|?*]/g, '_');
  s = s.replace(/^[.\s]+/, '').replace(/[.\s]+$/, '');
  if (WINDOWS_RESERVED.test(s)) s = `_${s}`;
  s = truncateUtf8(s, MAX_NAME_BYTES);
  if (!s || s === '.' || s === '..') return fallback === '' ? 'download' : safeFileName(fallback, 'download');
  return s;
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
