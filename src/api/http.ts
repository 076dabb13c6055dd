// The keyed HTTP layer: one axios instance per (base URL, key), the auth header, timeouts per call kind,
// the retry policy, the redirect policy and the mapping of every failure to a typed ApiError.
//
// Redirect policy: the keyed instance never follows a redirect (maxRedirects 0, which also makes axios use
// node:http directly instead of follow-redirects, which would forward X-API-Key to any host and buffer
// upload bodies). The key is sent only to the base URL's origin; a 3xx is handed back to the caller
// (download.ts), which fetches the target with a plain request that carries no key (storageRequest.ts).

import axios, { type AxiosInstance, type AxiosResponse, type AxiosRequestConfig } from 'axios';
import type { Readable } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import type FormData from 'form-data';
import {
  ApiError,
  AuthError,
  CancelledError,
  ContractError,
  NetworkError,
  UnansweredError,
  ProxyAuthError,
  RateLimitError,
  RequestError,
  ServerError,
  ServiceUrlRedirectError,
  TimeoutError,
  isCancellation,
} from './errors';
import { decodeErrorMessage } from './errorBody';
import { parseBody, parseErrorBody } from './answerBody';
import { excerpt, redact, registerSecret } from './redact';
import { saysKeyInvalid } from './errorBody';
import { parseRetryAfter, retryAfterInBody } from './rateLimit';
import { redirectAdvice } from './redirectAdvice';
import { normaliseBaseUrl } from './urlPolicy';
import { exactWaitText, waitText } from './waitText';

export { parseRetryAfter } from './rateLimit';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type Logger = (level: LogLevel, message: string) => void;

export interface Timeouts {
  /** Whole JSON call (list, poll, submit), per attempt. */
  requestMs: number;
  /** No byte received on a streamed response (inference, download) for this long. */
  streamIdleMs: number;
  /** No upload progress, or no answer after the last byte, for this long. */
  uploadIdleMs: number;
  /**
   * Time to receive the response headers of a streamed call (a download's, from the API or the storage host). When not
   * given it is `requestMs`: the one request limit a person sets (hostedReasoning.requestTimeoutSeconds) covers every
   * wait for an answer to begin, as README's Troubleshooting says.
   */
  connectMs: number;
  /**
   * An inference run: how long it may be silent, waiting for the headers, its first byte, its next byte (streamed) or
   * its whole answer (not streamed). A reasoning model thinks for minutes before it writes anything: that silence is
   * not a stall, so the limits above do not apply; this one (the user's setting) does, and Stop at any moment.
   */
  answerWaitMs: number;
}

export interface RetryPolicy {
  /** Retries after the first attempt, for idempotent calls. */
  retries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After above this is not waited for: the RateLimitError reaches the caller (e.g. the poller). */
  maxRetryAfterMs: number;
}

export interface HttpConfig {
  baseUrl: string;
  apiKey: string;
  timeouts?: Partial<Timeouts>;
  retry?: Partial<RetryPolicy>;
  log?: Logger;
  userAgent?: string;
  /** Test seam: the sleep between retries. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Test seam: jitter source in [0, 1). */
  random?: () => number;
  /** Test seam: the clock an HTTP-date Retry-After is read against and a wait's end is told on (epoch ms). */
  now?: () => number;
}

export const DEFAULT_TIMEOUTS: Timeouts = {
  requestMs: 30_000,
  streamIdleMs: 60_000,
  uploadIdleMs: 120_000,
  connectMs: 30_000,
  answerWaitMs: 15 * 60_000,
};
export const DEFAULT_RETRY: RetryPolicy = { retries: 4, baseDelayMs: 500, maxDelayMs: 8_000, maxRetryAfterMs: 60_000 };

/** Waits the service asks for that a call a person watches sleeps (CallOptions.interactive). */
const MAX_INTERACTIVE_SERVICE_WAITS = 1;

/** Codes of a connection that was open and ended: reset, broken, or found dead by keep-alive (ETIMEDOUT). */
const CLOSED_CODES = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ECONNABORTED_BY_PEER', 'UND_ERR_SOCKET']);

