// Reading the job list back from globalState. What is stored there is not ours alone: another version of the extension,
// a sync from another machine or a hand-edited state database may have written it, and views and the poller index
// into every record. So the list is checked here, once, on the way in: a record that cannot be a job (not an object,
// no usable id, an unknown kind or state, no times) is dropped; a wrong optional field (a progress that is text, a
// result without an accuracy) is removed and the job kept, since forgetting an active job would lose what the user
// paid for. The report says how many and why, never the values (a record may hold paths or messages with secrets).
import { capText, isUsableJobId, MAX_SERVICE_TEXT, MAX_STATE_WORD_LENGTH, type EvaluationResult, type JobState } from '../api/types';
import { jobKey, type JobKind, type JobRecord } from './jobRecord';
import { isModelLineage } from './lineage';
import { readingsProblem } from './progressReadings';
import { countedReasons, isRecord as isObj } from '../api/strictChecks';

export interface StoredJobs {
  jobs: JobRecord[];
  /** Why each dropped record was dropped (one entry per record). */
  dropped: string[];
  /** Records kept without some optional field that had the wrong type. */
  repaired: number;
}

const KINDS: ReadonlySet<string> = new Set<JobKind>(['finetune', 'evaluation']);
const STATES: ReadonlySet<string> = new Set<JobState>(['queued', 'running', 'completed', 'failed', 'cancelled', 'unknown']);

type Obj = Record<string, unknown>;

const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isText = (v: unknown): v is string => typeof v === 'string';

export function readStoredJobs(raw: unknown, scope: string): StoredJobs {
  if (raw === undefined) return { jobs: [], dropped: [], repaired: 0 };
  if (!Array.isArray(raw)) return { jobs: [], dropped: [`the stored job list is not a list (${describeType(raw)})`], repaired: 0 };
  const jobs: JobRecord[] = [];
  const dropped: string[] = [];
  const seen = new Set<string>();
  let repaired = 0;
  for (const entry of raw as unknown[]) {
    const problem = requiredProblem(entry, scope);
    if (problem) {
      dropped.push(problem);
      continue;
    }
    const { job, fixed } = withValidOptionals(entry as Obj);
    const key = jobKey(job);
    if (seen.has(key)) {
      dropped.push('a second record of the same job');
      continue;
    }
    seen.add(key);
    if (fixed) repaired++;
    jobs.push(job);
  }
  return { jobs, dropped, repaired };
}

/** One line for the log: counts and reasons, no values. Undefined when nothing was wrong. */
export function describeStoredJobs(result: StoredJobs): string | undefined {
  if (result.dropped.length === 0 && result.repaired === 0) return undefined;
  const parts: string[] = [];
  if (result.dropped.length > 0) parts.push(`ignored ${result.dropped.length} unreadable job record(s): ${countedReasons(result.dropped)}`);
  if (result.repaired > 0) parts.push(`kept ${result.repaired} job record(s) without fields of the wrong type`);
  return `Stored jobs: ${parts.join('; ')}.`;
}

/**
 * Reads stored lists and tells `log` what was ignored, once per distinct report and scope: views read the list often,
 * and the same corrupt record would otherwise be logged at every refresh.
 */
export class StoredJobsReader {
  private readonly reported = new Map<string, string>();

  constructor(private readonly log: (message: string) => void) {}

  read(raw: unknown, scope: string): JobRecord[] {
    const result = readStoredJobs(raw, scope);
    const report = describeStoredJobs(result);
    if (report === undefined) {
      this.reported.delete(scope);
    } else if (this.reported.get(scope) !== report) {
      this.reported.set(scope, report);
      this.log(report);
    }
    return result.jobs;
  }
}

function requiredProblem(entry: unknown, scope: string): string | undefined {
  if (!isObj(entry)) return `an entry that is not a record (${describeType(entry)})`;
  if (!isUsableJobId(entry.id)) return 'a record without a usable id';
  if (typeof entry.kind !== 'string' || !KINDS.has(entry.kind)) return 'a record of no known kind';
  if (entry.scope !== scope) return 'a record of another service or key';
  if (typeof entry.state !== 'string' || !STATES.has(entry.state)) return 'a record of no known state';
  if (!isTime(entry.createdAt) || !isTime(entry.updatedAt)) return 'a record without its times';
  if (!isText(entry.modelName)) return 'a record without a model name';
  return undefined;
}

/** The record with only the fields of JobRecord, each of its type; `fixed` when one had to be left out. */
function withValidOptionals(o: Obj): { job: JobRecord; fixed: boolean } {
  let fixed = false;
  const job: JobRecord = {
    id: o.id as string,
    kind: o.kind as JobKind,
    scope: o.scope as string,
    state: o.state as JobState,
    createdAt: o.createdAt as number,
    updatedAt: o.updatedAt as number,
    modelName: o.modelName as string,
  };
  const take = <K extends keyof JobRecord>(key: K, valid: (v: unknown) => boolean) => {
    const v = o[key];
    if (v === undefined) return;
    if (valid(v)) job[key] = v as JobRecord[K];
    else fixed = true;
  };
  take('rawState', isText);
  take('progress', (v) => typeof v === 'number' && v >= 0 && v <= 100);
  take('readings', (v) => readingsProblem(v) === undefined);
  take('message', isText);
  take('error', isText);
  take('unreadableWords', isText);
  take('unreadableSince', isTime);
  take('unmovedSince', isTime);
  take('unfollowedAt', isTime);
  // Service text written before it was capped (or by another version) is cut now: kept whole, it would be loaded by
  // every window and rewritten at every poll.
  for (const [key, max] of [
    ['rawState', MAX_STATE_WORD_LENGTH],
    ['message', MAX_SERVICE_TEXT],
    ['error', MAX_SERVICE_TEXT],
    ['unreadableWords', MAX_SERVICE_TEXT],
  ] as const) {
    const text = job[key];
    if (text !== undefined && text.length > max) {
      job[key] = capText(text, max);
      fixed = true;
    }
  }
  take('finishedAt', isTime);
  take('baseModel', isText);
  take('requestedName', isText);
  take('files', (v) => Array.isArray(v) && v.every(isText));
  take('lineage', isModelLineage);
  take('datasetName', isText);
  take('result', isEvaluationResult);
  take('unseenFailure', (v) => typeof v === 'boolean');
  return { job, fixed };
}

function isEvaluationResult(v: unknown): v is EvaluationResult {
  if (!isObj(v)) return false;
  const num = (x: unknown) => typeof x === 'number' && Number.isFinite(x);
  const optText = (x: unknown) => x === undefined || isText(x);
  return (
    isText(v.datasetName) &&
    isText(v.modelName) &&
    num(v.correct) &&
    num(v.total) &&
    // A fraction, as decoding leaves it: anything else would be shown as 1e+310% or Infinity%.
    num(v.accuracy) &&
    (v.accuracy as number) >= 0 &&
    (v.accuracy as number) <= 1 &&
    optText(v.split) &&
    optText(v.judgeModel)
  );
}

function describeType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}
