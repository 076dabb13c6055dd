// Where a chosen source file really is. A name inside the workspace is not enough: `docs-link/secret.pdf`, with
// `docs-link` a link (planted by a repository) to a folder elsewhere, names a file of that folder under an innocent
// in-workspace name, and only its last part is a regular file that lstat accepts. So the file's real path (every link
// on the way resolved) must lie under the real path of a workspace folder; the folders are resolved too, since a
// workspace folder may itself be opened through a link. The upload checks it again on the opened file (src/api/
// uploadSource.ts), as minutes may pass in between. Pure node (no VS Code): every entry point of the finetune
// (Explorer, the file list and dialog, Chat, language-model tools) reaches it through checkFinetuneFiles.
import { realpath } from 'node:fs/promises';
import * as path from 'node:path';
import { isUnder } from '../../api/pathInside';

/** Where the chosen files are allowed to be, as the entry point that chose them knows. */
export interface SourcePlace {
  /** Absolute paths of the workspace folders on this file system (file: folders only). */
  roots: readonly string[];
  /**
   * The files were named by their own absolute path (an Open dialog, code): one whose path is outside every root is
   * taken as chosen. One whose path names a place inside a root must still really be there. Never set for the
   * Explorer, Chat or the workspace's file list, which only offer files inside the workspace.
   */
  outsideAllowed?: boolean;
}

/**
 * True when `file`'s real path lies under the real path of one of `roots`. An unreadable root is no root; a file whose
 * real path cannot be read is not inside (the check reports it as unreadable before this matters).
 */
export async function isReallyInside(
  file: string,
  roots: readonly string[],
  resolve: (p: string) => Promise<string> = realpath,
): Promise<boolean> {
  let real: string;
  try {
    real = await resolve(file);
  } catch {
    return false;
  }
  const realRoots = await Promise.all(roots.map((r) => resolve(r).catch(() => undefined)));
  return realRoots.some((root) => root !== undefined && isUnder(real, root));
}

/** `file` names a place under one of `roots` by its spelling alone (no link resolved): what the person was shown. */
export function isNamedInside(file: string, roots: readonly string[]): boolean {
  return roots.some((root) => isUnder(path.resolve(file), path.resolve(root)));
}

/** Why such a file is refused, naming it as the person knows it. */
export function outsideMessage(label: string): string {
  return `${label} is outside the workspace: a symbolic link on its way leads out of the workspace folders, and only files inside them can be used. Choose the file where it really is, or copy it into the workspace.`;
}