/**
 * Errors of a kept-alive connection that was used again and closed (reset, or ended) before any answer came
 * (closedOnReuse): most often the server dropping it as idle just as this request went out. withRetry sends an
 * idempotent call again at once, once; a POST is not sent again (notSentAgain).
 */
const CLOSED_ON_REUSE = new WeakSet<ApiError>();

/** The largest JSON answer read whole: a non-streamed body, or one JSON document answering a streamed request. */
export const MAX_JSON_BYTES = 32 * 1024 * 1024;
const MAX_ERROR_BODY_BYTES = 64 * 1024;
const RETRYABLE_STATUS = new Set([408, 429, 500, 502, 503, 504]);
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'ERR_NETWORK',
  'ECONNABORTED_BY_PEER',
  'ERR_SOCKET_CONNECTION_TIMEOUT',
  'UND_ERR_SOCKET',
]);

/** A wait the service asked for (Retry-After and its kin, rateLimit.ts), as the client is about to sleep it. */
export interface ServiceWait {
  waitMs: number;
  /** When the wait ends and the request goes again, on the client's clock (epoch ms). */
  until: number;
}

export interface CallOptions {
  signal?: AbortSignal;
  /**
   * Told of each wait the service asked for, before it is slept: the log is not where a person looks, so the surface
   * that started the call (the playground, Chat) says it there. The client's own backoff is not told: it is short.
   */
  onServiceWait?: (wait: ServiceWait) => void;
  /**
   * A person is waiting on this answer (a view's list, a key check, starting a job, an inference run): a refused
   * connection, where nothing listens, fails at once so the view shows it and offers its fixes, instead of seconds of
   * retries that cannot help; and a wait the service asks for is slept at most once (4 x 60 s of "Thinking…" is no
   * answer): asked again, the RateLimitError reaches the surface, which says when and offers Retry. Other failures
   * keep the policy; background calls (the poller) keep the backoff for everything.
   */
  interactive?: boolean;
  /**
   * The longest wait the service asks for that this call sleeps (the policy's `maxRetryAfterMs` otherwise): a longer
   * one is the call's RateLimitError at once, its message saying the wait. For a caller that cannot tell anyone it is
   * waiting (a `vscode.lm` request, a tool): a silent minute is worse than an error that says how long.
   */
  maxServiceWaitMs?: number;
  /**
   * Waits this long instead of the call kind's own limit: for a JSON call the whole answer (instead of `requestMs`),
   * for a streamed one the headers and each silence of the body (instead of `connectMs` and `streamIdleMs`). Inference
   * passes `answerWaitMs`.
   */
  waitMs?: number;
  /**
   * Retries at most this many times, fewer than the policy allows: 0 for a caller that waits out every failure itself
   * (the job poller's look at the model list: its own backoff, and a Refresh not held behind retries).
   */
  retries?: number;
}

/** A response whose body is a stream; the caller must consume it or call `abort()`. */
export interface StreamResponse {
  status: number;
  headers: Record<string, string | undefined>;
  body: AsyncIterable<Buffer>;
  abort(): void;
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return delay(ms, undefined, { signal }).catch(() => Promise.reject(new CancelledError()));
}

/** Normalises a configured base URL; throws a RequestError the user can act on when it is not usable. */
export function parseBaseUrl(baseUrl: string): URL {
  const result = normaliseBaseUrl(baseUrl);
  if ('problem' in result) throw new RequestError(redact(result.problem));
  return result.url;
}

export class HttpClient {
  readonly base: URL;
  readonly timeouts: Timeouts;
  readonly retry: RetryPolicy;
  private readonly axios: AxiosInstance;
  private readonly log: Logger;
  /** The wait between attempts (the `sleep` test seam of the config); downloads back off with it too. */
  readonly sleepFn: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly random: () => number;
  private readonly now: () => number;

