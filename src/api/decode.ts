// Tolerant readers for every part of the spec marked "not shown". This is the only file that guesses;
// each decision is written once here, next to the reader that applies it. A body none of the plausible
// shapes fit becomes a ContractError carrying a redacted excerpt, never a crash or a silent empty result.
//
// Decisions, by spec section ("not shown" there; decided here once):
//  §2/§4.1 model list body and model record fields: a bare array, or an array wrapped in `models`,
//      `allowed_models`, `data`, `result`, `results` or `items` (nested wrappers too, e.g. `data.models`);
//      `{base_models: [...], custom_models: [...]}` is read too. Entries are strings or objects named by
//      `name`, `model_name`, `modelName`, `id` or `model` (first present wins). Base vs custom: the words of
//      `type`/`kind`/`model_type`/`category`/`source`/`origin`, the booleans `is_custom`/`custom`/`finetuned`/
//      `is_base`, or a `base_model` field (only a custom model has one); when none of these says, a name with a
//      fine-tune prefix (`ft:`, as OpenAI names tuned models, or `custom:`; any case) is custom; otherwise
//      'unknown' (the extension then marks models its own finetune jobs created as custom). Nameless entries are skipped, duplicates keep
//      the first, the record is kept raw. A body with no list is a ContractError; an empty list is not.
//  §4.2 required fields: the client always sends every documented field (`query_only` defaults to the prompt).
//      Ranges of temperature and budgets: not enforced here (the playground form checks 0..2 and positive
//      integers); a server refusal is shown with its message. Non-streamed body and stream events: read in answerText.ts. Stream
//      framing: chosen in stream.ts from Content-Type, then the first bytes (SSE, NDJSON, plain text, or one JSON
//      document).
//  §4.3 required fields: all six are sent. `mode`: `pretraining` by default; other values are passed through
//      and the server judges them. Response: the job id is `job_id`, `jobId`, `id`, `task_id` or `taskId`, at top
//      level or under `job`/`data`/`result`; a bare JSON string or plain-text id is accepted.
//  §3/§4.4 finetune state names, transitions and status body: the state word is `status`, `state`,
//      `job_status` or `phase`, mapped by STATE_WORDS after lower-casing and folding spaces/dashes to `_`.
//      THE RULE for an unknown word: state 'unknown', shown verbatim, not terminal (polling goes on), except
//      that an `error` field makes it 'failed'. Progress (percent): `percent`/`percentage`/`progress_percent`/
//      `pct` as given; `progress` above 1 is a percentage, in [0, 1] a fraction (exactly 1 while not finished
//      reads as 1%); `{current, total}`-like pairs; "45%" strings. Message: `message`, `detail`, `stage`,
//      `step_name`, `status_message`, `description`. Error: `error` (string, `{message}`, list),
//      `error_message`, `failure_reason`, `reason`. The model the job made (`modelName`): `fine_tuned_model`,
//      `fineTunedModel`, `tuned_model`, `output_model`, then `model_name`, `modelName`, `model`; a value equal to
//      the answer's own base model (`base_model`, `baseModel`, `modelType`) is not it (OpenAI's `model` is the base),
//      nor one over 256 characters or with control characters. A finished job's name is adopted (statusPatch.ts).
//  §3/§4.6 evaluation transitions: any non-terminal word (queued, running, …) keeps polling. `error` of a
//      failed evaluation (§7: shape not shown): a string, an object with `message`/`detail`, a list, or
//      anything else stringified. An accuracy above 1 is read as a percentage.
//  §4.7 body when not redirected: JSON with `url`, `signed_url`, `download_url`, `presigned_url` or `href`
//      (top level or under `data`); expiry from `expires_at`/`expiresAt`/`expiry`/`expires`/`expiration` (ISO
//      date, epoch seconds or ms) or `expires_in`/`ttl` (seconds); `sha256`/`checksum` ("sha256:<hex>" or hex;
//      other algorithms are not verified); `size`/`content_length`/`bytes`; `filename`/`file_name`. A 200 with
//      a binary body is the artifact itself (download.ts). Further parameters: none sent.
//  §5 missing or invalid key: 401 and 403 from the API origin both mean "fix the key" (AuthError). Obtaining
//      and rotating keys is outside the client: the user sets a new key; windows follow SecretStorage.
//  §6 events: none; jobs are polled (src/jobs), one poller for all active jobs.
//  §7 error statuses and bodies: 401/403 auth, 408 timeout, 429 rate limit, 5xx server, other 4xx request
//      (http.ts). Messages from `detail` (string or FastAPI list of `{loc, msg}`), `error` (string or
//      `{message}`), `message`, `error_description`, `title`, `msg`, an S3-like XML `<Message>`; an HTML page
//      says nothing; otherwise a short text excerpt.
//  §8 limits: Retry-After (seconds, HTTP date, `retry-after-ms`) on 429, 503 or any retried status honoured
//      exactly, without jitter, up to a cap (http.ts; above it the caller, e.g. the poller, waits); file
//      size/count and numQs bounds are client settings checked before upload, the server's refusal shown;
//      prompt length: not checked; signed-URL lifetime: the announced expiry when given, renewal ahead of it,
//      and a 401/403/410 from the storage origin renews the URL (download.ts).
//  §9 versioning: no version is sent; unknown extra fields are ignored everywhere.
//  All bodies: JSON is parsed by safeJson.ts only; nesting deeper than MAX_JSON_DEPTH (64) is a ContractError (an
//      error body that deep just says nothing, its status still decides the error). A job id (§4.3/§4.5) longer
//      than 256 characters or holding control characters is a ContractError: it would be stored, shown and sent
//      back in every poll.

