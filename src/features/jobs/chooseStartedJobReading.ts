// Choose How to Read the Started Job…: a finetune or an evaluation was started, but the service's answer named no job
// the extension could read, so the job may exist unfollowed. The person picks, from that answer (kept in this window
// with what was being started: unreadableStarts.ts), the field that holds the job's id; the place is kept in the
// service's profile (by: 'chosen', so the next start of that kind is read by it at once), and the job enters the store
// as if the start had been read: the Jobs view, the status bar and the poller follow it. Nothing is sent again.
// The command takes no arguments (a command link can pass any): the answer and the job are the ones this window kept.
import * as vscode from 'vscode';
import { ContractError } from '../../api/errors';
import { readByChosenPlace, startedJobFields, withChosenPlace, type StartedJobKind } from '../../api/startedJobChoice';
import type { Services } from '../../services';
import { VIEW_JOBS } from '../../services';
import { showInformationMessage, showWarningMessage } from '../../util/notify';
import { pickAnswerField } from '../../util/pickAnswerField';
import { untrustedText } from '../../util/untrustedText';
import type { JobRecord } from '../../jobs/jobRecord';
import { buildLineage } from '../../jobs/lineage';
import type { UnreadableStart } from '../../jobs/unreadableStarts';

/** The action a start's error message offers. */
export function chooseStartActionTitle(): string {
  return vscode.l10n.t('Choose How to Read…');
}

/**
 * After a start failed: when it failed because its answer could not be read (the client handed it to the profile
 * book), keeps what was being started with that answer and resolves true (the message then offers the choice).
 */
export async function keepUnreadableStart(
  services: Services,
  error: unknown,
  start: Pick<UnreadableStart, 'kind' | 'scope' | 'job' | 'lineage'>,
): Promise<boolean> {
  if (!(error instanceof ContractError)) return false;
  const { origin } = await services.session.current();
  const kept = origin === undefined ? undefined : services.profiles.lastAnswer(origin, 'startedJob');
  if (origin === undefined || !kept?.unreadable || kept.context?.kind !== start.kind) return false;
  // Taken at once, with what was being started, so an answer is never paired with another start.
  services.profiles.forgetAnswer(origin, 'startedJob');
  services.starts.keep({ ...start, origin, body: kept.body, answer: kept.context.answer });
  return true;
}

/** Resolves with the job now followed, or undefined when nothing was chosen (or nothing waits to be). */
export async function chooseStartedJobReading(services: Services): Promise<JobRecord | undefined> {
  const scope = await services.session.scope();
  const start = scope ? services.starts.latest(scope) : undefined;
  if (!start) {
    void showInformationMessage(
      vscode.l10n.t('No started job waits to be read in this window: the command is for a start whose answer could not be read.'),
    );
    return undefined;
  }
  const fields = startedJobFields(start.body, start.answer);
  if (fields.length === 0) {
    void showInformationMessage(
      vscode.l10n.t("Nothing in the service's answer to the start is text or a number: see the log for what it sent."),
    );
    return undefined;
  }
  const field = await pickAnswerField(fields, {
    title: vscode.l10n.t('Choose How to Read the Started Job'),
    placeholder:
      start.kind === 'finetune'
        ? vscode.l10n.t(
            'Which field of the service’s answer is the id of the finetuning job creating {0}?',
            untrustedText(start.job.modelName),
          )
        : vscode.l10n.t('Which field of the service’s answer is the id of the evaluation of {0}?', untrustedText(start.job.modelName)),
  });
  if (!field) return undefined;
  const started = readByChosenPlace(start.body, start.answer, field.path);
  if (!started) {
    void showWarningMessage(
      vscode.l10n.t(
        '{0} holds no job id (a state word, a true/false value or something the request sent): choose another field.',
        field.path === '' ? vscode.l10n.t('The whole answer') : field.path,
      ),
    );
    return undefined;
  }
  const kept = services.profiles.kept(start.origin, 'startedJob');
  await services.profiles.choose(start.origin, 'startedJob', withChosenPlace(kept, start.kind, field.path));
  const job: JobRecord = { ...start.job, id: started.jobId, updatedAt: Date.now() };
  if (start.lineage) job.lineage = buildLineage({ ...start.lineage, jobId: started.jobId });
  await services.jobs.put(job);
  services.starts.forget(start);
  services.log.info(`${describe(start.kind)} ${job.id} followed, its id read at ${field.path || 'the whole answer'} as chosen.`);
  void vscode.commands.executeCommand(`${VIEW_JOBS}.focus`);
  void showInformationMessage(
    start.kind === 'finetune'
      ? vscode.l10n.t('Finetuning job {0} is followed: {1} is being created. You will be notified when it is ready.', job.id, job.modelName)
      : vscode.l10n.t('Evaluation {0} is followed: {1} on {2}.', job.id, job.modelName, job.datasetName ?? ''),
  );
  return job;
}

function describe(kind: StartedJobKind): string {
  return kind === 'finetune' ? 'Finetuning job' : 'Evaluation';
}