  constructor(config: HttpConfig) {
    this.base = parseBaseUrl(config.baseUrl);
    if (!config.apiKey.trim()) throw new AuthError('No API key is set.');
    registerSecret(config.apiKey);
    this.timeouts = { ...DEFAULT_TIMEOUTS, connectMs: config.timeouts?.requestMs ?? DEFAULT_TIMEOUTS.connectMs, ...config.timeouts };
    this.retry = { ...DEFAULT_RETRY, ...config.retry };
    this.log = config.log ?? (() => undefined);
    this.sleepFn = config.sleep ?? sleep;
    this.random = config.random ?? Math.random;
    this.now = config.now ?? Date.now;
    this.axios = axios.create({
      headers: {
        'X-API-Key': config.apiKey,
        'User-Agent': config.userAgent ?? 'hosted-reasoning-vscode',
        Accept: 'application/json',
      },
      maxRedirects: 0,
      // Status codes are judged here, not by axios, so error bodies can be read the same way for every call.
      validateStatus: () => true,
      transformResponse: [(d: unknown) => d],
      maxContentLength: MAX_JSON_BYTES,
      maxBodyLength: Infinity,
      decompress: true,
      proxy: false,
    });
  }

  /** Absolute URL of an API path; guarantees it stays on the base origin, so the key goes nowhere else. */
  url(path: string, query?: Record<string, string>): string {
    const u = new URL(path.replace(/^\/+/, ''), this.base);
    if (u.origin !== this.base.origin) throw new RequestError(`Refusing to send the API key to ${u.origin}.`);
    if (query) {
      u.search = Object.entries(query)
        .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
        .join('&');
    }
    return u.href;
  }

  async getJson(what: string, path: string, query: Record<string, string> | undefined, opts: CallOptions = {}): Promise<unknown> {
    const answer = await this.withRetry(what, true, opts, (signal) =>
      this.jsonAttempt(what, { method: 'GET', url: this.url(path, query) }, signal, opts.waitMs),
    );
    return answer.body;
  }

  /** POSTs are not repeated when the outcome is unknown: only a refused connection or a 429 is retried. */
  async postJson(what: string, path: string, body: unknown, opts: CallOptions = {}): Promise<unknown> {
    return (await this.post(what, path, body, opts)).body;
  }

