// The service client: one method per endpoint of spec/hosted-service-api.md. It speaks HTTP through
// http.ts and reads every answer through answerReading.ts's kinds, so callers only ever see typed results and ApiErrors.

import * as path from 'node:path';
import type { Readable } from 'node:stream';
import FormData from 'form-data';
import { CancelledError, ContractError, FileChangedError, RequestError } from './errors';
import { HttpClient, type CallOptions, type HttpConfig } from './http';
import { readStartedJob, type StartAnswer } from './startedJob';
import { MODEL_LIST } from './modelListReading';
import { readAnswer } from './answerReading';
import { readEvaluationStatus, readFinetuneStatus, type StatusReading } from './jobStatus';
import { endWordLearned } from './jobStatusLearning';
import { JobStatusMemory } from './jobStatusMemory';
import type { JobStatusPart, JobStatusProfile } from './profileFormat';
import type { ProfileBook } from './profileBook';
import type { StreamProfile } from './profileFormat';
import { decodeInferenceResult, type InferencePiece } from './answerText';
import { decodePieces } from './stream';
import { StreamReading } from './streamReading';
import { downloadArtifact, type DownloadOptions, type DownloadOutcome } from './download';
import { openUploadSource } from './uploadSource';
import type { EvaluationStatus, FinetuneStatus, InferenceRequest, ModelInfo, StartedJob } from './types';

export type { InferencePiece } from './answerText';

export const PATHS = {
  models: '/cr/get_allowed_models',
  infer: '/cr/provider_predict_platform_base_oss',
  finetuneStart: '/cr/generate_questions',
  finetuneStatus: '/cr/generate_questions_status',
  evaluateStart: '/cr/finetune_model/evaluate_async',
  evaluateStatus: '/cr/finetune_model/evaluate_status',
  download: '/cr/finetune_model/download',
} as const;

/** A source file as the checks saw it: the upload sends exactly `size` bytes or fails with FileChangedError. */
export interface UploadFile {
  /** Absolute path. */
  path: string;
  size: number;
  /** How the user knows the file, for messages; the base name when absent. */
  label?: string;
  /**
   * The folders (workspace folders) the file was checked to lie in: checked again on the opened file, right before the
   * upload (uploadSource.ts). Absent for a file the person named by its own path outside them, or a temp copy.
   */
  within?: readonly string[];
}

export interface FinetuneRequest {
  /** The source files (PDF, DOCX): absolute paths, or paths with the size that was checked. */
  files: (string | UploadFile)[];
  numQs: number;
  mode: string;
  modelName: string;
  /** The base model to tune. */
  modelType: string;
  useCase: string;
}

/** The job started, and the SHA-256 (hex) of each file as sent, in the order of `files`. */
export interface StartedFinetune extends StartedJob {
  /** Undefined for a file whose stream had not ended when the service answered (nothing then vouches for its bytes). */
  sha256: (string | undefined)[];
}

export interface UploadProgress {
  sent: number;
  total: number;
}

/**
 * A run's output as it comes: pieces of reasoning (`kind: 'reasoning'`) and of the answer (`kind: 'answer'`), in
 * order; neighbouring pieces may have the same kind. Breaking out of the loop aborts the request.
 */
export type InferencePieces = AsyncGenerator<InferencePiece, void, undefined>;

/** The whole of a run's output, reasoning and answer apart (tests, and callers that do not show it as it comes). */
export async function collectInference(pieces: AsyncIterable<InferencePiece>): Promise<{ reasoning: string; answer: string }> {
  let reasoning = '';
  let answer = '';
  for await (const p of pieces) {
    if (p.kind === 'reasoning') reasoning += p.text;
    else answer += p.text;
  }
  return { reasoning, answer };
}

/**
 * The pieces until the signal aborts: one already received (events arrive several to a chunk) is not given once the
 * person stopped the run, which would show text after Stop.
 */
async function* untilAborted<T>(pieces: AsyncIterable<T>, signal: AbortSignal | undefined): AsyncGenerator<T, void, undefined> {
  for await (const piece of pieces) {
    if (signal?.aborted) throw new CancelledError();
    yield piece;
  }
}

