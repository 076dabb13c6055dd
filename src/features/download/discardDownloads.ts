// Discard what unfinished downloads left behind: their part files (and the validator beside each), and their entry in
// the list of downloads to resume. From the palette (every one, or the ones picked, after a modal confirmation) and
// from the Discard button of a paused download's notification (that one, as the button says). The files are found
// from the extension's own record only, never from a command argument: a link can pass any argument.
import { promises as fsp } from 'node:fs';
import * as vscode from 'vscode';
import { COMMANDS } from '../../contributions';
import type { Services } from '../../services';
import { formatBytes } from '../../util/byteSize';
import { showInformationMessage, showWarningMessage } from '../../util/notify';
import { untrustedText } from '../../util/untrustedText';
import { discardPending, pendingDownloads, pendingPartFile, setPending, type PendingDownload } from './pendingDownloads';

export function discardDownloadsCommand(services: Services) {
  return { [COMMANDS.discardPartialDownloads]: () => discardPartialDownloads(services) };
}

interface PartialDownload {
  download: PendingDownload;
  part: string;
  bytes: number;
}

/** Each recorded download with the bytes its part file holds (0: none left). */
async function partials(services: Services): Promise<PartialDownload[]> {
  return Promise.all(
    pendingDownloads(services).map(async (download) => {
      const part = pendingPartFile(download);
      const bytes = await fsp.lstat(part).then(
        (s) => (s.isFile() ? s.size : 0),
        () => 0,
      );
      return { download, part, bytes };
    }),
  );
}

/** Returns how many downloads were discarded. */
async function discardPartialDownloads(services: Services): Promise<number> {
  const all = await partials(services);
  // A record whose part file is gone holds nothing to discard: it is dropped quietly.
  for (const gone of all.filter((p) => p.bytes === 0)) await setPending(services, gone.download, false);
  let chosen = all.filter((p) => p.bytes > 0);
  if (chosen.length === 0) {
    void showInformationMessage(vscode.l10n.t('No partial downloads to discard.'));
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
      ].join('\n'),
    },
    discard,
  );
  if (answer !== discard) return 0;
  await discardPending(
    services,
    chosen.map((p) => p.download),
  );
  void showInformationMessage(vscode.l10n.t('Discarded {0} partial downloads ({1}).', chosen.length, formatBytes(total)));
  return chosen.length;
}
