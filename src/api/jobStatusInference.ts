// A job status's inference (§3/§4.4/§4.6): from one answer, *where* the job's state, progress, message, error, made
// model and result are, as a profile (profileFormat.ts) that jobStatusReader.ts then reads this answer and the
// later ones by. What the spec documents is read by its name first (`status` ranks first as a status key at the top;
// `result` and `error` at the top are taken by name); the rest by the answer's shape, never by a list of key names:
// words are read only for meaning (a state, "percent", "total", "model", "tuned"), in values or in the words of a key.
// Its rules:
//  1. Records are the answer and those it holds, in lists too, within MAX_DEPTH levels. A record is a *model record*
//     when the key that holds it ends in the word model (`tunedModel`, `output_model`) or its type says so
//     (`"@type": "….TunedModel"`), or it is inside one; the answer itself never is. What a model record says of its
//     state is said of the model, not of the job.
//  2. The state: a value outside model records that is a state word (stateWords.ts: the table, a vendor prefix such as
//     `JOB_STATE_` dropped), under a key saying status/state first, then phase/stage, then any, the shallowest first; two
//     that disagree at one rank are refused. None: a word (letters first, no spaces; at the top, any text) under a
//     status key, then a phase key, is a state the extension does not know, kept as `rawState` and shown humanised.
//     The job's record is the one saying its state, else the one holding its finished flag (rule 3), else the answer.
//  3. Finished, with no state word needed: a boolean true under a key saying done/finished/complete (`done: true`); a
//     result record (`result` by name, else under a key saying result/response); a made model that is ready (its
//     model record's state word: `ACTIVE`, `ready`); counts reaching their total. A word the table does not know, said
//     in an answer a flag or a ready model says finished, is mapped to completed in the profile.
//  4. Progress: a percent text (`42%`); a number or numeric string whose key says percent; one whose key says
//     progress/fraction (a fraction of 1, above 1 a percentage); else a done/total pair of counts in one record (a key
//     saying total beside one other, or two keys sharing a word; the larger total wins). Counts may be numeric strings;
//     they are kept beside a percent too, as they say whether a job with no state word has finished (rule 3).
//  5. Message: the first text a person wrote in the job's record (words with spaces; an id or an opaque blob is never
//     text), else a phase word. Error: `error` by name, else a key saying error/failure/reason in the job's record or at
//     the top, its value words or a record (a count under an error key says none).
//  6. The made model: a model name (isModelName) under a key whose path says it was made (fine, tuned, trained, output,
//     result, response, made, new…) and says model (or is in a model record), under a key naming it (model, name, id),
//     not a display label, not a lineage (base, parent, source…) nor a type; never a value a lineage key holds. Else the
//     spec's own name for a model (`model_name`, `modelName`, §2) in the job's record. Best first: made before the
//     spec's name, then the shallowest. A path whose value is still null (`fine_tuned_model: null`) is kept for later.
// No spread or `apply` over what the service sent: they take about 125,000 elements at most, and an answer may hold more.

import { compareRanks, contract, isIdentifier, isModelName, isObj, MAX_DEPTH, type Obj } from './answerShape';
import type { JobStatusProfile } from './profileFormat';
import { isProse, numberOf, readStatusByProfile, type StatusRead } from './jobStatusReader';
import { formatPath, lastKey, parsePath, type Segment } from './profilePath';
import { normaliseState, saysModelReady } from './stateWords';
import { capText } from './types';

import {
  ERROR_KEY,
  FINISHED_KEY,
  keySays,
  LINEAGE_WORDS,
  MADE_WORDS,
  NAMING_WORDS,
  PERCENT_KEY,
  PHASE_KEY,
  PROGRESS_KEY,
  RESULT_KEY,
  STATUS_KEY,
  STATUS_LABEL_WORDS as LABEL_WORDS,
  TOTAL_KEY,
  TYPE_KEY,
  wordsOf,
} from './hintWords';
/** The spec's own names of a model (§2): read by name, after a name the answer says was made. */
const SPEC_MODEL_NAMES = new Set(['model_name', 'modelName']);
/** Counts above this are times (epoch seconds), sizes or ids, not items done. */
const MAX_COUNT = 1e9;
const PERCENT_TEXT = /^\s*\d+(?:\.\d+)?\s*%\s*$/;
const STATE_LIKE = /^[A-Za-z][A-Za-z0-9 _.-]{0,63}$/;
/** Most progress readings compared across polls. */
const MAX_CANDIDATES = 16;
/** Most paths kept for the made model. */
const MAX_MADE_PATHS = 4;