export class ServiceClient {
  readonly http: HttpClient;
  /** What each status endpoint's answers taught between polls (jobStatusMemory.ts). */
  private readonly statusMemory: Record<JobStatusPart, JobStatusMemory> = {
    finetuneStatus: new JobStatusMemory(),
    evaluationStatus: new JobStatusMemory(),
  };

  constructor(
    config: HttpConfig,
    /** The service's profile, kept for the origin this client talks to; without it every answer is inferred afresh. */
    private readonly profiles?: ProfileBook,
  ) {
    this.http = new HttpClient(config);
  }

  get baseUrl(): string {
    return this.http.base.href;
  }

  /** 4.1 */
  async listModels(opts: CallOptions = {}): Promise<ModelInfo[]> {
    const body = await this.http.getJson('Listing models', PATHS.models, undefined, opts);
    try {
      const { value: models, profile, change } = readAnswer(MODEL_LIST, body, this.profiles?.profile('modelList'), undefined);
      if (profile) this.profiles?.learned('modelList', { profile, change, body, samples: models.slice(0, 3).map((m) => m.name) });
      return models;
    } catch (error) {
      if (error instanceof ContractError) this.profiles?.unreadable('modelList', body);
      throw error;
    }
  }

  /**
   * 4.2: one run, streamed or not (`req.stream`), as typed pieces of reasoning and answer (see InferencePieces).
   * Reasoning is told apart whatever its form: a field beside the answer, an event type or channel of the stream,
   * or `<think>`-like tags opening the answer (answerText.ts). Silence is thinking, not a failure: the run waits for
   * its headers, for each byte of a stream and for a whole non-streamed answer up to `timeouts.answerWaitMs` (the
   * user's wait limit), never the shorter limits of other calls. Cancel with the signal or by leaving the loop; a
   * streamed answer's framing (SSE, NDJSON, plain text, or one JSON document) is read from the response, and its
   * text comes a piece per event, as it arrives.
   */
  async *infer(req: InferenceRequest, opts: CallOptions = {}): InferencePieces {
    const waitMs = this.http.timeouts.answerWaitMs;
    if (!req.stream) {
      const raw = await this.http.postJson('Inference', PATHS.infer, inferenceBody({ ...req, stream: false }), { ...opts, waitMs });
      // Read by the profile kept for the service's answers, else by one inferred from this answer, then kept.
      const known = this.profiles?.profile('answer');
      const reading = new StreamReading(known, [req.prompt, req.queryOnly], 'answer');
      const pieces = this.handOver(
        'answer',
        () => raw,
        () => decodeInferenceResult(raw, true, reading),
      );
      this.learnedAnswer('answer', reading, known, raw);
      yield* pieces;
      return;
    }
    const res = await this.http.stream(
      'Inference',
      {
        method: 'POST',
        url: this.http.url(PATHS.infer),
        data: JSON.stringify(inferenceBody({ ...req, stream: true })),
        headers: { 'Content-Type': 'application/json' },
      },
      { ...opts, waitMs, idempotent: false, accept: 'text/event-stream, application/x-ndjson, application/json, text/plain' },
    );
    // The events are read by the profile kept for the service, else by one inferred from this run's first events;
    // a run that inferred or changed it reports it (streamReading.ts). What the request sent marks an echo of it.
    const known = this.profiles?.profile('stream');
    const reading = new StreamReading(known, [req.prompt, req.queryOnly]);
    let unread = false;
    try {
      // A piece per event, never the text of several joined: VS Code passes a language-model provider's parts on when
      // 31 have gathered or none came for 30 ms, so fewer, larger parts would hold a fast stream's first token back
      // (test/bench figure 9).
      yield* this.handOverEach(
        'stream',
        () => reading.firstEvents(),
        untilAborted(decodePieces(res.body, { contentType: res.headers['content-type'], reading }), opts.signal),
      );
    } catch (error) {
      unread = error instanceof ContractError;
      throw error;
    } finally {
      res.abort();
      // A run handed over as unreadable stays so for Choose How to Read…: its events are not told as read.
      if (!unread) this.learnedAnswer('stream', reading, known, reading.firstEvents());
    }
  }

