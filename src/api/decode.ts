// Readers for every part of the spec marked "not shown", the only file that guesses. It reads an answer by its shape,
// not by a list of key names: the next service names its fields differently, but a list of models is still a list of
// named things, a job id the one identifier in the answer, progress a number or a pair of counts. Words are read only
// for meaning (a state, a kind, "total"), in values or in the words of a key, never as whole key names. A body no
// reading fits, or that two readings fit equally well, is a ContractError naming what was found, with a redacted
// excerpt for the log: never a crash, a silent empty result or a guess. Each exported reader is wrapped in answerReader
// (errors.ts): whatever else it meets (a RangeError from a builtin) is a ContractError too. No spread or `apply` over
// what the service sent: they take about 125,000 elements at most, and an answer may hold more.
//
//  §4.1 model list: inferred once per service into a profile (paths and value maps), then read by it:
//      modelListInference.ts (its rules at its top), modelListReader.ts, modelListReading.ts.
//  §4.2 the answer and its reasoning, non-streamed and streamed: answerText.ts (framing: stream.ts).
//  §4.3/§4.5 started job: the one identifier in the answer, at any depth, that is no state word and no value the
//      request sent; one with a digit, then a shallower one, wins; a tie is refused. A number only as the whole answer.
//      No id in the body: the `Location` of a 201/202 (its one query value, else its last path segment). An id over
//      256 characters or with control characters is refused (it is stored and sent back in every poll).
//  §3/§4.4/§4.6 status: the state is a value anywhere that is a state word (STATE_WORDS, after folding case, spaces
//      and dashes), under a key saying status/state first, then phase/stage, then the shallowest; a disagreement at
//      one rank is refused. An unknown word under a status key is kept as `rawState` (state 'unknown', polling goes on,
//      shown humanised: `validating_files` -> "Validating files"); an error field makes it 'failed'. Progress: a
//      percent text; a number whose key says percent; one whose key says progress/fraction (above 1 a percentage, 1
//      while not finished 1%); else a done/total pair of counts in one object (a key saying total beside one other, or
//      two keys sharing a word, the larger total winning). Message: the first human text, else a phase word. Error: a
//      key saying error/failure/reason, by errorText. Message, error and state word are capped (capText): they are
//      stored in the job record, rewritten at each poll. The model the job made: readMadeModel.
//  §4.7 download body when not redirected: see decodeDownloadMetadata.
//  §5 401 and 403 from the API origin both mean "fix the key" (AuthError).  §6 no events: jobs are polled (src/jobs).
//  §7 error bodies: FastAPI's `detail` list of `{loc, msg}`, an S3-like XML `<Message>`, else errorText of the body (a
//      string, an object's human text, or a list of them, joined); an HTML page says nothing. Statuses: http.ts.
//  §8 limits: Retry-After, IETF RateLimit and X-RateLimit-Reset (rateLimit.ts), for retries and the poller alike.
//  §9 versioning: no version is sent; unknown fields are ignored. All JSON is parsed by safeJson.ts only (depth 64).

import { answerReader } from './errors';
import {
  compareRanks,
  contract,
  isHumanText,
  isIdentifier,
  isObj,
  isTypeValue,
  keySays,
  MAX_DEPTH,
  words,
  wordsOf,
  type Obj,
} from './answerShape';
import { tryParseJson } from './safeJson';
import { capText, humanise, isUsableJobId, MAX_JOB_ID_LENGTH, MAX_STATE_WORD_LENGTH } from './types';
import type { DownloadTarget, EvaluationResult, EvaluationStatus, FinetuneStatus, JobState, StartedJob } from './types';

type Json = unknown;

function firstString(o: Obj, fields: readonly string[]): string | undefined {
  for (const f of fields) {
    const v = o[f];
    if (typeof v === 'string' && v.trim() !== '') return v;
    if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  }
  return undefined;
}

/**
 * Parses JSON text; a body that is not JSON is returned as the string it is. JSON nested too deep to walk safely is a
 * ContractError (safeJson.ts).
 */
