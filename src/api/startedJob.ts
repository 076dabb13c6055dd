// §4.3/§4.5 the answer to a started job, as a kind of answer (answerReading.ts reads it): its id, read where the
// service's profile says it is (its `startedJob` part, one place per endpoint), and when no place is known or the
// answer no longer fits it, where startedJobInference.ts finds it now; the caller keeps that place (and logs `change`).
// Rules in answerReading.ts's header and startedJobInference.ts.

import { betterPlace, readAnswer, type AnswerKind } from './answerReading';
import { answerReader } from './errors';
import { contract } from './answerShape';
import type { ProfileSource, StartedJobProfile } from './profileFormat';
import { idFromLocation, inferStartedJobId, isJobIdValue, LOCATION_HEADER, placeRank, type StartAnswer } from './startedJobInference';
import { parsePath, valueAt } from './profilePath';
import { describeStartedJobPlace } from './profileWords';
import { isUsableJobId, MAX_JOB_ID_LENGTH, type StartedJob } from './types';

export type { StartAnswer } from './startedJobInference';

export interface StartedJobReading {
  job: StartedJob;
  /** Where the id was read: a path ('' the answer itself) or LOCATION_HEADER. */
  from: string;
  /** Set when the place was inferred now and differs from the one known: what changed, in words, for the log. */
  change?: string;
}

/** The id at a known place, or undefined when the answer does not fit it (nothing there, or nothing that is an id). */
function idAt(body: unknown, answer: StartAnswer, from: string): string | undefined {
  if (from === LOCATION_HEADER) return idFromLocation(answer);
  const path = parsePath(from);
  if (path === undefined) return undefined;
  const v = valueAt(body, path);
  // A whole number at a place known (chosen by the person, or the setting's) is the id: inference alone never takes one
  // inside a record (startedJobInference.ts rule 3), so such a place was never inferred.
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return String(v);
  return isJobIdValue(v, new Set(answer.sent ?? [])) ? v.trim() : undefined;
}

/** One endpoint's place of the id, as the started job's kind reads it. */
interface Place {
  from: string;
  by: ProfileSource;
}

const STARTED_JOB: AnswerKind<Place, string, StartAnswer> = {
  part: 'startedJob',
  read: (body, place, answer) => idAt(body, answer, place.from),
  infer(body, answer) {
    const { id, from } = inferStartedJobId(body, answer);
    return { profile: { from, by: 'inferred' }, value: id };
  },
  describe: (place) => describeStartedJobPlace(place.from),
  // A family's reading of the part says the place of one endpoint's id.
  adopt: (reading) => {
    const r = reading as StartedJobProfile;
    return { from: r.finetune ?? r.evaluation ?? '', by: 'inferred' };
  },
  revise: (_body, known, _id, _answer, inferAgain) => betterPlace(STARTED_JOB, 'id', (p) => placeRank(p.from), known, inferAgain),
};

/**
 * Reads a start answer by the place `known`, inferring it again when the answer does not fit, or when the place was
 * inferred (`knownBy`) and the answer holds an id at a place the inference ranks above it. A place the person chose
 * or the setting gave is read as it is.
 */
export const readStartedJob = answerReader(function readStartedJob(
  body: unknown,
  answer: StartAnswer = {},
  known?: string,
  knownBy?: ProfileSource,
): StartedJobReading {
  const place = known === undefined ? undefined : { from: known, by: knownBy ?? 'chosen' };
  const { value: id, profile, change } = readAnswer(STARTED_JOB, body, place, answer);
  // An id that cannot be stored and sent back safely is refused now, not discovered by the poller or the views later.
  if (!isUsableJobId(id)) {
    throw contract(`the job id is longer than ${MAX_JOB_ID_LENGTH} characters or holds control characters`, body);
  }
  const job = { jobId: id, raw: body };
  return change === undefined ? { job, from: profile!.from } : { job, from: profile!.from, change };
});
