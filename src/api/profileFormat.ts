// The service profile's format, stated once (issue 36): where the answers of one service keep what the spec leaves "not
// shown", as data (paths and value maps), one part per kind of answer. From this one statement come the TypeScript
// types (Infer), the checker of a profile read from storage or the `hostedReasoning.serviceProfile` setting (text
// someone else wrote: unknown fields refused, sizes bounded, every path parsed by profilePath.ts) and package.json's
// JSON Schema of the setting (test/unit/profileFormat.test.ts holds the two equal). A new part is one line in PARTS.
// `by` (where a profile came from) is not part of what a person writes: the checker adds it.

import { EACH, LOCATION_HEADER, parsePath, type Segment } from './profilePath';
import { arrayOf, exactFields, isRecord, literal, recordOf, refine, says, sentence, str, type Check, type Infer } from './strictChecks';
import type { JobState, ModelKind } from './types';

/** Where a profile came from: inferred from an answer, chosen by the person, or the setting's. */
export type ProfileSource = 'inferred' | 'chosen' | 'setting';

export type Checked<T> = { value: T } | { problem: string };

const MAX_PATH = 300;
const MAX_LISTS = 32;
/** Most values a map of the profile holds (state words, kind values, flag values). */
export const MAX_MAPPED = 64;
const JOB_STATES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const satisfies readonly JobState[];
const MODEL_KINDS = ['base', 'custom', 'unknown'] as const satisfies readonly ModelKind[];

/** A place in an answer, written as profilePath.ts writes it ('' the answer itself). */
const PATH = refine(str(0, MAX_PATH), (p) => (parsePath(p) ? undefined : 'is not a path like results.items[].model.id'));
const PATHS = (max: number) => arrayOf(max, PATH);
const oneOf = <const V extends readonly string[]>(...values: V) => says(literal(...values), `is not one of ${values.join(', ')}`);

/** One list of models in the answer (a service that groups its models has one per group). */
const MODEL_LIST_ENTRY = exactFields(
  {
    /** The list, `[]`, then the field naming each item: `results.items[].model.id`; ending in `[]` when the items are the names. */
    names: refine(PATH, (p) => (parsePath(p)!.includes(EACH) ? undefined : 'has no [] for the items of the list'), { pattern: '\\[\\]' }),
  },
  {
    /** The kind of every model of this list, when the list itself says it (`foundation_models`). */
    kind: oneOf('base', 'custom'),
    /** Fields of each item that say its kind, tried in order. */
    kindFrom: arrayOf(
      MAX_LISTS,
      exactFields({
        /** Relative to the item: `model.tier`. */
        from: PATH,
        /** Value (a boolean as `true` / `false`) to kind: `{ "foundation": "base" }`. */
        map: recordOf(MAX_MAPPED, oneOf(...MODEL_KINDS)),
      }),
    ),
    /** Fields of each item naming the model it was made from, tried in order (the model is then custom). */
    parentFrom: PATHS(MAX_LISTS),
    /** The field of each item holding when it was made. */
    createdFrom: PATH,
    /** Fields of each item holding other identifiers of the same model (a resource name, a long provider id). */
    otherNamesFrom: PATHS(MAX_LISTS),
  },
);

/** A place of a start answer's id: a path, or the Location header. */
const PLACE: Check<string> = Object.assign((v: unknown) => (v === LOCATION_HEADER ? undefined : PATH(v)), { schema: PATH.schema });

/** Where the events of a streamed answer (or a non-streamed one, read as one event) hold the answer and the reasoning. */
const STREAM = refine(
  exactFields(
    {
      /** Paths in an event of the answer's text, tried in order: the first that holds text is read (`choices[0].delta.content`). */
      answer: PATHS(MAX_LISTS),
      /** Paths of the reasoning's text, the same way (`choices[0].delta.reasoning_content`). */
      reasoning: PATHS(MAX_LISTS),
    },
    {
      /**
       * A field of the text's record, or of a record above it, whose value says whether the text is reasoning
       * (`thought: true`, `type: "response.reasoning_summary_text.delta"`): its values (a boolean or number as text) mapped.
       */
      flag: exactFields({
        from: says(str(1, MAX_PATH), 'is not a field name'),
        map: recordOf(MAX_MAPPED, oneOf('reasoning', 'answer')),
      }),
    },
  ),
  (s) => (s.answer.length + s.reasoning.length === 0 ? 'names no path' : undefined),
);

