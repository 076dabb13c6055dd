// The one way an answer the spec leaves "not shown" is read, whatever its kind (issue 36): by the profile kept for the
// service when it fits the answer, else by the profile inferred from this answer, which the caller hands to its book
// with what changed, in words, for the log (the book keeps it and tells it once). A kind is a small description
// (AnswerKind): how a profile reads a body, how one is inferred, how it is said in words, and, when a kept profile
// that reads the answer may give way to a better one (a place the inference ranks higher, a part the first answers
// lacked), how. Each kind's real knowledge stays in its inference (the *Inference.ts files). The API families
// (families.ts: readings known before any answer is seen) are tried here, once for every kind, before the inference.

import { familyFor } from './families';
import type { PartName, PartProfile, ProfileSource } from './profileFormat';

export interface AnswerKind<Profile extends { by: ProfileSource }, Value, Context> {
  /** Its part of the service profile: the API families' readings of that part are tried before `infer`. */
  part: PartName;
  /** Words for the first profile: "Model list". */
  title: string;
  /** Words for a profile that no longer fits: "The model list". */
  name: string;
  /** `name` is plural ("The stream's events"): they no longer fit how they were read. */
  plural?: boolean;
  /** A family's reading of the part as this kind's profile, when the kind reads by another form of it. */
  adopt?(reading: PartProfile<PartName>, context: Context): Profile;
  /** What `profile` reads from `body`, or undefined when the answer does not fit it. */
  read(body: unknown, profile: Profile, context: Context): Value | undefined;
  /**
   * The profile inferred from `body`, and what it reads there when the inference read it already; throws a
   * ContractError when nothing could read it (or two ways could).
   */
  infer(body: unknown, context: Context): { profile: Profile; value?: Value };
  describe(profile: Profile): string;
  /** Two profiles that read answers the same way (where they came from aside). */
  same(a: Profile, b: Profile): boolean;
  /** A profile read by is kept only when it says something: never from an empty model list. */
  worthKeeping?(value: Value): boolean;
  /**
   * A kept profile that reads this answer, revised from it: a place the inference ranks above the kept one, or the
   * parts the first answers lacked (`inferred`: the profile the families or the inference give this answer, as
   * readAnswer would infer it). Undefined when it stays as it is.
   */
  revise?(
    body: unknown,
    known: Profile,
    value: Value,
    context: Context,
    inferred: () => { profile: Profile; value?: Value },
  ): { profile: Profile; change: string } | undefined;
}

export interface AnswerReading<Profile, Value> {
  value: Value;
  /** The profile that read it (the one known, revised, or inferred now); none for an answer that says nothing. */
  profile?: Profile;
  /** Set when the profile is new or changed: what changed, in words, for the log. */
  change?: string;
}

/** Reads `body` by `known`, inferring again when it does not fit. Throws a ContractError when nothing fits. */
export function readAnswer<Profile extends { by: ProfileSource }, Value, Context>(
  kind: AnswerKind<Profile, Value, Context>,
  body: unknown,
  known: Profile | undefined,
  context: Context,
): AnswerReading<Profile, Value> {
  if (known) {
    const value = kind.read(body, known, context);
    if (value !== undefined) {
      const revised = kind.revise?.(body, known, value, context, () => inferAnswer(kind, body, context));
      if (!revised) return { value, profile: known };
      return { value: kind.read(body, revised.profile, context) ?? value, ...revised };
    }
  }
  const { profile: inferred, value: read } = inferAnswer(kind, body, context);
  const value = read ?? kind.read(body, inferred, context);
  // The inference took only what its profile reads: its own profile always fits the answer it came from.
  if (value === undefined) throw new Error(`${kind.title}: a profile does not fit the answer it was inferred from`);
  if (kind.worthKeeping && !kind.worthKeeping(value)) return { value };
  if (known && kind.same(known, inferred)) return { value, profile: known };
  return { value, profile: inferred, change: changeWords(kind, known, inferred) };
}

/**
 * The profile of `body` when none kept reads it: the first API family's reading that reads it (families.ts), else the
 * kind's inference (which throws a ContractError when nothing reads it).
 */
export function inferAnswer<Profile extends { by: ProfileSource }, Value, Context>(
  kind: AnswerKind<Profile, Value, Context>,
  body: unknown,
  context: Context,
): { profile: Profile; value?: Value } {
  let found: { profile: Profile; value: Value } | undefined;
  familyFor(kind.part, body, (reading) => {
    const profile = kind.adopt ? kind.adopt(reading, context) : (reading as unknown as Profile);
    const value = kind.read(body, profile, context);
    if (value === undefined || (kind.worthKeeping && !kind.worthKeeping(value))) return false;
    found = { profile, value };
    return true;
  });
  return found ?? kind.infer(body, context);
}

/** What changed, in words: the first profile, or the one that no longer fits and the one now. */
export function changeWords<Profile extends { by: ProfileSource }>(
  kind: Pick<AnswerKind<Profile, unknown, unknown>, 'title' | 'name' | 'plural' | 'describe'>,
  known: Profile | undefined,
  now: Profile,
): string {
  const words = kind.describe(now);
  if (!known) return `${kind.title}: ${words}`;
  const misfit = kind.plural ? 'no longer fit how they were read' : 'no longer fits how it was read';
  return `${kind.name} ${misfit} (${kind.describe(known)}); now: ${words}`;
}

/** The change of a kept profile that gives way to one whose `what` is at a place the inference ranks higher. */
export function betterPlaceWords<Profile extends { by: ProfileSource }>(
  kind: Pick<AnswerKind<Profile, unknown, unknown>, 'name' | 'describe'>,
  what: string,
  known: Profile,
  now: Profile,
): string {
  return `${kind.name} has its ${what} at a better place than the one it was read by (${kind.describe(known)}); now: ${kind.describe(now)}`;
}
