// Shared types of the emulator. Public ones are re-exported from emulator.ts (the module other engineers import);
// they live here so the route modules can use them without importing emulator.ts (no import cycles).
import type { FaultTable } from './faults';
import type { Recorder } from './recorder';
import type { FinetuneJob } from './finetune';
import type { EvaluationJob } from './evaluation';
import type { ServiceShape } from './styles';

/** How a key's GET /cr/get_allowed_models body is shaped (the spec does not show it; clients must cope with all). */
export type ModelListShape =
  | 'strings'
  | 'objects-name'
  | 'objects-model_name'
  | 'objects-id'
  | 'objects-model'
  | 'wrapped-models'
  | 'wrapped-allowed_models'
  | 'wrapped-data'
  // Shapes no key name of the spec's era fits (issue 20): read by structure, or (the last) not at all.
  | 'grouped-by-kind' // {"foundation_models": [...], "yourModels": [...]}
  | 'nested-handles' // {"payload": {"catalogue": [{"handle", "owner", "flavour", "derived_from"}]}}
  | 'nested-results' // {"results": {"items": [{"model": {"id", "tier": "foundation"|"fine-tuned"}}]}} (issue 27)
  | 'resource-names' // {"models": [{"name": "accounts/emulator/models/m-<hash>", "model_id": "<its name>"}]} (issue 36)
  | 'two-lists' // {"available": {"items": [...]}, "featured": {"items": [...]}}: the same models twice, read two ways
  | 'unreadable'; // a 200 that lists nothing readable: {"catalogue": "see the documentation"}

export type Framing = 'sse' | 'ndjson' | 'text';

/**
 * How an answer carries the model's reasoning (written before the answer):
 *  - 'none': no reasoning;
 *  - 'inline': `<think>…</think>` opening the answer text (every framing; non-streamed in `response`);
 *  - 'field': a field beside the answer (`{"reasoning": "…"}` events; non-streamed `{"reasoning", "response"}`);
 *  - 'event': its own event type or channel (SSE `event: reasoning`; NDJSON `{"channel": "analysis", "token"}` beside
 *    `{"channel": "final", …}`; non-streamed content blocks `[{type: "reasoning", text}, {type: "text", text}]`).
 * Plain-text streams have no fields or events: 'field' and 'event' fall back to 'inline' there.
 */
export type ReasoningForm = 'none' | 'inline' | 'field' | 'event';
export const REASONING_FORMS: readonly ReasoningForm[] = ['none', 'inline', 'field', 'event'];

export interface KeyConfig {
  /** Base models this key may use. Custom models created by the key's finetune jobs are added at runtime. */
  models: string[];
  modelListShape?: ModelListShape;
  framing?: Framing;
}

export interface DatasetConfig {
  total: number;
  /** When set, every model scores exactly round(total * correctRatio): predictable numbers for tests. */
  correctRatio?: number;
  /**
   * Per model name, the ratio that model scores (round(total * ratio)), ahead of correctRatio: lets a test make a tuned
   * model beat its base on one dataset and lose on another.
   */
  scores?: Record<string, number>;
  /** The judge that scores this dataset (default JUDGE_MODEL): lets a test make two datasets' judges differ. */
  judgeModel?: string;
}

export type RedirectStatus = 301 | 302 | 303 | 307 | 308;

/** Which checksum header the storage origin sends with an artifact, the way a real store does (checksums.ts). */
export type StorageChecksum =
  | 'none'
  | 'x-checksum-sha256' // hex
  | 'x-checksum-sha256-base64'
  | 'x-amz-checksum-sha256' // S3 with checksum mode
  | 'repr-digest' // RFC 9530 sha-256
  | 'digest' // RFC 3230 SHA-256
  | 'digest-md5' // RFC 3230 MD5
  | 'x-goog-hash' // GCS: crc32c and md5
  | 'x-goog-hash-crc32c' // GCS composite object: crc32c only
  | 'content-md5';

export const STORAGE_CHECKSUMS: readonly StorageChecksum[] = [
  'none',
  'x-checksum-sha256',
  'x-checksum-sha256-base64',
  'x-amz-checksum-sha256',
  'repr-digest',
  'digest',
  'digest-md5',
  'x-goog-hash',
  'x-goog-hash-crc32c',
  'content-md5',
];