interface Field {
  key: string;
  value: unknown;
  depth: number;
  /** The path of the record holding it. */
  at: Segment[];
  parent: Obj;
  /** The record holding it is a model record (rule 1). */
  inModel: boolean;
}

const pathOf = (f: Field): string => formatPath([...f.at, f.key]);
const lastWord = (key: string) => wordsOf(key).at(-1);

/** Rule 1: whether a record reached through `key` is a model record. */
function isModelRecord(key: string, record: Obj): boolean {
  if (lastWord(key) === 'model') return true;
  for (const k in record) {
    const v = record[k];
    if (typeof v === 'string' && v.length <= 200 && keySays(k, TYPE_KEY) && wordsOf(v).at(-1) === 'model') return true;
  }
  return false;
}

/** Each field of the answer and of the records it holds (in lists too), shallowest first. */
function fieldsOf(body: Obj): Field[] {
  const out: Field[] = [];
  let level: { record: Obj; at: Segment[]; inModel: boolean }[] = [{ record: body, at: [], inModel: false }];
  for (let depth = 0; depth <= MAX_DEPTH && level.length > 0; depth++) {
    const next: typeof level = [];
    for (const { record, at, inModel } of level) {
      for (const key in record) {
        if (!Object.hasOwn(record, key)) continue;
        const value = record[key];
        out.push({ key, value, depth, at, parent: record, inModel });
        if (isObj(value)) next.push({ record: value, at: [...at, key], inModel: inModel || isModelRecord(key, value) });
        // A loop, not push(...list): a spread takes about 125,000 elements at most (RangeError past that).
        else if (Array.isArray(value)) {
          value.forEach((x, i) => {
            if (isObj(x)) next.push({ record: x, at: [...at, key, i], inModel: inModel || isModelRecord(key, x) });
          });
        }
      }
    }
    level = next;
  }
  return out;
}

const keyRank = (k: string) => (keySays(k, STATUS_KEY) ? 2 : keySays(k, PHASE_KEY) ? 1 : 0);

/** The rank the words of a state's place give it (rule 2): what a kept inferred place is compared by (jobStatusReading.ts). */
export function statePlaceRank(path: string | undefined): number {
  const key = path === undefined ? undefined : lastKey(parsePath(path) ?? []);
  return key === undefined ? -1 : keyRank(key);
}

/** Rule 2: the field saying the job's state, if any. */
function stateField(body: Obj, fields: Field[]): Field | undefined {
  const said = fields
    .filter((f): f is Field & { value: string } => !f.inModel && typeof f.value === 'string' && normaliseState(f.value) !== 'unknown')
    .map((f) => ({ f, state: normaliseState(f.value), rank: [keyRank(f.key), -f.depth] }))
    .sort((a, b) => compareRanks(b.rank, a.rank));
  const [best, next] = said;
  if (best) {
    if (next && compareRanks(best.rank, next.rank) === 0 && next.state !== best.state) {
      throw contract(`status: two states, "${capText(best.f.value, 40)}" and "${capText(next.f.value, 40)}"`, body);
    }
    return best.f;
  }
  // A word the extension does not know, where a status (then a phase) is written: kept, and shown humanised.
  // At the top, under a status key, any text is the service's word (capped where it is kept); elsewhere only a word.
  const wordy = (f: Field) =>
    typeof f.value === 'string' && f.value.trim() !== '' && ((f.depth === 0 && keyRank(f.key) === 2) || STATE_LIKE.test(f.value.trim()));
  return fields
    .filter((f) => !f.inModel && keyRank(f.key) > 0 && wordy(f))
    .sort((a, b) => compareRanks([keyRank(b.key), -b.depth], [keyRank(a.key), -a.depth]))[0];
}

const inJob = (f: Field, holder: Obj) => f.depth === 0 || f.parent === holder;
const hasValue = (v: unknown) => v !== undefined && v !== null && v !== '' && v !== false;

