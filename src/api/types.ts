// Typed results of the service client. The rest of the extension sees these, never raw JSON or axios.

export type ModelKind = 'base' | 'custom' | 'unknown';

export interface ModelInfo {
  name: string;
  /** 'unknown' when the answer does not say (e.g. a bare list of names). */
  kind: ModelKind;
  baseModel?: string;
  createdAt?: string;
  /**
   * The record's other identifiers of the same model (a short name beside a resource name `models/…`, a long provider
   * id beside a display name): shown in the tooltip, and a name asked for matches any of them (modelIdentifiers.ts).
   */
  otherNames?: string[];
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

export type JobState = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled' | 'unknown';

export interface FinetuneStatus {
  jobId: string;
  state: JobState;
  /** The word the service used, verbatim (shown when `state` is 'unknown'). */
  rawState?: string;
  /** 0..100 when the answer has it. */
  progress?: number;
  /** The phase word the service said beside its state word (`tokenizing`), verbatim (capped): not a sentence. */
  stage?: string;
  message?: string;
  error?: string;
  /** The model the job made, as the service names it (it may differ from the name asked for). */
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
  /** 0..100 when the answer has it: the spec (4.6) shows none, some services say it (as for a finetune). */
  progress?: number;
  /** The phase word beside the state word, as for a finetune. */
  stage?: string;
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
  /** Checksums the answer announces, in lower-case hex: the downloader verifies the strongest (checksum.ts). */
  sha256?: string;
  md5?: string;
  crc32c?: string;
  fileName?: string;
}

export function isTerminal(state: JobState): boolean {
  return state === 'completed' || state === 'failed' || state === 'cancelled';
}

/** Longer ids are refused: an id is stored, shown and sent back in every poll, so a megabyte id would cost each time. */
export const MAX_JOB_ID_LENGTH = 256;

/** A job id the extension can store, show and send back: non-empty, not overlong, no control characters. */
export function isUsableJobId(id: unknown): id is string {
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  const control = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
  return typeof id === 'string' && id.trim() !== '' && id.length <= MAX_JOB_ID_LENGTH && !control.test(id);
}

/** Service text kept in a job record (message, error): each record is rewritten at every poll and loaded by every window. */
export const MAX_SERVICE_TEXT = 2_000;
/** A state word longer than this is not a word: the rest is cut. */
export const MAX_STATE_WORD_LENGTH = 64;

/** `text` cut to `max` characters (the last one an ellipsis) when longer: what is kept of service text. */
export function capText(text: string, max = MAX_SERVICE_TEXT): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** A service word as a person reads it: `validating_files` -> "Validating files". */
export function humanise(word: string): string {
  const spaced = word
    .trim()
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_\-.\s]+/g, ' ')
    .toLowerCase();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}
