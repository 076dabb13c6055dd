// The book the client reads and reports each kind of answer through: whoever keeps one origin's service profile
// (the extension's ServiceProfiles, bound to the origin the key is for; none in tests and benchmarks, which then
// infer every answer). Three calls, the same for every kind of answer (its part of the profile): the profile to read
// by, what a reading learned, and an answer nothing could read. What the book does with them (keep, log once, offer
// the answer for a person to choose how to read it) is one policy for every part, in the book, not in the client.
// Two books keep it (the extension's ServiceProfiles, the command line's FileProfileBook): what they store alike is here.

import { checkServiceProfile, type Checked, type ProfileSource, type ServiceProfile } from './profileFormat';
import type { StartAnswer } from './startedJobInference';
import { isRecord } from './strictChecks';

/** A part of the service profile: one per kind of answer. */
export type ProfilePart = keyof ServiceProfile;
export type PartProfile<P extends ProfilePart> = NonNullable<ServiceProfile[P]>;

/** What an answer of a part carries beside its body, for a person to choose how to read it (none for most parts). */
export interface AnswerContexts {
  /** Which endpoint started the job, and the answer's status, Location and what the request sent. */
  startedJob: { kind: 'finetune' | 'evaluation'; answer: StartAnswer };
  /** The model the download was for: asked again once a way to read its answer is chosen. */
  download: { modelName: string };
  /** The job whose status it is: each job's last answer is its own row's. */
  finetuneStatus: { jobId: string };
  evaluationStatus: { jobId: string };
}
export type AnswerContext<P extends ProfilePart> = P extends keyof AnswerContexts ? AnswerContexts[P] : undefined;

/** What reading one answer of a part learned. */
export interface Learned<P extends ProfilePart> {
  /**
   * The profile that read it: the one the book gave, or one inferred (or grown) now. For the started job, only the
   * endpoint read has its place set: the book keeps the other endpoint's as it is.
   */
  profile: PartProfile<P>;
  /** Set when the profile was inferred or changed now: what changed, in words, for the log (the book keeps it). */
  change?: string;
  /** The answer read (a stream's first events), for Choose How to Read… to show how it is read now. */
  body?: unknown;
  context?: AnswerContext<P>;
  /** The model list's first names, for Show How the Service Is Read. */
  samples?: string[];
}

export interface ProfileBook {
  /** The profile to read `part` by: the setting's for this origin (or what replaced it when it no longer fit), else the one kept. */
  profile<P extends ProfilePart>(part: P): PartProfile<P> | undefined;
  /** An answer of `part` was read: kept, logged and offered for a choice as the book's one policy says. */
  learned<P extends ProfilePart>(part: P, reading: Learned<P>): void;
  /**
   * An answer of `part` nothing could read (or two ways could): kept for the person to choose how to read it; a start
   * answer's job may exist, a download is asked again once chosen (`context`).
   */
  unreadable<P extends ProfilePart>(part: P, body: unknown, context?: AnswerContext<P>): void;
}

/** Most origins a book keeps a profile for; the oldest go first (a person rarely uses more than a few services). */
const MAX_ORIGINS = 50;

/** `origin`'s profile in `all` (profiles by origin: as stored, or the setting's), checked; undefined when it has none. */
export function originProfile(all: unknown, origin: string, by?: ProfileSource): Checked<ServiceProfile> | undefined {
  return isRecord(all) && Object.hasOwn(all, origin) ? checkServiceProfile(all[origin], by) : undefined;
}

/** `all` (profiles by origin) with `origin`'s set to `profile`, last: the most recently kept origin is the last to go. */
export function withOrigin(all: unknown, origin: string, profile: unknown): Record<string, unknown> {
  const next = isRecord(all) ? { ...all } : {};
  delete next[origin];
  next[origin] = profile;
  const origins = Object.keys(next);
  for (const old of origins.slice(0, Math.max(0, origins.length - MAX_ORIGINS))) delete next[old];
  return next;
}

/**
 * Where the agreement on a learned part is counted, and the part to keep: a started job's endpoints each have their
 * place, and the other endpoint's place is the one kept (`kept`, read only then).
 */
export function learnedPart<P extends ProfilePart>(
  part: P,
  { profile, context }: Learned<P>,
  kept: () => ServiceProfile | undefined,
): { place: string; value: PartProfile<P> } {
  if (part !== 'startedJob') return { place: part, value: profile };
  const kind = (context as AnswerContext<'startedJob'> | undefined)?.kind ?? '';
  return { place: `startedJob ${kind}`, value: { ...kept()?.startedJob, ...profile } };
}
