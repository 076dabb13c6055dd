// What the jobs status bar item says, from the job list alone: no vscode, tested in plain mocha. A running job shows
// how far it is, not only that it runs; with several, the least advanced, since that one says when all are done. A job
// the person stopped following is left out: nothing updates it any more, so it would read as stuck.
import { isFollowed, type JobRecord } from '../../jobs/jobRecord';
import { l10n } from '../../l10n';

export interface StatusBarText {
  /** With codicons, e.g. "$(warning) Job failed  $(sync~spin) 2 jobs · 40%". */
  text: string;
  /** For screen readers, without codicons. */
  label: string;
  /** A failure the user has not looked at yet: the item warns. */
  warn: boolean;
}

/**
 * The percentage of the least advanced active job. A job without a figure is left out, queued or not: an evaluation
 * reports one only when its service says it (the spec does not), and "0%" for it would read as stuck. Undefined when
 * no active job has a figure.
 */
export function leastProgress(jobs: readonly JobRecord[]): number | undefined {
  let least: number | undefined;
  for (const job of jobs) {
    if (!isFollowed(job)) continue;
    const p = job.progress;
    if (p !== undefined && (least === undefined || p < least)) least = p;
  }
  return least === undefined ? undefined : Math.floor(least);
}

/** The item's words, or undefined when it hides (nothing runs, no unseen failure). */
export function statusBarText(jobs: readonly JobRecord[]): StatusBarText | undefined {
  const active = jobs.filter(isFollowed);
  const failed = jobs.filter((j) => j.state === 'failed' && j.unseenFailure);
  if (active.length === 0 && failed.length === 0) return undefined;
  const text: string[] = [];
  const label: string[] = [];
  if (failed.length > 0) {
    text.push(failed.length === 1 ? l10n.t('$(warning) Job failed') : l10n.t('$(warning) {0} jobs failed', failed.length));
    label.push(failed.length === 1 ? l10n.t('A job failed') : l10n.t('{0} jobs failed', failed.length));
  }
  if (active.length > 0) {
    const least = leastProgress(active);
    const n = active.length;
    if (least === undefined) {
      text.push(n === 1 ? l10n.t('$(sync~spin) 1 job') : l10n.t('$(sync~spin) {0} jobs', n));
      label.push(n === 1 ? l10n.t('1 job running') : l10n.t('{0} jobs running', n));
    } else {
      text.push(n === 1 ? l10n.t('$(sync~spin) 1 job · {0}%', least) : l10n.t('$(sync~spin) {0} jobs · {1}%', n, least));
      label.push(n === 1 ? l10n.t('1 job running, at {0}%', least) : l10n.t('{0} jobs running, the least advanced at {1}%', n, least));
    }
  }
  return { text: text.join('  '), label: label.join(', '), warn: failed.length > 0 };
}