const JOB_STATUS = refine(
  exactFields(
    {},
    {
      /** The job's state word: `status`, `metadata.state`. */
      state: PATH,
      /** Words said there that the built-in table does not read, and their state: `{"EXPORTED": "completed"}`. */
      states: recordOf(MAX_MAPPED, oneOf(...JOB_STATES)),
      /** A boolean that is true once the job has finished: `done`. */
      finished: PATH,
      /** Progress as a percentage (a number, a numeric string or a `42%` text). */
      percent: PATH,
      /** Progress as a fraction of 1 (above 1 it is read as a percentage). */
      fraction: PATH,
      /** Progress as a count done of a total (both numbers or numeric strings). */
      done: PATH,
      total: PATH,
      /** Text about the job for a person, or a phase word (shown humanised). */
      message: PATH,
      /** Why the job failed. */
      error: PATH,
      /** Where the model the job made is named, tried in order. */
      madeModel: PATHS(8),
      /** The state word of the model the job made (`tunedModel.state`): ready means the job finished. */
      modelState: PATH,
      /** The job's result record (the evaluation's `result`, a finished operation's `response`). */
      result: PATH,
    },
  ),
  (j) =>
    (j.done === undefined) !== (j.total === undefined)
      ? 'has one of done and total without the other'
      : !j.state && !j.finished && !j.done && !j.result && !j.modelState
        ? 'says neither where the state is nor how the job says it finished'
        : undefined,
);

/** Every part a profile may hold, by the name the setting gives it, and its format. */
const PARTS = {
  modelList: exactFields({ lists: arrayOf(MAX_LISTS, MODEL_LIST_ENTRY, 1) }),
  /** Where a started job's id is (§4.3, §4.5), per endpoint (a service may answer the two differently). */
  startedJob: refine(
    exactFields({}, { finetune: PLACE, evaluation: PLACE }),
    (s) => (s.finetune === undefined && s.evaluation === undefined ? 'names neither finetune nor evaluation' : undefined),
    { minProperties: 1 },
  ),
  /** Where a download answer's values are (§4.7). */
  download: exactFields({ url: PATH }, { expires: PATH, size: PATH, sha256: PATH, md5: PATH, crc32c: PATH, fileName: PATH }),
  /**
   * §4.4 and §4.6, one part each: the two answers come from two endpoints, one the spec shows (§4.6) and one it does
   * not (§4.4), and a service may shape them apart; a shared part would not fit one of them at every other poll.
   */
  finetuneStatus: JOB_STATUS,
  evaluationStatus: JOB_STATUS,
  stream: STREAM,
  /** A non-streamed inference answer (§4.2), read the same way as one event of a stream. */
  answer: STREAM,
};

export type PartName = keyof typeof PARTS;
/** A part as it is kept and read: what the format says, and where it came from. */
export type PartProfile<P extends PartName> = Infer<(typeof PARTS)[P]> & { by: ProfileSource };

export type ModelListEntry = Infer<typeof MODEL_LIST_ENTRY>;
export type KindSource = NonNullable<ModelListEntry['kindFrom']>[number];
export type ModelListProfile = PartProfile<'modelList'>;
export type StartedJobProfile = PartProfile<'startedJob'>;
export type DownloadProfile = PartProfile<'download'>;
export type StreamProfile = PartProfile<'stream'>;
export type JobStatusProfile = PartProfile<'finetuneStatus'>;
/** The two status endpoints, by the name of their profile part. */
export type JobStatusPart = 'finetuneStatus' | 'evaluationStatus';
export type ServiceProfile = { [P in PartName]?: PartProfile<P> };

/** Every part a profile may hold, as the setting names them (README names each: test/unit/readme.test.ts). */
export const PROFILE_PARTS = Object.keys(PARTS) as PartName[];

