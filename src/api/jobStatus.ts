// §3/§4.4/§4.6 a job's status: its state, progress, message, error, the model it made and an evaluation's result
// (rules in decode.ts's header).

import { answerReader } from './errors';
import { compareRanks, contract, isHumanText, isIdentifier, isObj, keySays, MAX_DEPTH, words, wordsOf, type Obj } from './answerShape';
import { errorText } from './errorBody';
import { capText, humanise, MAX_STATE_WORD_LENGTH } from './types';
import type { EvaluationResult, EvaluationStatus, FinetuneStatus, JobState } from './types';

type Json = unknown;

function firstString(o: Obj, fields: readonly string[]): string | undefined {
  for (const f of fields) {
    const v = o[f];
    if (typeof v === 'string' && v.trim() !== '') return v;
    if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  }
  return undefined;
}

const STATE_WORDS: Record<Exclude<JobState, 'unknown'>, string> = {
  queued: 'queued pending waiting submitted created accepted scheduled new enqueued',
  running:
    'running processing in_progress started starting training generating extracting uploading uploaded preparing validating ' +
    'tuning finetuning fine_tuning evaluating active working building generating_questions exporting saving',
  completed: 'completed complete succeeded success successful done finished ready ok',
  failed: 'failed failure error errored crashed rejected timeout timed_out expired',
  cancelled: 'cancelled canceled aborted stopped killed cancelling canceling',
};

const WORD_TO_STATE = new Map<string, JobState>(
  Object.entries(STATE_WORDS).flatMap(([state, words]) => words.split(' ').map((w): [string, JobState] => [w, state as JobState])),
);

const foldWord = (word: string) =>
  word
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

/** The one mapping rule: lower-case, fold spaces and dashes to `_`, look up; an unknown word is 'unknown'. */
export function normaliseState(word: string): JobState {
  // A text longer than any state word is not one: not folded (an 8 MiB message would be copied twice).
  return (word.length <= MAX_STATE_WORD_LENGTH && WORD_TO_STATE.get(foldWord(word))) || 'unknown';
}

const STATUS_KEY = words('status state');
const PHASE_KEY = words('phase stage step');
const ERROR_KEY = words('error failure reason err');

/** Each field of a record and of the records it holds (in lists too), with its depth, shallowest first. */
function fieldsOf(o: Obj): { key: string; value: unknown; depth: number; parent: Obj }[] {
  const out: { key: string; value: unknown; depth: number; parent: Obj }[] = [];
  let level: Obj[] = [o];
  for (let depth = 0; depth <= MAX_DEPTH && level.length > 0; depth++) {
    const next: Obj[] = [];
    for (const parent of level) {
      for (const [key, value] of Object.entries(parent)) {
        out.push({ key, value, depth, parent });
        if (isObj(value)) next.push(value);
        // A loop, not push(...list): a spread takes about 125,000 elements at most (RangeError past that).
        else if (Array.isArray(value)) for (const x of value) if (isObj(x)) next.push(x);
      }
    }
    level = next;
  }
  return out;
}

const hasValue = (v: unknown) => v !== undefined && v !== null && v !== '' && v !== false;

/** The state, the word that said it, and the record that holds it (the job's own record, in whatever wrapper). */
function readState(body: Obj, fields: ReturnType<typeof fieldsOf>): { state: JobState; rawState?: string; holder: Obj } {
  const keyRank = (k: string) => (keySays(k, STATUS_KEY) ? 2 : keySays(k, PHASE_KEY) ? 1 : 0);
  const said = fields
    .filter((f): f is typeof f & { value: string } => typeof f.value === 'string' && normaliseState(f.value) !== 'unknown')
    .map((f) => ({ word: f.value, state: normaliseState(f.value), rank: [keyRank(f.key), -f.depth], holder: f.parent }))
    .sort((a, b) => compareRanks(b.rank, a.rank));
  const [best, next] = said;
  if (best) {
    if (next && compareRanks(best.rank, next.rank) === 0 && next.state !== best.state) {
      throw contract(`status: two states, "${capText(best.word, 40)}" and "${capText(next.word, 40)}"`, body);
    }
    return { state: best.state, rawState: capText(best.word.trim(), MAX_STATE_WORD_LENGTH), holder: best.holder };
  }
  // A word the extension does not know, where a status is written: kept (and shown humanised), polling goes on.
  const unknown = fields.find((f) => f.depth === 0 && typeof f.value === 'string' && f.value.trim() && keyRank(f.key) === 2);
  const rawState = unknown ? capText(String(unknown.value).trim(), MAX_STATE_WORD_LENGTH) : undefined;
  const failed = fields.some((f) => f.depth === 0 && keySays(f.key, ERROR_KEY) && hasValue(f.value));
  return { state: failed ? 'failed' : 'unknown', rawState, holder: body };
}

