// A job status (§3/§4.4/§4.6) read by a known profile (profileFormat.ts): follow its paths, map the state word, no
// search of the answer. It decides the state from what is at those paths, in this order:
//  1. a state word the profile's map or the built-in table reads (a vendor prefix dropped: stateWords.ts): completed,
//     failed and cancelled as said; queued and running too, unless the finished flag is true (then completed, or failed
//     with an error): `done: true` beside a `RUNNING` said of something else;
//  2. no such word: an error makes it failed; a true finished flag, a result record or a made model that is ready make
//     it completed; an unknown word is kept (`rawState`, state 'unknown': polling goes on, shown humanised); counts
//     that reached their total make it completed, short of it running; a profile that knows the job says it finished
//     only by its flag reads the flag's absence as running (a Google operation omits `done` until it is true);
//  3. none of these: the answer does not fit the profile (undefined), and the status is inferred again.
// A part of the profile whose path holds nothing in this answer (a running job has no result yet) is just absent.

import { isHumanText, isIdentifier, isModelName, isObj } from './answerShape';
import { errorText } from './errorBody';
import type { JobStatusProfile } from './profileFormat';
import { parsePath, valueAt, type Segment } from './profilePath';
import { normaliseState, saysModelReady } from './stateWords';
import { capText, humanise, MAX_STATE_WORD_LENGTH, type JobState } from './types';

/** What a status answer says, whatever the kind of job. */
export interface StatusRead {
  state: JobState;
  /** The word the service used, verbatim (capped). */
  rawState?: string;
  progress?: number;
  /** The phase word read as the message, verbatim (capped): a stage of the job, which a sentence is not. */
  stage?: string;
  message?: string;
  error?: string;
  madeModel?: string;
  /** The value at the profile's result path (the evaluation reads its fields from it). */
  result?: unknown;
}

const PATHS = new Map<string, Segment[]>();

/** A checked profile's path, parsed once. */
function segments(path: string): Segment[] {
  let parsed = PATHS.get(path);
  if (!parsed) {
    parsed = parsePath(path) ?? [];
    if (PATHS.size > 1_000) PATHS.clear();
    PATHS.set(path, parsed);
  }
  return parsed;
}

const hasValue = (v: unknown) => v !== undefined && v !== null && v !== '' && v !== false;
/** An error is said in words or records; a number or a flag under an error key (`error_count: 0`) says none. */
const isErrorValue = (v: unknown) => hasValue(v) && (typeof v === 'string' || typeof v === 'object');
const NUMBER_TEXT = /^\s*(\d+(?:\.\d+)?)\s*$/;
const PERCENT_TEXT = /^\s*(\d+(?:\.\d+)?)\s*%\s*$/;

/** A number, or a numeric string (services write counts and percents as both). */
export function numberOf(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && v.length < 40 && NUMBER_TEXT.test(v)) return Number(v);
  return undefined;
}

/** A percentage: a number, a numeric string or a `42%` text. */
export function percentOf(v: unknown): number | undefined {
  if (typeof v === 'string' && v.length < 40 && PERCENT_TEXT.test(v)) return Number(PERCENT_TEXT.exec(v)![1]);
  return numberOf(v);
}