export function parseBody(text: string): Json {
  const t = text.trim();
  if (t === '') return '';
  const parsed = tryParseJson(t);
  return parsed ? parsed.value : text;
}

/**
 * An error answer's body, for its message only: the status already says what went wrong, so a body too deep to read
 * says nothing (undefined) rather than turning a 503 into another kind of failure.
 */
export function parseErrorBody(text: string): Json {
  try {
    return parseBody(text);
  } catch {
    return undefined;
  }
}

// The model list (§4.1) is inferred once per service and read by its profile: modelListInference.ts, modelListReader.ts.
export { decodeModelList } from './modelListReading';

// --------------------------------------------------------------------------------------- 4.3 / 4.5 start

/** What else the client knows of a start answer: its status and Location header, and the values the request sent. */
export interface StartAnswer {
  status?: number;
  location?: string;
  /** Values the request itself sent (model, dataset, mode…): an answer echoing them back does not make them ids. */
  sent?: readonly string[];
}

export const decodeStartedJob = answerReader(function decodeStartedJob(body: Json, answer: StartAnswer = {}): StartedJob {
  const sent = new Set(answer.sent ?? []);
  const strings: { id: string; rank: number[] }[] = [];
  const visit = (v: unknown, depth: number): void => {
    if (depth > MAX_DEPTH) return;
    if (typeof v === 'string') {
      const t = v.trim();
      if (isIdentifier(t) && !sent.has(t) && normaliseState(t) === 'unknown' && !isTypeValue(t)) {
        strings.push({ id: t, rank: [/\d/.test(t) ? 1 : 0, -depth] });
      }
    } else if (Array.isArray(v)) v.forEach((x) => visit(x, depth + 1));
    else if (isObj(v)) for (const x of Object.values(v)) visit(x, depth + 1);
  };
  visit(body, 0);
  strings.sort((a, b) => compareRanks(b.rank, a.rank));
  const [best, next] = strings;
  if (best && next && compareRanks(best.rank, next.rank) === 0 && best.id !== next.id) {
    throw contract(`two values could each be the job id: "${best.id}" and "${next.id}"`, body);
  }
  // A number is an id only when it is the whole answer: in a record, `{"position": 3}` looks just like `{"id": 3}`.
  const id = best?.id ?? (typeof body === 'number' && Number.isSafeInteger(body) ? String(body) : undefined) ?? idFromLocation(answer);
  if (id === undefined) throw contract('no job id in the answer', body);
  // An id that cannot be stored and sent back safely is refused now, not discovered by the poller or the views later.
  if (!isUsableJobId(id)) {
    throw contract(`the job id is longer than ${MAX_JOB_ID_LENGTH} characters or holds control characters`, body);
  }
  return { jobId: id, raw: body };
});

/** A 201/202 that says where the job is: its one query value, else the last segment of its path. */
function idFromLocation({ status, location }: StartAnswer): string | undefined {
  if ((status !== 201 && status !== 202) || !location) return undefined;
  try {
    const url = new URL(location, 'http://service.invalid/');
    const values = [...url.searchParams.values()].filter(isIdentifier);
    const id = values.length === 1 ? values[0] : decodeURIComponent(url.pathname.split('/').filter(Boolean).pop() ?? '');
    return isIdentifier(id) ? id : undefined;
  } catch {
    return undefined; // not a URL, or a segment that is not URI-encoded
  }
}

// ---------------------------------------------------------------------------------------- 4.4 / 4.6 poll

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

/** Error text from whatever shape the service used: a string, an object's own text, or a list of them, joined. */
export function errorText(err: unknown): string {
  const said = textOf(err, 0);
  if (said !== undefined) return said;
  try {
    return JSON.stringify(err);
  } catch {
    return String(err);
  }
}

