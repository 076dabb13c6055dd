// Whole-service styles (option `shape`, issue 27): every body the spec leaves "not shown" written the way one family of
// real public APIs writes it, consistently across the routes, while what the spec documents by name stays as it says
// (evaluation `job_id`, `status` words `queued`/`completed`/`failed`, `result` fields; the finetune status record's
// `job_id`). Routes, methods, HTTP statuses and the state machine are the default's; only the bodies change.
//
//  - 'openai-like': OpenAI's model list, fine_tuning.job, chat.completion(.chunk) SSE with `reasoning_content`,
//    `{error: {message, type, param, code}}`; tuned models named `ft:<base>:<suffix>:<id>` owned by the organization.
//  - 'google-like': Gemini / Vertex: `{models: [...], tunedModels: [...]}`, long-running operations
//    (`name`, `metadata`, `done`, `response` | `error`), `candidates[0].content.parts[{text, thought}]` as a JSON array
//    (pretty-printed, as Google streams it), NDJSON or CRLF SSE; `{error: {code, message, status}}`; int64 as strings.
//  - 'nested-phase': the service of issue 27: model records nested one level, a `phase` word with a percent string
//    then step counts as numeric strings, the made model's name under a key of its own; stream events carrying each
//    token in two fields, a first event echoing the request and a RAG event of sources mid-stream; JSON:API errors.
import { randomBytes } from 'node:crypto';
import type { ValidationIssue } from './http-util';
import { shapeModelList, type ModelRecord } from './keys';
import type { Framing } from './types';

export type ServiceShape = 'default' | 'openai-like' | 'google-like' | 'nested-phase';
export const SERVICE_SHAPES: readonly ServiceShape[] = ['default', 'openai-like', 'google-like', 'nested-phase'];

/** Seconds since the epoch (OpenAI's timestamps). */
const epochSeconds = (ms: number): number => Math.floor(ms / 1000);

// ---------------------------------------------------------------------------------------------------------- errors

const GOOGLE_STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  405: 'UNIMPLEMENTED',
  409: 'ALREADY_EXISTS',
  413: 'INVALID_ARGUMENT',
  415: 'INVALID_ARGUMENT',
  422: 'INVALID_ARGUMENT',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  502: 'UNAVAILABLE',
  503: 'UNAVAILABLE',
};

const OPENAI_CODE: Record<number, { type: string; code: string | null }> = {
  401: { type: 'invalid_request_error', code: 'invalid_api_key' },
  403: { type: 'invalid_request_error', code: 'invalid_api_key' },
  404: { type: 'invalid_request_error', code: 'not_found' },
  409: { type: 'invalid_request_error', code: 'conflict' },
  413: { type: 'invalid_request_error', code: 'request_too_large' },
  415: { type: 'invalid_request_error', code: 'unsupported_file' },
  422: { type: 'invalid_request_error', code: 'invalid_value' },
};

function issueText(issue: ValidationIssue): string {
  const field = issue.loc.filter((p) => p !== 'body' && p !== 'query').join('.');
  return field ? `${field}: ${issue.msg}` : issue.msg;
}

function issueField(issue: ValidationIssue | undefined): string | null {
  if (!issue) return null;
  const field = issue.loc.filter((p) => p !== 'body' && p !== 'query').join('.');
  return field || null;
}