const PERCENT_KEY = words('percent pct percentage');
const PROGRESS_KEY = words('progress fraction ratio completion');
const TOTAL_KEY = words('total max of count num all target expected');
/** Counts above this are times (epoch seconds), sizes or ids, not items done. */
const MAX_COUNT = 1e9;
const PERCENT_TEXT = /^\s*(\d+(?:\.\d+)?)\s*%\s*$/;

/** Progress in percent (see the header for the order); undefined when the record holds none. */
function readProgress(fields: ReturnType<typeof fieldsOf>, state: JobState): number | undefined {
  const clamp = (n: number) => Math.max(0, Math.min(100, n));
  const text = fields.find((f) => typeof f.value === 'string' && PERCENT_TEXT.test(f.value));
  if (text) return clamp(Number(PERCENT_TEXT.exec(text.value as string)![1]));
  const num = (v: unknown) =>
    typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(v) ? Number(v) : undefined;
  const percent = fields.find((f) => num(f.value) !== undefined && keySays(f.key, PERCENT_KEY));
  if (percent) return clamp(num(percent.value)!);
  const progress = fields.find((f) => num(f.value) !== undefined && keySays(f.key, PROGRESS_KEY));
  if (progress) {
    const n = num(progress.value)!;
    if (n > 1) return clamp(n);
    return n === 1 && state !== 'completed' ? 1 : clamp(n * 100);
  }
  // Pairs of counts, object by object, shallowest first.
  const byParent = new Map<Obj, { key: string; n: number; words: string[] }[]>();
  for (const f of fields) {
    const n = f.value;
    if (typeof n !== 'number' || !Number.isFinite(n) || n < 0 || n > MAX_COUNT) continue;
    const counts = byParent.get(f.parent) ?? [];
    counts.push({ key: f.key, n, words: wordsOf(f.key) });
    byParent.set(f.parent, counts);
  }
  for (const counts of byParent.values()) {
    let best: { done: number; total: number } | undefined;
    const consider = (a: (typeof counts)[number], b: (typeof counts)[number]) => {
      const aTotal = a.words.some((w) => TOTAL_KEY.has(w));
      const bTotal = b.words.some((w) => TOTAL_KEY.has(w));
      const [done, total] = aTotal !== bTotal ? (aTotal ? [b.n, a.n] : [a.n, b.n]) : [Math.min(a.n, b.n), Math.max(a.n, b.n)];
      if (total > 0 && done <= total && (!best || total > best.total)) best = { done, total };
    };
    // One count whose key says total beside one other (`{done, total}`), or keys that share a word (`step`,
    // `total_steps`), bucketed by word so that a record of 50,000 numbers stays linear. Two anonymous numbers
    // (`{priority: 2, attempt: 5}`) are no progress.
    if (counts.length === 2 && counts.filter((c) => c.words.some((w) => TOTAL_KEY.has(w))).length === 1) consider(counts[0]!, counts[1]!);
    const byWord = new Map<string, (typeof counts)[number][]>();
    for (const c of counts) for (const w of c.words) if (!TOTAL_KEY.has(w)) byWord.set(w, [...(byWord.get(w) ?? []), c].slice(0, 8));
    for (const group of byWord.values()) group.forEach((a, i) => group.slice(i + 1).forEach((b) => consider(a, b)));
    if (best) return clamp((best.done / best.total) * 100);
  }
  return undefined;
}

function statusOf(body: Json, what: string) {
  if (!isObj(body)) throw contract(`${what}: not a JSON object`, body);
  const fields = fieldsOf(body);
  const said = readState(body, fields);
  if (!said.rawState && said.state === 'unknown') throw contract(`${what}: no status field`, body);
  return { fields, ...said };
}

