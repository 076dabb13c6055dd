// What the user reads when the disk refuses a download, by its cause: only more room helps a full disk or a used-up
// quota, and only there does a Resume (bytes were kept) or a Try Again (none were) make sense. A read-only or
// forbidden folder, or a file system that cannot hold a file this large, needs another folder: no button would help,
// and "free space and Resume" would send the user after the wrong problem. No vscode: tested under plain mocha.
import * as path from 'node:path';
import type { DiskError } from '../../api/errors';
import { l10n } from '../../l10n';

export interface DiskErrorAdvice {
  message: string;
  /** What the notification offers: continue the part file, start again, or nothing. */
  action?: 'resume' | 'tryAgain';
}

/** "1.5 MB", "2.10 GB". */
export function megabytes(bytes: number): string {
  return bytes >= 1024 ** 3 ? `${(bytes / 1024 ** 3).toFixed(2)} GB` : `${(bytes / 1024 ** 2).toFixed(1)} MB`;
}

export function diskErrorAdvice(modelName: string, error: Pick<DiskError, 'code' | 'keptBytes' | 'partFile'>): DiskErrorAdvice {
  const folder = path.dirname(error.partFile);
  const kept = error.keptBytes > 0;
  const keptNote = kept ? l10n.t(' {0} are kept in {1}.', megabytes(error.keptBytes), error.partFile) : '';
  switch (error.code) {
    case 'ENOSPC':
    case 'EDQUOT': {
      const why =
        error.code === 'ENOSPC'
          ? l10n.t('Could not download {0}: the disk that holds {1} is full.', modelName, folder)
          : l10n.t('Could not download {0}: your disk quota for {1} is used up.', modelName, folder);
      return kept
        ? { message: `${why}${keptNote} ${l10n.t('Free space, then Resume.')}`, action: 'resume' }
        : { message: `${why} ${l10n.t('Free space, then try again.')}`, action: 'tryAgain' };
    }
    case 'EROFS':
      return {
        message: `${l10n.t(
          'Could not download {0}: {1} is on a read-only disk. Choose another folder (the setting hostedReasoning.downloadFolder, or the save dialog).',
          modelName,
          folder,
        )}${keptNote}`,
      };
    case 'EFBIG':
      return {
        message: `${l10n.t(
          'Could not download {0}: the file system of {1} does not allow a file this large (FAT32 stops at 4 GB). Choose a folder on another disk.',
          modelName,
          folder,
        )}${keptNote}`,
      };
    default:
      // EACCES, EPERM: the folder (or the part file in it) may not be written by this user.
      return {
        message: `${l10n.t(
          'Could not download {0}: {1} cannot be written here (permission denied). Choose another folder, or allow writing to it.',
          modelName,
          folder,
        )}${keptNote}`,
      };
  }
}
