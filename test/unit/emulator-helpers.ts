// Helpers shared by the emulator's own tests (plain fetch / node:http, never the project's client).
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import http from 'node:http';

export const KEY = 'demo-key';
export const BASE = 'oss-reasoner-8b';

export function headers(key = KEY, extra: Record<string, string> = {}): Record<string, string> {
  return { 'X-API-Key': key, ...extra };
}

export async function getJson<T = Record<string, unknown>>(url: string, key = KEY): Promise<{ status: number; body: T }> {
  const res = await fetch(url, { headers: headers(key) });
  return { status: res.status, body: (await res.json()) as T };
}

export async function postJson<T = Record<string, unknown>>(
  url: string,
  body: unknown,
  key = KEY,
  extra: Record<string, string> = {},
): Promise<{ status: number; body: T }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: headers(key, { 'Content-Type': 'application/json', ...extra }),
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as T };
}

export interface TimedChunk {
  bytes: Buffer;
  at: number;
}

/** Reads a fetch body chunk by chunk, recording arrival times. */
export async function readChunks(res: Response): Promise<TimedChunk[]> {
  const chunks: TimedChunk[] = [];
  if (!res.body) {
    return chunks;
  }
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) {
      return chunks;
    }
    chunks.push({ bytes: Buffer.from(value), at: Date.now() });
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Waits for `cond`; `timeoutMs` is a hang guard (generous: a loaded machine is slow), never a measure. */
export async function waitFor(cond: () => boolean, timeoutMs = 15_000, what = 'condition'): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await sleep(10);
  }
}

export async function sha256File(path: string): Promise<string> {
  return createHash('sha256')
    .update(await readFile(path))
    .digest('hex');
}

export interface RawResult {
  status?: number;
  headers?: http.IncomingHttpHeaders;
  body: Buffer;
  /** Error raised by the request or the response stream (reset, premature close). */
  error?: Error;
  /** The response ended normally (complete message). */
  complete: boolean;
}

/** A raw node:http request on a fresh connection (agent: false), so connection-level faults are observable. */
export function rawRequest(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string | Buffer; timeoutMs?: number } = {},
): Promise<RawResult> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let result: RawResult | undefined;
    const finish = (extra: Partial<RawResult>): void => {
      if (result) {
        return;
      }
      result = { body: Buffer.concat(chunks), complete: false, ...extra };
      resolve(result);
    };
    const req = http.request(url, { method: opts.method ?? 'GET', headers: opts.headers, agent: false }, (res) => {
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => finish({ status: res.statusCode, headers: res.headers, complete: res.complete }));
      res.on('error', (error) => finish({ status: res.statusCode, headers: res.headers, error }));
      res.on('close', () =>
        finish({
          status: res.statusCode,
          headers: res.headers,
          complete: res.complete,
          error: res.complete ? undefined : new Error('closed before end'),
        }),
      );
    });
    req.on('error', (error) => finish({ error }));
    if (opts.timeoutMs !== undefined) {
      req.setTimeout(opts.timeoutMs, () => {
        req.destroy(new Error('client timeout'));
      });
    }
    req.end(opts.body);
  });
}