/** An error body in the style (undefined: the default's own `{detail}`). `detail` is a message or 422's issues. */
export function styledError(shape: ServiceShape, status: number, detail: string | ValidationIssue[]): unknown {
  const issues = Array.isArray(detail) ? detail : undefined;
  const message = issues ? issues.map(issueText).join('; ') : (detail as string);
  switch (shape) {
    case 'default':
      return undefined;
    case 'openai-like': {
      const kind = OPENAI_CODE[status] ?? { type: status >= 500 ? 'server_error' : 'invalid_request_error', code: null };
      return { error: { message, type: kind.type, param: issueField(issues?.[0]), code: kind.code } };
    }
    case 'google-like': {
      const error: Record<string, unknown> = {
        code: status,
        message,
        status: GOOGLE_STATUS[status] ?? (status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION'),
      };
      if (issues) {
        error.details = [
          {
            '@type': 'type.googleapis.com/google.rpc.BadRequest',
            fieldViolations: issues.map((i) => ({ field: issueField(i) ?? '', description: i.msg })),
          },
        ];
      }
      return { error };
    }
    case 'nested-phase':
      return {
        errors: (issues ?? [undefined]).map((i) => ({
          status: String(status),
          title: status === 422 ? 'Invalid field' : status === 404 ? 'Not found' : status < 500 ? 'Request refused' : 'Service failure',
          detail: i ? issueText(i) : message,
          ...(i ? { source: { pointer: `/${issueField(i) ?? ''}` } } : {}),
        })),
      };
  }
}

// ------------------------------------------------------------------------------------------------------ model list

function displayName(name: string): string {
  return name.replace(/[-_]+/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());
}

/** The model list (4.1) in the style; undefined for 'default' (the key's modelListShape then decides). */
export function styledModelList(shape: ServiceShape, list: ModelRecord[], owner: string): unknown {
  switch (shape) {
    case 'default':
      return undefined;
    case 'openai-like':
      return {
        object: 'list',
        data: list.map((r) => ({
          id: r.model_name,
          object: 'model',
          created: r.created_at ? epochSeconds(Date.parse(r.created_at)) : 1_700_000_000,
          owned_by: r.type === 'base' ? 'system' : `org-${owner}`,
        })),
      };
    case 'google-like': {
      const base = list.filter((r) => r.type === 'base');
      const tuned = list.filter((r) => r.type === 'custom');
      return {
        models: base.map((r) => ({
          name: `models/${r.model_name}`,
          baseModelId: r.model_name,
          version: '001',
          displayName: displayName(r.model_name),
          description: `${displayName(r.model_name)}, served by the emulator`,
          inputTokenLimit: 32768,
          outputTokenLimit: 8192,
          supportedGenerationMethods: ['generateContent', 'streamGenerateContent', 'createTunedModel'],
        })),
        // proto3 JSON leaves an empty repeated field out.
        ...(tuned.length > 0
          ? {
              tunedModels: tuned.map((r) => ({
                name: r.model_name,
                displayName: r.model_name.replace(/^tunedModels\//, ''),
                baseModel: `models/${r.base_model ?? ''}`,
                state: 'ACTIVE',
                createTime: r.created_at,
                updateTime: r.created_at,
              })),
            }
          : {}),
      };
    }
    case 'nested-phase':
      // Issue 27's service lists its models as the model-list shape of the same name does.
      return shapeModelList(list, 'nested-results');
  }
}

/**
 * The name a request means, in the style: Google's clients send base models as `models/<id>` (the list's `name`),
 * which the service also takes bare. Other styles take names as they are.
 */
export function canonicalModelName(shape: ServiceShape, name: string, isBase: (n: string) => boolean): string {
  if (shape === 'google-like' && name.startsWith('models/') && isBase(name.slice('models/'.length))) {
    return name.slice('models/'.length);
  }
  return name;
}

// ---------------------------------------------------------------------------------------------------- finetune jobs

/** What a style needs of a finetune job (finetune.ts's FinetuneJob has all of it). */
export interface StyledJob {
  id: string;
  modelName: string;
  baseModel: string;
  numQs: number;
  status: 'queued' | 'extracting' | 'generating' | 'training' | 'completed' | 'failed';
  createdAt: number;
  updatedAt: number;
  exporting: boolean;
  error?: string;
  files: { name: string }[];
  /** The name the model is (or will be) published under. */
  madeName: string;
}

/** A new finetune job's id in the style (OpenAI's `ftjob-…`; Google's operation ids stay UUIDs). */
export function newFinetuneJobId(shape: ServiceShape, uuid: string): string {
  return shape === 'openai-like' ? `ftjob-${uuid.replace(/-/g, '').slice(0, 24)}` : uuid;
}

/** The job a polled `job_id` names: Google's clients send the operation's whole `name`. */
export function jobIdFromQuery(shape: ServiceShape, id: string): string {
  return shape === 'google-like' ? id.replace(/^operations\//, '') : id;
}

/** The id a client is given for a job (and sends back to poll it). */
export function publicJobId(shape: ServiceShape, id: string): string {
  return shape === 'google-like' ? `operations/${id}` : id;
}

/** The name of the model a job in this style makes (the default names it itself: see finetune.ts). */
export function madeModelName(shape: ServiceShape, job: { id: string; modelName: string; baseModel: string }): string | undefined {
  const short = job.id
    .replace(/^ftjob-/, '')
    .replace(/-/g, '')
    .slice(0, 8);
  switch (shape) {
    case 'default':
      return undefined;
    case 'openai-like':
      return `ft:${job.baseModel}:${job.modelName}:${short}`;
    case 'google-like':
      return `tunedModels/${job.modelName.toLowerCase().replace(/[^a-z0-9-]+/g, '-')}-${short.slice(0, 5)}`;
    case 'nested-phase':
      return `${job.modelName}.v1`;
  }
}

const OPENAI_STATUS = {
  queued: 'queued',
  extracting: 'validating_files',
  generating: 'running',
  training: 'running',
  completed: 'succeeded',
  failed: 'failed',
} as const;

const GOOGLE_STATE = {
  queued: 'JOB_STATE_QUEUED',
  extracting: 'JOB_STATE_RUNNING',
  generating: 'JOB_STATE_RUNNING',
  training: 'JOB_STATE_RUNNING',
  completed: 'JOB_STATE_SUCCEEDED',
  failed: 'JOB_STATE_FAILED',
} as const;

const NESTED_PHASE = {
  queued: 'pending',
  extracting: 'ingesting',
  generating: 'generating',
  training: 'tuning',
  completed: 'ready',
  failed: 'error',
} as const;

const TUNED_MODEL_TYPE = 'type.googleapis.com/google.ai.generativelanguage.v1beta.TunedModel';
const TUNING_METADATA_TYPE = 'type.googleapis.com/google.ai.generativelanguage.v1beta.CreateTunedModelMetadata';

function openaiJob(job: StyledJob, organization: string): Record<string, unknown> {
  const done = job.status === 'completed';
  const failed = job.status === 'failed';
  return {
    object: 'fine_tuning.job',
    id: job.id,
    model: job.baseModel,
    created_at: epochSeconds(job.createdAt),
    finished_at: done || failed ? epochSeconds(job.updatedAt) : null,
    fine_tuned_model: done ? job.madeName : null,
    organization_id: organization,
    result_files: done ? [`file-${job.id.slice(6, 30)}`] : [],
    status: OPENAI_STATUS[job.status],
    validation_file: null,
    training_file: `file-${job.id.slice(-24)}`,
    hyperparameters: { n_epochs: 'auto', batch_size: 'auto', learning_rate_multiplier: 'auto' },
    trained_tokens: done ? job.numQs * 1234 : null,
    error: failed ? { code: 'invalid_training_file', message: job.error ?? 'Job failed', param: 'training_file' } : null,
    user_provided_suffix: job.modelName,
    suffix: job.modelName,
    seed: 42,
    estimated_finish: null,
    integrations: [],
    method: { type: 'supervised' },
  };
}

function googleOperation(job: StyledJob, progress: number): Record<string, unknown> {
  const steps = Math.round(progress * 10);
  const metadata: Record<string, unknown> = { '@type': TUNING_METADATA_TYPE, tunedModel: job.madeName, totalSteps: 1000 };
  // proto3 JSON leaves zero values out: nothing done yet, no completedSteps or completedPercent.
  if (steps > 0) {
    metadata.completedSteps = steps;
    metadata.completedPercent = progress;
  }
  metadata.state = GOOGLE_STATE[job.status];
  const op: Record<string, unknown> = { name: `operations/${job.id}`, metadata };
  if (job.status === 'completed') {
    op.done = true;
    op.response = {
      '@type': TUNED_MODEL_TYPE,
      name: job.madeName,
      displayName: job.modelName,
      baseModel: `models/${job.baseModel}`,
      state: 'ACTIVE',
      createTime: new Date(job.createdAt).toISOString(),
      updateTime: new Date(job.updatedAt).toISOString(),
    };
  } else if (job.status === 'failed') {
    op.done = true;
    op.error = { code: 3, message: job.error ?? 'Tuning failed', details: [] };
  }
  return op;
}

/** The start answer of a finetune (4.3) in the style; undefined for 'default'. */
export function styledFinetuneStart(shape: ServiceShape, job: StyledJob, organization: string): unknown {
  switch (shape) {
    case 'default':
      return undefined;
    case 'openai-like':
      return openaiJob(job, organization);
    case 'google-like':
      return googleOperation(job, 0);
    case 'nested-phase':
      return { ticket: { id: job.id, phase: NESTED_PHASE[job.status], poll: `/cr/generate_questions_status?job_id=${job.id}` } };
  }
}

/**
 * The status record (4.4) in the style; undefined for 'default'. `job_id` (the spec's name for the job's identifier)
 * is in every style's record; everything else is the style's.
 */
export function styledFinetuneStatus(shape: ServiceShape, job: StyledJob, progress: number, organization: string): unknown {
  const jobId = publicJobId(shape, job.id);
  switch (shape) {
    case 'default':
      return undefined;
    case 'openai-like':
      return { job_id: jobId, ...openaiJob(job, organization) };
    case 'google-like':
      return { job_id: jobId, ...googleOperation(job, progress) };
    case 'nested-phase': {
      const view: Record<string, unknown> = { job_id: jobId, phase: NESTED_PHASE[job.status] };
      if (job.status === 'training') {
        // Step counts as numeric strings: done of total.
        view.steps = { done: String(job.exporting ? 1000 : Math.round(((progress - 60) / 39) * 1000)), total: '1000' };
      } else {
        view.percent = `${Math.floor(progress)}%`;
      }
      if (job.status === 'completed') view.published_as = job.madeName;
      if (job.status === 'failed') view.problem = { summary: job.error ?? 'failed' };
      view.created = new Date(job.createdAt).toISOString();
      return view;
    }
  }
}

// ------------------------------------------------------------------------------------------------------ evaluation

/** The evaluation's intermediate state word (the spec names only queued, completed and failed). */
export function evaluationRunningWord(shape: ServiceShape): string {
  return { default: 'running', 'openai-like': 'in_progress', 'google-like': 'running', 'nested-phase': 'scoring' }[shape];
}

/** What a style adds to the evaluation's start answer, beside the spec's `job_id` and `status`. */
export function evaluationStartExtras(shape: ServiceShape, id: string, createdAt: number): Record<string, unknown> {
  switch (shape) {
    case 'default':
      return {};
    case 'openai-like':
      return { object: 'eval.run', created_at: epochSeconds(createdAt) };
    case 'google-like':
      return { name: `operations/eval-${id}`, metadata: { state: 'JOB_STATE_QUEUED' } };
    case 'nested-phase':
      return { phase: 'pending', percent: '0%' };
  }
}

/** What a style adds to the evaluation's status beside the spec's fields; `percent` 0..100. */
export function evaluationStatusExtras(shape: ServiceShape, id: string, status: string, percent: number): Record<string, unknown> {
  switch (shape) {
    case 'default':
      return {};
    case 'openai-like':
      return { object: 'eval.run' };
    case 'google-like': {
      const state =
        { queued: 'JOB_STATE_QUEUED', completed: 'JOB_STATE_SUCCEEDED', failed: 'JOB_STATE_FAILED' }[status] ?? 'JOB_STATE_RUNNING';
      return {
        name: `operations/eval-${id}`,
        metadata: { state, ...(percent > 0 ? { completedPercent: percent } : {}) },
        ...(status === 'completed' || status === 'failed' ? { done: true } : {}),
      };
    }
    case 'nested-phase':
      return {
        phase: status === 'completed' ? 'ready' : status === 'failed' ? 'error' : status === 'queued' ? 'pending' : 'scoring',
        percent: `${Math.floor(percent)}%`,
      };
  }
}

/** A failed evaluation's `error` (its shape is "not shown": spec part 7). */
export function styledEvaluationError(shape: ServiceShape, message: string): unknown {
  switch (shape) {
    case 'default':
      return message;
    case 'openai-like':
      return { code: 'dataset_not_found', message, param: 'dataset_name' };
    case 'google-like':
      return { code: 5, message, status: 'NOT_FOUND' };
    case 'nested-phase':
      return { problem: { summary: message } };
  }
}

// -------------------------------------------------------------------------------------------------------- download

export interface StyledArtifact {
  model: string;
  url: string;
  expiresAt: number;
  size: number;
  sha256: string;
  filename: string;
  md5Base64: string;
  crc32cBase64: string;
}

/** The download answer (4.7) as JSON in the style; undefined for 'default' (redirect or metadata, as configured). */
export function styledDownload(shape: ServiceShape, a: StyledArtifact, ttlMs: number): unknown {
  switch (shape) {
    case 'default':
      return undefined;
    case 'openai-like':
      return {
        object: 'model.artifact',
        model: a.model,
        filename: a.filename,
        bytes: a.size,
        content_url: a.url,
        expires_at: epochSeconds(a.expiresAt),
      };
    case 'google-like':
      return {
        kind: 'storage#object',
        name: `${a.model}/${a.filename}`,
        mediaLink: a.url,
        expireTime: new Date(a.expiresAt).toISOString(),
        size: String(a.size),
        md5Hash: a.md5Base64,
        crc32c: a.crc32cBase64,
        contentType: 'application/octet-stream',
      };
    case 'nested-phase':
      return {
        artifact: {
          location: { href: a.url },
          expires: { in_seconds: String(Math.round(ttlMs / 1000)) },
          size: { bytes: String(a.size) },
          digest: `sha256:${a.sha256}`,
          file: { name: a.filename },
        },
      };
  }
}

// ------------------------------------------------------------------------------------------------------- inference

export interface StyledRequest {
  prompt: string;
  queryOnly?: string;
  modelName: string;
  stream: boolean;
  useRag: boolean;
  sequentialBudget: number;
  parallelBudget: number;
  temperature: number;
}

/** The RAG sources the nested-phase style reports (its answer text names the same two documents). */
export const NESTED_SOURCES = [
  {
    title: 'handbook.pdf',
    snippet: 'Returns are accepted within thirty days of purchase.',
    url: 'https://docs.example.com/handbook.pdf#page=7',
  },
  { title: 'notes.docx', snippet: 'Support is open on weekdays from nine to five.', url: 'https://docs.example.com/notes.docx' },
];

function echo(request: StyledRequest): Record<string, unknown> {
  return {
    prompt: request.prompt,
    query_only: request.queryOnly ?? request.prompt,
    model_name: request.modelName,
    stream: request.stream,
    use_rag: request.useRag,
    sequential_budget: request.sequentialBudget,
    parallel_budget: request.parallelBudget,
    temperature: request.temperature,
  };
}

/**
 * The non-streamed answer (4.2) in the style; undefined for 'default'. `reasoning` is '' when there is none, and is
 * carried the style's own way (OpenAI-compatible `reasoning_content`, Gemini `thought` parts, a `thinking` object);
 * `text` is the answer text (with `<think>` already inlined when the form is 'inline').
 */
export function styledAnswer(
  shape: ServiceShape,
  request: StyledRequest,
  text: string,
  reasoning: string,
  usage: { prompt: number; completion: number },
): unknown {
  switch (shape) {
    case 'default':
      return undefined;
    case 'openai-like':
      return {
        id: `chatcmpl-${randomBytes(12).toString('hex')}`,
        object: 'chat.completion',
        created: epochSeconds(Date.now()),
        model: request.modelName,
        system_fingerprint: 'fp_emulator',
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: text, ...(reasoning ? { reasoning_content: reasoning } : {}), refusal: null },
            logprobs: null,
            finish_reason: 'stop',
          },
        ],
        usage: { prompt_tokens: usage.prompt, completion_tokens: usage.completion, total_tokens: usage.prompt + usage.completion },
      };
    case 'google-like':
      return {
        candidates: [
          {
            content: { role: 'model', parts: [...(reasoning ? [{ text: reasoning, thought: true }] : []), { text }] },
            finishReason: 'STOP',
            index: 0,
          },
        ],
        usageMetadata: {
          promptTokenCount: usage.prompt,
          candidatesTokenCount: usage.completion,
          totalTokenCount: usage.prompt + usage.completion,
        },
        modelVersion: request.modelName,
        responseId: randomBytes(9).toString('base64url'),
      };
    case 'nested-phase':
      return {
        request: echo(request),
        result: {
          answer: { text },
          ...(reasoning ? { thinking: { text: reasoning } } : {}),
          ...(request.useRag ? { sources: NESTED_SOURCES } : {}),
        },
      };
  }
}

