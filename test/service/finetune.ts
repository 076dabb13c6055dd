// POST /cr/generate_questions and GET /cr/generate_questions_status: validation of the multipart form, then a job
// that walks queued -> extracting -> generating -> training -> completed (or failed), doing real text extraction in
// the extracting phase and writing a real GGUF artifact before it completes.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createCustomModel } from './artifacts';
import { extractText, kindFromName, verifyDocument, type DocumentKind } from './documents';
import { sendDetail, sendJson, sendStarted, sendValidation, sleep, type ValidationIssue } from './http-util';
import { customModelsOf, keyConfig, isBaseModel, modelNamed } from './keys';
import { ownerId } from './storage';
import { jobIdFromQuery, madeModelName, newFinetuneJobId, styledFinetuneStart, styledFinetuneStatus, type StyledJob } from './styles';
import { ClientGone, receiveMultipart, UploadError } from './multipart';
import type { State } from './types';

/** Choices for what the spec leaves open. */
export const NUM_QS_MIN = 1;
export const NUM_QS_MAX = 1000;
export const MODES = ['pretraining', 'qa'] as const;
export const MODEL_NAME_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;
export const USE_CASE_MAX_CHARS = 2000;

export type FinetuneStatus = 'queued' | 'extracting' | 'generating' | 'training' | 'completed' | 'failed';

interface JobFile {
  name: string;
  path: string;
  kind: DocumentKind;
  size: number;
}

export interface FinetuneJob {
  id: string;
  key: string;
  modelName: string;
  baseModel: string;
  numQs: number;
  mode: string;
  useCase?: string;
  files: JobFile[];
  uploadDir: string;
  status: FinetuneStatus;
  createdAt: number;
  updatedAt: number;
  /** When the current phase started and how long it is planned to last (progress is computed at poll time). */
  phaseStart: number;
  phaseMs: number;
  /** Training is done and the artifact is being written. */
  exporting: boolean;
  extractedChars: number;
  progressAtFailure?: number;
  message?: string;
  error?: string;
  /** The name the service gave the model it made, when it differs from the one asked for (renameTunedModels). */
  tunedModel?: string;
  /** The name a styled service (option `shape`) publishes the model under, chosen at the start. */
  styledName?: string;
}

/** Share of finetuneDurationMs per phase. */
const PHASE_SHARE = { queued: 0.1, extracting: 0.15, generating: 0.4, training: 0.35 };
/** Progress (percent) at the start of each phase. */
const PHASE_BASE = { queued: 0, extracting: 2, generating: 15, training: 60, completed: 100 };

function required(fields: Map<string, string>, name: string, issues: ValidationIssue[]): string | undefined {
  const v = fields.get(name);
  if (v === undefined) {
    issues.push({ type: 'missing', loc: ['body', name], msg: 'Field required', input: null });
  }
  return v;
}

