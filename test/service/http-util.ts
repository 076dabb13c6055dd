// Small HTTP helpers shared by the route modules: FastAPI-style JSON errors, bounded JSON body reading, sleeps that
// end early when the client goes away.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { styledError, type ServiceShape } from './styles';

/** The style each API response is answered in (set by emulator.ts per request; read when an error is sent). */
const responseShapes = new WeakMap<ServerResponse, () => ServiceShape>();

export function answerInStyle(res: ServerResponse, shape: () => ServiceShape): void {
  responseShapes.set(res, shape);
}

function styled(res: ServerResponse, status: number, detail: string | ValidationIssue[]): unknown {
  const shape = responseShapes.get(res)?.() ?? 'default';
  return styledError(shape, status, detail);
}

/** One entry of FastAPI's 422 body: {"detail": [{type, loc, msg, input?}]}. */
export interface ValidationIssue {
  type: string;
  loc: (string | number)[];
  msg: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) {
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

/** `{"detail": "..."}`: the shape FastAPI uses for HTTPException. */
export function sendDetail(res: ServerResponse, status: number, detail: string, headers: Record<string, string> = {}): void {
  sendJson(res, status, styled(res, status, detail) ?? { detail }, headers);
}

/** FastAPI's request-validation shape. */
export function sendValidation(res: ServerResponse, issues: ValidationIssue[]): void {
  sendJson(res, 422, styled(res, 422, issues) ?? { detail: issues });
}

export function missing(loc: (string | number)[], input?: unknown): ValidationIssue {
  return { type: 'missing', loc, msg: 'Field required', input: input ?? null };
}

export class BodyTooLarge extends Error {}

/** Reads a request body into memory, refusing more than `limit` bytes (only for small JSON bodies). */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        // Stop buffering but keep draining so the 413 can still be delivered on this connection.
        chunks.length = 0;
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => (size > limit ? reject(new BodyTooLarge()) : resolve(Buffer.concat(chunks))));
    req.on('error', reject);
    req.on('close', () => {
      if (!req.complete) {
        reject(new Error('client closed the request'));
      }
    });
  });
}

export type JsonBody = { ok: true; value: Record<string, unknown> } | { ok: false };

/**
 * Reads and parses a JSON object body. On failure it has already answered (413, or 422 in FastAPI's json_invalid /
 * model_attributes_type shape) and returns {ok: false}.
 */
export async function readJsonObject(req: IncomingMessage, res: ServerResponse, limit = 1024 * 1024): Promise<JsonBody> {
  let raw: Buffer;
  try {
    raw = await readBody(req, limit);
  } catch (err) {
    if (err instanceof BodyTooLarge) {
      sendDetail(res, 413, `Request body exceeds ${limit} bytes`);
    }
    return { ok: false };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch (err) {
    sendValidation(res, [
      {
        type: 'json_invalid',
        loc: ['body', 0],
        msg: 'JSON decode error',
        input: {},
        ctx: { error: err instanceof Error ? err.message : String(err) },
      },
    ]);
    return { ok: false };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    sendValidation(res, [
      {
        type: 'model_attributes_type',
        loc: ['body'],
        msg: 'Input should be a valid dictionary or object to extract fields from',
        input: parsed,
      },
    ]);
    return { ok: false };
  }
  return { ok: true, value: parsed as Record<string, unknown> };
}

/** Resolves after `ms`, or as soon as `res` closes (returns false then), so timers never outlive a dead client. */
export function sleepUnlessClosed(res: ServerResponse, ms: number): Promise<boolean> {
  if (res.destroyed || res.writableFinished) {
    return Promise.resolve(false);
  }
  return new Promise((resolve) => {
    const onClose = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      res.off('close', onClose);
      resolve(!res.destroyed);
    }, ms);
    res.once('close', onClose);
  });
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function nowIso(): string {
  return new Date().toISOString();
}

/**
 * A job's start answered in the shape the emulator was told (EmulatorOptions.answerShapes.start): the id at top level,
 * nested two levels down, only in the Location header of a 202 with an empty body, or beside another thing's id under
 * the same key at the same depth ('two-ids': a start the client cannot read alone, for Choose How to Read…).
 */
export function sendStarted(
  res: ServerResponse,
  shape: 'flat' | 'nested' | 'location' | 'two-ids' | undefined,
  jobId: string,
  statusPath: string,
): void {
  if (shape === 'location') {
    res.writeHead(202, { Location: `${statusPath}?job_id=${encodeURIComponent(jobId)}`, 'Content-Length': '0' });
    res.end();
  } else if (shape === 'two-ids') {
    sendJson(res, 200, { accepted: true, result: { job: { ref: jobId }, batch: { ref: `batch-${jobId.length}07` } } });
  } else if (shape === 'nested') {
    sendJson(res, 200, { accepted: true, result: { job: { ref: jobId, status: 'queued' } } });
  } else {
    sendJson(res, 200, { job_id: jobId, status: 'queued' });
  }
}