/** Rule 4: where progress is (a percent or a fraction, and counts). */
function progressPaths(fields: Field[]): Pick<JobStatusProfile, 'percent' | 'fraction' | 'done' | 'total'> {
  const text = fields.find((f) => typeof f.value === 'string' && f.value.length < 40 && PERCENT_TEXT.test(f.value));
  const percent = text ?? fields.find((f) => numberOf(f.value) !== undefined && keySays(f.key, PERCENT_KEY));
  const fraction = percent ? undefined : fields.find((f) => numberOf(f.value) !== undefined && keySays(f.key, PROGRESS_KEY));
  // Counts are looked for beside a percent too: they say whether the job finished when no word says it.
  return { ...(percent ? { percent: pathOf(percent) } : {}), ...(fraction ? { fraction: pathOf(fraction) } : {}), ...countPaths(fields) };
}

/** Progress readings a progress key or a percent text comes with. */
const isPercentField = (f: Field) =>
  (typeof f.value === 'string' && f.value.length < 40 && PERCENT_TEXT.test(f.value)) ||
  (numberOf(f.value) !== undefined && keySays(f.key, PERCENT_KEY));

/**
 * Every progress reading rule 4 finds in an answer, each as the progress part of a profile: its percents, fractions
 * and pair of counts, outside model records. Which of them is the job's progress is the one that moves across polls
 * (jobStatusLearning.ts), which one answer cannot tell.
 */
export function progressCandidates(body: unknown): Pick<JobStatusProfile, 'percent' | 'fraction' | 'done' | 'total'>[] {
  if (!isObj(body)) return [];
  const fields = fieldsOf(body).filter((f) => !f.inModel);
  const out: Pick<JobStatusProfile, 'percent' | 'fraction' | 'done' | 'total'>[] = [];
  for (const f of fields) {
    if (out.length >= MAX_CANDIDATES) break;
    if (isPercentField(f)) out.push({ percent: pathOf(f) });
    else if (numberOf(f.value) !== undefined && keySays(f.key, PROGRESS_KEY)) out.push({ fraction: pathOf(f) });
  }
  const counts = countPaths(fields);
  if (counts.done !== undefined) out.push(counts);
  return out;
}

/** Rule 4's pairs of counts: the paths of the done and total counts. */
function countPaths(fields: Field[]): Pick<JobStatusProfile, 'done' | 'total'> {
  // Pairs of counts, record by record, shallowest first.
  type Count = { f: Field; n: number; words: string[] };
  const byParent = new Map<Obj, Count[]>();
  for (const f of fields) {
    const n = numberOf(f.value);
    if (n === undefined || n < 0 || n > MAX_COUNT) continue;
    const counts = byParent.get(f.parent) ?? [];
    counts.push({ f, n, words: wordsOf(f.key) });
    byParent.set(f.parent, counts);
  }
  for (const counts of byParent.values()) {
    let best: { done: Count; total: Count } | undefined;
    const isTotal = (c: Count) => c.words.some((w) => TOTAL_KEY.has(w));
    const consider = (a: Count, b: Count) => {
      const [done, total] = isTotal(a) !== isTotal(b) ? (isTotal(a) ? [b, a] : [a, b]) : a.n <= b.n ? [a, b] : [b, a];
      if (total.n > 0 && done.n <= total.n && (!best || total.n > best.total.n)) best = { done, total };
    };
    // One count whose key says total beside one other (`{done, total}`), or keys that share a word (`step`,
    // `total_steps`), bucketed by word so that a record of 50,000 numbers stays linear. Two anonymous numbers
    // (`{priority: 2, attempt: 5}`) are no progress.
    if (counts.length === 2 && counts.filter(isTotal).length === 1) consider(counts[0]!, counts[1]!);
    const byWord = new Map<string, Count[]>();
    for (const c of counts) {
      for (const w of c.words) {
        if (TOTAL_KEY.has(w)) continue;
        const group = byWord.get(w) ?? [];
        if (group.length < 8) group.push(c);
        byWord.set(w, group);
      }
    }
    for (const group of byWord.values()) group.forEach((a, i) => group.slice(i + 1).forEach((b) => consider(a, b)));
    if (best) return { done: pathOf(best.done.f), total: pathOf(best.total.f) };
  }
  return {};
}

