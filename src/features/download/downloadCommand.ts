// Download a custom model's artifact (spec 4.7): destination from the setting or a save dialog, progress
// with cancel, resume after a cancel or a reload (the .part file stays and is continued by Range), verified,
// then "Reveal" and "Copy Path". The transfer itself, shared with the download tool, is artifactTransfer.ts.
import * as path from 'node:path';
import { promises as fsp } from 'node:fs';
import * as vscode from 'vscode';
import { DiskError, isApiError } from '../../api/errors';
import { artifactFileName } from '../../api/fileName';
import type { DownloadProgress } from '../../api/download';
import { COMMANDS } from '../../contributions';
import type { Services } from '../../services';
import type { ModelsTreeProvider } from '../models/modelsTree';
import { defaultSaveFolder } from './defaultSaveFolder';
import { diskErrorAdvice, megabytes } from './diskErrorAdvice';
import { modelNameFromArgument, pickModel } from '../models/modelArgument';
import { showError } from '../../util/showError';
import { showErrorMessage, showInformationMessage, withProgress } from '../../util/notify';
import { pendingDownloads, pendingPartFile, setPending, type PendingDownload } from './pendingDownloads';
import { transferArtifact } from './artifactTransfer';
import { discardFromNotification } from './discardDownloads';
import { editGlobalState } from '../../globalStateEdit';

/**
 * The argument names the model only (a row, `{ modelName }` or a name). Where the bytes go is never taken from it:
 * a link can pass any argument, and a folder and file name from one would let the service's bytes replace any file.
 * The folder comes from the user's own setting (which a workspace cannot set) or a save dialog.
 */
export function downloadCommand(services: Services, models: ModelsTreeProvider) {
  return {
    [COMMANDS.download]: async (arg?: unknown) => {
      const modelName =
        modelNameFromArgument(arg) ?? (await pickModel(services, models, vscode.l10n.t('Download which model?'), (m) => m.kind !== 'base'));
      if (!modelName) return undefined;
      const target = await chooseDestination(services, modelName);
      if (!target) return undefined;
      return runDownload(services, modelName, target.directory, target.fileName);
    },
  };
}

async function chooseDestination(services: Services, modelName: string): Promise<{ directory: string; fileName?: string } | undefined> {
  const folder = services.session.settings().downloadFolder;
  if (folder) return { directory: folder };
  const lastDir = services.context.globalState.get<string>('hostedReasoning.lastDownloadFolder');
  const base = defaultSaveFolder(lastDir);
  const uri = await vscode.window.showSaveDialog({
    title: vscode.l10n.t('Save the artifact of {0}', modelName),
    defaultUri: vscode.Uri.file(path.join(base, artifactFileName(modelName))),
    filters: { [vscode.l10n.t('GGUF model')]: ['gguf'], [vscode.l10n.t('All files')]: ['*'] },
    saveLabel: vscode.l10n.t('Download'),
  });
  if (!uri) return undefined;
  await editGlobalState(services.context.globalState, 'hostedReasoning.lastDownloadFolder', () => path.dirname(uri.fsPath));
  return { directory: path.dirname(uri.fsPath), fileName: path.basename(uri.fsPath) };
}

