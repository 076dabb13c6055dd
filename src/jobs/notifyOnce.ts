// Which window tells the user a job ended. Every window polls the jobs it sees, so two may observe the same end; the
// one that announces it is the one that creates the job's marker file in the extension's globalStorage folder with
// the exclusive flag 'wx': the file system lets exactly one create succeed, across windows and processes.
//
// Not a field in the job record: VS Code keeps an extension's globalState as one value per window, copied to the
// others a moment after a write, so two windows could both read "not announced" and both announce. Node fs only: the
// poller's tests drive two pollers over one temp folder without VS Code.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

/** True for exactly one caller per id across all windows: that one announces the job's end. */
export type ClaimNotice = (id: string) => Promise<boolean>;

/** Markers older than this belong to jobs long finished: no window can still observe their end. */
export const MARKER_AGE_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * Claims with marker files in `dir` (created on first use). The first claim of a window session removes files past
 * MARKER_AGE_MS (markers, and what older versions kept there), so the folder does not grow with every job ever run.
 */
export function markerFiles(dir: string): ClaimNotice {
  let ready: Promise<void> | undefined;
  return async (id) => {
    ready ??= fs.mkdir(dir, { recursive: true }).then(
      () => prune(dir),
      (e: unknown) => {
        ready = undefined; // try again at the next end
        throw e;
      },
    );
    await ready;
    try {
      await fs.writeFile(path.join(dir, `${fileName(id)}.notified`), '', { flag: 'wx' });
      return true;
    } catch (e) {
      if (typeof e === 'object' && e !== null && (e as { code?: unknown }).code === 'EEXIST') return false;
      throw e;
    }
  };
}

async function prune(dir: string): Promise<void> {
  // File times are wall times, whatever clock the poller runs on.
  const now = Date.now();
  try {
    for (const name of await fs.readdir(dir)) {
      const full = path.join(dir, name);
      const { mtimeMs } = await fs.stat(full).catch(() => ({ mtimeMs: now }));
      if (now - mtimeMs > MARKER_AGE_MS) await fs.rm(full, { force: true }).catch(() => undefined);
    }
  } catch {
    // Housekeeping only.
  }
}

/** A file name from a hash: job ids and scopes are the service's strings and may hold anything. */
function fileName(id: string): string {
  return createHash('sha256').update(id).digest('hex').slice(0, 40);
}