/** Rule 6: where the made model is named, best first. */
function madeModelPaths(fields: Field[], holder: Obj): string[] {
  const lineage = new Set<string>();
  // What a lineage key names, when it names a model (a family such as "llama" names none).
  for (const f of fields) if (keySays(f.key, LINEAGE_WORDS) && isModelName(f.value)) lineage.add(f.value.trim());
  const found: { path: string; rank: number[] }[] = [];
  for (const f of fields) {
    const own = wordsOf(f.key);
    if (own.some((w) => LINEAGE_WORDS.has(w) || TYPE_KEY.has(w) || LABEL_WORDS.has(w) || STATUS_KEY.has(w))) continue;
    const named = typeof f.value === 'string' && isModelName(f.value) && !lineage.has(f.value.trim());
    const spec = named && SPEC_MODEL_NAMES.has(f.key) && inJob(f, holder);
    const pathWords = [...f.at.filter((s): s is string => typeof s === 'string').flatMap(wordsOf), ...own];
    const made =
      pathWords.some((w) => MADE_WORDS.has(w)) && (f.inModel || pathWords.includes('model')) && own.some((w) => NAMING_WORDS.has(w));
    if (!spec && !(made && (named || f.value === null))) continue;
    found.push({ path: pathOf(f), rank: [made ? 1 : 0, -f.depth] });
  }
  found.sort((a, b) => compareRanks(b.rank, a.rank));
  const paths: string[] = [];
  for (const { path } of found) if (!paths.includes(path) && paths.length < MAX_MADE_PATHS) paths.push(path);
  return paths;
}

/** Rules 1-6: the profile that reads this answer. Throws a ContractError when the answer says nothing of a state. */
export function inferJobStatusProfile(body: unknown, what = 'status'): JobStatusProfile {
  if (!isObj(body)) throw contract(`${what}: not a JSON object`, body);
  const fields = fieldsOf(body);
  const state = stateField(body, fields);
  const shallowest = (test: (f: Field) => boolean) => fields.find(test);
  const finished = shallowest((f) => !f.inModel && typeof f.value === 'boolean' && keySays(f.key, FINISHED_KEY));
  // The job's record: the one saying its state, else the one saying whether it finished.
  const holder = state?.parent ?? finished?.parent ?? body;
  const profile: JobStatusProfile = { by: 'inferred' };
  if (state) profile.state = pathOf(state);
  if (finished) profile.finished = pathOf(finished);
  Object.assign(profile, progressPaths(fields));
  const stateWord = typeof state?.value === 'string' ? state.value : undefined;
  const own = fields.filter((f) => f.parent === holder && f !== state && !keySays(f.key, ERROR_KEY));
  const message =
    own.find((f) => isProse(f.value)) ?? own.find((f) => keySays(f.key, PHASE_KEY) && isIdentifier(f.value) && f.value !== stateWord);
  if (message) profile.message = pathOf(message);
  const error =
    (Object.hasOwn(body, 'error') ? fields.find((f) => f.depth === 0 && f.key === 'error') : undefined) ??
    shallowest(
      (f) =>
        !f.inModel &&
        inJob(f, holder) &&
        keySays(f.key, ERROR_KEY) &&
        (typeof f.value === 'object' || (typeof f.value === 'string' && hasValue(f.value))),
    );
  if (error) profile.error = pathOf(error);
  const made = madeModelPaths(fields, holder);
  if (made.length > 0) profile.madeModel = made;
  const modelState = shallowest((f) => f.inModel && typeof f.value === 'string' && keyRank(f.key) === 2);
  if (modelState) profile.modelState = pathOf(modelState);
  const result =
    (Object.hasOwn(body, 'result') ? fields.find((f) => f.depth === 0 && f.key === 'result') : undefined) ??
    shallowest((f) => !f.inModel && inJob(f, holder) && isObj(f.value) && keySays(f.key, RESULT_KEY));
  if (result) profile.result = pathOf(result);
  const read = readStatusByProfile(body, profile);
  if (!read) throw contract(`${what}: no status field`, body);
  mapUnknownWord(profile, read, finished, modelState);
  return profile;
}

/** Rule 3's last sentence: a word the table does not know, in an answer that says by a flag or a ready model it finished. */
function mapUnknownWord(profile: JobStatusProfile, read: StatusRead, finished?: Field, modelState?: Field): void {
  const word = read.rawState;
  if (word === undefined || normaliseState(word) !== 'unknown' || read.state !== 'completed') return;
  const ready = typeof modelState?.value === 'string' && saysModelReady(modelState.value);
  if (finished?.value !== true && !ready) return;
  const states = Object.create(null) as Record<string, 'completed'>;
  states[word] = 'completed';
  profile.states = states;
}
