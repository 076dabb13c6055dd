// A service profile: where the answers of one service keep what the spec leaves "not shown", as data (paths and value
// maps), so that it can be inferred once, kept per origin, shown to a person, chosen by them, or written by hand in
// the `hostedReasoning.serviceProfile` setting. One part per kind of answer; the model list (§4.1) is the first, the
// other kinds (started job, job status, inference events, download answer, error body) add their own part beside it.
// A profile from storage or from the setting is text someone else wrote: checkServiceProfile reads it field by field
// and refuses what it does not know.

import { checkJobStatusProfile, type JobStatusPart, type JobStatusProfile } from './jobStatusProfile';
import { EACH, parsePath, type Segment } from './profilePath';
import { LOCATION_HEADER, type StartAnswer } from './startedJobInference';
import type { ModelKind } from './types';

/** Where a profile came from: inferred from an answer, chosen by the person, or the setting's. */
export type ProfileSource = 'inferred' | 'chosen' | 'setting';

/** A field of each listed item that says its kind, and what each of its values means. */
export interface KindSource {
  /** Relative to the item: `model.tier`. */
  from: string;
  /** Value (a boolean as `true` / `false`) to kind: `{ "foundation": "base" }`. */
  map: Record<string, ModelKind>;
}

/** One list of models in the answer (a service that groups its models has one per group). */
export interface ModelListEntry {
  /** The list, `[]`, then the field naming each item: `results.items[].model.id`; ending in `[]` when the items are the names. */
  names: string;
  /** The kind of every model of this list, when the list itself says it (`foundation_models`). */
  kind?: 'base' | 'custom';
  /** Fields of each item that say its kind, tried in order. */
  kindFrom?: KindSource[];
  /** Fields of each item naming the model it was made from, tried in order (the model is then custom). */
  parentFrom?: string[];
  /** The field of each item holding when it was made. */
  createdFrom?: string;
  /** Fields of each item holding other identifiers of the same model (a resource name, a long provider id). */
  otherNamesFrom?: string[];
}

export interface ModelListProfile {
  lists: ModelListEntry[];
  by: ProfileSource;
}

/**
 * Where a started job's id is (§4.3, §4.5), per endpoint (a service may answer the two differently): a path
 * (`result.job.ref`; '' the answer itself) or LOCATION_HEADER.
 */
export interface StartedJobProfile {
  finetune?: string;
  evaluation?: string;
  by: ProfileSource;
}

/** Where a download answer's values are (§4.7): paths. */
export interface DownloadProfile {
  url: string;
  expires?: string;
  size?: string;
  sha256?: string;
  md5?: string;
  crc32c?: string;
  fileName?: string;
  by: ProfileSource;
}

/**
 * Where the events of a streamed answer (§4.2) hold the answer and the reasoning: inferred from the first events of a
 * run (streamInference.ts), read by streamReader.ts.
 */
export interface StreamProfile {
  /** Paths in an event of the answer's text, tried in order: the first that holds text is read (`choices[0].delta.content`). */
  answer: string[];
  /** Paths of the reasoning's text, the same way (`choices[0].delta.reasoning_content`). */
  reasoning: string[];
  /**
   * A field of the text's record, or of a record above it, whose value says whether the text is reasoning
   * (`thought: true`, `type: "response.reasoning_summary_text.delta"`): its values (a boolean or number as text) mapped.
   */
  flag?: { from: string; map: Record<string, 'reasoning' | 'answer'> };
  by: ProfileSource;
}

export interface ServiceProfile {
  modelList?: ModelListProfile;
  startedJob?: StartedJobProfile;
  download?: DownloadProfile;
  /** §4.4 and §4.6, one part each (jobStatusProfile.ts says why). */
  finetuneStatus?: JobStatusProfile;
  evaluationStatus?: JobStatusProfile;
  stream?: StreamProfile;
  /** A non-streamed inference answer (§4.2), read the same way as one event of a stream. */
  answer?: StreamProfile;
}

/**
 * What the client asks of whoever keeps one origin's profile (the extension's store, bound to the origin the key is
 * for; none in tests and benchmarks, which then infer every answer).
 */
