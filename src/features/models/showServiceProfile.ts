// Show How the Service Is Read: a read-only plain-text document saying, in words, how the service's answers are read
// (where the model names are, a few of them, where the kind comes from and what each word means; where a started job's
// id is; where a download answer's URL, expiry, size and checksum are), where that came from (inferred, chosen, or the
// setting), and the profile as the setting takes it, to correct it or share it with a team. Plain text: the service's
// words are shown as written, never rendered; profileWords.ts caps them.
import * as vscode from 'vscode';
import { downloadLines, jobStatusLines, modelListLines, startedJobLines, streamLines } from '../../api/profileWords';
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

async function profileText(services: Services): Promise<string> {
  const { origin } = await services.session.current();
  if (origin === undefined) return `${vscode.l10n.t('No service is configured: set its URL first (Configure Service URL…).')}\n`;
  const lines = [vscode.l10n.t('How the answers of {0} are read', origin), ''];
  const profile = services.profiles.profile(origin, 'modelList');
  if (profile) lines.push(...modelListLines(profile, services.profiles.lastSamples(origin)));
  else lines.push(vscode.l10n.t('Model names: not read yet (open the Models view).'));
  const startedJob = services.profiles.profile(origin, 'startedJob');
  if (startedJob) lines.push(...startedJobLines(startedJob));
  else lines.push(vscode.l10n.t('Started jobs: not read yet (start a finetuning job or an evaluation).'));
  const finetune = services.profiles.profile(origin, 'finetuneStatus');
  const evaluation = services.profiles.profile(origin, 'evaluationStatus');
  if (finetune) lines.push(...jobStatusLines(vscode.l10n.t('Finetune status'), finetune));
  else lines.push(vscode.l10n.t('Finetune status: not read yet (start a finetuning job).'));
  if (evaluation) lines.push(...jobStatusLines(vscode.l10n.t('Evaluation status'), evaluation));
  else lines.push(vscode.l10n.t('Evaluation status: not read yet (evaluate a model).'));
  const download = services.profiles.profile(origin, 'download');
  if (download) lines.push(...downloadLines(download));
  else lines.push(vscode.l10n.t('Download answer: not read yet (download a model; a service that redirects has none).'));
  // Streamed answers: where the events hold the answer and the reasoning, once a run has inferred it (English, as the
  // model list's lines are: src/api may not reach l10n).
  const stream = services.profiles.profile(origin, 'stream');
  if (stream) lines.push(...streamLines(stream));
  const answer = services.profiles.profile(origin, 'answer');
  if (answer) lines.push(...streamLines(answer, false));
  lines.push(
    '',
    vscode.l10n.t('The other answers (an inference, an error) are read by their shape at each answer.'),
    vscode.l10n.t(
      'To correct how the model list is read: Choose How to Read… in the Models view when it cannot be read, or the setting hostedReasoning.serviceProfile (below, as it takes it).',
    ),
  );
  // The setting's form: each part without where it came from.
  const setting: Record<string, unknown> = {};
  const parts = { modelList: profile, startedJob, finetuneStatus: finetune, evaluationStatus: evaluation, download, stream, answer };
  for (const [part, p] of Object.entries(parts)) {
    if (!p) continue;
    const { by: _by, ...shared } = p;
    setting[part] = shared;
  }
  if (Object.keys(setting).length > 0) lines.push('', JSON.stringify({ [origin]: setting }, null, 2));
  return `${lines.join('\n')}\n`;
}
