// The signed-URL hop of a download: one plain node:http(s) GET for a raw byte stream. The signed URL is a credential
// of its own on another origin, so this request is built from nothing: no default headers (the storage origin never
// sees X-API-Key), no redirect followed (each hop is checked by the caller), no decompression, no proxy logic beyond
// what the runtime itself applies to https. axios added nothing here but a layer: its own config merge and, on
// the consumer's side, an async iterator that copies chunks together (test/bench/REPORT.md, figure 5).

// 'http' and 'https', not 'node:…': the specifiers axios loads, which VS Code's extension host intercepts to apply the
// user's proxy settings, so this hop goes through the same proxy as before.
import * as http from 'http';
import * as https from 'https';
import { CancelledError, ContractError, TimeoutError, type ApiError } from './errors';
import { secs } from './http';
import { describeUrl } from './redact';

export interface StorageResponse {
  status: number;
  headers: Record<string, string | undefined>;
  /** The raw body; the caller consumes it or calls `fail`. */
  body: http.IncomingMessage;
  /** Ends the transfer with this error: the body's consumer sees it (mapped by `mapError`). */
  fail(reason: ApiError): void;
  /** Maps whatever the body emitted: the reason of our own abort (timeout, cancellation) wins. */
  mapError(e: unknown): ApiError;
}

export interface StorageRequestOptions {
  /** For messages: what the user is doing ("Downloading the model"). */
  what: string;
  headers: Record<string, string>;
  signal?: AbortSignal;
  /** Time to receive the response headers. */
  connectMs: number;
  /** Maps a failure that is not our own abort (reset, refused, DNS) to an ApiError. */
  mapThrown: (e: unknown, signal: AbortSignal) => ApiError;
}

/**
 * GETs `url` (already checked by the caller: https, or http on loopback) and resolves with the response once its
 * headers arrive, whatever its status. Cancellation by `signal` and `fail()` destroy the request and its body.
 */
export function storageGet(url: string, opts: StorageRequestOptions): Promise<StorageResponse> {
  const u = new URL(url);
  const transport = u.protocol === 'https:' ? https : u.protocol === 'http:' ? http : undefined;
  if (!transport) return Promise.reject(new ContractError(`Refusing to fetch ${describeUrl(url)}.`));
  const controller = new AbortController();
  const onAbort = () => controller.abort(new CancelledError());
  if (opts.signal?.aborted) return Promise.reject(new CancelledError());
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  const unlink = () => opts.signal?.removeEventListener('abort', onAbort);
  const mapError = (e: unknown) => opts.mapThrown(e, controller.signal);

  return new Promise<StorageResponse>((resolve, reject) => {
    const req = transport.request(u, {
      method: 'GET',
      headers: opts.headers,
      signal: controller.signal,
    });
    const connectTimer = setTimeout(
      () => controller.abort(new TimeoutError(`${opts.what}: no answer within ${secs(opts.connectMs)}.`)),
      opts.connectMs,
    );
    req.on('error', (e) => {
      clearTimeout(connectTimer);
      unlink();
      reject(mapError(e));
    });
    req.once('response', (res) => {
      clearTimeout(connectTimer);
      // The abort listener stays until the body is done with, so cancelling mid-transfer still destroys it.
      res.once('close', unlink);
      resolve({
        status: res.statusCode ?? 0,
        headers: flatHeaders(res.headers),
        body: res,
        fail: (reason) => {
          controller.abort(reason);
          res.destroy(reason);
        },
        mapError,
      });
    });
    req.end();
  });
}

function flatHeaders(h: http.IncomingHttpHeaders): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(h)) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}
