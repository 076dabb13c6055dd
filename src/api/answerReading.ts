// Readers for every part of the spec marked "not shown": their index and their rules (each kind of answer is read in
// its own file, named below, through readAnswer here). A reader reads an answer by its shape,
// not by a list of key names: the next service names its fields differently, but a list of models is still a list of
// named things, a job id the one identifier in the answer, progress a number or a pair of counts. Words are read only
// for meaning (a state, a kind, "total"), in values or in the words of a key, never as whole key names. A body no
// reading fits, or that two readings fit equally well, is a ContractError naming what was found, with a redacted
// excerpt for the log: never a crash, a silent empty result or a guess. Whatever else a reading meets (a RangeError
// from a builtin) is a ContractError too: readAnswer below, or answerReader (errors.ts) around a reader of its own.
// No spread or `apply` over what the service sent: they take about 125,000 elements at most, and an answer may hold more.
//
// "Inferred once per service" below: the place found is kept (ServiceProfiles) once a second answer agrees, at most
// MAX_KEEPS_PER_PART times per part in a window (src/connection/inferredKeeping.ts says why); until then each answer
// is read by inference. A place kept by inference gives way when a later answer has one the kind's inference ranks
// above it (its own scoring, no list of names): the answer and stream (streamReading.ts), the started job
// (startedJob.ts), the download URL (downloadAnswer.ts), the status's state (jobStatusReading.ts); the model list only
// when it no longer fits. A place chosen by the person or the setting's is read as given.
//
//  §4.1 model list: inferred once per service into a profile (paths and value maps), then read by it:
//      modelListInference.ts (its rules at its top), modelListReader.ts, modelListReading.ts. A parent only when it is
//      a name the answer lists; an answer holding names that reads as none is refused, never [].
//  §4.2 the answer and its reasoning, non-streamed and streamed: answerText.ts (framing: stream.ts). A stream's events
//      are read by a profile inferred once per service from a run's first events, then kept: streamInference.ts (its
//      rules at its top), streamReader.ts, streamReading.ts; a non-streamed answer the same way, as one event.
//  §4.3/§4.5 started job: inferred once per service and endpoint into the profile's `startedJob` part (the id's path, or
//      the Location header), then read by it: startedJobInference.ts (its rules at its top), startedJob.ts. `job_id`,
//      the spec's name, first; else the one identifier, at any depth, that is no state word and no value the request
//      sent, ranked by the words of its key (`id`, `jobId` over `run`, over `organization_id`: another thing's id), then
//      a shallower one, then one with a digit; a tie is refused. A number only as the whole answer, or at a place the
//      person chose (or the setting names). No id in the body: the `Location` of a 201/202. An id over 256 characters
//      or with control characters is refused (it is stored and sent back in every poll). An answer nothing reads goes
//      to the profile book, for the person to choose where its id is (Choose How to Read…).
//  §3/§4.4/§4.6 status: inferred once per service and endpoint into a profile (paths and a map of state words), kept,
//      then read by it; inferred again when an answer no longer fits, grown while the first answers lack a part:
//      jobStatusInference.ts (its rules at its top), jobStatusReader.ts, jobStatusReading.ts; the state words and the
//      one mapping rule (a vendor prefix dropped) in stateWords.ts; typed statuses and an evaluation's result (by the
//      spec's names, §2) in jobStatus.ts. A job ends when the answer says so: by a state word, a finished flag, a
//      result, a made model that is ready, or counts reaching their total; an evaluation said completed whose result
//      cannot be read ends failed, saying why, instead of being asked about forever.
//  §4.7 download body when not redirected: inferred once per service into the profile's `download` part (paths), then
//      read by it: downloadInference.ts (its rules at its top), downloadValues.ts, downloadAnswer.ts. The URL is the
//      answer's absolute https URL whatever its key; a 64-hex value is a SHA-256 whatever its key; an MD5 (16 bytes) and
//      a CRC32C (4 bytes), hex or base64, under a key saying md5 / crc32c; expiry, size and file name by the words of
//      their keys and the shape of their values. The downloader verifies the strongest checksum announced (checksum.ts).
//  §5 401 and 403 from the API origin both mean "fix the key" (AuthError).  §6 no events: jobs are polled (src/jobs).
//  §7 error bodies (errorBody.ts): FastAPI's `detail` list of `{loc, msg}`, an S3-like XML `<Message>`, else errorText of the body (a
//      string, an object's human text, or a list of them, joined); an HTML page says nothing; read by shape at each
//      answer, no profile part (errorBody.ts says why). Statuses: http.ts.
//  §8 limits: Retry-After, IETF RateLimit and X-RateLimit-Reset (rateLimit.ts), for retries and the poller alike.
//  §9 versioning: no version is sent; unknown fields are ignored. All JSON is parsed by safeJson.ts only (depth 64).
//
// The one way an answer the spec leaves "not shown" is read, whatever its kind (issue 36): by the profile kept for the
// service when it fits the answer, else by the profile inferred from this answer, which the caller hands to its book
// with what changed, in words, for the log (the book keeps it and tells it once). A kind is a small description
// (AnswerKind): how a profile reads a body, how one is inferred, how it is said in words, and, when a kept profile
// that reads the answer may give way to a better one (a place the inference ranks higher, a part the first answers
// lacked), how. Each kind's real knowledge stays in its inference (the *Inference.ts files). The API families
// (families.ts: readings known before any answer is seen) are tried here, once for every kind, before the inference.

