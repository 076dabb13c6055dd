// Where the download save dialog opens when no download folder is set. Never the workspace: a multi-GB artifact
// saved next to the sources ends up in a commit. The folder the user chose last wins while it still exists.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export function defaultSaveFolder(
  lastUsed: string | undefined,
  home: string = os.homedir(),
  isDirectory: (folder: string) => boolean = isExistingDirectory,
): string {
  if (lastUsed && isDirectory(lastUsed)) return lastUsed;
  const downloads = path.join(home, 'Downloads');
  return isDirectory(downloads) ? downloads : home;
}

function isExistingDirectory(folder: string): boolean {
  try {
    return fs.statSync(folder).isDirectory();
  } catch {
    return false;
  }
}