export async function handleGenerateQuestions(state: State, key: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const contentType = req.headers['content-type'] ?? '';
  if (!/^multipart\/form-data/i.test(contentType)) {
    // FastAPI reads the form fields as missing when the body is not a form.
    req.resume();
    sendValidation(
      res,
      ['files', 'numQs', 'modelName', 'modelType'].map((f) => ({ type: 'missing', loc: ['body', f], msg: 'Field required', input: null })),
    );
    return;
  }
  const uploadDir = join(state.options.dataDir, 'uploads', randomUUID());
  await mkdir(uploadDir, { recursive: true });
  // Retried: after a refused upload (413) the part files' streams may still be opening files in the folder while it is
  // removed, and rm then meets a folder that is not empty (ENOTEMPTY): a 500 instead of the 413, seen on a loaded machine.
  const cleanup = (): Promise<void> => rm(uploadDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 20 });

  let upload;
  try {
    upload = await receiveMultipart(req, uploadDir);
  } catch (err) {
    await cleanup();
    if (err instanceof UploadError) {
      sendDetail(res, err.status, err.detail);
    } else if (!(err instanceof ClientGone)) {
      sendDetail(res, 400, 'There was an error parsing the body');
    }
    return; // ClientGone: nobody to answer, and no job is created
  }

  const reject = async (send: () => void): Promise<void> => {
    await cleanup();
    send();
  };

  // 1. Form fields (FastAPI 422 list shape).
  const issues: ValidationIssue[] = [];
  const { fields, files } = upload;
  if (files.length === 0) {
    issues.push(
      upload.filesWithoutName > 0
        ? { type: 'value_error', loc: ['body', 'files', 0], msg: "Value error, Expected UploadFile, received: <class 'str'>" }
        : { type: 'missing', loc: ['body', 'files'], msg: 'Field required', input: null },
    );
  }
  const numQsRaw = required(fields, 'numQs', issues);
  let numQs = 0;
  if (numQsRaw !== undefined) {
    if (!/^\s*-?\d+\s*$/.test(numQsRaw)) {
      issues.push({
        type: 'int_parsing',
        loc: ['body', 'numQs'],
        msg: 'Input should be a valid integer, unable to parse string as an integer',
        input: numQsRaw,
      });
    } else {
      numQs = Number(numQsRaw);
      if (numQs < NUM_QS_MIN) {
        issues.push({
          type: 'greater_than_equal',
          loc: ['body', 'numQs'],
          msg: `Input should be greater than or equal to ${NUM_QS_MIN}`,
          input: numQsRaw,
          ctx: { ge: NUM_QS_MIN },
        });
      } else if (numQs > NUM_QS_MAX) {
        issues.push({
          type: 'less_than_equal',
          loc: ['body', 'numQs'],
          msg: `Input should be less than or equal to ${NUM_QS_MAX}`,
          input: numQsRaw,
          ctx: { le: NUM_QS_MAX },
        });
      }
    }
  }
  const mode = fields.get('mode') ?? 'pretraining';
  if (!(MODES as readonly string[]).includes(mode)) {
    issues.push({
      type: 'literal_error',
      loc: ['body', 'mode'],
      msg: `Input should be ${MODES.map((m) => `'${m}'`).join(' or ')}`,
      input: mode,
      ctx: { expected: MODES.map((m) => `'${m}'`).join(' or ') },
    });
  }
  const modelName = required(fields, 'modelName', issues);
  if (modelName !== undefined && !MODEL_NAME_PATTERN.test(modelName)) {
    issues.push({
      type: 'string_pattern_mismatch',
      loc: ['body', 'modelName'],
      msg: `String should match pattern '${MODEL_NAME_PATTERN.source}'`,
      input: modelName,
      ctx: { pattern: MODEL_NAME_PATTERN.source },
    });
  }
  const askedType = required(fields, 'modelType', issues);
  const modelType = askedType === undefined ? undefined : modelNamed(state, key, askedType);
  if (modelType !== undefined && !isBaseModel(state, key, modelType)) {
    const allowed = keyConfig(state, key).models;
    issues.push({
      type: 'value_error',
      loc: ['body', 'modelType'],
      msg: `Value error, unknown base model '${modelType}'; this key can tune: ${allowed.join(', ')}`,
      input: modelType,
    });
  }
  const useCase = fields.get('use_case');
  if (useCase !== undefined && useCase.length > USE_CASE_MAX_CHARS) {
    issues.push({
      type: 'string_too_long',
      loc: ['body', 'use_case'],
      msg: `String should have at most ${USE_CASE_MAX_CHARS} characters`,
      ctx: { max_length: USE_CASE_MAX_CHARS },
    });
  }
  if (issues.length > 0 || modelName === undefined || modelType === undefined) {
    await reject(() => sendValidation(res, issues));
    return;
  }

  // 2. Files: supported type by extension, then contents matching the name.
  const jobFiles: JobFile[] = [];
  for (const file of files) {
    const kind = kindFromName(file.originalName);
    if (!kind) {
      const dot = file.originalName.lastIndexOf('.');
      const ext = dot < 0 ? '(none)' : file.originalName.slice(dot);
      await reject(() =>
        sendDetail(res, 415, `Unsupported file type '${ext}' for '${file.originalName}': only .pdf and .docx are accepted`),
      );
      return;
    }
    if (file.size === 0) {
      await reject(() => sendDetail(res, 422, `File '${file.originalName}' is empty`));
      return;
    }
    const problem = await verifyDocument(file.originalName, kind, file.storedPath, file.head);
    if (problem) {
      await reject(() => sendDetail(res, 422, problem));
      return;
    }
    jobFiles.push({ name: file.originalName, path: file.storedPath, kind, size: file.size });
  }

  // 3. Conflicts.
  const conflict = conflictFor(state, key, modelName);
  if (conflict) {
    await reject(() => sendDetail(res, 409, conflict));
    return;
  }

  const now = Date.now();
  const job: FinetuneJob = {
    id: newFinetuneJobId(state.options.shape, randomUUID()),
    key,
    modelName,
    baseModel: modelType,
    numQs,
    mode,
    useCase,
    files: jobFiles,
    uploadDir,
    status: 'queued',
    createdAt: now,
    updatedAt: now,
    phaseStart: now,
    phaseMs: state.options.finetuneDurationMs * PHASE_SHARE.queued,
    exporting: false,
    extractedChars: 0,
  };
  job.styledName = madeModelName(state.options.shape, job);
  state.finetuneJobs.set(job.id, job);
  const styled = styledFinetuneStart(state.options.shape, styledJob(job), organization(state, key));
  if (styled !== undefined) {
    sendJson(res, 200, styled);
  } else {
    sendStarted(res, state.options.answerShapes.start, job.id, '/cr/generate_questions_status');
  }
  void runJob(state, job);
}