/** Returns the final path, or undefined when it did not finish (the user was told why). */
export async function runDownload(
  services: Services,
  modelName: string,
  directory: string,
  fileName?: string,
): Promise<string | undefined> {
  let connection;
  try {
    connection = await services.session.connect();
  } catch (error) {
    await showError(services, vscode.l10n.t('Could not download {0}', modelName), error);
    return undefined;
  }
  // Cancelled from the progress notification, which opens only for a transfer this call starts.
  const controller = new AbortController();
  let onProgress: ((p: DownloadProgress) => void) | undefined;
  const started = transferArtifact(
    services,
    connection,
    { modelName, directory, fileName },
    { signal: controller.signal, onProgress: (p) => onProgress?.(p), shown: true },
  );
  // The same model into the same folder (the notification's Download and the Models view's, a Resume, the agent's
  // tool) joins the transfer already running in this window; whoever started it tells how it ends.
  if (started.joined) {
    void showInformationMessage(
      started.shown
        ? vscode.l10n.t('{0} is already being downloaded to {1}: its progress notification shows how far it is.', modelName, directory)
        : vscode.l10n.t(
            '{0} is already being downloaded to {1} for a language-model tool: the file is there when it ends.',
            modelName,
            directory,
          ),
    );
    return started.outcome.then(
      (o) => o.path,
      () => undefined,
    );
  }
  const pending: PendingDownload = { modelName, directory, fileName, scope: connection.scope };
  try {
    const outcome = await withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Downloading {0}', modelName), cancellable: true },
      async (progress, token) => {
        const sub = token.onCancellationRequested(() => controller.abort());
        let reported = 0;
        const since = Date.now();
        onProgress = (p) => {
          const pct = p.total ? (p.received / p.total) * 100 : undefined;
          const rate = (p.received - p.resumedFrom) / Math.max(0.001, (Date.now() - since) / 1000);
          progress.report({
            increment: pct !== undefined ? Math.max(0, pct - reported) : undefined,
            message: `${megabytes(p.received)}${p.total ? ` of ${megabytes(p.total)}` : ''} · ${megabytes(rate)}/s${p.resumedFrom ? ' (resumed)' : ''}`,
          });
          if (pct !== undefined) reported = pct;
        };
        try {
          return await started.outcome;
        } finally {
          sub.dispose();
        }
      },
    );
    void offerActions(modelName, outcome.path, outcome.bytes);
    return outcome.path;
  } catch (error) {
    if (isApiError(error) && error.kind === 'cancelled') {
      const resume = vscode.l10n.t('Resume');
      const discard = vscode.l10n.t('Discard');
      void showInformationMessage(
        vscode.l10n.t('Download of {0} paused. The partial file is kept; resume any time.', modelName),
        resume,
        discard,
      ).then(async (c) => {
        if (c === resume) void runDownload(services, modelName, directory, fileName);
        else if (c === discard) await discardFromNotification(services, pending);
      });
      return undefined;
    }
    if (error instanceof DiskError) {
      // Retrying cannot help until the cause is dealt with; the part file stays pending, so a Resume continues it.
      services.log.warn(error.message);
      const advice = diskErrorAdvice(modelName, error);
      const label = { resume: vscode.l10n.t('Resume'), tryAgain: vscode.l10n.t('Try Again') };
      const actions = advice.action ? [label[advice.action]] : [];
      void showErrorMessage(advice.message, ...actions).then((c) => {
        if (c !== undefined) void runDownload(services, modelName, directory, fileName);
      });
      return undefined;
    }
    // Not awaited: the Retry or Choose How to Read… of this notification starts a new transfer (this one has ended and
    // left the running map), which would otherwise wait for that very choice.
    void showError(services, vscode.l10n.t('Could not download {0}', modelName), error, () =>
      runDownload(services, modelName, directory, fileName),
    );
    return undefined;
  }
}

async function offerActions(modelName: string, file: string, bytes: number): Promise<void> {
  const reveal = vscode.l10n.t('Reveal');
  const copy = vscode.l10n.t('Copy Path');
  const runLocally = vscode.l10n.t('Run Locally');
  const choice = await showInformationMessage(
    vscode.l10n.t('Downloaded {0} ({1}).', path.basename(file), megabytes(bytes)),
    reveal,
    copy,
    runLocally,
  );
  if (choice === runLocally) {
    // By name only: the command finds the file in the record just written, as it does from the Models view.
    await vscode.commands.executeCommand(COMMANDS.runLocally, { modelName });
  } else if (choice === reveal) {
    // revealFileInOS exists on desktop; in a remote or browser window, reveal in the Explorer instead.
    await vscode.commands
      .executeCommand('revealFileInOS', vscode.Uri.file(file))
      .then(undefined, () => vscode.commands.executeCommand('revealInExplorer', vscode.Uri.file(file)));
  } else if (choice === copy) {
    await vscode.env.clipboard.writeText(file);
  }
}

/**
 * After a reload: offers to resume downloads that did not finish and still have their part file.
 * Runs after activation, off the activation path.
 */
export async function offerPendingDownloads(services: Services): Promise<void> {
  const list = pendingDownloads(services);
  if (!list.length) return;
  const scope = await services.session.scope();
  if (!scope) return;
  for (const d of list) {
    if (d.scope !== scope) continue;
    // Named for the service and the model, so two services' downloads of one name never mix.
    const part = pendingPartFile(d);
    const size = await fsp.stat(part).then(
      (s) => s.size,
      () => 0,
    );
    if (!size) {
      await setPending(services, d, false);
      continue;
    }
    const resume = vscode.l10n.t('Resume');
    const discard = vscode.l10n.t('Discard');
    const choice = await showInformationMessage(
      vscode.l10n.t('The download of {0} stopped at {1}.', d.modelName, megabytes(size)),
      resume,
      discard,
    );
    if (choice === resume) void runDownload(services, d.modelName, d.directory, d.fileName);
    else if (choice === discard) await discardFromNotification(services, d);
  }
}