export interface EmulatorOptions {
  host?: string;
  /**
   * Serve both origins over HTTPS with this certificate (PEM) instead of plain HTTP: proxy tests (a CONNECT tunnel per
   * request, as for a real https service) and private certificate authorities. Fixed once started.
   */
  tls?: { key: string; cert: string };
  /**
   * The host name in the URLs the emulator gives out (`url`, `storageUrl`, signed URLs) when it is not `host`: a name
   * that only something else resolves to `host` (a proxy test's proxy). Fixed once started.
   */
  advertisedHost?: string;
  /** How long an idle kept-alive connection stays open, ms (Node's default 5,000; real services keep them ~60 s). */
  keepAliveTimeoutMs?: number;
  port?: number;
  storagePort?: number;
  keys?: Record<string, KeyConfig>;
  datasets?: Record<string, DatasetConfig>;
  /**
   * Streamed answers: one token every this many ms on average (fractions allowed: 0.5 = 2,000 tokens/s). Tokens are due
   * on a schedule from the stream's start; each timer tick writes every token due, so rates above one per ms hold.
   * 0: one token per turn of the event loop.
   */
  tokenIntervalMs?: number;
  finetuneDurationMs?: number;
  /**
   * While true, no finetune job leaves its phase (a step that must see a job running for as long as it needs, however
   * slow the machine); set it false again and the jobs go on. Default false.
   */
  holdFinetunes?: boolean;
  /**
   * Every phase of every running finetune ends at once (and the next ones too) while true, however long it was planned:
   * a test that has seen what it needs of a long job lets it finish without waiting it out. Default false.
   */
  rushFinetunes?: boolean;
  /**
   * A finished finetune job names the model it made itself, as OpenAI does (`ft:<base>:<asked name>:<job>`), in a
   * `fine_tuned_model` field of its status; the model is listed, evaluated and downloaded under that name only.
   * Default false: the model gets the name asked for.
   */
  renameTunedModels?: boolean;
  evaluationDurationMs?: number;
  /**
   * While true, no evaluation past its queued start ends: it answers `running` however long it has run (a test that
   * must see an evaluation running for as long as it needs, however slow the machine); set it false again and each
   * ends as its duration says (at once, if that has passed). Default false.
   */
  holdEvaluations?: boolean;
  /**
   * When 0 or more: that many more inference requests are answered (each one answered counts it down), then every later
   * one waits, sending nothing, until this is set to -1 again or its client goes away (a test that must see a run of
   * many requests part done for as long as it needs, however slow the machine). Default -1: no hold.
   */
  holdInferenceAfter?: number;
  /**
   * How job answers are shaped (the spec shows none): a start's job id at top level (`flat`, default), nested two
   * levels down (`nested`), or only in the Location header of a 202 with an empty body (`location`); a finetune's
   * progress as a percentage (`percent`, default) or as counts of questions done of total (`counts`).
   */
  answerShapes?: { start?: 'flat' | 'nested' | 'location' | 'two-ids'; progress?: 'percent' | 'counts' };
  /**
   * The whole service's style (styles.ts): every body the spec leaves "not shown" (model list, finetune start and
   * status, inference answers and streams, download answer, error bodies, the evaluation's extra fields and error)
   * written the way one family of public APIs writes them. 'default' (the default) is this emulator's own style, and
   * only there do `modelListShape`, `answerShapes`, `reasoning`'s forms and `renameTunedModels` shape the bodies.
   */
  shape?: ServiceShape;
  artifactBytes?: number;
  downloadMode?: 'redirect' | 'metadata';
  redirectStatus?: RedirectStatus;
  signedUrlTtlMs?: number;
  /** The checksum header the storage origin sends with artifacts (default 'none'). */
  storageChecksum?: StorageChecksum;
  responseText?: string;
  /**
   * What each model named here answers to every prompt (over responseText): a comparison between models then has
   * questions one model gets right and the other wrong. Models not named answer as before.
   */
  responseTextByModel?: Record<string, string>;
  /** The reasoning written before the answer (when `reasoning` is not 'none'); default: composeReasoning's. */
  reasoningText?: string;
  /** How answers carry reasoning (default 'none'); see ReasoningForm. */
  reasoning?: ReasoningForm;
  /**
   * Streamed answers: silence before the first byte (no headers, no bytes) for this long, as a reasoning service
   * behind a gateway that holds its answer until the model writes. Default 0.
   */
  thinkMs?: number;
  /** Non-streamed answers: sent after this long (a reasoning model's whole run). Default 0 (a short generation time). */
  answerDelayMs?: number;
  dataDir?: string;
  /**
   * Benchmarks: when > 0 and tokenIntervalMs is 0, a stream's frames go out back to back in writes of about this many
   * bytes (the same bytes as the paced stream, built once per text and framing). Default 0: one write per frame.
   */
  streamChunkBytes?: number;
  /** Benchmarks: when > 0, tokens are slices of exactly this many characters instead of words. Default 0. */
  streamTokenChars?: number;
  /**
   * Benchmarks: when true, the epoch time (ms, performance clock) of every token write goes to `tokenWrites` (tokens
   * written together share their write's time).
   */
  recordTokenWrites?: boolean;
}

/** The options actually in force: every default filled in except responseText(ByModel), reasoningText, tls and advertisedHost. */
export type ResolvedOptions = Required<
  Omit<EmulatorOptions, 'responseText' | 'responseTextByModel' | 'reasoningText' | 'tls' | 'advertisedHost'>
> & {
  responseText?: string;
  responseTextByModel?: Record<string, string>;
  reasoningText?: string;
  tls?: { key: string; cert: string };
  advertisedHost?: string;
};