function conflictFor(state: State, key: string, modelName: string): string | undefined {
  // A style that names the made model after the asked name alone (nested-phase's `<name>.v1`) conflicts on that name too.
  const made = madeModelName(state.options.shape, { id: '', modelName, baseModel: '' });
  if (
    customModelsOf(state, key).has(modelName) ||
    isBaseModel(state, key, modelName) ||
    (made !== undefined && customModelsOf(state, key).has(made))
  ) {
    return `Model '${modelName}' already exists`;
  }
  for (const job of state.finetuneJobs.values()) {
    if (job.key === key && job.modelName === modelName && job.status !== 'failed' && job.status !== 'completed') {
      return `A job creating model '${modelName}' is already running (job ${job.id})`;
    }
  }
  return undefined;
}

function enterPhase(state: State, job: FinetuneJob, status: FinetuneStatus): void {
  const now = Date.now();
  job.status = status;
  job.phaseStart = now;
  job.updatedAt = now;
  job.phaseMs = status in PHASE_SHARE ? state.options.finetuneDurationMs * PHASE_SHARE[status as keyof typeof PHASE_SHARE] : 0;
}

/** How often a sleeping phase looks whether it is rushed (rushFinetunes). */
const RUSH_CHECK_MS = 100;

/**
 * Sleeps until the current phase's planned end (sooner once the jobs are rushed: rushFinetunes), and on while the jobs
 * are held (holdFinetunes).
 */
async function phaseEnd(state: State, job: FinetuneJob): Promise<void> {
  for (;;) {
    const left = job.phaseStart + job.phaseMs - Date.now();
    if (left <= 0 || state.options.rushFinetunes || state.closed) {
      break;
    }
    await sleep(Math.min(left, RUSH_CHECK_MS));
  }
  while (state.options.holdFinetunes && !state.closed) {
    await sleep(50);
  }
}

async function runJob(state: State, job: FinetuneJob): Promise<void> {
  const fail = (error: string): void => {
    job.progressAtFailure = progressOf(job);
    job.status = 'failed';
    job.error = error;
    job.message = 'Job failed';
    job.updatedAt = Date.now();
  };
  try {
    await phaseEnd(state, job);
    if (state.closed) {
      return;
    }
    enterPhase(state, job, 'extracting');
    for (const file of job.files) {
      try {
        const result = await extractText(file.kind, file.path);
        job.extractedChars += result.text.length;
      } catch (err) {
        fail(`${file.name}: ${err instanceof Error ? err.message : String(err)}`);
        return;
      }
      if (state.closed) {
        return;
      }
    }
    await phaseEnd(state, job);
    enterPhase(state, job, 'generating');
    await phaseEnd(state, job);
    if (state.closed) {
      return;
    }
    enterPhase(state, job, 'training');
    await phaseEnd(state, job);
    if (state.closed) {
      return;
    }
    job.exporting = true;
    job.updatedAt = Date.now();
    const made =
      job.styledName ?? (state.options.renameTunedModels ? `ft:${job.baseModel}:${job.modelName}:${job.id.slice(0, 8)}` : job.modelName);
    await createCustomModel(state, job.key, made, job.baseModel, state.options.artifactBytes);
    if (made !== job.modelName) {
      job.tunedModel = made;
    }
    job.status = 'completed';
    job.updatedAt = Date.now();
  } catch (err) {
    if (!state.closed) {
      fail(`internal error: ${err instanceof Error ? err.message : String(err)}`);
    }
  } finally {
    // The uploads are only needed for extraction; large benchmark files should not pile up on disk.
    await rm(job.uploadDir, { recursive: true, force: true }).catch(() => undefined);
  }
}

function fraction(job: FinetuneJob): number {
  if (job.phaseMs <= 0) {
    return 1;
  }
  return Math.min(1, Math.max(0, (Date.now() - job.phaseStart) / job.phaseMs));
}

