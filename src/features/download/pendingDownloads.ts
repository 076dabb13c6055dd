// The downloads that have not finished (cancelled, interrupted by a reload, stopped by a full disk), kept in
// globalState so a later session can offer to resume them, or discard their part files. No vscode here: the record and
// the discard are tested without an editor.
import * as path from 'node:path';
import { partFilePath } from '../../api/download';
import { removePartFile } from '../../api/partFile';
import { lockPartFile, PartFileBusyError, type PartLock } from '../../api/partLock';
import { editGlobalState } from '../../globalStateEdit';
import type { Services } from '../../services';
import { PENDING_DOWNLOADS_KEY } from '../../storageKeys';

/** A download that has not finished: enough to resume it after a reload, or find its part file. */
export interface PendingDownload {
  modelName: string;
  directory: string;
  fileName?: string;
  /** The session scope it ran in: `<the client's base URL>#<key identity>` (connection/session.ts). */
  scope: string;
}

function isPendingDownload(x: unknown): x is PendingDownload {
  const d = x as Partial<PendingDownload> | null;
  return (
    typeof d === 'object' &&
    d !== null &&
    typeof d.modelName === 'string' &&
    typeof d.directory === 'string' &&
    typeof d.scope === 'string' &&
    (d.fileName === undefined || typeof d.fileName === 'string')
  );
}

/** The recorded downloads (anything unreadable is left out). */
export function pendingDownloads(services: Services): PendingDownload[] {
  return pendingOf(services.context.globalState.get<unknown>(PENDING_DOWNLOADS_KEY));
}

function pendingOf(stored: unknown): PendingDownload[] {
  return Array.isArray(stored) ? stored.filter(isPendingDownload) : [];
}

/** Records the download, or forgets it; a change made while another window (or the job list) writes is kept. */
export async function setPending(services: Services, d: PendingDownload, present: boolean): Promise<void> {
  const same = (x: PendingDownload) =>
    x.modelName === d.modelName && x.directory === d.directory && x.fileName === d.fileName && x.scope === d.scope;
  await editGlobalState(
    services.context.globalState,
    PENDING_DOWNLOADS_KEY,
    (stored) => {
      const list = pendingOf(stored).filter((x) => !same(x));
      return present ? [...list, d] : list;
    },
    { log: (m) => services.log.warn(m), what: 'The list of unfinished downloads' },
  );
}

/**
 * Where the download's bytes wait: the part file is named for the service (the client's base URL, which the scope
 * starts with: a key identity is hex, so the last `#` ends the URL) and the model.
 */
export function pendingPartFile(d: PendingDownload): string {
  const cut = d.scope.lastIndexOf('#');
  return partFilePath(d.directory, d.modelName, d.fileName, cut < 0 ? d.scope : d.scope.slice(0, cut));
}

export interface DiscardResult {
  discarded: PendingDownload[];
  /** Kept: a download in progress (in this window or another) holds their part file. */
  inUse: PendingDownload[];
}

/**
 * Deletes the part files of these downloads and forgets them (no confirmation: the caller has it), except those a
 * download in progress holds. Each part file is deleted under its lock (partLock.ts), so a download starting meanwhile
 * in another window waits its turn instead of writing into a file being deleted; a stale lock is taken over, and goes
 * with the part file when it is released.
 */
export async function discardPending(services: Services, downloads: readonly PendingDownload[]): Promise<DiscardResult> {
  const result: DiscardResult = { discarded: [], inUse: [] };
  for (const d of downloads) {
    const part = pendingPartFile(d);
    let lock: PartLock | undefined;
    try {
      lock = await lockPartFile(part);
    } catch (e) {
      if (e instanceof PartFileBusyError) {
        result.inUse.push(d);
        services.log.info(`Kept the partial download of ${d.modelName} (${path.basename(part)}): a download in progress holds it.`);
        continue;
      }
      // The folder is gone: nothing of it is left to delete.
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    try {
      await removePartFile(part);
    } finally {
      await lock?.release();
    }
    await setPending(services, d, false);
    result.discarded.push(d);
    services.log.info(`Discarded the partial download of ${d.modelName} (${path.basename(part)}).`);
  }
  return result;
}
