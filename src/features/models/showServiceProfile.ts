// Show How the Service Is Read: a read-only plain-text document saying, in words, how the service's answers are read
// (where the model names are, a few of them, where the kind comes from and what each word means; where a started job's
// id is; where a download answer's URL, expiry, size and checksum are), where that came from (inferred, chosen, or the
// setting), and the profile as the setting takes it, to correct it or share it with a team. Plain text: the service's
// words are shown as written, never rendered; profileWords.ts caps them.
import * as vscode from 'vscode';
import type { PartName } from '../../api/profileFormat';
import { partLines } from '../../api/profileWords';
import { COMMANDS, PROFILE_SCHEME } from '../../contributions';
import type { Services } from '../../services';

export function showServiceProfileCommand(services: Services) {
  const provider = vscode.workspace.registerTextDocumentContentProvider(PROFILE_SCHEME, {
    provideTextDocumentContent: () => profileText(services),
  });
  return {
    provider,
    commands: {
      [COMMANDS.showServiceProfile]: async () => {
        // A new query each time: VS Code asks the provider again instead of showing the text it read before.
        const uri = vscode.Uri.from({ scheme: PROFILE_SCHEME, path: '/How the service is read.txt', query: String(Date.now()) });
        const document = await vscode.workspace.openTextDocument(uri);
        await vscode.window.showTextDocument(document, { preview: true });
        return document.getText();
      },
    },
  };
}

/** The parts in the order the document says them. */
const PARTS_SHOWN: readonly PartName[] = ['modelList', 'startedJob', 'finetuneStatus', 'evaluationStatus', 'download', 'stream', 'answer'];

/** What the document says of a part not read yet (of the inference answers, nothing: a run reads them until one is kept). */
const NOT_READ_YET: Partial<Record<PartName, () => string>> = {
  modelList: () => vscode.l10n.t('Model names: not read yet (open the Models view).'),
  startedJob: () => vscode.l10n.t('Started jobs: not read yet (start a finetuning job or an evaluation).'),
  finetuneStatus: () => vscode.l10n.t('Finetune status: not read yet (start a finetuning job).'),
  evaluationStatus: () => vscode.l10n.t('Evaluation status: not read yet (evaluate a model).'),
  download: () => vscode.l10n.t('Download answer: not read yet (download a model; a service that redirects has none).'),
};

async function profileText(services: Services): Promise<string> {
  const { origin } = await services.session.current();
  if (origin === undefined) return `${vscode.l10n.t('No service is configured: set its URL first (Configure Service URL…).')}\n`;
  const lines = [vscode.l10n.t('How the answers of {0} are read', origin), ''];
  // The setting's form: each part without where it came from.
  const setting: Record<string, unknown> = {};
  for (const part of PARTS_SHOWN) {
    const profile = services.profiles.profile(origin, part);
    if (profile) {
      // English, as the rest of each part's lines are: src/api may not reach l10n.
      lines.push(...partLines(part, profile, services.profiles.lastSamples(origin)));
      const { by: _by, ...shared } = profile;
      setting[part] = shared;
    } else if (NOT_READ_YET[part]) lines.push(NOT_READ_YET[part]());
  }
  lines.push(
    '',
    vscode.l10n.t('The other answers (an inference, an error) are read by their shape at each answer.'),
    vscode.l10n.t(
      'To correct how the model list is read: Choose How to Read… in the Models view when it cannot be read, or the setting hostedReasoning.serviceProfile (below, as it takes it).',
    ),
  );
  if (Object.keys(setting).length > 0) lines.push('', JSON.stringify({ [origin]: setting }, null, 2));
  return `${lines.join('\n')}\n`;
}