export interface ProfileBook {
  /** The profile to read the model list by: the setting's for this origin, else the one kept. */
  modelList(): ModelListProfile | undefined;
  /** A model list was read: by which profile, what changed when it was inferred now (to keep and log), its first names. */
  readModelList(reading: { profile: ModelListProfile; change?: string; samples: string[] }): void;
  /** A model list nothing could read (or two ways could): kept for the person to choose how to read it. */
  unreadableModelList(body: unknown): void;
  /** Where started jobs' ids are: the setting's for this origin, else the places kept. */
  startedJob(): StartedJobProfile | undefined;
  /** A start answer of `kind` was read at `from`; `change` is set when that place was inferred now (to keep and log). */
  readStartedJob(reading: { kind: 'finetune' | 'evaluation'; from: string; change?: string }): void;
  /**
   * A start answer nothing could read (its status, Location and what the request sent in `answer`): the job may exist,
   * so it is kept for the person to choose where its id is (Choose How to Read the Started Job…).
   */
  unreadableStartedJob(kind: 'finetune' | 'evaluation', body: unknown, answer: StartAnswer): void;
  /** Where a download answer's values are: the setting's for this origin, else the one kept. */
  download(): DownloadProfile | undefined;
  /** A download answer was read by `profile`; `change` is set when it was inferred now (to keep and log). */
  readDownload(reading: { profile: DownloadProfile; change?: string }): void;
  /** The profile to read a job status by (`part`: which endpoint): the setting's for this origin, else the one kept. */
  jobStatus(part: JobStatusPart): JobStatusProfile | undefined;
  /** A job status was read by a profile inferred or grown now: the profile to keep, and what changed (to log). */
  readJobStatus(part: JobStatusPart, reading: { profile: JobStatusProfile; change: string }): void;
  /** A job status nothing could read: kept for the person to choose how to read it (Choose How to Read… on its row). */
  unreadableJobStatus(part: JobStatusPart, body: unknown): void;
  /** The profile to read a stream's events by: the setting's for this origin, else the one kept. */
  stream(): StreamProfile | undefined;
  /** A stream was read by a profile inferred, or changed, in the run: it is kept, and `change` logged. */
  readStream(reading: { profile: StreamProfile; change: string }): void;
  /** The profile to read a non-streamed inference answer by: the setting's for this origin, else the one kept. */
  answer(): StreamProfile | undefined;
  /** A non-streamed answer was read by a profile inferred, or changed, now: it is kept, and `change` logged. */
  readAnswer(reading: { profile: StreamProfile; change: string }): void;
  /**
   * An inference answer nothing could read, kept for the person to choose how to read it: a non-streamed answer's
   * body (`answer`), or a stream's first events, as a list (`stream`).
   */
  unreadableAnswer(part: 'answer' | 'stream', body: unknown): void;
  /** A download answer with no URL the client could use, and the model it was for (Choose How to Read…, then again). */
  unreadableDownload(body: unknown, modelName: string): void;
}

// -------------------------------------------------------------------------------------------- the checked form

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

const KINDS: readonly ModelKind[] = ['base', 'custom', 'unknown'];
const MAX_LISTS = 32;
const MAX_MAPPED = 64;
const MAX_PATH = 300;

type Checked<T> = { value: T } | { problem: string };

function path(x: unknown, what: string): Checked<Segment[]> {
  if (typeof x !== 'string' || x.length > MAX_PATH) return { problem: `${what} is not a path of at most ${MAX_PATH} characters` };
  const p = parsePath(x);
  return p ? { value: p } : { problem: `${what} "${x}" is not a path like results.items[].model.id` };
}

function compileEntry(x: unknown, at: string): Checked<CompiledEntry> {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return { problem: `${at} is not an object` };
  const o = x as Record<string, unknown>;
  const known = ['names', 'kind', 'kindFrom', 'parentFrom', 'createdFrom', 'otherNamesFrom'];
  for (const k of Object.keys(o)) if (!known.includes(k)) return { problem: `${at} has an unknown field "${k}"` };
  const names = path(o.names, `${at}.names`);
  if ('problem' in names) return names;
  const last = names.value.lastIndexOf(EACH);
  if (last < 0) return { problem: `${at}.names has no [] for the items of the list` };
  const entry: CompiledEntry = {
    list: names.value.slice(0, last),
    field: names.value.slice(last + 1),
    kindFrom: [],
    parentFrom: [],
    otherNamesFrom: [],
  };
  if (o.kind !== undefined) {
    if (o.kind !== 'base' && o.kind !== 'custom') return { problem: `${at}.kind is neither "base" nor "custom"` };
    entry.kind = o.kind;
  }
  if (o.kindFrom !== undefined) {
    if (!Array.isArray(o.kindFrom) || o.kindFrom.length > MAX_LISTS) return { problem: `${at}.kindFrom is not a short list` };
    for (const [i, k] of o.kindFrom.entries()) {
      const where = `${at}.kindFrom[${i}]`;
      if (typeof k !== 'object' || k === null || Array.isArray(k)) return { problem: `${where} is not an object` };
      const { from, map, ...extra } = k as Record<string, unknown>;
      if (Object.keys(extra).length > 0) return { problem: `${where} has an unknown field` };
      const p = path(from, `${where}.from`);
      if ('problem' in p) return p;
      if (typeof map !== 'object' || map === null || Array.isArray(map)) return { problem: `${where}.map is not an object` };
      const entries = Object.entries(map as Record<string, unknown>);
      if (entries.length > MAX_MAPPED) return { problem: `${where}.map has more than ${MAX_MAPPED} values` };
      const mapped = new Map<string, ModelKind>();
      for (const [value, kind] of entries) {
        if (!KINDS.includes(kind as ModelKind)) return { problem: `${where}.map["${value}"] is not base, custom or unknown` };
        mapped.set(value, kind as ModelKind);
      }
      entry.kindFrom.push({ path: p.value, map: mapped });
    }
  }
  for (const field of ['parentFrom', 'otherNamesFrom'] as const) {
    const paths = o[field];
    if (paths === undefined) continue;
    if (!Array.isArray(paths) || paths.length > MAX_LISTS) return { problem: `${at}.${field} is not a short list` };
    for (const [i, f] of paths.entries()) {
      const p = path(f, `${at}.${field}[${i}]`);
      if ('problem' in p) return p;
      entry[field].push(p.value);
    }
  }
  if (o.createdFrom !== undefined) {
    const p = path(o.createdFrom, `${at}.createdFrom`);
    if ('problem' in p) return p;
    entry.createdFrom = p.value;
  }
  return { value: entry };
}