  /** A POST whose status and Location header matter too (a job started with 202 and only a Location). */
  async post(what: string, path: string, body: unknown, opts: CallOptions = {}): Promise<HttpAnswer> {
    return this.withRetry(what, false, opts, (signal) =>
      this.jsonAttempt(
        what,
        { method: 'POST', url: this.url(path), data: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } },
        signal,
        opts.waitMs,
      ),
    );
  }

  /**
   * A request whose response body is streamed. Non-2xx answers are turned into errors here (their body read,
   * capped); 3xx are returned when `allowRedirect` so the caller can read Location.
   */
  async stream(
    what: string,
    request: AxiosRequestConfig & { url: string },
    opts: CallOptions & { idempotent: boolean; allowRedirect?: boolean; accept?: string },
  ): Promise<StreamResponse> {
    return this.withRetry(what, opts.idempotent, opts, async (signal) => {
      const waited = opts.waitMs;
      const startedAt = Date.now();
      const res = await openStream(this.axios, what, request, {
        signal,
        timeouts: waited === undefined ? this.timeouts : { connectMs: waited, streamIdleMs: waited, silence: 'wait' },
        accept: opts.accept,
        mapError: (e, s) => (waited === undefined ? this.mapThrown(what, e, s) : this.waitError(what, e, s, startedAt)),
      });
      const isRedirect = res.status >= 300 && res.status < 400;
      if (!(res.status >= 200 && res.status < 300) && !(isRedirect && opts.allowRedirect)) {
        const text = await readCapped(res.body, MAX_ERROR_BODY_BYTES).catch(() => '');
        throw this.statusError(what, res.status, res.headers, parseErrorBody(text), request.url);
      }
      return res;
    });
  }

  /**
   * A multipart upload (never retried), with progress and an idle watchdog instead of a total deadline.
   * Progress counts the bytes as the form hands them to the request (what axios's onUploadProgress counts), read
   * from the form's own 'data' events: axios's progress option and a finite maxBodyLength each put one more
   * stream in the body's path, which together doubled the CPU time per uploaded byte (test/bench/PERFORMANCE.md).
   */
  async upload(
    what: string,
    path: string,
    form: FormData,
    headers: Record<string, string>,
    opts: CallOptions & { onProgress?: (sent: number) => void },
  ): Promise<HttpAnswer> {
    const controller = new AbortController();
    const unlink = linkAbort(opts.signal, controller);
    const idleMs = this.timeouts.uploadIdleMs;
    // Once the form has handed over its last byte, the same limit is the wait for the answer.
    let allSent = false;
    const onIdle = () =>
      controller.abort(
        new TimeoutError(
          allSent
            ? `${what}: no answer within ${secs(idleMs)} of the upload's last byte.`
            : `${what}: the upload made no progress for ${secs(idleMs)}.`,
        ),
      );
    let timer = setTimeout(onIdle, idleMs);
    let sent = 0;
    // A FormData (a classic stream) emits 'data' only once axios pipes it, so listening first loses nothing.
    const onData = (chunk: Buffer | string) => {
      sent += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
      timer.refresh();
      opts.onProgress?.(sent);
    };
    const onEnd = () => {
      allSent = true;
      timer.refresh();
    };
    form.on('data', onData);
    form.on('end', onEnd);
    try {
      const res = await this.axios.request<string>({
        method: 'POST',
        url: this.url(path),
        data: form,
        headers,
        responseType: 'text',
        signal: controller.signal,
        maxBodyLength: -1, // no limit, and no size-checking stream in the body's path
      });
      return { body: this.judge(what, res), status: res.status, location: locationOf(res) };
    } catch (e) {
      const err = this.mapThrown(what, e, controller.signal);
      if (CLOSED_ON_REUSE.has(err)) throw notSentAgain(err);
      // Every byte handed over, then no answer (a time out, a connection closed): the service may have started the
      // job. Not "unreachable", on whose word a caller (a pipeline) would start it again.
      if (allSent && (err.kind === 'timeout' || err.kind === 'network')) throw unansweredUpload(what, err);
      throw err;
    } finally {
      form.removeListener('data', onData);
      form.removeListener('end', onEnd);
      clearTimeout(timer);
      timer = undefined as unknown as NodeJS.Timeout;
      unlink();
    }
  }

  private async jsonAttempt(
    what: string,
    request: AxiosRequestConfig,
    signal: AbortSignal | undefined,
    waitMs: number | undefined,
  ): Promise<HttpAnswer> {
    const controller = new AbortController();
    const unlink = linkAbort(signal, controller);
    const limit = waitMs ?? this.timeouts.requestMs;
    const startedAt = Date.now();
    const timer = setTimeout(
      () =>
        controller.abort(
          new TimeoutError(
            waitMs === undefined
              ? `${what}: the service did not answer within ${secs(limit)}.`
              : `${what}: no answer within ${waitText(limit)}, the wait limit (a longer one can be set).`,
          ),
        ),
      limit,
    );
    try {
      const res = await this.axios.request<string>({ ...request, responseType: 'text', signal: controller.signal });
      return { body: this.judge(what, res), status: res.status, location: locationOf(res) };
    } catch (e) {
      throw waitMs === undefined ? this.mapThrown(what, e, controller.signal) : this.waitError(what, e, controller.signal, startedAt);
    } finally {
      clearTimeout(timer);
      unlink();
    }
  }

  private judge(what: string, res: AxiosResponse<string>): unknown {
    const text = typeof res.data === 'string' ? res.data : String(res.data ?? '');
    if (res.status >= 200 && res.status < 300) return parseBody(text);
    // Headers are read only for an error (Retry-After): copying them on every answer is a cost per poll.
    throw this.statusError(what, res.status, flatHeaders(res.headers), parseErrorBody(text), res.config.url);
  }

  /**
   * Maps a non-2xx answer to the error class the user acts on. `url`, the request's, lets a redirect say where the
   * service URL leads.
   */
  statusError(what: string, status: number, headers: Record<string, string | undefined>, body: unknown, url?: string): ApiError {
    // A proxy's answer, not the service's (VS Code's proxy agent hands a refused CONNECT back as the response): its
    // body is the proxy's text, so it is not quoted as what the service said.
    if (status === 407) return proxyAuthError(what, { status, detail: excerpt(body) });
    const said = decodeErrorMessage(body);
    const server = said ? `: ${redact(said)}` : '';
    const detail = excerpt(body);
    // A 400 whose words or reason code say the API key is invalid (Google's API_KEY_INVALID) is the key's fault too.
    if (status === 401 || status === 403 || (status === 400 && saysKeyInvalid(body))) {
      return new AuthError(`The service refused the API key (${status})${server}. Set a valid key.`, { status, detail });
    }
    // Any status may carry Retry-After (a 503 during maintenance does): it is kept on the error whatever the class; a
    // 429's quota fields (RateLimit, X-RateLimit-Reset) say the same (rateLimit.ts).
    // A wait stated only in the body (Google's RetryInfo, `retry_after`, "try again in 20s") counts as the header's.
    const retryAfterMs = parseRetryAfter(headers, this.now(), status) ?? retryAfterInBody(body);
    const wait = retryAfterMs !== undefined ? ` Try again in ${waitText(retryAfterMs)}.` : '';
    if (status === 429) {
      return new RateLimitError(`${what}: too many requests (429)${server}.${wait}`, { status, detail, retryAfterMs });
    }
    if (status === 408) return new TimeoutError(`${what}: the service timed out (408)${server}.${wait}`, { status, detail, retryAfterMs });
    if (status >= 500) return new ServerError(`${what}: the service failed (${status})${server}.${wait}`, { status, detail, retryAfterMs });
    if (status >= 300 && status < 400) {
      const location = headers['location'];
      const advice = url && location ? redirectAdvice(this.base, url, location) : undefined;
      if (!advice) return new ContractError(`${what}: unexpected redirect (${status}).`, { status, detail });
      const next = advice.baseUrl
        ? `; set hostedReasoning.baseUrl to ${advice.baseUrl}.`
        : ', which the extension does not follow: check hostedReasoning.baseUrl.';
      return new ServiceUrlRedirectError(
        `${what}: the service URL redirects (${status}) to ${advice.to}${next}`,
        advice.to,
        advice.baseUrl,
        {
          status,
          detail,
        },
      );
    }
    return new RequestError(`${what}: the service refused the request (${status})${server}.`, { status, detail });
  }

  /** Maps anything thrown by axios (or by our own abort reasons) to an ApiError. */
  mapThrown(what: string, e: unknown, signal: AbortSignal): ApiError {
    if (e instanceof ApiError) return e;
    if (signal.aborted) {
      const reason: unknown = signal.reason;
      return reason instanceof ApiError ? reason : new CancelledError();
    }
    if (isCancellation(e)) return new CancelledError();
    const rawCode = typeof e === 'object' && e !== null ? (e as { code?: unknown }).code : undefined;
    const code = typeof rawCode === 'string' || typeof rawCode === 'number' ? String(rawCode) : '';
    const message = e instanceof Error ? e.message : String(e);
    // Some agents throw on a refused tunnel instead of handing back the proxy's answer (undici: "Proxy response (407)").
    if (PROXY_AUTH_THROWN.test(message)) return proxyAuthError(what, { detail: redact(message) });
    if (code === 'ETIMEDOUT' || (code === 'ECONNABORTED' && /timeout/i.test(message))) {
      return new TimeoutError(`${what}: the service did not answer in time.`, { detail: redact(message) });
    }
    if (code === 'ERR_BAD_RESPONSE' && /maxContentLength/i.test(message)) {
      return new ContractError(`${what}: the answer is larger than ${MAX_JSON_BYTES / 1024 / 1024} MiB.`);
    }
    if (closedOnReuse(e)) {
      const error = new NetworkError(
        `${what}: the connection closed before any answer (${code}); it had been idle, and the service may have closed it just as it was used again.`,
        { detail: redact(message), cause: e },
      );
      CLOSED_ON_REUSE.add(error);
      return error;
    }
    if (NETWORK_CODES.has(code) || /socket hang up|ECONNRESET|network/i.test(message)) {
      return new NetworkError(`${what}: cannot reach the service at ${this.base.origin} (${code || 'connection failed'}).`, {
        detail: redact(message),
        cause: e,
      });
    }
    return new NetworkError(`${what}: the request failed (${redact(message)}).`, { detail: redact(message), cause: e });
  }

  /**
   * A call that waits for a thinking model (`waitMs`): a connection that was open and then closed or died (reset, hung
   * up, no reply to TCP keep-alive probes) is said as such, with how long the run had waited. "Cannot reach the
   * service" would send the person to check a URL that worked a minute ago. Keep-alive: axios turns it on for every
   * request socket (60 s idle, then libuv's probes 1 s apart, 10 of them), so a peer that vanished without a word is
   * found in about 70 s instead of at the wait limit; the socket is VS Code's (its proxy support included), not ours.
   */
  private waitError(what: string, e: unknown, signal: AbortSignal, startedAt: number): ApiError {
    const mapped = this.mapThrown(what, e, signal);
    if (signal.aborted || e instanceof ApiError || CLOSED_ON_REUSE.has(mapped)) return mapped;
    const rawCode = typeof e === 'object' && e !== null ? (e as { code?: unknown }).code : undefined;
    const code = typeof rawCode === 'string' ? rawCode : '';
    const message = e instanceof Error ? e.message : String(e);
    if (!CLOSED_CODES.has(code) && !/socket hang up|aborted|ECONNRESET/i.test(message)) return mapped;
    return new NetworkError(
      `${what}: the connection to the service closed before the answer was complete, ${waitText(Date.now() - startedAt)} after the request (${code || 'closed'}). ` +
        'The service, or a proxy or gateway on the way, ended it; run it again.',
      { detail: redact(message), cause: e },
    );
  }

  /**
   * Runs `attempt` under the retry policy. Besides it, a kept-alive connection closed before any answer as it was used
   * again (CLOSED_ON_REUSE): the server let it go as idle while the client took it up, a race of the client's own
   * connection pool (Node's agent and many servers both drop idle connections after about 5 s), not the service
   * failing. An idempotent call is sent again at once, without backoff and outside the retry budget (so a caller with
   * `retries: 0`, the poller, is not failed by it), and only once a call: a second such close is the policy's, as any
   * network error. A POST is not sent again: Node cannot tell a request that never left (Go's "nothing written") from
   * one the service read and then dropped the connection on, and the service takes no idempotency key: a duplicated
   * start costs money. Go's net/http, got, urllib3 and undici's retry interceptor draw the same line (CONTRIBUTING).
   */
  private async withRetry<T>(what: string, idempotent: boolean, opts: CallOptions, attempt: (s?: AbortSignal) => Promise<T>): Promise<T> {
    const signal = opts.signal;
    let serviceWaits = 0;
    let sentAgain = false;
    for (let n = 0; ;) {
      if (signal?.aborted) throw new CancelledError();
      try {
        return await attempt(signal);
      } catch (e) {
        const err = e instanceof ApiError ? e : new NetworkError(`${what}: ${redact(String(e))}`);
        // Most messages already start with what was being done ("Listing models: …"): said once.
        const said = err.message.startsWith(`${what}: `) ? err.message : `${what}: ${err.message}`;
        if (CLOSED_ON_REUSE.has(err)) {
          if (!idempotent) throw notSentAgain(err);
          if (!sentAgain) {
            sentAgain = true;
            this.log('info', `${said} Sending it again at once.`);
            continue;
          }
        }
        if (opts.retries !== undefined && n >= opts.retries) throw err;
        const wait = this.retryDelay(err, n, idempotent, opts.interactive === true, serviceWaits, opts.maxServiceWaitMs);
        if (wait === undefined) throw err;
        // Said to a tenth of a second and waited exactly that: the log never says "1 s" of a retry that goes at 0.3 s.
        const delay = Math.ceil(wait / 100) * 100;
        this.log('warn', `${said} Retrying in ${exactWaitText(delay)} (attempt ${n + 2} of ${this.retry.retries + 1}).`);
        if (err.retryAfterMs !== undefined) {
          serviceWaits++;
          opts.onServiceWait?.({ waitMs: delay, until: this.now() + delay });
        }
        await this.sleepFn(delay, signal);
        n++;
      }
    }
  }

  /**
   * The delay before retry n+1, or undefined when the policy says not to retry. `serviceWaits`: how many waits the
   * service asked for were slept already in this call; `maxServiceWaitMs`: CallOptions.maxServiceWaitMs.
   */
  retryDelay(
    err: ApiError,
    n: number,
    idempotent: boolean,
    interactive = false,
    serviceWaits = 0,
    maxServiceWaitMs = Infinity,
  ): number | undefined {
    if (n >= this.retry.retries) return undefined;
    if (interactive && err.retryAfterMs !== undefined && serviceWaits >= MAX_INTERACTIVE_SERVICE_WAITS) return undefined;
    const refused = err.kind === 'network' && /ECONNREFUSED/.test(err.message);
    if (refused && interactive) return undefined;
    const retryable =
      err.kind === 'rateLimit' ||
      (idempotent &&
        (err.kind === 'network' || err.kind === 'timeout' || (err.status !== undefined && RETRYABLE_STATUS.has(err.status)))) ||
      refused; // nothing reached the server: safe even for a POST
    if (!retryable) return undefined;
    // The server's own word wins, on whatever status carried it: no jitter added, and a wait above the cap is not
    // slept through here but handed to the caller (the poller waits it out between rounds).
    if (err.retryAfterMs !== undefined) {
      return err.retryAfterMs > Math.min(this.retry.maxRetryAfterMs, maxServiceWaitMs) ? undefined : err.retryAfterMs;
    }
    const backoff = Math.min(this.retry.baseDelayMs * 2 ** n, this.retry.maxDelayMs);
    return backoff / 2 + this.random() * (backoff / 2);
  }
}

