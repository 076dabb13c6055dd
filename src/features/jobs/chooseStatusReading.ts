// Choose How to Read… on a job row whose status cannot be read: the person picks, from the service's last unreadable
// answer of that kind of job (or, on a row whose reading does not move while the answers do, from that job's last
// answer read in this window), the field that says the job's state (each with its path and a few values), and, when
// its word is one the extension has no meaning for, what it means; a true/false field is taken as "finished". The
// choice is kept in the service's profile (ServiceProfiles.chooseJobStatus) and the jobs are asked again at once.
// The answer is the one the extension itself kept: the command takes only the row, and reads the job from the store
// of the current service (a command link can pass any argument; it must not name another service's job).
import * as vscode from 'vscode';
import { answerFields } from '../../api/answerFields';
import type { JobStatusPart, JobStatusProfile } from '../../api/profileFormat';
import { normaliseState } from '../../api/stateWords';
import type { JobState } from '../../api/types';
import type { Services } from '../../services';
import { showInformationMessage } from '../../util/notify';
import { pickAnswerField } from '../../util/pickAnswerField';
import { interact } from '../../util/quickInputStep';
import { untrustedText } from '../../util/untrustedText';
import { isActive } from '../../jobs/jobRecord';
import { isJobNode } from './jobsTree';

interface StateItem extends vscode.QuickPickItem {
  state: Exclude<JobState, 'unknown'>;
}

/** Resolves with what was kept, or undefined when nothing was chosen. */
export async function chooseStatusReading(
  services: Services,
  pollNow: () => Promise<unknown>,
  arg: unknown,
): Promise<Partial<JobStatusProfile> | undefined> {
  if (!isJobNode(arg)) return undefined;
  const scope = await services.session.scope();
  const job = scope === arg.scope ? services.jobs.get(scope, arg.key) : undefined;
  const { origin } = await services.session.current();
  if (!scope || !job || !isActive(job) || origin === undefined) return undefined;
  const part: JobStatusPart = job.kind === 'finetune' ? 'finetuneStatus' : 'evaluationStatus';
  const last = services.profiles.lastAnswer(origin, part, job.id);
  // A row whose reading does not move while the answers do is read, but likely misread: its own last answer is shown.
  const body = last?.unreadable || job.unmovedSince !== undefined ? last?.body : undefined;
  const fields = body === undefined ? [] : answerFields(body).filter((f) => f.types.includes('text') || f.types.includes('boolean'));
  if (fields.length === 0) {
    void showInformationMessage(
      body === undefined
        ? vscode.l10n.t('No unreadable status of this kind of job is kept in this window yet: Refresh the Jobs view, then try again.')
        : vscode.l10n.t("Nothing in the service's last status answer is a word or a true/false value: see the log for what it sent."),
    );
    return undefined;
  }
  const field = await pickAnswerField(fields, {
    title: vscode.l10n.t('Choose How to Read the Job’s Status'),
    placeholder: vscode.l10n.t('Which field of the service’s answer says how the job stands?'),
    describe: (f) => (f.types.includes('boolean') && !f.types.includes('text') ? vscode.l10n.t('true when finished') : undefined),
  });
  if (!field) return undefined;
  let chosen: Partial<JobStatusProfile>;
  if (field.types.includes('boolean') && !field.types.includes('text')) {
    chosen = { finished: field.path };
  } else {
    chosen = { state: field.path };
    // The words seen there that the extension cannot read: the person says what the first of them means.
    const word = field.samples.find((w) => normaliseState(w) === 'unknown');
    if (word !== undefined) {
      const state = await pickMeaning(word);
      if (!state) return undefined;
      chosen.states = { [word]: state };
    }
  }
  // The chosen parts over the ones kept (the parts the person did not choose are still grown from the answers).
  const kept = services.profiles.kept(origin, part);
  const states = { ...(kept?.states ?? {}), ...(chosen.states ?? {}) };
  const profile: JobStatusProfile = { ...(kept ?? {}), ...chosen, by: 'chosen' };
  if (Object.keys(states).length > 0) profile.states = states;
  await services.profiles.choose(origin, part, profile, job.id);
  await pollNow();
  return chosen;
}

async function pickMeaning(word: string): Promise<StateItem['state'] | undefined> {
  const shownWord = untrustedText(word, { maxChars: 60 });
  const pick = vscode.window.createQuickPick<StateItem>();
  pick.title = vscode.l10n.t('What Does “{0}” Mean?', shownWord);
  pick.placeholder = vscode.l10n.t('The service says the job is “{0}”: what does that mean?', shownWord);
  pick.ignoreFocusOut = true;
  pick.items = [
    { state: 'queued', label: vscode.l10n.t('Waiting to start') },
    { state: 'running', label: vscode.l10n.t('Running') },
    { state: 'completed', label: vscode.l10n.t('Finished') },
    { state: 'failed', label: vscode.l10n.t('Failed') },
    { state: 'cancelled', label: vscode.l10n.t('Cancelled') },
  ];
  const result = await interact<StateItem['state']>(pick, { back: false }, (finish) => [
    pick.onDidAccept(() => {
      const [item] = pick.selectedItems;
      if (item) finish({ action: 'next', value: item.state });
    }),
  ]);
  return result.action === 'next' ? result.value : undefined;
}
