// The transfer of a model's artifact to disk that both the Download Model Artifact command and the
// hosted_download_model tool run (spec 4.7): one download per part file in this window (a second request joins the
// one running), the pending record a reload offers to resume (forgotten once the file is whole, or once a checksum or
// size mismatch has deleted the part file), the typed name kept once the service accepts it, and a finished file
// recorded for Run Locally. What each caller shows (a progress notification, a tool's result text) stays with it:
// progress and cancellation come in as parameters. No vscode here: tested without an editor.
import { isApiError } from '../../api/errors';
import { partFilePath, type DownloadOutcome, type DownloadProgress } from '../../api/download';
import type { ServiceClient } from '../../api/client';
import { originOf } from '../../api/urlPolicy';
import type { Services } from '../../services';
import { keepAcceptedName } from '../models/acceptedName';
import { setPending, type PendingDownload } from './pendingDownloads';

/** Which model goes where; a file name only from a save dialog (it already asked about replacing the file). */
export interface ArtifactRequest {
  modelName: string;
  directory: string;
  fileName?: string;
}

/** The caller's side of a transfer it starts; a joined transfer keeps the controls of the one that started it. */
export interface TransferControls {
  signal?: AbortSignal;
  onProgress?: (p: DownloadProgress) => void;
  /** The starter shows the transfer to the person (a progress notification they can cancel); a tool's call does not. */
  shown?: boolean;
}

export interface ArtifactTransfer {
  /** True when this request joined a transfer already running in this window (its controls were not used). */
  joined: boolean;
  /** Whether the transfer (this request's, or the one it joined) is shown to the person as it runs. */
  shown: boolean;
  /** The file once whole and verified; rejects with the client's error (cancelled, disk, integrity, …). */
  outcome: Promise<DownloadOutcome>;
}

/** The transfers running in this window, by part file: the same model into the same folder writes the same one. */
const running = new Map<string, { outcome: Promise<DownloadOutcome>; shown: boolean }>();

/**
 * Joins the transfer of the same artifact into the same place already running in this window, or starts one. Checked
 * and recorded at once (no await between), so two requests at the same moment make one transfer; another window's is
 * refused by the part file's lock (partLock.ts).
 */
export function transferArtifact(
  services: Services,
  connection: { client: ServiceClient; scope: string },
  request: ArtifactRequest,
  controls: TransferControls = {},
): ArtifactTransfer {
  const part = partFilePath(request.directory, request.modelName, request.fileName, connection.client.baseUrl);
  const joined = running.get(part);
  if (joined) return { joined: true, ...joined };
  const started = { outcome: transfer(services, connection, request, controls), shown: controls.shown ?? false };
  running.set(part, started);
  // Gone before any caller hears the end, so a Retry or Resume it offers starts a new transfer instead of joining this one.
  const forget = () => {
    if (running.get(part) === started) running.delete(part);
  };
  started.outcome.then(forget, forget);
  return { joined: false, ...started };
}

async function transfer(
  services: Services,
  { client, scope }: { client: ServiceClient; scope: string },
  { modelName, directory, fileName }: ArtifactRequest,
  controls: TransferControls,
): Promise<DownloadOutcome> {
  const pending: PendingDownload = { modelName, directory, fileName, scope };
  await setPending(services, pending, true);
  let accepted = false;
  let outcome: DownloadOutcome;
  try {
    outcome = await client.download(modelName, {
      directory,
      fileName,
      overwrite: fileName !== undefined,
      signal: controls.signal,
      onProgress: (p) => {
        // Bytes coming: the service knew the model (a typed name is kept for when the list cannot be read).
        if (!accepted) keepAcceptedName(services, client.baseUrl, modelName);
        accepted = true;
        controls.onProgress?.(p);
      },
    });
  } catch (error) {
    // A checksum or size mismatch deleted the part file: nothing is left to resume. Cancelled, a full disk, a lost
    // connection: the part file stays, and so does the record a reload offers to resume.
    if (isApiError(error) && error.kind === 'integrity') await setPending(services, pending, false);
    throw error;
  }
  await setPending(services, pending, false);
  services.log.info(
    `Downloaded ${modelName} to ${outcome.path} (${outcome.bytes} bytes, ${outcome.verified} verified, resumed from ${outcome.resumedFrom}).`,
  );
  // Known before a caller offers Run Locally, which looks the file up by model name only. The file is there whatever
  // happens to the record: a failure to write it is logged, not told as a failed download.
  await services.local
    .recordDownload(originOf(client.baseUrl) ?? client.baseUrl, modelName, outcome.path, outcome.bytes)
    .catch((e: unknown) => services.log.warn(`Could not record the download of ${modelName}: ${String(e)}`));
  return outcome;
}