/** The model list part of a profile, checked; `by` is what the caller knows of where it came from. */
export function checkModelListProfile(x: unknown, by?: ProfileSource): Checked<ModelListProfile> {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return { problem: 'modelList is not an object' };
  const o = x as Record<string, unknown>;
  for (const k of Object.keys(o)) if (k !== 'lists' && k !== 'by') return { problem: `modelList has an unknown field "${k}"` };
  if (!Array.isArray(o.lists) || o.lists.length === 0 || o.lists.length > MAX_LISTS) {
    return { problem: `modelList.lists is not a list of 1 to ${MAX_LISTS} entries` };
  }
  for (const [i, e] of o.lists.entries()) {
    const c = compileEntry(e, `modelList.lists[${i}]`);
    if ('problem' in c) return c;
  }
  const source = by ?? (o.by === 'inferred' || o.by === 'chosen' ? o.by : 'inferred');
  return { value: { lists: o.lists as ModelListEntry[], by: source } };
}

/** A place of a start answer's id: a path, or the Location header. */
function place(x: unknown, what: string): Checked<string> {
  if (x === LOCATION_HEADER) return { value: x };
  const p = path(x, what);
  return 'problem' in p ? p : { value: x as string };
}

/** Only the fields `known`, each checked by `check`; `by` as checkModelListProfile takes it. */
function checkPlaces(
  x: unknown,
  part: string,
  known: readonly string[],
  check: (v: unknown, what: string) => Checked<string>,
  by: ProfileSource | undefined,
): Checked<Record<string, string> & { by: ProfileSource }> {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return { problem: `${part} is not an object` };
  const o = x as Record<string, unknown>;
  const out: Record<string, string> = {};
  for (const k of Object.keys(o)) {
    if (k === 'by') continue;
    if (!known.includes(k)) return { problem: `${part} has an unknown field "${k}"` };
    const c = check(o[k], `${part}.${k}`);
    if ('problem' in c) return c;
    out[k] = c.value;
  }
  const source = by ?? (o.by === 'inferred' || o.by === 'chosen' ? o.by : 'inferred');
  return { value: Object.assign(out, { by: source }) };
}

/** The started job part: a place per endpoint, at least one. */
export function checkStartedJobProfile(x: unknown, by?: ProfileSource): Checked<StartedJobProfile> {
  const c = checkPlaces(x, 'startedJob', ['finetune', 'evaluation'], place, by);
  if ('value' in c && c.value.finetune === undefined && c.value.evaluation === undefined) {
    return { problem: 'startedJob names neither finetune nor evaluation' };
  }
  return c;
}

/** The download part: the URL's path, and those of its expiry, size, checksums and file name when known. */
export function checkDownloadProfile(x: unknown, by?: ProfileSource): Checked<DownloadProfile> {
  const c = checkPlaces(
    x,
    'download',
    ['url', 'expires', 'size', 'sha256', 'md5', 'crc32c', 'fileName'],
    (v, what) => {
      const p = path(v, what);
      return 'problem' in p ? p : { value: v as string };
    },
    by,
  );
  if ('problem' in c) return c;
  const { url } = c.value;
  return url === undefined ? { problem: 'download has no url' } : { value: { ...c.value, url } };
}