/** The text a value says: a string; of an object, its human text (else its longest string); a list's, joined. */
function textOf(v: unknown, depth: number): string | undefined {
  if (typeof v === 'string') return v.trim() ? v : undefined;
  if (depth > MAX_DEPTH) return undefined;
  if (Array.isArray(v)) {
    const parts = v.map((x) => textOf(x, depth + 1)).filter((x): x is string => x !== undefined);
    return parts.length ? parts.join('; ') : undefined;
  }
  if (!isObj(v)) return undefined;
  const strings = Object.values(v).filter((x): x is string => typeof x === 'string' && x.trim() !== '');
  const human = strings.find(isHumanText);
  if (human) return human;
  const inner = Object.values(v)
    .filter((x) => typeof x === 'object' && x !== null)
    .map((x) => textOf(x, depth + 1))
    .find((x) => x !== undefined);
  return inner ?? strings.sort((a, b) => b.length - a.length)[0];
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

// --------------------------------------------------------------------------------------------- 4.7 download

function readExpiry(o: Obj, now: number): number | undefined {
  const at = o.expires_at ?? o.expiresAt ?? o.expiry ?? o.expires ?? o.expiration;
  if (typeof at === 'number' && Number.isFinite(at)) return at < 1e12 ? at * 1000 : at;
  if (typeof at === 'string') {
    if (/^\d+$/.test(at.trim())) {
      const n = Number(at);
      return n < 1e12 ? n * 1000 : n;
    }
    const t = Date.parse(at);
    if (!Number.isNaN(t)) return t;
  }
  const inSec = o.expires_in ?? o.expiresIn ?? o.ttl;
  if (typeof inSec === 'number' && Number.isFinite(inSec)) return now + inSec * 1000;
  return undefined;
}

export const decodeDownloadMetadata = answerReader(function decodeDownloadMetadata(body: Json, now: number = Date.now()): DownloadTarget {
  let o: Obj | undefined = isObj(body) ? body : undefined;
  if (o && !firstString(o, ['url', 'signed_url', 'download_url', 'presigned_url', 'href']) && isObj(o.data)) {
    o = o.data;
  }
  const url = o && firstString(o, ['url', 'signed_url', 'signedUrl', 'download_url', 'downloadUrl', 'presigned_url', 'href']);
  if (!o || !url) throw contract('download: neither a redirect nor a download URL', body);
  let sha256 = firstString(o, ['sha256', 'checksum', 'sha256_checksum', 'digest'])?.trim().toLowerCase();
  if (sha256?.startsWith('sha256:') || sha256?.startsWith('sha256=')) sha256 = sha256.slice(7);
  if (sha256 && !/^[0-9a-f]{64}$/.test(sha256)) sha256 = undefined; // another algorithm: not verified
  const sizeRaw = o.size ?? o.content_length ?? o.bytes ?? o.size_bytes;
  const size = typeof sizeRaw === 'number' && Number.isSafeInteger(sizeRaw) && sizeRaw >= 0 ? sizeRaw : undefined;
  return {
    url,
    expiresAt: readExpiry(o, now),
    size,
    sha256,
    fileName: firstString(o, ['filename', 'file_name', 'fileName', 'name']),
  };
});

// ------------------------------------------------------------------------------------------ 7 error bodies

/** The message a server put in an error body, if any; `undefined` when it said nothing readable. */
export function decodeErrorMessage(body: Json): string | undefined {
  if (typeof body === 'string') {
    const t = body.trim();
    if (!t) return undefined;
    // An HTML error page says nothing useful; an S3-like XML error has a <Message>.
    const xml = /<Message>([^<]{1,300})<\/Message>/i.exec(t);
    if (xml) return xml[1];
    if (t.startsWith('<')) return undefined;
    return capText(t, 300);
  }
  // FastAPI validation errors: {detail: [{loc: [...], msg: "..."}]}, each said with the field it is about.
  if (isObj(body) && Array.isArray(body.detail)) {
    return body.detail
      .map((e) => {
        if (!isObj(e) || !Array.isArray(e.loc) || typeof e.msg !== 'string') return errorText(e);
        const loc = e.loc.filter((x) => x !== 'body').join('.');
        return loc ? `${loc}: ${e.msg}` : e.msg;
      })
      .join('; ');
  }
  const said = isObj(body) || Array.isArray(body) ? textOf(body, 0) : undefined;
  return said === undefined ? undefined : capText(said, 300);
}
