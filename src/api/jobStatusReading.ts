// A job status (§3/§4.4/§4.6) as the client reads it: by the profile it knows for the service and this endpoint, and
// when it knows none, or the answer no longer fits it, by the profile inferred from this answer, which the caller keeps
// (and logs: `change` says what changed). The first answers of a job say less than the later ones (a queued job has no
// progress yet, a running one no result, no error, no model made): while the known profile lacks a part, the answers
// that may show it (mayGrow) are inferred too and the parts found are added (logged as well). Parts known are never
// changed that way, so every later answer is read the same way; only an answer that no longer fits replaces the
// profile, or, for an inferred one, an answer it may grow from whose state is at a place the inference ranks higher
// (grown). A profile written in the setting is read as given.
// With a memory of the endpoint's answers (jobStatusMemory.ts, the client's): a running job's answers are grown from
// once per place (state, word and stage) for a profile, not at every poll because they lack a part (a service that
// says no progress at all would be inferred at each); and what two answers of one job teach is learned
// (jobStatusLearning.ts: the progress that moves, a word that only comes last). Without one (a single answer read,
// the benchmarks), each answer is read as if it were the first.

import { betterPlace, readAnswer, type AnswerKind } from './answerReading';
import { inferJobStatusProfile, statePlaceRank } from './jobStatusInference';
import { readingKey, type JobStatusPart, type JobStatusProfile } from './profileFormat';
import { learnAcrossPolls } from './jobStatusLearning';
import type { JobStatusMemory } from './jobStatusMemory';
import { readStatusByProfile, type StatusRead } from './jobStatusReader';
import { describeJobStatusProfile, PART_WORDS } from './profileWords';
import { isTerminal } from './types';

export interface JobStatusReading {
  read: StatusRead;
  /** The profile that read it (the one known, grown, or inferred now). */
  profile: JobStatusProfile;
  /** Set when the profile is new or changed: what changed, in words, for the log. */
  change?: string;
}

/** Parts added one by one while the known profile lacks them. */
const SINGLE_PARTS = ['finished', 'message', 'error', 'modelState', 'result'] as const;
const PROGRESS_PARTS = ['percent', 'fraction', 'done', 'total'] as const;
const MAX_MADE_PATHS = 4;
const stateRank = (p: JobStatusProfile) => statePlaceRank(p.state);

/** Which job an answer is of, and the memory of the endpoint's answers it is read with (see the header). */
export interface JobSeen {
  jobId: string;
  memory: JobStatusMemory;
}

/** The two kinds of job status, one per endpoint (profileFormat.ts says why). */
const KINDS: Record<JobStatusPart, AnswerKind<JobStatusProfile, StatusRead, JobSeen | undefined>> = {
  finetuneStatus: statusKind('finetuneStatus'),
  evaluationStatus: statusKind('evaluationStatus'),
};

function statusKind(part: JobStatusPart): AnswerKind<JobStatusProfile, StatusRead, JobSeen | undefined> {
  return {
    part,
    read: readStatusByProfile,
    infer: (body) => ({ profile: infer(part, body) }),
    describe: describeJobStatusProfile,
    revise: (body, known, read, seen, inferAgain) => revised(part, body, known, read, seen, () => inferAgain().profile),
  };
}

/**
 * A kept profile that reads the answer, revised: what two answers of one job teach (jobStatusLearning.ts), else the
 * parts it lacks, grown from an answer that may show them; a profile written in the setting is read as given.
 */
function revised(
  part: JobStatusPart,
  body: unknown,
  known: JobStatusProfile,
  read: StatusRead,
  seen: JobSeen | undefined,
  inferAgain: () => JobStatusProfile,
): { profile: JobStatusProfile; change: string } | undefined {
  if (known.by === 'setting') return undefined;
  const learned = seen && learnAcrossPolls(part, body, known, read, seen.memory.previous(seen.jobId));
  if (learned?.change !== undefined) return { profile: learned.profile, change: learned.change };
  if (!mayGrow(known, read)) return undefined;
  // The end is said once per job: always looked at. A running job's place, once per profile.
  const place = `${read.state} ${read.rawState ?? ''} ${read.stage ?? ''}`;
  if (seen && !isTerminal(read.state) && !seen.memory.firstGrowth(readingKey(known), place)) return undefined;
  return grown(part, known, inferAgain);
}

/** Reads a status by `known`, inferring again when it does not fit. Throws a ContractError when nothing fits. */
export function readJobStatus(part: JobStatusPart, body: unknown, known?: JobStatusProfile, seen?: JobSeen): JobStatusReading {
  const { value: read, profile, change } = readAnswer(KINDS[part], body, known, seen);
  seen?.memory.remember(seen.jobId, body);
  return { read, profile: profile!, change };
}

function infer(part: JobStatusPart, body: unknown): JobStatusProfile {
  const profile = inferJobStatusProfile(body, PART_WORDS[part].name);
  // An evaluation makes no model: the model its result names is the one evaluated.
  if (part === 'evaluationStatus') delete profile.madeModel;
  return profile;
}

/**
 * Whether this answer may show a part the profile lacks: the end brings the result, the made model and the error; a
 * running job brings progress and a message. A running job's answers read by a profile that has those are read by
 * the profile alone (a sixth of the old decoder's time, against twice it with the inference).
 */
function mayGrow(known: JobStatusProfile, read: StatusRead): boolean {
  return isTerminal(read.state) || PROGRESS_PARTS.every((p) => known[p] === undefined) || known.message === undefined;
}

/** The known profile with the parts this answer shows that it lacks (see the header), or undefined when none. */
function grown(
  part: JobStatusPart,
  known: JobStatusProfile,
  inferAgain: () => JobStatusProfile,
): { profile: JobStatusProfile; change: string } | undefined {
  let inferred: JobStatusProfile;
  try {
    inferred = inferAgain();
  } catch {
    return undefined; // the known profile reads it; nothing to add
  }
  // Another shape of answer, which the known profile still reads: it is not grown from a different reading. But a
  // state kept from a first answer that had nothing better (`phase`) gives way, when the profile was inferred, to a
  // place the inference ranks above it (`status`): one answer does not decide how all later ones are read (issue 35).
  if (inferred.state !== known.state) return betterPlace(KINDS[part], 'state', stateRank, known, () => ({ profile: inferred }));
  const next: JobStatusProfile = { ...known };
  const added: string[] = [];
  for (const p of SINGLE_PARTS) {
    if (next[p] === undefined && inferred[p] !== undefined) {
      next[p] = inferred[p];
      added.push(p);
    }
  }
  if (PROGRESS_PARTS.every((p) => next[p] === undefined) && PROGRESS_PARTS.some((p) => inferred[p] !== undefined)) {
    for (const p of PROGRESS_PARTS) if (inferred[p] !== undefined) next[p] = inferred[p];
    added.push('progress');
  }
  const paths = next.madeModel ?? [];
  const newPaths = (inferred.madeModel ?? []).filter((p) => !paths.includes(p));
  if (newPaths.length > 0 && paths.length + newPaths.length <= MAX_MADE_PATHS) {
    // The inference's order (a name the answer says was made before the spec's `model_name`), then the known ones.
    next.madeModel = [...(inferred.madeModel ?? []), ...paths.filter((p) => !inferred.madeModel?.includes(p))];
    added.push('made model');
  }
  if (added.length === 0) return undefined;
  return { profile: next, change: `${PART_WORDS[part].title} now also reads ${added.join(', ')}: ${describeJobStatusProfile(next)}` };
}
