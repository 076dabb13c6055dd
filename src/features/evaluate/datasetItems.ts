// The evaluate command's dataset choices: the datasets chosen lately with this service (one list per scope) and every
// dataset this service has a completed evaluation of, each with its last result, so the user picks the dataset they compare
// on without retyping it. A pure function of the jobs, the recent list and a clock: no vscode, tested in plain mocha.
import { formatAccuracy } from '../../jobs/jobFormat';
import type { JobRecord } from '../../jobs/jobRecord';
import { untrustedText } from '../../util/untrustedText';
import { l10n } from '../../l10n';
import { RECENT_DATASETS_KEY_PREFIX } from '../../storageKeys';

/** How many recently chosen datasets a scope remembers. */
export const MAX_RECENT_DATASETS = 10;

/**
 * The globalState key of one scope's recent datasets: a dataset chosen with one service (or key) is not offered with
 * another, where it may not exist, as the job store keeps each scope's jobs apart.
 */
export function recentDatasetsKey(scope: string): string {
  return RECENT_DATASETS_KEY_PREFIX + scope;
}

/** What globalState gave back, as the names it holds (anything else: none). */
export function readRecentDatasets(stored: unknown): string[] {
  return Array.isArray(stored) ? stored.filter((d): d is string => typeof d === 'string' && d !== '') : [];
}

/** The recent list after `name` was chosen: it first, once, then the others, at most MAX_RECENT_DATASETS. */
export function withRecentDataset(recent: readonly string[], name: string): string[] {
  return [name, ...recent.filter((d) => d !== name)].slice(0, MAX_RECENT_DATASETS);
}

export interface DatasetItem {
  /** The dataset id exactly as stored: what is sent to the service when the item is picked. */
  dataset: string;
  /** The id made safe to show (untrustedText). */
  label: string;
  /** Its last result here ("84.0% (42/50) · oss-reasoner-8b · 2 h ago"), or "recent". */
  description: string;
}

/**
 * Recent datasets first, in the order they were last chosen, then the other datasets with results here, newest result
 * first. `jobs` are the current scope's, so a result is never shown beside a dataset of another service.
 */
export function datasetItems(jobs: readonly JobRecord[], recent: readonly string[], now: number): DatasetItem[] {
  const last = new Map<string, JobRecord>();
  for (const job of jobs) {
    if (job.kind !== 'evaluation' || job.state !== 'completed' || !job.result) continue;
    const dataset = job.datasetName || job.result.datasetName;
    if (!dataset) continue;
    const seen = last.get(dataset);
    if (!seen || endOf(job) > endOf(seen)) last.set(dataset, job);
  }
  const names = [...new Set(recent.filter((d) => d !== ''))];
  const others = [...last.keys()].filter((d) => !names.includes(d)).sort((a, b) => endOf(last.get(b)!) - endOf(last.get(a)!));
  return [...names, ...others].map((dataset) => {
    const job = last.get(dataset);
    return {
      dataset,
      label: untrustedText(dataset),
      description: job?.result
        ? untrustedText(`${formatAccuracy(job.result)} · ${job.modelName} · ${ago(now - endOf(job))}`)
        : l10n.t('recent'),
    };
  });
}

function endOf(job: JobRecord): number {
  return job.finishedAt ?? job.updatedAt;
}

/** "just now", "5 min ago", "2 h ago", "3 d ago": a picker row has little room, and the hour is enough. */
export function ago(ms: number): string {
  const min = Math.floor(Math.max(0, ms) / 60_000);
  if (min < 1) return 'just now';
  if (min < 60) return `${min} min ago`;
  const h = Math.floor(min / 60);
  if (h < 24) return `${h} h ago`;
  return `${Math.floor(h / 24)} d ago`;
}
