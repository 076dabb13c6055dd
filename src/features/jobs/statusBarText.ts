// What the jobs status bar item says, from the job list alone: no vscode, tested in plain mocha. A running job shows
// how far it is, not only that it runs; with several, the least advanced, since that one says when all are done. A job
// the person stopped following is left out: nothing updates it any more, so it would read as stuck. A comparison this
// window runs is a job here too: its share done counts among the progress, and the longest time left of the running
// comparisons is said after it (theirs is known from their own rate; a job's estimate stays on its row).
import { isFollowed, type JobRecord } from '../../jobs/jobRecord';
import { timeLeftText } from '../../jobs/timeLeft';
import { l10n } from '../../l10n';

/** A comparison this window runs, as the status bar counts it. */
export interface RunningCount {
  done: number;
  total: number;
  /** Its time left in ms, when its rate is known. */
  leftMs?: number;
}

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
export function statusBarText(jobs: readonly JobRecord[], comparisons: readonly RunningCount[] = []): StatusBarText | undefined {
  const active = jobs.filter(isFollowed);
  const failed = jobs.filter((j) => j.state === 'failed' && j.unseenFailure);
  if (active.length === 0 && failed.length === 0 && comparisons.length === 0) return undefined;
  const text: string[] = [];
  const label: string[] = [];
  if (failed.length > 0) {
    text.push(failed.length === 1 ? l10n.t('$(warning) Job failed') : l10n.t('$(warning) {0} jobs failed', failed.length));
    label.push(failed.length === 1 ? l10n.t('A job failed') : l10n.t('{0} jobs failed', failed.length));
  }
  if (active.length > 0 || comparisons.length > 0) {
    const shares = comparisons.flatMap((c) => (c.total > 0 ? [Math.floor((c.done / c.total) * 100)] : []));
    const jobsLeast = leastProgress(active);
    const least = shares.length > 0 ? Math.min(...shares, ...(jobsLeast === undefined ? [] : [jobsLeast])) : jobsLeast;
    const n = active.length + comparisons.length;
    if (least === undefined) {
      text.push(n === 1 ? l10n.t('$(sync~spin) 1 job') : l10n.t('$(sync~spin) {0} jobs', n));
      label.push(n === 1 ? l10n.t('1 job running') : l10n.t('{0} jobs running', n));
    } else {
      text.push(n === 1 ? l10n.t('$(sync~spin) 1 job · {0}%', least) : l10n.t('$(sync~spin) {0} jobs · {1}%', n, least));
      label.push(n === 1 ? l10n.t('1 job running, at {0}%', least) : l10n.t('{0} jobs running, the least advanced at {1}%', n, least));
    }
    const lefts = comparisons.flatMap((c) => (c.leftMs === undefined ? [] : [c.leftMs]));
    if (lefts.length > 0) {
      const left = timeLeftText({ lowMs: Math.max(...lefts), highMs: Math.max(...lefts) });
      text[text.length - 1] += ` · ${left}`;
      label[label.length - 1] += `, ${left}`;
    }
  }
  return { text: text.join('  '), label: label.join(', '), warn: failed.length > 0 };
}
