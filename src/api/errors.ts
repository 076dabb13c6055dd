// One error class per thing a user does differently. Callers switch on `kind` (or instanceof);
// messages are already redacted and fit to show; `detail` carries a redacted excerpt for the log.

export type ApiErrorKind =
  | 'auth' // 401/403 from the service: set or fix the API key
  | 'rateLimit' // 429: wait `retryAfterMs`
  | 'server' // 5xx or an error event in a stream: retry later or report
  | 'network' // connection refused, DNS, reset: check the base URL / connectivity
  | 'timeout' // no answer, or a stream that went idle, within the limit
  | 'cancelled' // the user (or the caller) cancelled
  | 'request' // other 4xx: the input was refused; the server's message says why
  | 'contract' // the answer could not be read: report it
  | 'integrity'; // a download did not match its announced length or checksum

export interface ApiErrorOptions {
  status?: number;
  /** Redacted excerpt of the body or cause, for the log only. */
  detail?: string;
  retryAfterMs?: number;
  cause?: unknown;
}

// The service client ships as its own bundle (dist/api.js, loaded on first use) while the extension's bundle has
// its own copy of this file: `instanceof` must not depend on which copy made the error. Every ApiError carries a
// global brand, and `instanceof <Class>` checks the brand and the class's kind.
const BRAND = Symbol.for('hostedReasoning.apiError');

export class ApiError extends Error {
  /** The kind a subclass stands for; undefined for ApiError itself (any kind). */
  static readonly brandKind: ApiErrorKind | undefined = undefined;

  static override [Symbol.hasInstance](value: unknown): boolean {
    if (typeof value !== 'object' || value === null || (value as Record<symbol, unknown>)[BRAND] !== true) return false;
    const kind = (this as { brandKind?: ApiErrorKind }).brandKind;
    return kind === undefined || (value as { kind?: unknown }).kind === kind;
  }

  readonly status?: number;
  readonly detail?: string;
  /** How long the server asked to wait (Retry-After), on any status that carried it. */
  readonly retryAfterMs?: number;

  constructor(
    readonly kind: ApiErrorKind,
    message: string,
    options: ApiErrorOptions = {},
  ) {
    super(message);
    this.name = new.target.name;
    this.status = options.status;
    this.detail = options.detail;
    this.retryAfterMs = options.retryAfterMs;
    Object.defineProperty(this, BRAND, { value: true, enumerable: false });
    // Keep the cause off enumerable fields: axios errors carry request headers (the key).
    if (options.cause !== undefined) {
      Object.defineProperty(this, 'cause', { value: scrubCause(options.cause), enumerable: false });
    }
  }
}

export class AuthError extends ApiError {
  static override readonly brandKind = 'auth' as const;
  constructor(message: string, options?: ApiErrorOptions) {
    super('auth', message, options);
  }
}

export class RateLimitError extends ApiError {
  static override readonly brandKind = 'rateLimit' as const;
  constructor(message: string, options: ApiErrorOptions = {}) {
    super('rateLimit', message, options);
  }
}

export class ServerError extends ApiError {
  static override readonly brandKind = 'server' as const;
  constructor(message: string, options?: ApiErrorOptions) {
    super('server', message, options);
  }
}

export class NetworkError extends ApiError {
  static override readonly brandKind = 'network' as const;
  constructor(message: string, options?: ApiErrorOptions) {
    super('network', message, options);
  }
}

export class TimeoutError extends ApiError {
  static override readonly brandKind = 'timeout' as const;
  constructor(message: string, options?: ApiErrorOptions) {
    super('timeout', message, options);
  }
}

export class CancelledError extends ApiError {
  static override readonly brandKind = 'cancelled' as const;
  constructor(message = 'Cancelled.', options?: ApiErrorOptions) {
    super('cancelled', message, options);
  }
}

export class RequestError extends ApiError {
  static override readonly brandKind = 'request' as const;
  constructor(message: string, options?: ApiErrorOptions) {
    super('request', message, options);
  }
}

export class ContractError extends ApiError {
  static override readonly brandKind = 'contract' as const;
  constructor(message: string, options?: ApiErrorOptions) {
    super('contract', message, options);
  }
}

export class IntegrityError extends ApiError {
  static override readonly brandKind = 'integrity' as const;
  constructor(message: string, options?: ApiErrorOptions) {
    super('integrity', message, options);
  }
}

const FILE_CHANGED = Symbol.for('hostedReasoning.fileChanged');

/**
 * A source file whose size or content changed between its check and the end of its upload. The upload was cut before
 * its last byte, so the service created nothing; the user starts again (the file is checked anew). An integrity
 * failure like a download's, with its own brand so `instanceof FileChangedError` does not match other IntegrityErrors.
 */
export class FileChangedError extends IntegrityError {
  static override [Symbol.hasInstance](value: unknown): boolean {
    return super[Symbol.hasInstance](value) && (value as Record<symbol, unknown>)[FILE_CHANGED] === true;
  }

  constructor(
    /** The file as the user knows it. */
    readonly file: string,
    options?: ApiErrorOptions,
  ) {
    super(`${file} changed during upload; nothing was created, start again.`, options);
    Object.defineProperty(this, FILE_CHANGED, { value: true, enumerable: false });
  }
}

// The disk refused the download's bytes (full, read-only, quota, permission). Not a kind of its own: the playground
// and the error views switch on every kind, and to them this is a refused request. A second global brand lets
// `instanceof DiskError` tell it apart across bundles, like ApiError's.
const DISK_BRAND = Symbol.for('hostedReasoning.diskError');

/** The download stopped because the disk refused a write: the part file keeps what it holds for a Resume. */
export class DiskError extends RequestError {
  static override [Symbol.hasInstance](value: unknown): boolean {
    return ApiError[Symbol.hasInstance](value) && (value as Record<symbol, unknown>)[DISK_BRAND] === true;
  }

  constructor(
    message: string,
    /** The error code the OS gave (ENOSPC, EROFS, EDQUOT, EACCES, EPERM). */
    readonly code: string,
    /** Bytes kept in the part file. */
    readonly keptBytes: number,
    /** The part file a Resume continues. */
    readonly partFile: string,
    options?: ApiErrorOptions,
  ) {
    super(message, options);
    Object.defineProperty(this, DISK_BRAND, { value: true, enumerable: false });
  }
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}

/** Whether an error means "the caller cancelled", whatever layer raised it. */
export function isCancellation(e: unknown): boolean {
  if (e instanceof CancelledError) return true;
  if (typeof e !== 'object' || e === null) return false;
  const name = (e as { name?: unknown }).name;
  const code = (e as { code?: unknown }).code;
  return name === 'AbortError' || name === 'CanceledError' || code === 'ERR_CANCELED' || code === 'ABORT_ERR';
}

// A cause is kept for debugging, reduced to its name, code and message so no config or headers ride along.
function scrubCause(cause: unknown): unknown {
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    return { name: cause.name, message: cause.message, ...(typeof code === 'string' ? { code } : {}) };
  }
  return undefined;
}
