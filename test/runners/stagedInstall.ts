// Installing into a folder shared by every clone of the machine (the VS Code cache): each install is made in a
// staging folder of its own process and renamed into place once complete, so two installs at once never mix files.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** `<dir>.partial-<pid>`: where this process installs what it renames to `dir` once complete. */
export const stagingFor = (dir: string): string => `${dir}.partial-${process.pid}`;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes the staging folders of installs whose process is gone (stopped or crashed), a gigabyte each. */
export function removeAbandonedStaging(dir: string): void {
  const parent = path.dirname(dir);
  const prefix = `${path.basename(dir)}.partial-`;
  for (const name of fs.existsSync(parent) ? fs.readdirSync(parent) : []) {
    const pid = Number(name.slice(prefix.length));
    if (name.startsWith(prefix) && Number.isInteger(pid) && !isAlive(pid)) {
      fs.rmSync(path.join(parent, name), { recursive: true, force: true });
    }
  }
}

/** Moves a complete staging folder into place; false when another install got there first (its copy is kept). */
export function moveIntoPlace(staging: string, dir: string): boolean {
  try {
    fs.renameSync(staging, dir);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EEXIST' && code !== 'ENOTEMPTY' && code !== 'EPERM') throw error;
    fs.rmSync(staging, { recursive: true, force: true });
    return false;
  }
}