export interface RecordedRequest {
  origin: 'api' | 'storage';
  method: string;
  /** Path with query string, exactly as received. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  time: number;
  /** The client closed the connection before the response finished. */
  aborted?: boolean;
  /** Kind of the fault rule(s) applied to this request, if any (a fault-destroyed response is not "aborted"). */
  fault?: string;
  /** Final HTTP status sent (absent if the socket died before headers). */
  status?: number;
  /** The connection it came on, numbered per origin in the order they were opened (requests per connection). */
  connection?: number;
  /** The address the connection came from (a proxy test tells proxied from direct requests by it). */
  peer?: string;
  /** An inference request's text as the service read it (what a model was given). */
  inference?: RecordedInference;
}

export interface RecordedInference {
  modelName: string;
  prompt: string;
  queryOnly?: string;
  /** The knobs as the service read them (its defaults where the request sent none). */
  sequentialBudget: number;
  parallelBudget: number;
  useRag: boolean;
}

export type FaultKind = 'latency' | 'status' | 'reset' | 'stall' | 'truncate' | 'body';

export interface FaultRule {
  origin?: 'api' | 'storage';
  method?: string;
  /** Path without query; a string matches exactly, a RegExp is tested against it. */
  path: string | RegExp;
  times?: number;
  kind: FaultKind;
  ms?: number;
  /** 'status': the status sent (default 503); 'body': the status of the answer (default 200). */
  status?: number;
  /** Retry-After of a 'status' fault: seconds (number or text) or a Date, sent as an HTTP date. */
  retryAfter?: string | number | Date;
  afterBytes?: number;
  /** The body of a 'body' fault, or of a 'status' fault instead of the default `{detail}`. */
  body?: string | Buffer;
  contentType?: string;
  /**
   * More headers of the answer: for 'body', e.g. a wrong or missing Content-Range with status 206, a Content-Encoding,
   * a checksum header, a Location; for 'status', rate-limit fields (X-RateLimit-Reset, RateLimit, RateLimit-Policy).
   */
  headers?: Record<string, string>;
}

export interface ArtifactInfo {
  path: string;
  size: number;
  sha256: string;
  /** Safe download file name (`<sanitized model>.gguf`). */
  filename: string;
}

export interface CustomModel {
  name: string;
  key: string;
  baseModel: string;
  createdAt: string;
  artifact: ArtifactInfo;
}

/** Everything the route handlers share. One instance per running emulator. */
export interface State {
  options: ResolvedOptions;
  /** Custom models by key, then by model name. */
  customModels: Map<string, Map<string, CustomModel>>;
  faults: FaultTable;
  recorder: Recorder;
  /** Per-run HMAC secret for signed storage URLs. */
  secret: Buffer;
  storageUrl: string;
  finetuneJobs: Map<string, FinetuneJob>;
  evaluationJobs: Map<string, EvaluationJob>;
  /** Set by close(): background jobs stop touching the disk. */
  closed: boolean;
  /** Write times of streamed tokens (only with recordTokenWrites): performance.timeOrigin + performance.now(). */
  tokenWrites: number[];
}

/** A running emulator (see startEmulator in emulator.ts). */
export interface Emulator {
  /** API origin, e.g. http://127.0.0.1:43121 */
  url: string;
  /** Signed-URL origin (a second server on another port). */
  storageUrl: string;
  /** Current configuration (live object: configure() updates it). */
  readonly options: ResolvedOptions;
  /** Changes behaviour at runtime; host, port, storagePort and dataDir are fixed once started and are ignored. */
  configure(patch: Partial<EmulatorOptions>): void;
  setKey(key: string, config: KeyConfig): void;
  faults: FaultTable;
  /** Connections each origin has accepted since the start (or the last clearReceived). */
  readonly connections: { api: number; storage: number };
  /** Every request each origin received, in order (control API excluded). */
  readonly received: RecordedRequest[];
  clearReceived(): void;
  /** The artifact file on disk; with several keys owning the same model name, pass the key. */
  artifactPath(modelName: string, key?: string): string | undefined;
  artifactInfo(modelName: string, key?: string): ArtifactInfo | undefined;
  addCustomModel(key: string, modelName: string, opts?: { artifactBytes?: number; baseModel?: string }): Promise<void>;
  /** The name of the model a finished finetune job made (the id as the client was given it), else undefined. */
  madeModel(jobId: string): string | undefined;
  /** How many finetune jobs have not ended (completed or failed), of every key. */
  runningFinetunes(): number;
  /** With recordTokenWrites: when each streamed token was written (epoch ms, sub-millisecond), in order. */
  readonly tokenWrites: number[];
  /** Open sockets on the API origin. */
  activeConnections(): number;
  /**
   * Destroys every open socket on the API origin now, as a service or gateway that went away mid-request (the client
   * sees the connection close). Returns how many there were.
   */
  dropConnections(): number;
  close(): Promise<void>;
}