  /** What a run's reading learned, told to the book: the profile it changed, else the one it was read by. */
  private learnedAnswer(part: 'answer' | 'stream', reading: StreamReading, known: StreamProfile | undefined, body: unknown): void {
    const report = reading.report();
    const profile = report?.profile ?? known;
    if (profile) this.profiles?.learned(part, { profile, change: report?.change, body });
  }

  /** `read()`; an answer it cannot read is handed to the book (`body()`), and the error says a person can choose. */
  private handOver<T>(part: 'answer' | 'stream', body: () => unknown, read: () => T): T {
    try {
      return read();
    } catch (error) {
      throw this.unreadableAnswer(part, body, error);
    }
  }

  /** The pieces of a stream, handed over as handOver does when they cannot be read. */
  private async *handOverEach<T>(part: 'stream', body: () => unknown, pieces: AsyncIterable<T>): AsyncGenerator<T, void, undefined> {
    try {
      yield* pieces;
    } catch (error) {
      throw this.unreadableAnswer(part, body, error);
    }
  }

  private unreadableAnswer(part: 'answer' | 'stream', body: () => unknown, error: unknown): unknown {
    if (error instanceof ContractError && this.profiles) {
      const kept = body();
      // A stream refused before any event was parsed (its framing) leaves nothing to choose from.
      if (!(Array.isArray(kept) && kept.length === 0)) {
        this.profiles.unreadable(part, kept);
        error.choosable = part;
      }
    }
    return error;
  }

  /** 4.3: multipart, one `files` part per file, streamed from disk. Never retried: a duplicate job costs money. */
  async startFinetune(
    req: FinetuneRequest,
    opts: CallOptions & { onProgress?: (p: UploadProgress) => void } = {},
  ): Promise<StartedFinetune> {
    if (req.files.length === 0) throw new RequestError('Choose at least one file to finetune on.');
    const form = new FormData();
    const streams: Readable[] = [];
    const digests: (() => string | undefined)[] = [];
    // The first file found changed: its stream's error breaks the request, which then reads as a network failure.
    let changed: FileChangedError | undefined;
    try {
      for (const f of req.files) {
        const file: Partial<UploadFile> & { path: string } = typeof f === 'string' ? { path: f } : f;
        const { stream, size, sha256 } = await openUploadSource(file.path, file.label ?? path.basename(file.path), file.size, file.within);
        streams.push(stream);
        digests.push(sha256);
        stream.once('error', (e) => {
          if (e instanceof FileChangedError) changed ??= e;
        });
        form.append('files', stream, { filename: path.basename(file.path), contentType: contentTypeOf(file.path), knownLength: size });
      }
    } catch (e) {
      for (const s of streams) s.destroy();
      throw e;
    }
    form.append('numQs', String(req.numQs));
    form.append('mode', req.mode);
    form.append('modelName', req.modelName);
    form.append('modelType', req.modelType);
    form.append('use_case', req.useCase);
    const total = form.getLengthSync();
    try {
      const answer = await this.http.upload(
        'Starting the finetuning job',
        PATHS.finetuneStart,
        form,
        { ...form.getHeaders(), 'Content-Length': String(total) },
        { signal: opts.signal, onProgress: (sent) => opts.onProgress?.({ sent: Math.min(sent, total), total }) },
      );
      const names = req.files.map((f) => path.basename(typeof f === 'string' ? f : f.path));
      const sent = [req.modelName, req.modelType, req.mode, req.useCase, String(req.numQs), ...names];
      return { ...this.readStarted('finetune', answer.body, { ...answer, sent }), sha256: digests.map((d) => d()) };
    } catch (e) {
      throw changed ?? e;
    } finally {
      // A cancelled or failed upload must not leave file handles open.
      for (const s of streams) s.destroy();
    }
  }

  /** 4.4 */
  async getFinetuneStatus(jobId: string, opts: CallOptions = {}): Promise<FinetuneStatus> {
    const raw = await this.http.getJson('Checking the finetuning job', PATHS.finetuneStatus, { job_id: jobId }, opts);
    return this.readStatus('finetuneStatus', jobId, raw, readFinetuneStatus);
  }