function readError(fields: ReturnType<typeof fieldsOf>, holder: Obj): string | undefined {
  const f = fields.find((x) => (x.depth === 0 || x.parent === holder) && keySays(x.key, ERROR_KEY) && hasValue(x.value));
  return f ? capText(errorText(f.value)) : undefined;
}

function readMessage(fields: ReturnType<typeof fieldsOf>, holder: Obj, rawState: string | undefined): string | undefined {
  const own = fields.filter((f) => f.parent === holder && !keySays(f.key, ERROR_KEY));
  const text = own.find((f) => isHumanText(f.value));
  if (text) return capText(text.value as string);
  const phase = own.find((f) => keySays(f.key, PHASE_KEY) && isIdentifier(f.value) && f.value !== rawState);
  return phase ? capText(humanise(phase.value as string)) : undefined;
}

export const decodeFinetuneStatus = answerReader(function decodeFinetuneStatus(jobId: string, body: Json): FinetuneStatus {
  const { fields, state, rawState, holder } = statusOf(body, 'finetune status');
  const message = readMessage(fields, holder, rawState);
  const error = readError(fields, holder) ?? (state === 'failed' ? message : undefined);
  return {
    jobId,
    state,
    rawState,
    progress: state === 'completed' ? 100 : readProgress(fields, state),
    message,
    error,
    modelName: readMadeModel(holder),
    raw: body,
  };
});

// The model the job made: the service may name it itself (OpenAI's `fine_tuned_model`). Read by key, as it is one
// value among several model names (the base, the name asked for) that only their keys tell apart; a value equal to
// the answer's own base model is not it, nor one that is not a usable name.
const MADE_MODEL_FIELDS = ['fine_tuned_model', 'fineTunedModel', 'tuned_model', 'output_model', 'model_name', 'modelName', 'model'];

function readMadeModel(o: Obj): string | undefined {
  const base = firstString(o, ['base_model', 'baseModel', 'modelType'])?.trim();
  for (const f of MADE_MODEL_FIELDS) {
    const name = firstString(o, [f])?.trim();
    if (name && name !== base && isIdentifierOrText(name)) return name;
  }
  return undefined;
}

// eslint-disable-next-line no-control-regex
const isIdentifierOrText = (v: string) => /^[^\u0000-\u001f\u007f]{1,256}$/.test(v);

function readEvaluationResult(v: unknown): EvaluationResult | undefined {
  if (!isObj(v)) return undefined;
  const count = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) && x >= 0 ? x : undefined);
  const correct = count(v.correct);
  const total = count(v.total);
  // More correct answers than questions: these are not the counts of one evaluation.
  if (correct !== undefined && total !== undefined && correct > total) return undefined;
  let accuracy = typeof v.accuracy === 'number' && Number.isFinite(v.accuracy) ? v.accuracy : undefined;
  // Spec: a fraction 0..1. A value above 1 is read as a percentage rather than shown as 7,300%; anything else is
  // neither (shown, 1e308 would read "Infinity%"), and the counts, when given, say it instead.
  if (accuracy !== undefined && accuracy > 1 && accuracy <= 100) accuracy = accuracy / 100;
  if (accuracy !== undefined && (accuracy < 0 || accuracy > 1)) accuracy = undefined;
  if (accuracy === undefined && correct !== undefined && total) accuracy = correct / total;
  if (accuracy === undefined) return undefined;
  return {
    datasetName: firstString(v, ['dataset_name', 'dataset']) ?? '',
    modelName: firstString(v, ['model_name', 'model']) ?? '',
    split: firstString(v, ['split']),
    correct: correct ?? Math.round(accuracy * (total ?? 0)),
    total: total ?? 0,
    accuracy,
    judgeModel: firstString(v, ['judge_model', 'judge']),
  };
}

export const decodeEvaluationStatus = answerReader(function decodeEvaluationStatus(jobId: string, body: Json): EvaluationStatus {
  const { fields, state, rawState, holder } = statusOf(body, 'evaluation status');
  if (state === 'completed') {
    const result = readEvaluationResult(holder.result);
    if (!result) throw contract('evaluation status: completed without a readable result', body);
    return { jobId, state, rawState, result, raw: body };
  }
  const error = state === 'failed' ? (readError(fields, holder) ?? 'The evaluation failed without a reason.') : undefined;
  return { jobId, state, rawState, error, raw: body };
});
