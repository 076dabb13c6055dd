// The words a job is shown with, shared by the Jobs view, the status bar and the notifications so all three
// say the same thing. Plain functions of a record and a clock: no vscode, tested in plain mocha.
import { humanise, type EvaluationResult } from '../api/types';
import { isActive, type JobRecord } from './jobRecord';
import { l10n } from '../l10n';
import { estimateTimeLeft, timeLeftText } from './timeLeft';

/** "Create my-model" / "Evaluate my-model on squad". */
export function jobTitle(job: JobRecord): string {
  if (job.kind === 'finetune') return l10n.t('Create {0}', job.modelName);
  return job.datasetName ? l10n.t('Evaluate {0} on {1}', job.modelName, job.datasetName) : l10n.t('Evaluate {0}', job.modelName);
}

/**
 * The longest model or dataset name a Jobs row shows whole (a tuned name such as `ft:<base>:<name>:<id>` is ~50); a
 * longer one would push the row's state and time out of a sidebar of usual width. The tooltip has every name in full.
 */
export const ROW_NAME_CHARS = 48;

/**
 * A name shortened in the middle to `max` characters: tuned-model names often share a long start (the base model,
 * the organisation) and differ at the end (a date, a suffix), so both ends stay.
 */
export function shortName(name: string, max = ROW_NAME_CHARS): string {
  const chars = [...name];
  if (chars.length <= max) return name;
  const tail = Math.floor((max - 1) / 3);
  return `${chars.slice(0, max - 1 - tail).join('')}…${chars.slice(chars.length - tail).join('')}`;
}

/**
 * A resource name (`models/oss-reasoner-8b`, `tunedModels/my-model-42`, `projects/p/locations/l/models/m`) as a row
 * shows it: its last segment, the resource's id, when the segment before it is a collection (a plural lowerCamelCase
 * word, as Google's API design guide names them, AIP-122); the collection is the same for every row. Other names as
 * they are: in `org/model` the organisation tells models apart.
 */
export function lastSegment(name: string): string {
  const parts = name.split('/');
  const id = parts[parts.length - 1] ?? '';
  const collection = parts[parts.length - 2];
  return id !== '' && collection !== undefined && /^[a-z]+(?:[A-Z][a-z]*)*s$/.test(collection) ? id : name;
}

/** jobTitle with the names shortened (lastSegment, shortName), for a Jobs row; the row's tooltip has the whole title. */
export function jobRowTitle(job: JobRecord): string {
  return jobTitle({
    ...job,
    modelName: shortName(lastSegment(job.modelName)),
    ...(job.datasetName ? { datasetName: shortName(job.datasetName) } : {}),
  });
}

/** "45s", "2m 10s", "1h 3m": two units at most, because a row has little room. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${s % 60}s`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h}h ${m % 60}m`;
  return `${Math.floor(h / 24)}d ${h % 24}h`;
}

/** "84.0% (42/50)"; the counts are left out when the service gave none. */
export function formatAccuracy(result: EvaluationResult): string {
  const pct = `${(result.accuracy * 100).toFixed(1)}%`;
  return result.total > 0 ? `${pct} (${result.correct}/${result.total})` : pct;
}

/** The state in words; an unknown state shows the service's own word as a person reads it (`validating_files` -> "Validating files"). */
export function stateWord(job: JobRecord): string {
  if (job.state === 'unknown') return job.rawState ? humanise(job.rawState) : l10n.t('unknown state');
  return job.state;
}

/** How long the job ran (finished) or has been running (active). */
export function elapsedMs(job: JobRecord, now: number): number {
  return (job.finishedAt ?? (isActive(job) ? now : job.updatedAt)) - job.createdAt;
}

/** One line for a row: "running 40% · 2m 10s", "84.0% (42/50) · judge gpt-x", "failed: <error>". */
export function jobDescription(job: JobRecord, at: number): string {
  const elapsed = formatDuration(elapsedMs(job, at));
  switch (job.state) {
    case 'completed':
      if (job.kind === 'evaluation' && job.result) {
        return job.result.judgeModel
          ? l10n.t('{0} · judge {1}', formatAccuracy(job.result), job.result.judgeModel)
          : formatAccuracy(job.result);
      }
      return l10n.t('completed · {0}', elapsed);
    case 'failed':
      return l10n.t('failed: {0}', oneLine(job.error ?? l10n.t('no reason given')));
    case 'cancelled':
      return l10n.t('cancelled · {0}', elapsed);
    default: {
      const progress = job.progress !== undefined ? ` ${Math.round(job.progress)}%` : '';
      // An unreadable status is not the job's state: the row says what is known, the last readable state is kept.
      const read = `${stateWord(job)}${progress}`;
      const now =
        job.unreadableSince !== undefined
          ? unreadableText(job)
          : job.unmovedSince !== undefined
            ? l10n.t("{0} · the service's answers change but this reading does not", read)
            : read;
      // Let go with Stop Following: no elapsed time ticks, as nobody asks any more.
      if (job.unfollowedAt !== undefined) return l10n.t('not followed · {0}', now);
      const left = timeLeft(job, at);
      return left === undefined ? `${now} · ${elapsed}` : `${now} · ${left} · ${elapsed}`;
    }
  }
}

/**
 * "about 6 min left" for a followed job whose status reads (timeLeft.ts), else undefined: a job let go or unreadable
 * has readings that say nothing of now.
 */
export function timeLeft(job: JobRecord, now: number): string | undefined {
  if (!isActive(job) || job.unfollowedAt !== undefined || job.unreadableSince !== undefined || !job.readings) return undefined;
  const left = estimateTimeLeft(job.readings, now);
  return left && timeLeftText(left);
}

/** "status unreadable since 14:02 (Validating files)": the words are the service's, for the caller to neutralise. */
export function unreadableText(job: JobRecord): string {
  const since = clockTime(job.unreadableSince ?? job.updatedAt);
  return job.unreadableWords
    ? l10n.t('status unreadable since {0} ({1})', since, oneLine(job.unreadableWords, 80))
    : l10n.t('status unreadable since {0}', since);
}

/** "14:02" in local time: a row has no room for a date, and an unreadable spell of days shows in the elapsed time. */
export function clockTime(ms: number): string {
  const d = new Date(ms);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}

/** "<model> on <dataset>: 84.0% (42/50), judged by <judge>". */
export function evaluationSummary(job: JobRecord): string {
  const model = job.result?.modelName || job.modelName;
  const dataset = job.result?.datasetName || job.datasetName || l10n.t('the dataset');
  if (!job.result) return l10n.t('{0} on {1}: no result', model, dataset);
  return job.result.judgeModel
    ? l10n.t('{0} on {1}: {2}, judged by {3}', model, dataset, formatAccuracy(job.result), job.result.judgeModel)
    : l10n.t('{0} on {1}: {2}', model, dataset, formatAccuracy(job.result));
}

/** Server text in a single line of bounded length: a row or a notification is not the place for a stack trace. */
export function oneLine(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
