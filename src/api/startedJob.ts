// §4.3/§4.5 the answer to a started job: its id, read where the service's profile says it is (its `startedJob` part,
// one place per endpoint), and when no place is known or the answer no longer fits it, where startedJobInference.ts
// finds it now; the caller keeps that place (and logs `change`). Rules in decode.ts's header and startedJobInference.ts.

import { answerReader } from './errors';
import { contract } from './answerShape';
import type { ProfileSource } from './serviceProfile';
import {
  idFromLocation,
  inferStartedJobId,
  isJobIdValue,
  LOCATION_HEADER,
  placeRank,
  type FoundId,
  type StartAnswer,
} from './startedJobInference';
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

/**
 * Reads a start answer by the place `known`, inferring it again when the answer does not fit, or when the place was
 * inferred (`knownBy`) and the answer holds an id at a place the inference ranks above it (`run` kept from a first
 * answer, then `{"job_id", "run"}`: issue 35). A place the person chose or the setting gave is read as it is.
 */
export const readStartedJob = answerReader(function readStartedJob(
  body: unknown,
  answer: StartAnswer = {},
  known?: string,
  knownBy?: ProfileSource,
): StartedJobReading {
  const kept = known === undefined ? undefined : idAt(body, answer, known);
  const { id, from } =
    kept === undefined
      ? inferStartedJobId(body, answer)
      : knownBy === 'inferred'
        ? stronger(body, answer, kept, known!)
        : { id: kept, from: known! };
  // An id that cannot be stored and sent back safely is refused now, not discovered by the poller or the views later.
  if (!isUsableJobId(id)) {
    throw contract(`the job id is longer than ${MAX_JOB_ID_LENGTH} characters or holds control characters`, body);
  }
  const job = { jobId: id, raw: body };
  if (from === known) return { job, from };
  const change =
    known === undefined
      ? `Started job: ${describeStartedJobPlace(from)}`
      : `The started job's answer no longer fits how it was read (${describeStartedJobPlace(known)}); now: ${describeStartedJobPlace(from)}`;
  return { job, from, change };
});

/** The id the inference finds when its place ranks above the kept one's, else the kept one's. */
function stronger(body: unknown, answer: StartAnswer, id: string, known: string): FoundId {
  try {
    const inferred = inferStartedJobId(body, answer);
    if (placeRank(inferred.from) > placeRank(known)) return inferred;
  } catch {
    // A tie or no id by inference: the kept place read this answer, and still does.
  }
  return { id, from: known };
}

/** A start answer read with no place known (tests, and callers that keep none). */
export const decodeStartedJob = answerReader(function decodeStartedJob(body: unknown, answer: StartAnswer = {}): StartedJob {
  return readStartedJob(body, answer).job;
});
