// Typed results of the service client. The rest of the extension sees these, never raw JSON or axios.

export type ModelKind = 'base' | 'custom' | 'unknown';

export interface ModelInfo {
  name: string;
  /** 'unknown' when the answer does not say (e.g. a bare list of names). */
  kind: ModelKind;
  baseModel?: string;
  createdAt?: string;
  raw: unknown;
}

export interface InferenceRequest {
  prompt: string;
  /** Defaults to the prompt, as the spec's documented usage. */
  queryOnly?: string;
  modelName: string;
  stream: boolean;
  useRag: boolean;
  sequentialBudget: number;
  parallelBudget: number;
  temperature: number;
}

export interface InferenceResult {
  text: string;
  /** The decoded body (or the raw text when it was not JSON), kept for the log and for "show raw". */
  raw: unknown;
}

export type JobState = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled' | 'unknown';

export interface FinetuneStatus {
  jobId: string;
  state: JobState;
  /** The word the service used, verbatim (shown when `state` is 'unknown'). */
  rawState?: string;
  /** 0..100 when the answer has it. */
  progress?: number;
  message?: string;
  error?: string;
  modelName?: string;
  raw: unknown;
}

export interface EvaluationResult {
  datasetName: string;
  modelName: string;
  split?: string;
  correct: number;
  total: number;
  /** Fraction 0..1. */
  accuracy: number;
  judgeModel?: string;
}

export interface EvaluationStatus {
  jobId: string;
  state: JobState;
  rawState?: string;
  result?: EvaluationResult;
  error?: string;
  raw: unknown;
}

export interface StartedJob {
  jobId: string;
  raw: unknown;
}

/** What the download endpoint told us, before anything is fetched. */
export interface DownloadTarget {
  /** Where the artifact is: a signed URL on another origin, or undefined when the API answered the bytes itself. */
  url?: string;
  expiresAt?: number;
  size?: number;
  sha256?: string;
  fileName?: string;
}

export function isTerminal(state: JobState): boolean {
  return state === 'completed' || state === 'failed' || state === 'cancelled';
}
