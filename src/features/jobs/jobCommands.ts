// Commands on the Jobs view: remove one job from the list, stop following one, clear finished ones (the finished
// comparisons on a person's questions listed among them too), refresh (poll now), show the view.
// Removing only forgets a job here; nothing is cancelled on the service (the spec has no cancel endpoint).
import * as vscode from 'vscode';
import { COMMANDS } from '../../contributions';
import { isActive, isFollowed, jobKey, type JobRecord } from '../../jobs/jobRecord';
import { jobTitle } from '../../jobs/jobFormat';
import type { PollRound } from '../../jobs/jobPoller';
import type { Services } from '../../services';
import { VIEW_JOBS } from '../../services';
import { isJobNode } from './jobsTree';
import { showInformationMessage, showWarningMessage, withProgress } from '../../util/notify';

export interface JobCommandDeps {
  poller: { pollNow(): Promise<PollRound | undefined> };
  view: { reveal(key: string): Promise<boolean> };
  /** The comparisons the view lists beside the jobs (comparisonRows.ts): Clear Finished Jobs clears the finished ones. */
  comparisons: { clearFinished(scope: string): Promise<number> };
}

export function jobCommands(services: Services, deps: JobCommandDeps) {
  return {
    [COMMANDS.removeJob]: (arg?: unknown) => removeJob(services, arg),
    [COMMANDS.stopFollowingJob]: (arg?: unknown) => stopFollowingJob(services, arg),
    [COMMANDS.clearFinishedJobs]: () => clearFinishedJobs(services, deps),
    [COMMANDS.refreshJobs]: () => refreshJobs(services, deps),
    [COMMANDS.showJobs]: (arg?: unknown) => showJobs(services, deps, arg),
  };
}

/** A Jobs-view row, or `{ key }` (tests, other commands). Returns whether the job was removed. */
async function removeJob(services: Services, arg: unknown): Promise<boolean> {
  const scope = await services.session.scope();
  if (!scope) return false;
  const key = keyOf(arg);
  const job = key ? services.jobs.get(scope, key) : undefined;
  if (!job) return false;
  if (isActive(job) && !(await confirmRemoveRunning(job))) return false;
  await services.jobs.remove(scope, [key!]);
  services.log.info(`Removed ${job.kind} job ${job.id} (${job.state}) from the list.`);
  return true;
}

/**
 * Stops polling one running job (a row's context menu, offered on every followed job, most useful on one whose status
 * cannot be read) and says so. The job is taken from the row only, and read again from the store of the current
 * scope: a command link can pass any argument, and this one must not let it name another service's job. The record
 * stays, marked, so the row says it is not followed; Remove Job forgets it. Returns whether the job was let go.
 */
async function stopFollowingJob(services: Services, arg: unknown): Promise<boolean> {
  if (!isJobNode(arg)) return false;
  const scope = await services.session.scope();
  const job = scope === arg.scope ? services.jobs.get(scope, arg.key) : undefined;
  if (!scope || !job || !isFollowed(job)) return false;
  // The store's change event makes the poller re-read its list, which no longer holds the job (JobStore.active).
  await services.jobs.update(scope, arg.key, { unfollowedAt: Date.now() });
  services.log.info(
    `Stopped following ${job.kind} job ${job.id} (${job.state}${job.unreadableSince !== undefined ? ', status unreadable' : ''}).`,
  );
  void showInformationMessage(
    vscode.l10n.t(
      'No longer following "{0}": it is not asked about any more and you will not be told when it ends. Nothing was cancelled on the service.',
      jobTitle(job),
    ),
  );
  return true;
}

async function confirmRemoveRunning(job: JobRecord): Promise<boolean> {
  // The answer is the button's shown (translated) title.
  const remove = vscode.l10n.t('Remove');
  const pick = await showWarningMessage(
    vscode.l10n.t('Remove "{0}" from the list?', jobTitle(job)),
    {
      modal: true,
      detail: vscode.l10n.t(
        'The job is still running. Removing it does not cancel it on the service: it only stops following it here, so you will not be told when it ends.',
      ),
    },
    remove,
  );
  return pick === remove;
}

/** Returns how many rows were cleared: finished jobs, and finished comparisons (whose results stay in the report). */
async function clearFinishedJobs(services: Services, deps: JobCommandDeps): Promise<number> {
  const scope = await services.session.scope();
  if (!scope) return 0;
  const finished = services.jobs.list(scope).filter((j) => !isActive(j));
  if (finished.length > 0) await services.jobs.remove(scope, finished.map(jobKey));
  const comparisons = await deps.comparisons.clearFinished(scope);
  if (finished.length + comparisons === 0) {
    void vscode.window.setStatusBarMessage(vscode.l10n.t('No finished jobs to clear.'), 3000);
  }
  return finished.length + comparisons;
}

/** Re-reads the list (another window may have written) and polls every active job now. */
async function refreshJobs(services: Services, deps: JobCommandDeps): Promise<PollRound | undefined> {
  services.jobs.refresh();
  return withProgress({ location: { viewId: VIEW_JOBS } }, () => deps.poller.pollNow());
}

/**
 * Focuses the Jobs view and counts every failure as seen (the status bar stops warning). With `{ key }` reveals that
 * row; without, the newest unseen failure, which is most likely why the user came.
 */
async function showJobs(services: Services, deps: JobCommandDeps, arg: unknown): Promise<void> {
  await vscode.commands.executeCommand(`${VIEW_JOBS}.focus`);
  const scope = await services.session.scope();
  if (!scope) return;
  const unseen = services.jobs.list(scope).filter((j) => j.unseenFailure);
  const key = keyOf(arg) ?? (unseen[0] ? jobKey(unseen[0]) : undefined);
  for (const job of unseen) await services.jobs.update(scope, jobKey(job), { unseenFailure: false });
  if (key) await deps.view.reveal(key);
}

function keyOf(arg: unknown): string | undefined {
  if (isJobNode(arg)) return arg.key;
  if (arg && typeof arg === 'object' && typeof (arg as { key?: unknown }).key === 'string') return (arg as { key: string }).key;
  return undefined;
}