/** A 2xx answer with what a start needs besides its body. */
export interface HttpAnswer {
  body: unknown;
  status: number;
  location?: string;
}

function locationOf(res: AxiosResponse): string | undefined {
  const v: unknown = (res.headers as Record<string, unknown>).location;
  return typeof v === 'string' ? v : undefined;
}

/**
 * The request went on a kept-alive socket used again (Node's `reusedSocket`), which was reset or ended before a
 * response head arrived (no `response`, no `res`).
 */
function closedOnReuse(e: unknown): boolean {
  if (!axios.isAxiosError(e) || e.response) return false;
  const request = e.request as { reusedSocket?: unknown; res?: unknown } | undefined;
  return request?.reusedSocket === true && !request.res && (e.code === 'ECONNRESET' || e.code === 'EPIPE');
}

/** A POST's CLOSED_ON_REUSE error as the caller gets it: the person must know it was not repeated. */
function notSentAgain(err: ApiError): ApiError {
  return new UnansweredError(`${err.message} It was not sent again: the service may have received it.`, { detail: err.detail });
}

/**
 * An upload's time out or closed connection after its last byte, as the caller gets it: the service may have acted on
 * it (not "cannot reach the service", which it did reach).
 */
function unansweredUpload(what: string, err: ApiError): ApiError {
  const happened =
    err.kind === 'timeout'
      ? err.message
      : `${what}: the connection closed after the upload's last byte, before any answer${err.detail ? ` (${err.detail})` : ''}.`;
  return new UnansweredError(`${happened} The whole upload had been sent: the service may have received it.`, { detail: err.detail });
}

