// The job status part of a service profile (§3/§4.4/§4.6): where a status answer keeps the job's state, progress,
// message, error, the model it made and its result, as paths (profilePath.ts) and a map of state words. One part per
// status endpoint (`finetuneStatus`, `evaluationStatus`): the two answers come from two endpoints, one the spec shows
// (§4.6) and one it does not (§4.4), and a service may shape them apart; a shared part would not fit one of them at
// every other poll and be inferred again each time. Checked here, as text someone else wrote (storage, the setting).

import { parsePath } from './profilePath';
import type { ProfileSource } from './serviceProfile';
import type { JobState } from './types';

/** The two status endpoints, by the name of their profile part. */
export type JobStatusPart = 'finetuneStatus' | 'evaluationStatus';

export interface JobStatusProfile {
  /** The job's state word: `status`, `metadata.state`. */
  state?: string;
  /** Words said there that the built-in table does not read, and their state: `{"EXPORTED": "completed"}`. */
  states?: Record<string, JobState>;
  /** A boolean that is true once the job has finished: `done`. */
  finished?: string;
  /** Progress as a percentage (a number, a numeric string or a `42%` text). */
  percent?: string;
  /** Progress as a fraction of 1 (above 1 it is read as a percentage). */
  fraction?: string;
  /** Progress as a count done of a total (both numbers or numeric strings). */
  done?: string;
  total?: string;
  /** Text about the job for a person, or a phase word (shown humanised). */
  message?: string;
  /** Why the job failed. */
  error?: string;
  /** Where the model the job made is named, tried in order. */
  madeModel?: string[];
  /** The state word of the model the job made (`tunedModel.state`): ready means the job finished. */
  modelState?: string;
  /** The job's result record (the evaluation's `result`, a finished operation's `response`). */
  result?: string;
  by: ProfileSource;
}

const PATH_FIELDS = ['state', 'finished', 'percent', 'fraction', 'done', 'total', 'message', 'error', 'modelState', 'result'] as const;
const STATES: readonly JobState[] = ['queued', 'running', 'completed', 'failed', 'cancelled'];
const MAX_PATH = 300;
const MAX_MAPPED = 64;

type Checked<T> = { value: T } | { problem: string };

const isPath = (x: unknown): x is string => typeof x === 'string' && x.length <= MAX_PATH && parsePath(x) !== undefined;

/** A job status part, checked; `by` is what the caller knows of where it came from. */
export function checkJobStatusProfile(x: unknown, by?: ProfileSource, part = 'jobStatus'): Checked<JobStatusProfile> {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return { problem: `${part} is not an object` };
  const o = x as Record<string, unknown>;
  const known = new Set<string>([...PATH_FIELDS, 'states', 'madeModel', 'by']);
  for (const k of Object.keys(o)) if (!known.has(k)) return { problem: `${part} has an unknown field "${k}"` };
  const profile: JobStatusProfile = { by: by ?? (o.by === 'chosen' ? 'chosen' : 'inferred') };
  for (const f of PATH_FIELDS) {
    if (o[f] === undefined) continue;
    if (!isPath(o[f])) return { problem: `${part}.${f} is not a path like job.status` };
    profile[f] = o[f];
  }
  if ((profile.done === undefined) !== (profile.total === undefined)) {
    return { problem: `${part} has one of done and total without the other` };
  }
  if (o.madeModel !== undefined) {
    if (!Array.isArray(o.madeModel) || o.madeModel.length > 8 || !o.madeModel.every(isPath)) {
      return { problem: `${part}.madeModel is not a short list of paths` };
    }
    profile.madeModel = o.madeModel;
  }
  if (o.states !== undefined) {
    if (typeof o.states !== 'object' || o.states === null || Array.isArray(o.states)) return { problem: `${part}.states is not an object` };
    const entries = Object.entries(o.states as Record<string, unknown>);
    if (entries.length > MAX_MAPPED) return { problem: `${part}.states has more than ${MAX_MAPPED} words` };
    // No prototype: a word such as `__proto__` or `constructor` is a word like any other.
    const states = Object.create(null) as Record<string, JobState>;
    for (const [word, state] of entries) {
      if (!STATES.includes(state as JobState)) return { problem: `${part}.states["${word}"] is not one of ${STATES.join(', ')}` };
      states[word] = state as JobState;
    }
    profile.states = states;
  }
  if (!profile.state && !profile.finished && !profile.done && !profile.result && !profile.modelState) {
    return { problem: `${part} says neither where the state is nor how the job says it finished` };
  }
  return { value: profile };
}
