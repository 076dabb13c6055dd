// Discard what unfinished downloads left behind: their part files (and the validator beside each), and their entry in
// the list of downloads to resume. From the palette (every one, or the ones picked, after a modal confirmation) and
// from the Discard button of a paused download's notification (that one, as the button says). The files are found
// from the extension's own record only, never from a command argument: a link can pass any argument.
// A part file a download in progress holds (its lock is live: this window's download, or another window's) is neither
// offered nor deleted, and the person is told it was kept; a stale lock holds nothing and goes with its part file.
import { promises as fsp } from 'node:fs';
import * as vscode from 'vscode';
import { partLockHeld } from '../../api/partLock';
import { COMMANDS } from '../../contributions';
import type { Services } from '../../services';
import { formatBytes } from '../../util/byteSize';
import { showInformationMessage, showWarningMessage } from '../../util/notify';
import { showError } from '../../util/showError';
import { untrustedText } from '../../util/untrustedText';
import { discardPending, pendingDownloads, pendingPartFile, type PendingDownload } from './pendingDownloads';

export function discardDownloadsCommand(services: Services) {
  return { [COMMANDS.discardPartialDownloads]: () => discardPartialDownloads(services) };
}

interface PartialDownload {
  download: PendingDownload;
  part: string;
  bytes: number;
  /** A download in progress holds the part file (its lock is live). */
  inUse: boolean;
}

/** Each recorded download with the bytes its part file holds (0: none left) and whether a download holds it now. */
async function partials(services: Services): Promise<PartialDownload[]> {
  return Promise.all(
    pendingDownloads(services).map(async (download) => {
      const part = pendingPartFile(download);
      const bytes = await fsp.lstat(part).then(
        (s) => (s.isFile() ? s.size : 0),
        () => 0,
      );
      const inUse = await partLockHeld(part).catch(() => false);
      return { download, part, bytes, inUse };
    }),
  );
}

/** What the person is told of the part files kept because a download in progress holds them. */
function keptInUse(count: number): string {
  return count === 1
    ? vscode.l10n.t('1 partial download is in use by a download in progress and was kept.')
    : vscode.l10n.t('{0} partial downloads are in use by downloads in progress and were kept.', count);
}

/**
 * The paused or stopped download's Discard button: that one, unless a download in progress holds it now. Never
 * rejects (a notification's button has nobody to hear it): a failure is shown.
 */
export async function discardFromNotification(services: Services, download: PendingDownload): Promise<void> {
  try {
    const { inUse } = await discardPending(services, [download]);
    if (inUse.length) void showInformationMessage(keptInUse(inUse.length));
  } catch (error) {
    await showError(services, vscode.l10n.t('Could not discard the partial download of {0}', download.modelName), error);
  }
}

/** Returns how many downloads were discarded. */
async function discardPartialDownloads(services: Services): Promise<number> {
  const all = await partials(services);
  const inUse = all.filter((p) => p.inUse);
  // A record whose part file is gone holds nothing to discard: it is dropped quietly (a stale lock with it). One a
  // download in progress holds is that download's: it may not have written its first byte yet.
  const gone = all.filter((p) => !p.inUse && p.bytes === 0);
  if (gone.length) {
    await discardPending(
      services,
      gone.map((p) => p.download),
    );
  }
  let chosen = all.filter((p) => !p.inUse && p.bytes > 0);
  if (chosen.length === 0) {
    void showInformationMessage(inUse.length ? keptInUse(inUse.length) : vscode.l10n.t('No partial downloads to discard.'));
    return 0;
  }
  if (chosen.length > 1) {
    const items = chosen.map((p) => ({
      label: untrustedText(p.download.modelName),
      description: formatBytes(p.bytes),
      detail: untrustedText(p.part),
      picked: true,
      partial: p,
    }));
    const picked = await vscode.window.showQuickPick(items, {
      title: vscode.l10n.t('Discard Partial Downloads'),
      placeHolder: vscode.l10n.t('The partial downloads to discard'),
      canPickMany: true,
    });
    if (!picked?.length) return 0;
    chosen = picked.map((i) => i.partial);
  }
  const total = chosen.reduce((sum, p) => sum + p.bytes, 0);
  const discard = vscode.l10n.t('Discard');
  const answer = await showWarningMessage(
    chosen.length === 1
      ? vscode.l10n.t('Discard the partial download of {0} ({1})?', chosen[0]!.download.modelName, formatBytes(total))
      : vscode.l10n.t('Discard {0} partial downloads ({1})?', chosen.length, formatBytes(total)),
    {
      modal: true,
      detail: [
        vscode.l10n.t('These files are deleted; a later download starts from the beginning:'),
        ...chosen.map((p) => `${p.part} (${formatBytes(p.bytes)})`),
        ...(inUse.length ? ['', vscode.l10n.t('Not offered, in use by a download in progress:'), ...inUse.map((p) => p.part)] : []),
      ].join('\n'),
    },
    discard,
  );
  if (answer !== discard) return 0;
  // A download may have started on one of them since it was offered: that one is kept too.
  const result = await discardPending(
    services,
    chosen.map((p) => p.download),
  );
  const discarded = chosen.filter((p) => result.discarded.includes(p.download));
  const kept = inUse.length + result.inUse.length;
  const told = [
    ...(discarded.length
      ? [
          vscode.l10n.t(
            'Discarded {0} partial downloads ({1}).',
            discarded.length,
            formatBytes(discarded.reduce((sum, p) => sum + p.bytes, 0)),
          ),
        ]
      : []),
    ...(kept ? [keptInUse(kept)] : []),
  ];
  void showInformationMessage(told.join(' '));
  return discarded.length;
}
