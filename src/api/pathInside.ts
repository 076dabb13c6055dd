// Whether a path lies under a folder, by their spelling (no link resolved here: callers pass real paths when links
// matter). Shared by the finetune's checks when files are chosen (features/finetune/realPlace.ts) and by the upload,
// which checks again on the opened file (uploadSource.ts). Pure node.
import * as path from 'node:path';

/** `file` lies strictly under `root` (the folder itself is not under it). */
export function isUnder(file: string, root: string): boolean {
  const rel = path.relative(fold(root), fold(file));
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
}

/** Case-insensitive file systems (the usual ones on Windows and macOS): one file, two spellings. */
function fold(p: string): string {
  return process.platform === 'win32' || process.platform === 'darwin' ? p.toLowerCase() : p;
}

/**
 * Why a workspace file with a second name is not uploaded (`it …`, after the file's name): said when it is chosen and
 * again at the upload. A hard link is the one link realpath cannot see: its other name may be a file outside.
 */
export const HARD_LINK_REASON =
  'it has another name elsewhere (a hard link), which may be a file outside the workspace: only a file with one name is sent. Copy it into the workspace (a copy, not a link) and choose the copy.';
