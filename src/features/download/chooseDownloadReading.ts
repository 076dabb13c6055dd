// Choose How to Read… for a download answer that gave no URL the extension can use (issue 27, item 2), offered by
// the download's error: the person picks, from the service's last such answer, the place of the artifact's URL
// (only absolute https URLs are offered, downloadChoice.ts, shown with their query redacted); it is kept as the
// `download` part of the service's profile, the values around it inferred, and the download of that model starts
// again. The answer and the model are the ones the extension kept: the command takes nothing from its arguments (a
// link could otherwise send any URL, or the key's service's model to another origin).
import * as vscode from 'vscode';
import { chosenDownloadProfile, downloadUrlFields } from '../../api/downloadChoice';
import { COMMANDS } from '../../contributions';
import type { Services } from '../../services';
import { showInformationMessage } from '../../util/notify';
import { pickAnswerField } from '../../util/pickAnswerField';

export function chooseDownloadReadingCommand(services: Services) {
  return { [COMMANDS.chooseHowToReadDownload]: () => chooseDownloadReading(services) };
}

/** Resolves with what the download started again resolved with, or undefined when nothing was chosen. */
async function chooseDownloadReading(services: Services): Promise<unknown> {
  const { origin, baseUrl } = await services.session.current();
  const last = origin === undefined ? undefined : services.profiles.latest(origin, { parts: ['download'], unreadable: true });
  if (origin === undefined || baseUrl === undefined || last?.part !== 'download' || !last.context) {
    void showInformationMessage(
      vscode.l10n.t('No unreadable download answer of this service is kept in this window: there is nothing to choose.'),
    );
    return undefined;
  }
  // As the client judges a download URL: plain http only when the service itself is (on this machine: urlPolicy.ts).
  const allowHttp = /^http:/i.test(baseUrl);
  const fields = downloadUrlFields(last.body, allowHttp);
  if (fields.length === 0) {
    void showInformationMessage(
      vscode.l10n.t(
        "The service's last download answer holds no https URL the extension could download from: see the log for what it sent.",
      ),
    );
    return undefined;
  }
  const field = await pickAnswerField(fields, {
    title: vscode.l10n.t('Choose How to Read the Download Answer'),
    placeholder: vscode.l10n.t('Which URL of the service’s answer is the model’s file?'),
  });
  if (!field) return undefined;
  await services.profiles.choose(origin, 'download', chosenDownloadProfile(last.body, field.path, allowHttp));
  return vscode.commands.executeCommand(COMMANDS.download, { modelName: (last.context as { modelName: string }).modelName });
}