/** The JSON Schema of one origin's profile as the setting holds it (package.json's, held equal by a unit test). */
export const PROFILE_SCHEMA = exactFields({}, PARTS).schema!;

/** One part, checked; `by` is what the caller knows of where it came from (else the stored `by`: chosen, or inferred). */
export function checkPart<P extends PartName>(part: P, x: unknown, by?: ProfileSource, name: string = part): Checked<PartProfile<P>> {
  if (!isRecord(x)) return { problem: `${name} is not an object` };
  const { by: said, ...fields } = x;
  const why = PARTS[part](fields);
  if (why) return { problem: sentence(name, why) };
  const value = { ...fields, by: by ?? (said === 'chosen' ? 'chosen' : 'inferred') } as PartProfile<P>;
  // No prototype: a word such as `__proto__` or `constructor` is a word like any other where the reader looks it up.
  if ('states' in value && value.states) value.states = Object.assign(Object.create(null) as Record<string, JobState>, value.states);
  return { value };
}

/** A whole profile (stored, or from the setting: then `by` is 'setting'), checked part by part. */
export function checkServiceProfile(x: unknown, by?: ProfileSource): Checked<ServiceProfile> {
  if (!isRecord(x)) return { problem: 'the profile is not an object' };
  for (const k of Object.keys(x)) if (!Object.hasOwn(PARTS, k)) return { problem: `the profile has an unknown part "${k}"` };
  const profile: Record<string, unknown> = {};
  for (const part of PROFILE_PARTS) {
    if (x[part] === undefined) continue;
    const checked = checkPart(part, x[part], by);
    if ('problem' in checked) return checked;
    profile[part] = checked.value;
  }
  return { value: profile };
}

// -------------------------------------------------------------------------------------------- the model list, parsed

/** An entry with its paths parsed, as the reader uses it. */
export interface CompiledEntry {
  /** Up to the last `[]` (excluded): the list. */
  list: Segment[];
  /** After it: the name field of each item; empty when the items are names. */
  field: Segment[];
  kind?: 'base' | 'custom';
  kindFrom: { path: Segment[]; map: Map<string, ModelKind> }[];
  parentFrom: Segment[][];
  createdFrom?: Segment[];
  otherNamesFrom: Segment[][];
}

const COMPILED = new WeakMap<ModelListProfile, CompiledEntry[]>();

function parsed(p: string): Segment[] {
  const segments = parsePath(p);
  if (!segments) throw new Error(`unchecked profile: "${p}" is not a path`);
  return segments;
}

/** The entries of a checked profile with their paths parsed, once per profile object. */
export function compiledEntries(profile: ModelListProfile): CompiledEntry[] {
  let entries = COMPILED.get(profile);
  if (!entries) {
    entries = profile.lists.map((e) => {
      const names = parsed(e.names);
      const last = names.lastIndexOf(EACH);
      if (last < 0) throw new Error(`unchecked profile: "${e.names}" has no []`);
      const entry: CompiledEntry = {
        list: names.slice(0, last),
        field: names.slice(last + 1),
        kindFrom: (e.kindFrom ?? []).map((k) => ({ path: parsed(k.from), map: new Map(Object.entries(k.map)) })),
        parentFrom: (e.parentFrom ?? []).map(parsed),
        otherNamesFrom: (e.otherNamesFrom ?? []).map(parsed),
      };
      if (e.kind) entry.kind = e.kind;
      if (e.createdFrom !== undefined) entry.createdFrom = parsed(e.createdFrom);
      return entry;
    });
    COMPILED.set(profile, entries);
  }
  return entries;
}

/** How a profile reads answers, as text: where it came from aside, whatever order its fields were written in. */
export function readingKey({ by: _by, ...reading }: { by: ProfileSource }): string {
  return JSON.stringify(reading, (_key, v: unknown) => (isRecord(v) ? Object.fromEntries(Object.entries(v).sort(byKey)) : v));
}
const byKey = ([a]: [string, unknown], [b]: [string, unknown]) => (a < b ? -1 : a > b ? 1 : 0);