const PROXY_AUTH_THROWN = /\b407\b|proxy authentication required/i;

/**
 * What a 407 means to the person: the proxy between VS Code and the service wants credentials, given in VS Code's own
 * proxy settings (the extension's requests go through VS Code's proxy support). Never a key or a service problem. The
 * example carries no scheme: redact() would mask a `scheme://user:password@` even in our own words. Seen in the
 * extension host of VS Code 1.100 (and in the code of 1.104 and 1.139): credentials in http.proxy are sent;
 * http.proxyAuthorization is not (its proxy
 * support never reads that setting; only VS Code's own requests do).
 */
export function proxyAuthError(what: string, options: { status?: number; detail?: string } = {}): ProxyAuthError {
  return new ProxyAuthError(
    `${what}: the proxy between VS Code and the service asks for credentials (407 Proxy Authentication Required). ` +
      "Add them to the http.proxy setting: the proxy's URL with user:password@ before its host (VS Code does not send " +
      "http.proxyAuthorization with extensions' requests). Then try again.",
    { status: 407, ...options },
  );
}

export function secs(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}

function flatHeaders(h: unknown): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  if (h && typeof h === 'object') {
    const src = typeof (h as { toJSON?: unknown }).toJSON === 'function' ? (h as { toJSON(): object }).toJSON() : h;
    for (const [k, v] of Object.entries(src)) {
      out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v === undefined || v === null ? undefined : String(v);
    }
  }
  return out;
}