function progressOf(job: FinetuneJob): number {
  switch (job.status) {
    case 'queued':
      return 0;
    case 'extracting':
      // Capped below the next phase: extraction may outlast its planned share.
      return Math.floor(PHASE_BASE.extracting + 0.9 * fraction(job) * (PHASE_BASE.generating - PHASE_BASE.extracting));
    case 'generating':
      return Math.floor(PHASE_BASE.generating + fraction(job) * (PHASE_BASE.training - PHASE_BASE.generating));
    case 'training':
      return job.exporting ? 99 : Math.min(98, Math.floor(PHASE_BASE.training + fraction(job) * (99 - PHASE_BASE.training)));
    case 'completed':
      return 100;
    case 'failed':
      return job.progressAtFailure ?? 0;
  }
}

function messageOf(job: FinetuneJob): string {
  const generated = (f: number): string => `Generated ${Math.floor(f * job.numQs)}/${job.numQs} questions`;
  switch (job.status) {
    case 'queued':
      return 'Waiting for a worker';
    case 'extracting':
      return `Extracting text from ${job.files.length} file${job.files.length === 1 ? '' : 's'}`;
    case 'generating':
      return generated(fraction(job));
    case 'training':
      return job.exporting
        ? `${generated(1)}; exporting GGUF artifact`
        : `${generated(1)}; training LoRA adapter on ${job.baseModel} (step ${Math.floor(fraction(job) * 100)}/100)`;
    case 'completed':
      return `${generated(1)}; model '${job.tunedModel ?? job.modelName}' is ready`;
    case 'failed':
      return job.message ?? 'Job failed';
  }
}

/** The status record (spec: not shown). */
export function jobView(job: FinetuneJob, progress: 'percent' | 'counts' = 'percent'): Record<string, unknown> {
  const active = job.status !== 'completed' && job.status !== 'failed' && job.status !== 'queued';
  const view: Record<string, unknown> = {
    job_id: job.id,
    status: job.status,
    // Counts: steps done of a thousand, beside the questions (the decoder takes the pair with the larger total).
    ...(progress === 'counts' ? { steps_done: Math.round(progressOf(job) * 10), steps_total: 1000 } : { progress: progressOf(job) }),
    message: messageOf(job),
    model_name: job.modelName,
    base_model: job.baseModel,
    mode: job.mode,
    num_questions: job.numQs,
    questions_generated:
      job.status === 'completed' || job.status === 'training'
        ? job.numQs
        : job.status === 'generating'
          ? Math.floor(fraction(job) * job.numQs)
          : 0,
    files: job.files.map((f) => f.name),
    created_at: new Date(job.createdAt).toISOString(),
    updated_at: new Date(active ? Date.now() : job.updatedAt).toISOString(),
  };
  if (job.status === 'failed') {
    view.error = job.error;
  }
  if (job.status === 'completed' && job.tunedModel !== undefined) {
    view.fine_tuned_model = job.tunedModel;
  }
  return view;
}

export function handleFinetuneStatus(state: State, key: string, res: ServerResponse, query: URLSearchParams): void {
  const id = query.get('job_id');
  if (id === null || id === '') {
    sendValidation(res, [{ type: 'missing', loc: ['query', 'job_id'], msg: 'Field required', input: null }]);
    return;
  }
  const job = state.finetuneJobs.get(jobIdFromQuery(state.options.shape, id));
  if (!job || job.key !== key) {
    // Someone else's job is indistinguishable from no job: ids must not leak across keys.
    sendDetail(res, 404, `Job '${id}' not found`);
    return;
  }
  const styled = styledFinetuneStatus(state.options.shape, styledJob(job), progressOf(job), organization(state, job.key));
  sendJson(res, 200, styled ?? jobView(job, state.options.answerShapes.progress));
}

function organization(state: State, key: string): string {
  return `org-${ownerId(state, key).slice(0, 12)}`;
}

function styledJob(job: FinetuneJob): StyledJob {
  return { ...job, madeName: job.styledName ?? job.tunedModel ?? job.modelName };
}

/** The model a finished job made, by the id its client was given (Emulator.madeModel). */
export function madeModelOf(state: State, jobId: string): string | undefined {
  const job = state.finetuneJobs.get(jobId) ?? state.finetuneJobs.get(jobId.replace(/^operations\//, ''));
  return job?.status === 'completed' ? (job.tunedModel ?? job.modelName) : undefined;
}