/** How a styled stream is written: content type, frames before, per token and after, and a mid-stream error. */
export interface StreamFramer {
  contentType: string;
  open(): string[];
  /** The frame(s) of token `index` (of `total`); `thinking` for a reasoning token. */
  token(text: string, index: number, total: number, thinking: boolean): string[];
  close(): string[];
  error(message: string): string[];
}

/** The stream framer of a style for the key's (or header's) framing; undefined for 'default'. */
export function styledStream(shape: ServiceShape, framing: Framing, request: StyledRequest): StreamFramer | undefined {
  switch (shape) {
    case 'default':
      return undefined;
    case 'openai-like':
      return openaiStream(request);
    case 'google-like':
      return googleStream(framing, request);
    case 'nested-phase':
      return nestedStream(framing, request);
  }
}

function openaiStream(request: StyledRequest): StreamFramer {
  // Every chunk repeats the completion's id, creation time and model, as OpenAI's do.
  const head = {
    id: `chatcmpl-${randomBytes(12).toString('hex')}`,
    object: 'chat.completion.chunk',
    created: epochSeconds(Date.now()),
    model: request.modelName,
    system_fingerprint: 'fp_emulator',
  };
  const sse = (o: unknown): string => `data: ${JSON.stringify(o)}\n\n`;
  const chunk = (delta: Record<string, unknown>, finish: string | null = null): string =>
    sse({ ...head, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });
  let count = 0;
  return {
    contentType: 'text/event-stream; charset=utf-8',
    open: () => [chunk({ role: 'assistant', content: '' })],
    token: (text, _i, _n, thinking) => {
      count++;
      return [chunk(thinking ? { content: null, reasoning_content: text } : { content: text })];
    },
    close: () => [
      chunk({}, 'stop'),
      // stream_options.include_usage: a last chunk with no choices at all.
      sse({
        ...head,
        choices: [],
        usage: { prompt_tokens: request.prompt.split(/\s+/).length, completion_tokens: count, total_tokens: count },
      }),
      'data: [DONE]\n\n',
    ],
    error: (message) => [sse({ error: { message, type: 'server_error', param: null, code: null } })],
  };
}