/** Makes `controller` abort when `signal` does; returns the unlink function. */
function linkAbort(signal: AbortSignal | undefined, controller: AbortController): () => void {
  if (!signal) return () => undefined;
  if (signal.aborted) {
    controller.abort(new CancelledError());
    return () => undefined;
  }
  const onAbort = () => controller.abort(new CancelledError());
  signal.addEventListener('abort', onAbort, { once: true });
  return () => signal.removeEventListener('abort', onAbort);
}

export async function readCapped(stream: AsyncIterable<Buffer | string>, max: number): Promise<string> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    parts.push(b);
    size += b.length;
    if (size > max) {
      (stream as Partial<Readable>).destroy?.();
      break;
    }
  }
  return Buffer.concat(parts).toString('utf8');
}

/**
 * Opens a streamed response on `instance` without judging its status: the caller reads it. Headers must
 * arrive within `connectMs`; afterwards the body is watched for idleness (see idleWatch).
 */
export async function openStream(
  instance: AxiosInstance,
  what: string,
  request: AxiosRequestConfig & { url: string },
  opts: {
    signal?: AbortSignal;
    /** `silence: 'wait'`: the limits are the inference wait limit, and their messages say so. */
    timeouts: Pick<Timeouts, 'connectMs' | 'streamIdleMs'> & { silence?: 'stall' | 'wait' };
    accept?: string;
    mapError: (e: unknown, signal: AbortSignal) => ApiError;
  },
): Promise<StreamResponse> {
  const controller = new AbortController();
  const unlink = linkAbort(opts.signal, controller);
  const waiting = opts.timeouts.silence === 'wait';
  const waitLimit = (ms: number) => `${what}: nothing came within ${waitText(ms)}, the wait limit (a longer one can be set).`;
  const connectTimer = setTimeout(
    () =>
      controller.abort(
        new TimeoutError(waiting ? waitLimit(opts.timeouts.connectMs) : `${what}: no answer within ${secs(opts.timeouts.connectMs)}.`),
      ),
    opts.timeouts.connectMs,
  );
  let res: AxiosResponse<Readable>;
  try {
    res = await instance.request<Readable>({
      ...request,
      headers: { ...(request.headers as Record<string, string>), ...(opts.accept ? { Accept: opts.accept } : {}) },
      responseType: 'stream',
      maxContentLength: -1,
      signal: controller.signal,
    });
  } catch (e) {
    unlink();
    throw opts.mapError(e, controller.signal);
  } finally {
    clearTimeout(connectTimer);
  }
  const idleMs = opts.timeouts.streamIdleMs;
  const abort = () => {
    controller.abort(new CancelledError());
    res.data.destroy();
    unlink();
  };
  const onIdle = () => {
    controller.abort(new TimeoutError(waiting ? waitLimit(idleMs) : `${what}: the transfer stalled (no data for ${secs(idleMs)}).`));
    res.data.destroy();
  };
  const body = idleWatch(res.data, idleMs, onIdle, controller.signal, (e) => opts.mapError(e, controller.signal), unlink);
  return { status: res.status, headers: flatHeaders(res.headers), body, abort };
}

/**
 * Yields the stream's chunks; if none arrives for `idleMs` while the consumer waits, `onIdle` aborts it.
 * The clock stops while the consumer holds a chunk, so a slow consumer is not mistaken for a stalled server.
 * Errors are mapped; `finally` destroys the stream so a consumer that stops early closes the connection.
 */
async function* idleWatch(
  stream: Readable,
  idleMs: number,
  onIdle: () => void,
  signal: AbortSignal,
  mapError: (e: unknown) => ApiError,
  done: () => void,
): AsyncGenerator<Buffer> {
  let timer: NodeJS.Timeout | undefined = setTimeout(onIdle, idleMs);
  try {
    for await (const chunk of stream) {
      clearTimeout(timer);
      yield chunk as Buffer;
      timer = setTimeout(onIdle, idleMs);
    }
    // A stream ended by our own abort (timeout) must not look like a clean end.
    if (signal.aborted) throw mapError(signal.reason);
  } catch (e) {
    throw mapError(e);
  } finally {
    clearTimeout(timer);
    if (!stream.destroyed) stream.destroy();
    done();
  }
}
