// hosted_download_model: a tuned model's artifact into the person's download folder (the application-scoped setting
// hostedReasoning.downloadFolder, which no workspace can set). Without that setting it refuses and says so: where the
// bytes go is never the model's to choose, and a save dialog in the middle of an agent's turn is not a confirmation.
// The client's download does the work (signed URL, resume from the part file, checksum, its lock against a second
// writer); the download is recorded as pending until it ends, as the command records it, so a reload offers to resume
// it, and a finished one is recorded for Run Locally. The caller's cancellation aborts the transfer (the part file
// stays for a resume).
import * as fs from 'node:fs/promises';
import * as vscode from 'vscode';
import { partFilePath } from '../../api/download';
import { artifactFileName } from '../../api/fileName';
import { originOf } from '../../connection/apiKeyStore';
import type { Services } from '../../services';
import { formatBytes } from '../../util/byteSize';
import { setPending, type PendingDownload } from '../download/pendingDownloads';
import { abortOn, fields, requiredString, runTool, said, textResult } from './toolShared';

const NO_FOLDER = [
  'Not downloaded: no download folder is set, and this tool never chooses where files go.',
  'Ask the person to set "hostedReasoning.downloadFolder" in their user settings, or to run "Hosted Reasoning: Download Model…" themselves.',
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
        const { client, scope } = await services.session.connect();
        const pending: PendingDownload = { modelName, directory, scope };
        await setPending(services, pending, true);
        const cancel = abortOn(token);
        try {
          const outcome = await client.download(modelName, { directory, signal: cancel.signal });
          await setPending(services, pending, false);
          services.log.info(`Tool: downloaded ${modelName} to ${outcome.path} (${outcome.bytes} bytes, ${outcome.verified} verified).`);
          await services.local
            .recordDownload(originOf(client.baseUrl) ?? client.baseUrl, modelName, outcome.path, outcome.bytes)
            .catch((e: unknown) => services.log.warn(`Could not record the download of ${modelName}: ${String(e)}`));
          return textResult([
            `Downloaded ${said(modelName)}: ${said(outcome.path, 400)} (${formatBytes(outcome.bytes)}, checked by ${outcome.verified}).`,
            'The person can run it with "Hosted Reasoning: Run Locally…".',
          ]);
        } catch (error) {
          // Cancelled: the part file stays and is resumed by the next download (the record says so after a reload).
          if (token.isCancellationRequested) {
            return textResult(['Cancelled: the download stopped; what arrived is kept and a new call resumes it.']);
          }
          throw error;
        } finally {
          cancel.dispose();
        }
      }),
  };
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