  /** 4.5 */
  async startEvaluation(modelName: string, datasetName: string, opts: CallOptions = {}): Promise<StartedJob> {
    const answer = await this.http.post(
      'Starting the evaluation',
      PATHS.evaluateStart,
      { dataset_name: datasetName, model_name: modelName },
      opts,
    );
    return this.readStarted('evaluation', answer.body, { ...answer, sent: [modelName, datasetName] });
  }

  /** A start answer read where the kept profile says the id is (inferred again when it no longer fits, and kept). */
  private readStarted(kind: 'finetune' | 'evaluation', body: unknown, answer: StartAnswer): StartedJob {
    const { status, location, sent } = answer;
    const context = { kind, answer: { status, location, sent } };
    let reading;
    const kept = this.profiles?.profile('startedJob');
    try {
      reading = readStartedJob(body, answer, kept?.[kind], kept?.by);
    } catch (error) {
      // The job may well exist: the answer goes to the book, for the person to say where its id is.
      if (error instanceof ContractError) this.profiles?.unreadable('startedJob', body, context);
      throw error;
    }
    const { job, from, change } = reading;
    // Only this endpoint's place: the book keeps the other one's as it is.
    const by = change === undefined && kept ? kept.by : 'inferred';
    this.profiles?.learned('startedJob', { profile: { [kind]: from, by }, change, body, context });
    return job;
  }

  /** 4.6 */
  async getEvaluationStatus(jobId: string, opts: CallOptions = {}): Promise<EvaluationStatus> {
    const raw = await this.http.getJson('Checking the evaluation', PATHS.evaluateStatus, { job_id: jobId }, opts);
    return this.readStatus('evaluationStatus', jobId, raw, readEvaluationStatus);
  }

  /**
   * A job ended otherwise (a finetune's made model was listed) while its status said `word`, which nothing reads: the
   * word is learned as an end in the kept profile (jobStatusLearning.ts), so the next job that says it ends at once.
   */
  learnEndWord(kind: 'finetune' | 'evaluation', word: string): void {
    const part: JobStatusPart = kind === 'finetune' ? 'finetuneStatus' : 'evaluationStatus';
    const known = this.profiles?.profile(part);
    const learned = known && endWordLearned(kind === 'finetune' ? 'finetuneStatus' : 'evaluationStatus', known, word);
    if (learned) this.profiles?.learned(part, learned);
  }

  /**
   * A status read by the kept profile (with what the endpoint's earlier answers taught), and what it learned told to
   * the book; one nothing could read is handed to the book first, for the person to choose how to read it.
   */
  private readStatus<T>(
    part: JobStatusPart,
    jobId: string,
    body: unknown,
    read: (jobId: string, body: unknown, known?: JobStatusProfile, memory?: JobStatusMemory) => StatusReading<T>,
  ): T {
    let reading: StatusReading<T>;
    try {
      reading = read(jobId, body, this.profiles?.profile(part), this.statusMemory[part]);
    } catch (error) {
      if (error instanceof ContractError) this.profiles?.unreadable(part, body, { jobId });
      throw error;
    }
    this.profiles?.learned(part, { profile: reading.profile, change: reading.change, body, context: { jobId } });
    return reading.status;
  }

  /** 4.7: resolves the redirect or signed-URL metadata and streams the artifact into `options.directory`. */
  async download(modelName: string, options: DownloadOptions): Promise<DownloadOutcome> {
    return downloadArtifact(this.http, modelName, options, this.profiles);
  }
}

function inferenceBody(req: InferenceRequest): Record<string, unknown> {
  return {
    prompt: req.prompt,
    query_only: req.queryOnly ?? req.prompt,
    model_name: req.modelName,
    stream: req.stream,
    use_rag: req.useRag,
    sequential_budget: req.sequentialBudget,
    parallel_budget: req.parallelBudget,
    temperature: req.temperature,
  };
}

function contentTypeOf(file: string): string {
  const ext = path.extname(file).toLowerCase();
  if (ext === '.pdf') return 'application/pdf';
  if (ext === '.docx') return 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
  return 'application/octet-stream';
}