import { unreadable } from './errors';
import { familyFor } from './families';
import { readingKey, type PartName, type PartProfile, type ProfileSource } from './profileFormat';
import { PART_WORDS, sentenceStart } from './profileWords';

export interface AnswerKind<Profile extends { by: ProfileSource }, Value, Context> {
  /** Its part of the service profile: the API families' readings of that part are tried before `infer`; its words. */
  part: PartName;
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
  /** Two profiles that read answers the same way (where they came from aside); by default, of one readingKey. */
  same?(a: Profile, b: Profile): boolean;
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

/**
 * Reads `body` by `known`, inferring again when it does not fit. Throws a ContractError when nothing fits, and for
 * whatever else the reading meets (a RangeError from a builtin: errors.ts unreadable), so no caller wraps it again.
 */
export function readAnswer<Profile extends { by: ProfileSource }, Value, Context>(
  kind: AnswerKind<Profile, Value, Context>,
  body: unknown,
  known: Profile | undefined,
  context: Context,
): AnswerReading<Profile, Value> {
  try {
    return readOrInfer(kind, body, known, context);
  } catch (e) {
    throw unreadable(e);
  }
}

function readOrInfer<Profile extends { by: ProfileSource }, Value, Context>(
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
  if (value === undefined) throw new Error(`${PART_WORDS[kind.part].title}: a profile does not fit the answer it was inferred from`);
  if (kind.worthKeeping && !kind.worthKeeping(value)) return { value };
  if (known && (kind.same ? kind.same(known, inferred) : readingKey(known) === readingKey(inferred))) {
    return { value, profile: known };
  }
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
  kind: Pick<AnswerKind<Profile, unknown, unknown>, 'part' | 'describe'>,
  known: Profile | undefined,
  now: Profile,
): string {
  const { title, name, plural } = PART_WORDS[kind.part];
  const words = kind.describe(now);
  if (!known) return `${title}: ${words}`;
  const misfit = plural ? 'no longer fit how they were read' : 'no longer fits how it was read';
  return `${sentenceStart(name)} ${misfit} (${kind.describe(known)}); now: ${words}`;
}

/**
 * A kept inferred profile that reads this answer giving way to the one inferred from it, when the inference ranks its
 * `what` above the kept one's (a `run` kept from a first answer, then `{"job_id", "run"}`: issue 35), with the change in
 * words; undefined when it stays. A profile the person chose or the setting gave is read as it is.
 */
export function betterPlace<Profile extends { by: ProfileSource }>(
  kind: Pick<AnswerKind<Profile, unknown, unknown>, 'part' | 'describe'>,
  what: string,
  rank: (p: Profile) => number,
  known: Profile,
  inferAgain: () => { profile: Profile },
): { profile: Profile; change: string } | undefined {
  if (known.by !== 'inferred') return undefined;
  let now: Profile;
  try {
    now = inferAgain().profile;
  } catch {
    return undefined; // a tie, or nothing the inference takes: the kept place read this answer, and still does
  }
  if (rank(now) <= rank(known)) return undefined;
  const words = `at a better place than the one it was read by (${kind.describe(known)}); now: ${kind.describe(now)}`;
  return { profile: now, change: `${sentenceStart(PART_WORDS[kind.part].name)} has its ${what} ${words}` };
}
