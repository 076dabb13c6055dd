// Which local models wait for workspace trust. Running a model hands its file to llama.cpp's native loader, a parser
// of untrusted input; VS Code's contract for Restricted Mode is that such work waits until the user trusts the
// workspace. A file the workspace controls waits: a .gguf chosen from a workspace (the record does not say which
// window trusted it, and trust belongs to a window), and any file inside one of this window's folders. A download
// elsewhere does not: the extension wrote it itself, from the service the user set (a setting no workspace can set),
// into the folder the user chose, and checked it against the length and checksum the service announced. No vscode:
// tested under plain mocha.
import * as path from 'node:path';
import type { LocalModelRecord } from './storedLocalModels';

/** Whether `file` is `folder` or lies below it (both absolute). */
export function isInsideFolder(file: string, folder: string): boolean {
  const relative = path.relative(folder, file);
  return relative === '' || (!relative.startsWith(`..${path.sep}`) && relative !== '..' && !path.isAbsolute(relative));
}

/**
 * Whether running this model must wait for trust in a window whose folders are `workspaceFolders`. `paths` are the
 * model file's names to judge (its path, and where its links lead), `folders` likewise for each workspace folder.
 */
export function waitsForTrust(
  model: Pick<LocalModelRecord, 'source'>,
  paths: readonly string[],
  workspaceFolders: readonly string[],
): boolean {
  if (model.source === 'file') return true;
  return paths.some((file) => workspaceFolders.some((folder) => isInsideFolder(file, folder)));
}