/** The stream part of a profile (or the non-streamed answer's, `part`), checked; `by` is what the caller knows of where it came from. */
export function checkStreamProfile(x: unknown, by?: ProfileSource, part = 'stream'): Checked<StreamProfile> {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return { problem: `${part} is not an object` };
  const o = x as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    if (!['answer', 'reasoning', 'flag', 'by'].includes(k)) return { problem: `${part} has an unknown field "${k}"` };
  }
  for (const field of ['answer', 'reasoning'] as const) {
    const list = o[field];
    if (!Array.isArray(list) || list.length > MAX_LISTS) return { problem: `${part}.${field} is not a list of at most ${MAX_LISTS} paths` };
    for (const [i, p] of list.entries()) {
      const checked = path(p, `${part}.${field}[${i}]`);
      if ('problem' in checked) return checked;
    }
  }
  if ((o.answer as unknown[]).length + (o.reasoning as unknown[]).length === 0) return { problem: `${part} names no path` };
  if (o.flag !== undefined) {
    if (typeof o.flag !== 'object' || o.flag === null || Array.isArray(o.flag)) return { problem: `${part}.flag is not an object` };
    const { from, map, ...extra } = o.flag as Record<string, unknown>;
    if (Object.keys(extra).length > 0) return { problem: `${part}.flag has an unknown field` };
    if (typeof from !== 'string' || from === '' || from.length > MAX_PATH) return { problem: `${part}.flag.from is not a field name` };
    if (typeof map !== 'object' || map === null || Array.isArray(map)) return { problem: `${part}.flag.map is not an object` };
    const values = Object.entries(map as Record<string, unknown>);
    if (values.length > MAX_MAPPED) return { problem: `${part}.flag.map has more than ${MAX_MAPPED} values` };
    for (const [v, kind] of values) {
      if (kind !== 'reasoning' && kind !== 'answer') return { problem: `${part}.flag.map["${v}"] is neither reasoning nor answer` };
    }
  }
  const source = by ?? (o.by === 'inferred' || o.by === 'chosen' ? o.by : 'inferred');
  const profile: StreamProfile = { answer: o.answer as string[], reasoning: o.reasoning as string[], by: source };
  if (o.flag !== undefined) profile.flag = o.flag as StreamProfile['flag'];
  return { value: profile };
}

/** Each part's checker, by the part's name: each kind of answer adds its line here and its field to ServiceProfile. */
const PART_CHECKS: { [K in keyof ServiceProfile]-?: (x: unknown, by?: ProfileSource) => Checked<NonNullable<ServiceProfile[K]>> } = {
  modelList: checkModelListProfile,
  startedJob: checkStartedJobProfile,
  download: checkDownloadProfile,
  finetuneStatus: (x, by) => checkJobStatusProfile(x, by, 'finetuneStatus'),
  evaluationStatus: (x, by) => checkJobStatusProfile(x, by, 'evaluationStatus'),
  stream: checkStreamProfile,
  answer: (x, by) => checkStreamProfile(x, by, 'answer'),
};

/** Every part a profile may hold, as the setting names them (README names each: test/unit/readme.test.ts). */
export const PROFILE_PARTS = Object.keys(PART_CHECKS) as (keyof ServiceProfile)[];

/** A whole profile (stored, or from the setting: then `by` is 'setting'), checked part by part. */
export function checkServiceProfile(x: unknown, by?: ProfileSource): Checked<ServiceProfile> {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return { problem: 'the profile is not an object' };
  const o = x as Record<string, unknown>;
  for (const k of Object.keys(o)) if (!Object.hasOwn(PART_CHECKS, k)) return { problem: `the profile has an unknown part "${k}"` };
  const profile: Record<string, unknown> = {};
  for (const [part, check] of Object.entries(PART_CHECKS) as [string, (x: unknown, by?: ProfileSource) => Checked<unknown>][]) {
    if (o[part] === undefined) continue;
    const checked = check(o[part], by);
    if ('problem' in checked) return checked;
    profile[part] = checked.value;
  }
  return { value: profile };
}

const COMPILED = new WeakMap<ModelListProfile, CompiledEntry[]>();

/** The entries of a checked profile with their paths parsed, once per profile object. */
export function compiledEntries(profile: ModelListProfile): CompiledEntry[] {
  let entries = COMPILED.get(profile);
  if (!entries) {
    entries = profile.lists.map((e) => {
      const c = compileEntry(e, 'entry');
      if ('problem' in c) throw new Error(`unchecked profile: ${c.problem}`);
      return c.value;
    });
    COMPILED.set(profile, entries);
  }
  return entries;
}

/** Two profiles that read answers the same way (where they came from aside). */
export function sameReading(a: ModelListProfile | undefined, b: ModelListProfile | undefined): boolean {
  return JSON.stringify(a?.lists) === JSON.stringify(b?.lists);
}
