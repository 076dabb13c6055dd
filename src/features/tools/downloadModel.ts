// hosted_download_model: a tuned model's artifact into the person's download folder (the application-scoped setting
// hostedReasoning.downloadFolder, which no workspace can set). Without that setting it refuses and says so: where the
// bytes go is never the model's to choose, and a save dialog in the middle of an agent's turn is not a confirmation.
// The transfer is the Download Model Artifact command's (download/artifactTransfer.ts): it joins a download of the same
// model into the same folder already running in this window, keeps the pending record a reload offers to resume (gone
// once the file is whole or a checksum failure deleted the part file), keeps the accepted name and records the file for
// Run Locally. The caller's cancellation aborts a transfer this call started (the part file stays for a resume); a
// joined one goes on, and this call only stops waiting for it.
import * as fs from 'node:fs/promises';
import * as vscode from 'vscode';
import { partFilePath } from '../../api/download';
import { artifactFileName } from '../../api/fileName';
import type { Services } from '../../services';
import { formatBytes } from '../../util/byteSize';
import { transferArtifact } from '../download/artifactTransfer';
import { isApiError } from '../../api/errors';
import { abortOn, fields, requiredString, runTool, said, serviceDataLine, SERVICE_WORDS, textResult } from './toolShared';

const NO_FOLDER = [
  'Not downloaded: no download folder is set, and this tool never chooses where files go.',
  'Ask the person to set "hostedReasoning.downloadFolder" in their user settings, or to run "Hosted Reasoning: Download Model Artifact…" themselves.',
];

export function downloadModelTool(services: Services): vscode.LanguageModelTool<unknown> {
  return {
    prepareInvocation: async (options) => {
      let modelName: string;
      try {
        modelName = requiredString(fields(options.input), 'modelName');
      } catch {
        return { invocationMessage: vscode.l10n.t('Checking the download request') };
      }
      const folder = services.session.settings().downloadFolder;
      if (!folder) return { invocationMessage: vscode.l10n.t('Refusing to download: no download folder is set') };
      const model = said(modelName, 80);
      // What is on disk already (a download that stopped) is resumed, not fetched again; the artifact's size itself
      // is known only once the service answers the download request, which prepareInvocation does not send.
      const resumed = await partSize(services, modelName, folder);
      const size =
        resumed > 0
          ? vscode.l10n.t(
              '{0} are already downloaded and will be resumed; the whole size is known once the service answers.',
              formatBytes(resumed),
            )
          : vscode.l10n.t('The size is known once the service answers.');
      return {
        invocationMessage: vscode.l10n.t('Downloading {0} to {1}', model, said(folder, 200)),
        confirmationMessages: {
          title: vscode.l10n.t('Download {0}?', model),
          message: vscode.l10n.t(
            'Writes the artifact of {0} to {1} as {2} (a free name if that one is taken). {3}',
            model,
            said(folder, 300),
            said(artifactFileName(modelName), 120),
            size,
          ),
        },
      };
    },
    invoke: (options, token) =>
      runTool('Downloading the model', async () => {
        const modelName = requiredString(fields(options.input), 'modelName');
        const directory = services.session.settings().downloadFolder;
        if (!directory) return textResult(NO_FOLDER);
        const connection = await services.session.connect();
        const cancel = abortOn(token);
        try {
          // The command's transfer: a download of this model into this folder already running in this window (the
          // person's, or another call's) is joined, not fetched a second time.
          const started = transferArtifact(services, connection, { modelName, directory }, { signal: cancel.signal });
          const outcome = started.joined ? await untilAborted(started.outcome, cancel.signal) : await started.outcome;
          if (outcome === undefined) {
            return textResult([
              'Stopped waiting: this download was already running in this window before this call, and it goes on; its progress notification shows how far it is.',
            ]);
          }
          return textResult([
            `Downloaded ${said(modelName)}: ${said(outcome.path, 400)} (${formatBytes(outcome.bytes)}, checked by ${outcome.verified}).`,
            ...(started.joined ? ['It was already being downloaded in this window; this call waited for that download.'] : []),
            'The person can run it with "Hosted Reasoning: Run Locally…".',
            serviceDataLine(SERVICE_WORDS.download),
          ]);
        } catch (error) {
          // Cancelled: the part file stays and is resumed by the next download (the record says so after a reload).
          if (token.isCancellationRequested || (isApiError(error) && error.kind === 'cancelled')) {
            return textResult(['Cancelled: the download stopped; what arrived is kept and a new call resumes it.']);
          }
          throw error;
        } finally {
          cancel.dispose();
        }
      }),
  };
}

/** The joined transfer's outcome, or undefined once `signal` aborts: this call stops waiting, the transfer goes on. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise<T | undefined>((resolve, reject) => {
    const stop = () => resolve(undefined);
    signal.addEventListener('abort', stop, { once: true });
    work.then(
      (v) => {
        signal.removeEventListener('abort', stop);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', stop);
        reject(e);
      },
    );
  });
}

/** Bytes of the part file a stopped download of this model into `folder` left, or 0. */
async function partSize(services: Services, modelName: string, folder: string): Promise<number> {
  try {
    const { client } = await services.session.connect();
    return (await fs.stat(partFilePath(folder, modelName, undefined, client.baseUrl))).size;
  } catch {
    return 0;
  }
}