function googleStream(framing: Framing, request: StyledRequest): StreamFramer {
  const responseId = randomBytes(9).toString('base64url');
  const piece = (parts: unknown[], finish?: string): Record<string, unknown> => ({
    candidates: [{ content: { role: 'model', parts }, ...(finish ? { finishReason: finish } : {}), index: 0 }],
    usageMetadata: { promptTokenCount: request.prompt.split(/\s+/).length },
    modelVersion: request.modelName,
    responseId,
  });
  if (framing === 'text') {
    // streamGenerateContent's default: one JSON array, its elements pretty-printed over many lines.
    let first = true;
    const element = (o: unknown): string => {
      const text = `${first ? '[' : '\n,\r\n'}${JSON.stringify(o, null, 2)}`;
      first = false;
      return text;
    };
    return {
      contentType: 'application/json; charset=UTF-8',
      open: () => [],
      token: (text, _i, _n, thinking) => [element(piece([thinking ? { text, thought: true } : { text }]))],
      close: () => [element(piece([{ text: '' }], 'STOP')), '\n]'],
      error: (message) => [element({ error: { code: 500, message, status: 'INTERNAL' } }), '\n]'],
    };
  }
  const line = framing === 'sse' ? (o: unknown) => `data: ${JSON.stringify(o)}\r\n\r\n` : (o: unknown) => `${JSON.stringify(o)}\n`;
  return {
    contentType: framing === 'sse' ? 'text/event-stream' : 'application/x-ndjson',
    open: () => [],
    token: (text, _i, _n, thinking) => [line(piece([thinking ? { text, thought: true } : { text }]))],
    // alt=sse ends when the body ends: no [DONE].
    close: () => [line(piece([{ text: '' }], 'STOP'))],
    error: (message) => [line({ error: { code: 500, message, status: 'INTERNAL' } })],
  };
}

