// What one answer of a job status cannot tell and two answers of the same job can (issue 36, item 8), learned into the
// profile, which the caller keeps and logs as any change:
//  - Several progress readings in one answer (a percentage, counts of a total, steps of a total): the one that moves
//    is the progress. When the profile's reading did not move between the job's last answer and this one while another
//    reading did, the profile reads that one from now on (a fixed "46 %" that came first gives way to the steps).
//  - A state word that only ever comes last is an end: a word the profile cannot map, said once the progress reached
//    its end, and not said by the job's last answer while it was short of it, is learned as completed in the
//    profile's states; so is the word a job said when its made model was listed (endWordLearned, from the poller). The
//    next answer of any job that says it ends at once.
// A setting's profile is read as given: nothing is learned into it.

import { progressCandidates } from './jobStatusInference';
import { MAX_MAPPED, type JobStatusPart, type JobStatusProfile } from './profileFormat';
import { readStatusByProfile, type StatusRead } from './jobStatusReader';
import { describeJobStatusProfile, PART_WORDS } from './profileWords';
import { normaliseState } from './stateWords';
import { isTerminal, MAX_STATE_WORD_LENGTH } from './types';

export interface Learned {
  profile: JobStatusProfile;
  read: StatusRead;
  change: string;
}

type Progress = Pick<JobStatusProfile, 'percent' | 'fraction' | 'done' | 'total'>;

/** What this answer and the job's last one (`previous`) teach the profile that read this one as `read`, if anything. */
export function learnAcrossPolls(
  part: JobStatusPart,
  body: unknown,
  known: JobStatusProfile,
  read: StatusRead,
  previous: unknown,
): Learned | undefined {
  if (known.by === 'setting' || isTerminal(read.state)) return undefined;
  const moved = previous === undefined ? undefined : movingProgress(body, known, read, previous);
  const profile = moved?.profile ?? known;
  const now = moved ? (readStatusByProfile(body, profile) ?? read) : read;
  const word = lastWord(profile, now, previous);
  if (!moved && word === undefined) return undefined;
  const next = word === undefined ? profile : withEndWord(profile, word);
  const said = [moved?.said, word === undefined ? undefined : `the word ${word} came once progress reached its end: read as completed`];
  return {
    profile: next,
    read: readStatusByProfile(body, next) ?? now,
    change: `${PART_WORDS[part].title}: ${said.filter((s) => s !== undefined).join('; ')}; now: ${describeJobStatusProfile(next)}`,
  };
}

/** `known` with `word` learned as an end, said for the log: the job ended otherwise (its model was listed) as it said it. */
export function endWordLearned(
  part: JobStatusPart,
  known: JobStatusProfile,
  word: string,
): { profile: JobStatusProfile; change: string } | undefined {
  if (known.by === 'setting' || !isUnmapped(known, word)) return undefined;
  const profile = withEndWord(known, word);
  if (profile === known) return undefined;
  return {
    profile,
    change: `${PART_WORDS[part].title}: the word ${word} was said when the job ended (its model listed): read as completed; now: ${describeJobStatusProfile(profile)}`,
  };
}

/** The profile reading the progress that moved from `previous` to `body`, when the profile's own reading did not. */
function movingProgress(
  body: unknown,
  known: JobStatusProfile,
  read: StatusRead,
  previous: unknown,
): { profile: JobStatusProfile; said: string } | undefined {
  if (read.progress === undefined) return undefined; // no progress read: the profile grows one (jobStatusReading.ts)
  const before = readStatusByProfile(previous, known);
  if (before?.progress !== read.progress) return undefined;
  // The same answer again says nothing of what moves; comparing text is cheaper than looking for readings.
  if (JSON.stringify(previous) === JSON.stringify(body)) return undefined;
  for (const candidate of progressCandidates(body)) {
    if (source(candidate) === source(known)) continue;
    const profile = withProgress(known, candidate);
    const was = readStatusByProfile(previous, profile)?.progress;
    const is = readStatusByProfile(body, profile)?.progress;
    if (was === undefined || is === undefined || was === is) continue;
    return { profile, said: `the progress at ${source(candidate)} moves, the one at ${source(known)} did not` };
  }
  return undefined;
}

/** `known` reading its progress from `candidate`: counts replace a percent that did not move, a percent goes first. */
function withProgress(known: JobStatusProfile, candidate: Progress): JobStatusProfile {
  const next: JobStatusProfile = { ...known };
  delete next.percent;
  delete next.fraction;
  if (candidate.done !== undefined && candidate.total !== undefined) {
    next.done = candidate.done;
    next.total = candidate.total;
  } else if (candidate.percent !== undefined) next.percent = candidate.percent;
  else if (candidate.fraction !== undefined) next.fraction = candidate.fraction;
  return next;
}

/** Where a profile reads its progress from: a percent first, then a fraction, then counts (as the reader does). */
function source(p: Progress): string {
  if (p.percent !== undefined) return p.percent;
  if (p.fraction !== undefined) return p.fraction;
  return `${p.done} of ${p.total}`;
}

/** The word said now that only comes last (see the header), if any. */
function lastWord(profile: JobStatusProfile, read: StatusRead, previous: unknown): string | undefined {
  const word = read.rawState;
  if (read.state !== 'unknown' || word === undefined || !isUnmapped(profile, word)) return undefined;
  if (read.progress === undefined || read.progress < 100) return undefined;
  const before = previous === undefined ? undefined : readStatusByProfile(previous, profile);
  if (before?.rawState === word && (before.progress ?? 0) < 100) return undefined;
  return word;
}

/** A word read verbatim that neither the table nor the profile maps. */
function isUnmapped(profile: JobStatusProfile, word: string): boolean {
  return (
    word.trim() === word &&
    word.length > 0 &&
    word.length < MAX_STATE_WORD_LENGTH &&
    normaliseState(word) === 'unknown' &&
    !(profile.states && Object.hasOwn(profile.states, word))
  );
}

function withEndWord(profile: JobStatusProfile, word: string): JobStatusProfile {
  const words = Object.entries(profile.states ?? {});
  if (words.length >= MAX_MAPPED) return profile;
  // No prototype: a word such as `__proto__` is a word like any other (as the format's checker keeps them).
  const states = Object.assign(Object.create(null) as Record<string, NonNullable<JobStatusProfile['states']>[string]>, profile.states);
  states[word] = 'completed';
  return { ...profile, states };
}