/** Text a person wrote: words with spaces, at least half its tokens words; an id or an opaque blob is never text. */
export function isProse(v: unknown): v is string {
  if (!isHumanText(v)) return false;
  const tokens = v.trim().split(/\s+/, 200);
  const said = tokens.filter((t) => /^[("'“]?\p{L}[\p{L}'’-]*[.,;:!?)"'”]*$/u.test(t) && t.length <= 40).length;
  return said >= 1 && said * 2 >= tokens.length;
}

/** A phase word shown as a message: one token with a letter, not the state word itself. */
const isPhaseWord = (v: unknown, state: string | undefined): v is string =>
  isIdentifier(v) && /^[A-Za-z][A-Za-z0-9 _.-]{0,63}$/.test(v) && v.trim() !== state;

/** The status `profile` reads from `body`, or undefined when the answer does not fit it (see the header). */
export function readStatusByProfile(body: unknown, profile: JobStatusProfile): StatusRead | undefined {
  const at = (path: string | undefined) => (path === undefined ? undefined : valueAt(body, segments(path)));
  const word = at(profile.state);
  const said = typeof word === 'string' && word.trim() !== '' ? word.trim() : undefined;
  const mapped = said === undefined ? undefined : mappedWord(profile, said);
  const flagValue = at(profile.finished);
  const finished = flagValue === true;
  const errorValue = at(profile.error);
  const error = isErrorValue(errorValue) ? capText(errorText(errorValue)) : undefined;
  const result = at(profile.result);
  const modelWord = at(profile.modelState);
  const ready = typeof modelWord === 'string' && saysModelReady(modelWord);
  const counts = countsOf(at(profile.done), at(profile.total));

  let state: JobState;
  if (mapped === 'completed' || mapped === 'failed' || mapped === 'cancelled') state = mapped;
  else if (mapped === 'queued' || mapped === 'running') state = finished ? (error ? 'failed' : 'completed') : mapped;
  else if (error !== undefined) state = 'failed';
  else if (finished || isObj(result) || ready) state = 'completed';
  else if (said !== undefined) state = 'unknown';
  else if (counts) state = counts.done >= counts.total ? 'completed' : 'running';
  else if (profile.state === undefined && profile.finished !== undefined && (flagValue === false || somethingAt(profile, at))) {
    state = 'running';
  } else return undefined;

  const read: StatusRead = { state };
  if (said !== undefined) read.rawState = capText(said, MAX_STATE_WORD_LENGTH);
  const progress = state === 'completed' ? 100 : progressOf(profile, at, state, counts);
  if (progress !== undefined) read.progress = progress;
  const message = at(profile.message);
  if (isProse(message)) read.message = capText(message);
  else if (isPhaseWord(message, said)) {
    read.message = capText(humanise(message));
    read.stage = capText(message.trim(), MAX_STATE_WORD_LENGTH);
  }
  if (error !== undefined) read.error = error;
  for (const path of profile.madeModel ?? []) {
    const name = at(path);
    if (isModelName(name)) {
      read.madeModel = name.trim();
      break;
    }
  }
  if (result !== undefined) read.result = result;
  return read;
}

function mappedWord(profile: JobStatusProfile, said: string): JobState {
  const states = profile.states;
  return states && Object.hasOwn(states, said) ? states[said]! : normaliseState(said);
}

/** Whether the answer holds anything where the profile reads progress, a message or a made model: it is this job's. */
function somethingAt(profile: JobStatusProfile, at: (path: string | undefined) => unknown): boolean {
  const paths = [profile.percent, profile.fraction, profile.message, profile.modelState, ...(profile.madeModel ?? [])];
  return paths.some((p) => p !== undefined && at(p) !== undefined);
}

function countsOf(done: unknown, total: unknown): { done: number; total: number } | undefined {
  const d = numberOf(done);
  const t = numberOf(total);
  return d !== undefined && t !== undefined && t > 0 && d >= 0 && d <= t ? { done: d, total: t } : undefined;
}

function progressOf(
  profile: JobStatusProfile,
  at: (path: string | undefined) => unknown,
  state: JobState,
  counts: { done: number; total: number } | undefined,
): number | undefined {
  const clamp = (n: number) => Math.max(0, Math.min(100, n));
  const percent = percentOf(at(profile.percent));
  if (percent !== undefined) return clamp(percent);
  const fraction = numberOf(at(profile.fraction));
  if (fraction !== undefined) {
    // Above 1 it is a percentage; 1 while not finished is 1% (a fraction of 1 would say the job is done).
    if (fraction > 1) return clamp(fraction);
    return fraction === 1 && state !== 'completed' ? 1 : clamp(fraction * 100);
  }
  return counts ? clamp((counts.done / counts.total) * 100) : undefined;
}