import { ContractError } from './errors';
import { excerpt } from './redact';
import { tryParseJson } from './safeJson';
import { isUsableJobId, MAX_JOB_ID_LENGTH } from './types';
import type {
  DownloadTarget,
  EvaluationResult,
  EvaluationStatus,
  FinetuneStatus,
  JobState,
  ModelInfo,
  ModelKind,
  StartedJob,
} from './types';

type Json = unknown;
type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function firstString(o: Obj, fields: readonly string[]): string | undefined {
  for (const f of fields) {
    const v = o[f];
    if (typeof v === 'string' && v.trim() !== '') return v;
    if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  }
  return undefined;
}

function contract(what: string, body: unknown): ContractError {
  return new ContractError(`The service sent an answer the extension cannot read (${what}).`, {
    detail: excerpt(body),
  });
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

// ---------------------------------------------------------------------------------------------- 4.1 models

const NAME_FIELDS = ['name', 'model_name', 'modelName', 'id', 'model'] as const;
const LIST_WRAPPERS = ['models', 'allowed_models', 'data', 'result', 'results', 'items'] as const;
const CUSTOM_WORDS = new Set(['custom', 'finetuned', 'fine-tuned', 'fine_tuned', 'lora', 'adapter', 'user', 'tuned']);
const BASE_WORDS = new Set(['base', 'foundation', 'pretrained', 'builtin', 'built-in', 'system', 'public']);

// What the answer says wins: a `ft:` model listed with `type: base` stays base.
const CUSTOM_NAME_PREFIX = /^(?:ft|custom):/i;

function kindByName(name: string): ModelKind {
  return CUSTOM_NAME_PREFIX.test(name) ? 'custom' : 'unknown';
}

function kindOf(o: Obj): ModelKind {
  for (const f of ['type', 'kind', 'model_type', 'category', 'source', 'origin']) {
    const v = o[f];
    if (typeof v === 'string') {
      const w = v.trim().toLowerCase();
      if (CUSTOM_WORDS.has(w)) return 'custom';
      if (BASE_WORDS.has(w)) return 'base';
    }
  }
  for (const f of ['is_custom', 'custom', 'finetuned', 'is_finetuned']) {
    if (typeof o[f] === 'boolean') return o[f] ? 'custom' : 'base';
  }
  if (typeof o.is_base === 'boolean') return o.is_base ? 'base' : 'custom';
  if (typeof o.base_model === 'string' || typeof o.baseModel === 'string') return 'custom';
  return 'unknown';
}

function modelFrom(entry: unknown, forced?: ModelKind): ModelInfo | undefined {
  if (typeof entry === 'string') {
    const name = entry.trim();
    return name ? { name, kind: forced ?? kindByName(name), raw: entry } : undefined;
  }
  if (!isObj(entry)) return undefined;
  const name = firstString(entry, NAME_FIELDS)?.trim();
  if (!name) return undefined;
  const baseModel = firstString(entry, ['base_model', 'baseModel', 'modelType']);
  const createdAt = firstString(entry, ['created_at', 'createdAt', 'created']);
  const said = forced ?? kindOf(entry);
  return { name, kind: said === 'unknown' ? kindByName(name) : said, baseModel, createdAt, raw: entry };
}

function findModelArray(body: Json): unknown[] | undefined {
  if (Array.isArray(body)) return body as unknown[];
  if (!isObj(body)) return undefined;
  for (const w of LIST_WRAPPERS) {
    const v = body[w];
    if (Array.isArray(v)) return v as unknown[];
    if (isObj(v)) {
      const inner = findModelArray(v);
      if (inner) return inner;
    }
  }
  return undefined;
}

export function decodeModelList(body: Json): ModelInfo[] {
  const out: ModelInfo[] = [];
  const seen = new Set<string>();
  const add = (m: ModelInfo | undefined) => {
    if (m && !seen.has(m.name)) {
      seen.add(m.name);
      out.push(m);
    }
  };
  if (isObj(body) && (Array.isArray(body.base_models) || Array.isArray(body.custom_models))) {
    for (const e of asArray(body.base_models)) add(modelFrom(e, 'base'));
    for (const e of asArray(body.custom_models)) add(modelFrom(e, 'custom'));
    return out;
  }
  const list = findModelArray(body);
  if (!list) throw contract('model list: no list of models found', body);
  for (const e of list) add(modelFrom(e));
  if (list.length > 0 && out.length === 0) throw contract('model list: no entry has a name', body);
  return out;
}

function asArray(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

// --------------------------------------------------------------------------------------- 4.3 / 4.5 start

const JOB_ID_FIELDS = ['job_id', 'jobId', 'id', 'task_id', 'taskId', 'job'] as const;

export function decodeStartedJob(body: Json): StartedJob {
  if (typeof body === 'string') {
    const id = body.trim();
    if (/^[\w.:-]{1,200}$/.test(id)) return { jobId: id, raw: body };
    throw contract('no job id in the answer', body);
  }
  if (isObj(body)) {
    const id = firstString(body, JOB_ID_FIELDS);
    if (id) return started(id, body);
    for (const w of ['job', 'data', 'result']) {
      const inner = body[w];
      if (isObj(inner)) {
        const innerId = firstString(inner, JOB_ID_FIELDS);
        if (innerId) return started(innerId, body);
      }
    }
  }
  throw contract('no job id in the answer', body);
}

// An id that cannot be stored and sent back safely is refused now, not discovered by the poller or the views later.
function started(id: string, body: Obj): StartedJob {
  if (!isUsableJobId(id)) {
    throw contract(`the job id is longer than ${MAX_JOB_ID_LENGTH} characters or holds control characters`, body);
  }
  return { jobId: id, raw: body };
}

// ---------------------------------------------------------------------------------------- 4.4 / 4.6 poll

const STATE_WORDS: Record<Exclude<JobState, 'unknown'>, readonly string[]> = {
  queued: ['queued', 'pending', 'waiting', 'submitted', 'created', 'accepted', 'scheduled', 'new', 'enqueued'],
  running: [
    'running',
    'processing',
    'in_progress',
    'started',
    'starting',
    'training',
    'generating',
    'extracting',
    'uploading',
    'uploaded',
    'preparing',
    'validating',
    'tuning',
    'finetuning',
    'fine_tuning',
    'evaluating',
    'active',
    'working',
    'building',
    'generating_questions',
    'exporting',
    'saving',
  ],
  completed: ['completed', 'complete', 'succeeded', 'success', 'successful', 'done', 'finished', 'ready', 'ok'],
  failed: ['failed', 'failure', 'error', 'errored', 'crashed', 'rejected', 'timeout', 'timed_out', 'expired'],
  cancelled: ['cancelled', 'canceled', 'aborted', 'stopped', 'killed', 'cancelling', 'canceling'],
};

const WORD_TO_STATE = new Map<string, JobState>();
for (const [state, words] of Object.entries(STATE_WORDS) as [JobState, readonly string[]][]) {
  for (const w of words) WORD_TO_STATE.set(w, state);
}

/** The one mapping rule: lower-case, fold spaces and dashes to `_`, look up; an unknown word is 'unknown'. */
export function normaliseState(word: string): JobState {
  const w = word
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  return WORD_TO_STATE.get(w) ?? 'unknown';
}

function readState(o: Obj): { state: JobState; rawState?: string } {
  const rawState = firstString(o, ['status', 'state', 'job_status', 'phase']);
  let state: JobState = rawState ? normaliseState(rawState) : 'unknown';
  const hasError = o.error !== undefined && o.error !== null && o.error !== '' && o.error !== false;
  if (state === 'unknown' && hasError) state = 'failed';
  if (state === 'unknown' && !rawState && (o.done === true || o.completed === true)) state = 'completed';
  return { state, rawState };
}

/**
 * Progress in percent. A field named like `percent` is already a percentage. For `progress`, a value
 * above 1 is a percentage and a value in [0, 1] a fraction, except that exactly 1 is read as 1% while the
 * job is not finished (a fraction of 1 would mean "finished", which the state says better).
 */
function readProgress(o: Obj, state: JobState): number | undefined {
  const clamp = (n: number) => Math.max(0, Math.min(100, n));
  const num = (v: unknown): number | undefined => {
    if (typeof v === 'number' && Number.isFinite(v)) return v;
    if (typeof v === 'string') {
      const m = /^\s*(-?\d+(?:\.\d+)?)\s*%?\s*$/.exec(v);
      if (m) return Number(m[1]);
    }
    return undefined;
  };
  for (const f of ['percent', 'percentage', 'progress_percent', 'pct']) {
    const n = num(o[f]);
    if (n !== undefined) return clamp(n);
  }
  const p = o.progress;
  if (isObj(p)) {
    const inner = readProgress(p, state);
    if (inner !== undefined) return inner;
    const cur = num(p.current ?? p.done ?? p.completed);
    const total = num(p.total);
    if (cur !== undefined && total) return clamp((cur / total) * 100);
  }
  const n = num(p);
  if (n !== undefined) {
    if (typeof p === 'string' && p.includes('%')) return clamp(n);
    if (n > 1) return clamp(n);
    if (n === 1 && state !== 'completed') return 1;
    return clamp(n * 100);
  }
  const cur = num(o.current_step ?? o.completed_steps ?? o.step);
  const total = num(o.total_steps ?? o.steps);
  if (cur !== undefined && total) return clamp((cur / total) * 100);
  return undefined;
}

/** Error text from whatever shape the service used (part 7: not shown). */
export function errorText(err: unknown): string {
  if (typeof err === 'string') return err;
  if (Array.isArray(err)) return err.map(errorText).join('; ');
  if (isObj(err)) {
    const s = firstString(err, ['message', 'detail', 'msg', 'error', 'description', 'reason', 'code']);
    if (s) return s;
    if (isObj(err.error) || Array.isArray(err.error)) return errorText(err.error);
  }
  try {
    return JSON.stringify(err);
  } catch {
    return String(err);
  }
}

function readError(o: Obj): string | undefined {
  for (const f of ['error', 'error_message', 'errorMessage', 'failure_reason', 'reason']) {
    const v = o[f];
    if (v !== undefined && v !== null && v !== '' && v !== false) return errorText(v);
  }
  return undefined;
}

function unwrapRecord(body: Json, what: string): Obj {
  if (!isObj(body)) throw contract(`${what}: not a JSON object`, body);
  for (const w of ['job', 'data']) {
    const inner = body[w];
    if (isObj(inner) && !('status' in body) && !('state' in body)) return inner;
  }
  return body;
}

export function decodeFinetuneStatus(jobId: string, body: Json): FinetuneStatus {
  const o = unwrapRecord(body, 'finetune status');
  const { state, rawState } = readState(o);
  if (!rawState && state === 'unknown') throw contract('finetune status: no status field', body);
  const error = state === 'failed' ? (readError(o) ?? firstString(o, ['detail', 'message'])) : readError(o);
  return {
    jobId,
    state,
    rawState,
    progress: state === 'completed' ? 100 : readProgress(o, state),
    message: firstString(o, ['message', 'detail', 'stage', 'step_name', 'status_message', 'description']),
    error,
    modelName: readMadeModel(o),
    raw: body,
  };
}

const MADE_MODEL_FIELDS = ['fine_tuned_model', 'fineTunedModel', 'tuned_model', 'output_model', 'model_name', 'modelName', 'model'];
// eslint-disable-next-line no-control-regex
const USABLE_MODEL_NAME = /^[^\u0000-\u001f\u007f]{1,256}$/;

function readMadeModel(o: Obj): string | undefined {
  const base = firstString(o, ['base_model', 'baseModel', 'modelType'])?.trim();
  for (const f of MADE_MODEL_FIELDS) {
    const name = firstString(o, [f])?.trim();
    if (name && name !== base && USABLE_MODEL_NAME.test(name)) return name;
  }
  return undefined;
}

function readEvaluationResult(v: unknown): EvaluationResult | undefined {
  if (!isObj(v)) return undefined;
  const correct = typeof v.correct === 'number' ? v.correct : undefined;
  const total = typeof v.total === 'number' ? v.total : undefined;
  let accuracy = typeof v.accuracy === 'number' ? v.accuracy : undefined;
  if (accuracy === undefined && correct !== undefined && total) accuracy = correct / total;
  if (accuracy === undefined || !Number.isFinite(accuracy)) return undefined;
  // Spec: a fraction 0..1. A value above 1 is read as a percentage rather than shown as 7,300%.
  if (accuracy > 1 && accuracy <= 100) accuracy = accuracy / 100;
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

export function decodeEvaluationStatus(jobId: string, body: Json): EvaluationStatus {
  const o = unwrapRecord(body, 'evaluation status');
  const { state, rawState } = readState(o);
  if (!rawState && state === 'unknown') throw contract('evaluation status: no status field', body);
  if (state === 'completed') {
    const result = readEvaluationResult(o.result);
    if (!result) throw contract('evaluation status: completed without a readable result', body);
    return { jobId, state, rawState, result, raw: body };
  }
  const error = state === 'failed' ? (readError(o) ?? 'The evaluation failed without a reason.') : undefined;
  return { jobId, state, rawState, error, raw: body };
}

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

export function decodeDownloadMetadata(body: Json, now = Date.now()): DownloadTarget {
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
}

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
    return t.length > 300 ? `${t.slice(0, 300)}…` : t;
  }
  if (!isObj(body)) return undefined;
  const d = body.detail;
  if (Array.isArray(d)) {
    // FastAPI validation errors: [{loc: [...], msg: "..."}]
    return d
      .map((e) => {
        if (!isObj(e)) return String(e);
        const loc = Array.isArray(e.loc) ? e.loc.filter((x) => x !== 'body').join('.') : '';
        const msg = typeof e.msg === 'string' ? e.msg : errorText(e);
        return loc ? `${loc}: ${msg}` : msg;
      })
      .join('; ');
  }
  for (const f of ['detail', 'error', 'message', 'error_description', 'title', 'msg']) {
    const v = body[f];
    if (v !== undefined && v !== null && v !== '') return errorText(v);
  }
  return undefined;
}
