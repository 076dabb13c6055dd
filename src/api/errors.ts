// One error class per thing a user does differently. Callers switch on `kind` (or instanceof);
// messages are already redacted and fit to show; `detail` carries a redacted excerpt for the log.

/** Every kind the client raises: the one list (the playground protocol and the error classifier derive theirs). */
export const API_ERROR_KINDS = [
  'auth', // 401/403 from the service: set or fix the API key
  'proxy', // 407 from a proxy between VS Code and the service: give the proxy its credentials (http.proxy settings)
  'rateLimit', // 429: wait `retryAfterMs`
  'server', // 5xx or an error event in a stream: retry later or report
  'network', // connection refused, DNS, reset: check the base URL / connectivity
  'timeout', // no answer, or a stream that went idle, within the limit
  'cancelled', // the user (or the caller) cancelled
  'request', // other 4xx: the input was refused; the server's message says why
  'contract', // the answer could not be read: report it
  'integrity', // a download did not match its announced length or checksum
] as const;

export type ApiErrorKind = (typeof API_ERROR_KINDS)[number];

export interface ApiErrorOptions {
  status?: number;
  /** Redacted excerpt of the body or cause, for the log only. */
  detail?: string;
  retryAfterMs?: number;
  cause?: unknown;
}

/**
 * The kinds of answer a person can choose how to read when the extension could not (Choose How to Read…): the client
 * sets it on the error once it handed the answer to its ProfileBook, so the message offers the command.
 */
export type ChoosableAnswer = 'answer' | 'stream' | 'download';

export class ApiError extends Error {
  readonly status?: number;
  /** Set when the unreadable answer was kept for the person to choose how to read it (see ChoosableAnswer). */
  choosable?: ChoosableAnswer;
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
    // Keep the cause off enumerable fields: axios errors carry request headers (the key).
    if (options.cause !== undefined) {
      Object.defineProperty(this, 'cause', { value: scrubCause(options.cause), enumerable: false });
    }
  }
}

/** The class of one kind: instanceof tells the kinds apart, and each keeps its own name (`new.target.name`). */
function kindError(kind: ApiErrorKind, defaultMessage?: string) {
  return class extends ApiError {
    constructor(message = defaultMessage ?? '', options?: ApiErrorOptions) {
      super(kind, message, options);
    }
  };
}

export class AuthError extends kindError('auth') {}
/** A proxy on the way answered 407: neither the key nor the service is at fault, the proxy wants credentials. */
export class ProxyAuthError extends kindError('proxy') {}
export class RateLimitError extends kindError('rateLimit') {}
export class ServerError extends kindError('server') {}
export class NetworkError extends kindError('network') {}
/**
 * A request the service may have received though no answer came back (a kept-alive connection closed under a POST:
 * http.ts does not send it again). Not "unreachable": a caller must not start a paid job again on its word.
 */
export class UnansweredError extends NetworkError {}
export class TimeoutError extends kindError('timeout') {}
export class CancelledError extends kindError('cancelled', 'Cancelled.') {}
export class RequestError extends kindError('request') {}
export class ContractError extends kindError('contract') {}
export class IntegrityError extends kindError('integrity') {}

/**
 * A source file whose size or content changed between its check and the end of its upload. The upload was cut before
 * its last byte, so the service created nothing; the user starts again (the file is checked anew). An integrity
 * failure like a download's, with a class of its own for the finetune command's own advice.
 */
export class FileChangedError extends IntegrityError {
  constructor(
    /** The file as the user knows it. */
    readonly file: string,
    options?: ApiErrorOptions,
  ) {
    super(`${file} changed during upload; nothing was created, start again.`, options);
  }
}

/**
 * The service URL answered a call with a redirect, which the keyed client never follows (the key would go along): the
 * person sets the URL it leads to. Not a kind of its own (the playground and the error views switch on every kind): a
 * refused request, whose fix is the service URL, not the key.
 */
export class ServiceUrlRedirectError extends RequestError {
  constructor(
    message: string,
    /** Where the redirect leads, as shown (no query). */
    readonly redirectsTo: string,
    /** The base URL under which the same call is where it leads, when there is one. */
    readonly suggestedBaseUrl: string | undefined,
    options?: ApiErrorOptions,
  ) {
    super(message, options);
  }
}

/**
 * The download stopped because the disk refused a write (full, read-only, quota, permission): the part file keeps what
 * it holds for a Resume. Not a kind of its own: the playground and the error views switch on every kind, and to them
 * this is a refused request.
 */
export class DiskError extends RequestError {
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

/**
 * What a reader of the service's answers failed with, as an ApiError: its own ApiError as it is; anything else it met
 * (a RangeError from a builtin handed more than it takes, a case no check foresaw) means the answer could not be read:
 * a ContractError, which the poller shows as "status unreadable since …" on the job's row (an untyped error would be
 * taken for a bug of ours and shown nowhere) and which says "cannot read" where the raw message would say "stack size".
 */
export function unreadable(e: unknown): ApiError {
  if (e instanceof ApiError) return e;
  const said = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  return new ContractError('The service sent an answer the extension cannot read.', { detail: said.slice(0, 200), cause: e });
}

/** `read`, with every failure it throws made an ApiError (see unreadable). */
export function answerReader<A extends unknown[], R>(read: (...args: A) => R): (...args: A) => R {
  return (...args) => {
    try {
      return read(...args);
    } catch (e) {
      throw unreadable(e);
    }
  };
}