function nestedStream(framing: Framing, request: StyledRequest): StreamFramer {
  const frame = framing === 'sse' ? (o: unknown) => `data: ${JSON.stringify(o)}\n\n` : (o: unknown) => `${JSON.stringify(o)}\n`;
  let seq = 0;
  let answerTokens = 0;
  return {
    contentType: framing === 'sse' ? 'text/event-stream; charset=utf-8' : 'application/x-ndjson',
    // The first event echoes the request, prompt and all.
    open: () => [frame({ seq: seq++, type: 'request', request: echo(request) })],
    token: (text, index, total, thinking) => {
      const frames: string[] = [];
      if (!thinking) {
        // Retrieval's sources come a third of the way into the answer.
        if (request.useRag && answerTokens === Math.floor((total - index + answerTokens) / 3)) {
          frames.push(frame({ seq: seq++, type: 'retrieval', sources: NESTED_SOURCES }));
        }
        answerTokens++;
      }
      // The token twice: at top level and inside the delta.
      frames.push(
        frame(
          thinking
            ? { seq: seq++, type: 'thinking', token: text, delta: { thinking: text } }
            : { seq: seq++, type: 'token', token: text, delta: { text } },
        ),
      );
      return frames;
    },
    close: () => [frame({ seq: seq++, type: 'end', finish: 'stop', tokens: String(answerTokens) })],
    error: (message) => [frame({ seq: seq++, type: 'error', problem: { status: '502', detail: message } })],
  };
}
