// Choose How to Read… for an inference answer nothing could read (issue 27, item 2), offered by the playground's
// error and named by Chat's: the person picks, from the service's last such answer (a non-streamed answer's body or a
// stream's first events, answerChoice.ts), the field holding the answer's text, then optionally the reasoning's; the
// choice is kept as the `answer` or `stream` part of the service's profile (ServiceProfiles.chooseAnswer), and the
// next run reads by it. The answer is the one the extension kept: the command takes nothing from its arguments.
import * as vscode from 'vscode';
import { answerChoiceFields, chosenAnswerProfile } from '../../../api/answerChoice';
import type { StreamProfile } from '../../../api/profileFormat';
import { COMMANDS } from '../../../contributions';
import type { Services } from '../../../services';
import { showInformationMessage } from '../../../util/notify';
import { pickAnswerField } from '../../../util/pickAnswerField';

export function chooseAnswerReadingCommand(services: Services) {
  return { [COMMANDS.chooseHowToReadAnswer]: () => chooseAnswerReading(services) };
}

/** Resolves with the part kept, or undefined when nothing was chosen. */
async function chooseAnswerReading(services: Services): Promise<StreamProfile | undefined> {
  const { origin } = await services.session.current();
  const last = origin === undefined ? undefined : services.profiles.latest(origin, { parts: ['answer', 'stream'], unreadable: true });
  if (origin === undefined || last === undefined) {
    void showInformationMessage(
      vscode.l10n.t('No unreadable answer of this service is kept in this window: run the prompt again, then try again.'),
    );
    return undefined;
  }
  const part = last.part as 'answer' | 'stream';
  const fields = answerChoiceFields(part, last.body);
  if (fields.length === 0) {
    void showInformationMessage(vscode.l10n.t("Nothing in the service's last answer is text: see the log for what it sent."));
    return undefined;
  }
  const answer = await pickAnswerField(fields, {
    title: vscode.l10n.t('Choose How to Read the Answer'),
    placeholder: vscode.l10n.t('Which field of the service’s answer holds the answer’s text?'),
  });
  if (!answer) return undefined;
  const others = fields.filter((f) => f.path !== answer.path);
  let reasoning: string | undefined;
  if (others.length > 0) {
    const chosen = await pickAnswerField(others, {
      title: vscode.l10n.t('Choose How to Read the Reasoning'),
      placeholder: vscode.l10n.t('Which field holds the model’s reasoning, if any?'),
      skip: vscode.l10n.t('No reasoning in this answer'),
    });
    if (chosen === undefined) return undefined;
    reasoning = chosen?.path;
  }
  const profile = chosenAnswerProfile(answer.path, reasoning);
  await services.profiles.choose(origin, part, profile);
  void showInformationMessage(vscode.l10n.t("The service's answers are read as you chose: run the prompt again."));
  return profile;
}
