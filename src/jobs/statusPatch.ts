// A status answer of the service -> the change to a stored job record. Decided once here so the poller, its tests and
// any later caller (e.g. a "check now" on one job) write the same thing.
import type { EvaluationStatus, FinetuneStatus } from '../api/types';
import { capText, isTerminal, MAX_STATE_WORD_LENGTH } from '../api/types';
import type { JobRecord } from './jobRecord';
import { appendReading } from './progressReadings';

/** The error a job gets when its status endpoint answers 404: polling it again would never end. */
export const GONE_ERROR = 'The service no longer knows this job (404). It may have expired or been removed on the service.';

export type JobPatch = Partial<
  Pick<
    JobRecord,
    | 'state'
    | 'rawState'
    | 'progress'
    | 'readings'
    | 'message'
    | 'error'
    | 'result'
    | 'finishedAt'
    | 'unseenFailure'
    | 'modelName'
    | 'requestedName'
    | 'unreadableSince'
    | 'unreadableWords'
    | 'unmovedSince'
  >
>;

export function finetunePatch(current: JobRecord, status: FinetuneStatus, now: number): JobPatch {
  const patch: JobPatch = { state: status.state, ...keptText(status), ...progressPatch(current, status, now) };
  Object.assign(patch, adoptedName(current, status));
  return finish(current, patch, now);
}

/**
 * The progress a status says, and the reading it makes for the time left (timeLeft.ts): the same for a finetune and an
 * evaluation whose service reports progress. An answer without progress keeps the last known value: a bar that jumps
 * back to nothing says less.
 */
function progressPatch(current: JobRecord, status: Pick<FinetuneStatus, 'progress' | 'stage' | 'rawState'>, now: number): JobPatch {
  if (status.progress === undefined) return {};
  // The stage: a phase word beside the state word, else the state word (`training`): a new one starts the rate again.
  const stage = status.stage ?? status.rawState;
  const reading = {
    at: now,
    progress: status.progress,
    ...(stage === undefined ? {} : { stage: capText(stage, MAX_STATE_WORD_LENGTH) }),
  };
  return { progress: status.progress, readings: appendReading(current.readings, reading) };
}

/**
 * The finished job's own name for the model it made, when it differs from ours: from then on the model is known by
 * it everywhere (it is what the service lists, evaluates and downloads). The base model's name is never it.
 */
function adoptedName(current: JobRecord, status: FinetuneStatus): JobPatch {
  const made = status.modelName;
  if (status.state !== 'completed' || !made || made === current.modelName || made === current.baseModel) return {};
  return { modelName: made, requestedName: current.requestedName ?? current.modelName };
}

export function evaluationPatch(current: JobRecord, status: EvaluationStatus, now: number): JobPatch {
  const patch: JobPatch = {
    state: status.state,
    ...keptText({ rawState: status.rawState, error: status.error }),
    ...progressPatch(current, status, now),
  };
  if (status.result) patch.result = status.result;
  return finish(current, patch, now);
}

/**
 * The service's text as kept in the record, capped: the record is rewritten at every poll and every window loads it at
 * startup, so an 8 MiB message changing at each poll would rewrite megabytes of state each time.
 */
function keptText(s: Pick<FinetuneStatus, 'rawState' | 'message' | 'error'>): JobPatch {
  const cap = (t: string | undefined, max?: number) => (t === undefined ? undefined : capText(t, max));
  return { rawState: cap(s.rawState, MAX_STATE_WORD_LENGTH), message: cap(s.message), error: cap(s.error) };
}

/**
 * The patch for a status answer that could not be read: the job keeps its state (an unread answer says nothing about
 * the job, so it never fails it), and the record says since when, kept from the first unreadable answer, with the
 * words of the last one (`words`: already humanised, see unreadableWords.ts).
 */
export function unreadablePatch(current: JobRecord, words: string | undefined, now: number): JobPatch {
  return { unreadableSince: current.unreadableSince ?? now, unreadableWords: words === undefined ? undefined : capText(words, MAX_WORDS) };
}

/** The longest run of the service's words a row keeps of an unreadable answer: a hint, not the body (that is in the log). */
const MAX_WORDS = 200;

/**
 * The patch for a finetune whose model appeared in the model list (madeModel.ts): it ended, completed, whatever its
 * status said; the listed name becomes the model's name everywhere, as when a finished status names it.
 */
export function madeModelPatch(current: JobRecord, made: string, now: number): JobPatch {
  return finish(current, withMadeName(current, { state: 'completed' }, made), now);
}

/**
 * Whether a finetune's end says completed without naming the model it made (its status named none, or only the base
 * model): the poller then looks for the made model in the model list before writing it (jobPoller.ts).
 */
export function endsUnnamed(current: JobRecord, status: FinetuneStatus): boolean {
  return status.state === 'completed' && (!status.modelName || status.modelName === current.baseModel);
}

/**
 * `patch` with the model under the name found in the model list (madeModel.ts): the name asked for is kept as
 * requestedName, and the lineage, kept on the record, then belongs to the made name (lineageOrigins).
 */
export function withMadeName(current: JobRecord, patch: JobPatch, made: string): JobPatch {
  if (made === current.modelName) return patch;
  return { ...patch, modelName: made, requestedName: current.requestedName ?? current.modelName };
}

/** The patch for a job whose status endpoint answered 404. */
export function gonePatch(current: JobRecord, now: number): JobPatch {
  return withEnd(current, { state: 'failed', error: GONE_ERROR }, now);
}

function finish(current: JobRecord, patch: JobPatch, now: number): JobPatch {
  // A readable answer ends an unreadable spell.
  patch.unreadableSince = undefined;
  patch.unreadableWords = undefined;
  if (patch.state === 'completed') patch.progress = 100;
  // A finished job has no time left: its record, kept long after, stays small.
  if (patch.state && isTerminal(patch.state)) {
    patch.readings = undefined;
    if (current.unmovedSince !== undefined) patch.unmovedSince = undefined;
  }
  if (patch.state === 'failed' && !patch.error) patch.error = 'The job failed without a reason.';
  return withEnd(current, patch, now);
}

function withEnd(current: JobRecord, patch: JobPatch, now: number): JobPatch {
  if (patch.state && isTerminal(patch.state) && current.finishedAt === undefined) patch.finishedAt = now;
  // Only the transition raises the flag: a failure the user has already looked at stays seen.
  if (patch.state === 'failed' && current.state !== 'failed') patch.unseenFailure = true;
  return patch;
}

/** What a row shows of a job; a write that changes none of it is skipped (no churn in storage or views). */
export function visibleSignature(
  job: Pick<
    JobRecord,
    | 'state'
    | 'rawState'
    | 'progress'
    | 'message'
    | 'error'
    | 'result'
    | 'modelName'
    | 'unreadableSince'
    | 'unreadableWords'
    | 'unmovedSince'
    | 'unfollowedAt'
  >,
): string {
  return JSON.stringify([
    job.state,
    job.rawState,
    job.progress,
    job.message,
    job.error,
    job.result,
    job.modelName,
    job.unreadableSince,
    job.unreadableWords,
    job.unmovedSince,
    job.unfollowedAt,
  ]);
}

/** Whether applying `patch` to `current` would change anything worth writing. */
export function changes(current: JobRecord, patch: JobPatch): boolean {
  const next = { ...current, ...patch };
  return (
    visibleSignature(next) !== visibleSignature(current) ||
    next.finishedAt !== current.finishedAt ||
    next.unseenFailure !== current.unseenFailure
  );
}
