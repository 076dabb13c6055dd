// Scriptable failures. Rules are matched per request (origin, method, path without query) and spent after `times`
// uses. 'latency', 'status' and 'body' (any status and headers: a hostile 206, an encoded artifact) act before the
// route handler; 'reset', 'truncate' and 'stall' act on the response
// body by wrapping res.write/res.end, so they work for every handler (JSON, streams, piped file downloads) alike.
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { sendJson, sleepUnlessClosed } from './http-util';
import type { Recorder } from './recorder';
import type { FaultRule, RecordedRequest } from './types';

interface ActiveRule {
  rule: FaultRule;
  remaining: number;
}

export class FaultTable {
  private rules: ActiveRule[] = [];

  add(rule: FaultRule): void {
    if (typeof rule.path !== 'string' && !(rule.path instanceof RegExp)) {
      throw new TypeError('fault rule needs a path (string or RegExp)');
    }
    const kinds = ['latency', 'status', 'reset', 'stall', 'truncate', 'body'];
    if (!kinds.includes(rule.kind)) {
      throw new TypeError(`unknown fault kind '${String(rule.kind)}'`);
    }
    this.rules.push({ rule, remaining: rule.times ?? 1 });
  }

  clear(): void {
    this.rules = [];
  }

  /** Rules still armed, with how many uses each has left. */
  list(): { rule: FaultRule; remaining: number }[] {
    return this.rules.map((r) => ({ rule: r.rule, remaining: r.remaining }));
  }

  /**
   * Takes (and spends one use of) the rules matching this request: every matching 'latency' rule, plus the first
   * matching rule of any other kind (a response can only fail in one way).
   */
  take(origin: 'api' | 'storage', method: string, path: string): FaultRule[] {
    const taken: FaultRule[] = [];
    let haveTerminal = false;
    for (const active of this.rules) {
      const { rule } = active;
      if (active.remaining <= 0 || (rule.origin ?? 'api') !== origin) {
        continue;
      }
      if (rule.method && rule.method.toUpperCase() !== method.toUpperCase()) {
        continue;
      }
      const matches = typeof rule.path === 'string' ? rule.path === path : rule.path.test(path);
      if (!matches) {
        continue;
      }
      if (rule.kind !== 'latency') {
        if (haveTerminal) {
          continue;
        }
        haveTerminal = true;
      }
      active.remaining -= 1;
      taken.push(rule);
    }
    this.rules = this.rules.filter((r) => r.remaining > 0);
    return taken;
  }
}

/**
 * Applies the pre-handler part of the rules. Returns true when the route handler should still run (possibly with a
 * body fault installed), false when the fault answered the request or the client left during the delay.
 */
export async function applyFaults(
  rules: FaultRule[],
  res: ServerResponse,
  entry: RecordedRequest | undefined,
  recorder: Recorder,
): Promise<boolean> {
  if (rules.length === 0) {
    return true;
  }
  if (entry) {
    entry.fault = rules.map((r) => r.kind).join(',');
  }
  for (const rule of rules) {
    if (rule.kind === 'latency' && !(await sleepUnlessClosed(res, rule.ms ?? 0))) {
      return false;
    }
  }
  const terminal = rules.find((r) => r.kind !== 'latency');
  if (!terminal) {
    return true;
  }
  switch (terminal.kind) {
    case 'status': {
      const status = terminal.status ?? 503;
      const headers: Record<string, string> = {
        ...(terminal.retryAfter !== undefined ? { 'Retry-After': retryAfterHeader(terminal.retryAfter) } : {}),
        ...terminal.headers,
      };
      if (terminal.body !== undefined) {
        // A chosen error body (a hostile detail, deepJson()): sent as is, whatever it holds.
        const body = Buffer.from(terminal.body);
        res.writeHead(status, {
          ...headers,
          'Content-Type': terminal.contentType ?? 'application/json',
          'Content-Length': String(body.length),
        });
        res.end(body);
        return false;
      }
      sendJson(res, status, { detail: `Emulated fault: HTTP ${status}` }, headers);
      return false;
    }
    case 'body': {
      const body = terminal.body === undefined ? Buffer.alloc(0) : Buffer.from(terminal.body);
      res.writeHead(terminal.status ?? 200, {
        'Content-Type': terminal.contentType ?? 'application/json',
        'Content-Length': String(body.length),
        ...terminal.headers,
      });
      res.end(body);
      return false;
    }
    default:
      installBodyFault(res, terminal, () => {
        if (entry) {
          recorder.markCutByFault(entry);
        }
      });
      return true;
  }
}

/** Retry-After as the server writes it: seconds as given, a Date as an HTTP date (second resolution, as RFC 9110 says). */
export function retryAfterHeader(value: string | number | Date): string {
  if (value instanceof Date) return value.toUTCString();
  return String(value);
}

/**
 * JSON text nested `depth` levels deep: `[[[…]]]`, or `{"a":{"a":…}}` with `object`. Built by repetition, never by
 * JSON.stringify (which itself dies of recursion long before 100,000 levels).
 */
export function deepJson(depth: number, shape: 'array' | 'object' = 'array'): string {
  return shape === 'array' ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

type Callback = (err?: Error | null) => void;
type RawWrite = (chunk: Buffer, cb?: Callback) => boolean;
type RawEnd = (cb?: () => void) => ServerResponse;

/** Normalises the (chunk, encoding?, cb?) overloads of write/end. */
function splitArgs(args: unknown[]): { chunk: Buffer | undefined; cb: Callback | undefined } {
  let chunk: Buffer | undefined;
  let encoding: BufferEncoding = 'utf8';
  let cb: Callback | undefined;
  const [first, second, third] = args;
  if (typeof first === 'function') {
    cb = first as Callback;
  } else if (typeof first === 'string') {
    if (typeof second === 'string') {
      encoding = second as BufferEncoding;
    }
    chunk = Buffer.from(first, encoding);
  } else if (first instanceof Uint8Array) {
    chunk = Buffer.from(first.buffer, first.byteOffset, first.byteLength);
  }
  if (typeof second === 'function') {
    cb = second as Callback;
  } else if (typeof third === 'function') {
    cb = third as Callback;
  }
  return { chunk, cb };
}

function destroySocket(socket: Socket | null): void {
  if (!socket || socket.destroyed) {
    return;
  }
  // resetAndDestroy sends a real TCP RST (what a crashed proxy or load balancer produces); destroy() is the fallback.
  if (typeof socket.resetAndDestroy === 'function') {
    socket.resetAndDestroy();
  } else {
    socket.destroy();
  }
}

/** Wraps res.write/res.end so the body is cut (reset/truncate) or held back (stall). */
function installBodyFault(res: ServerResponse, rule: FaultRule, onCut: () => void): void {
  const rawWrite = res.write.bind(res) as unknown as RawWrite;
  const rawEnd = res.end.bind(res) as unknown as RawEnd;
  const patchable = res as unknown as { write: (...args: unknown[]) => boolean; end: (...args: unknown[]) => ServerResponse };

  if (rule.kind === 'stall') {
    // Headers go out at the first write/end, then nothing until `ms` passes (or forever: the client must time out).
    let released = false;
    let started = false;
    let timer: NodeJS.Timeout | undefined;
    const queue: (() => void)[] = [];
    const startStall = (): void => {
      if (started) {
        return;
      }
      started = true;
      // Always flush: after writeHead() headersSent is already true although nothing has reached the socket yet.
      res.flushHeaders();
      if (rule.ms !== undefined) {
        timer = setTimeout(() => {
          released = true;
          for (const job of queue.splice(0)) {
            job();
          }
          res.emit('drain');
        }, rule.ms);
      }
      // Without `ms` the stall lasts until the client gives up and closes the connection.
    };
    res.once('close', () => clearTimeout(timer));
    patchable.write = (...args: unknown[]): boolean => {
      const { chunk, cb } = splitArgs(args);
      if (released) {
        return rawWrite(chunk ?? Buffer.alloc(0), cb);
      }
      startStall();
      queue.push(() => rawWrite(chunk ?? Buffer.alloc(0), cb));
      return false; // backpressure: pipes and token loops wait for 'drain'
    };
    patchable.end = (...args: unknown[]): ServerResponse => {
      const { chunk, cb } = splitArgs(args);
      const finish = (): void => {
        if (chunk && chunk.length > 0) {
          rawWrite(chunk);
        }
        rawEnd(cb);
      };
      if (released) {
        finish();
      } else {
        startStall();
        queue.push(finish);
      }
      return res;
    };
    return;
  }

  // reset / truncate: let `afterBytes` body bytes through, then cut.
  const limit = rule.afterBytes ?? 0;
  let sent = 0;
  let cut = false;
  const cutNow = (head: Buffer): void => {
    cut = true;
    onCut();
    if (head.length === 0) {
      res.flushHeaders();
    }
    if (rule.kind === 'reset') {
      const socket = res.socket;
      // Give the kernel a moment to hand the head to the client before the RST discards anything unsent.
      const later = (): void => {
        setTimeout(() => destroySocket(socket), 20);
      };
      if (head.length > 0) {
        rawWrite(head, later);
      } else {
        later();
      }
      return;
    }
    // truncate: with a declared Content-Length the client sees EOF before the declared length (premature close);
    // with chunked encoding it sees a well-formed but short body (e.g. half a JSON document).
    if (head.length > 0) {
      rawWrite(head);
    }
    res.shouldKeepAlive = false;
    rawEnd();
  };
  const feed = (chunk: Buffer | undefined, cb?: Callback): boolean => {
    if (!chunk || chunk.length === 0) {
      cb?.();
      return true;
    }
    if (sent + chunk.length <= limit) {
      sent += chunk.length;
      return rawWrite(chunk, cb);
    }
    const head = chunk.subarray(0, Math.max(0, limit - sent));
    sent = limit;
    cutNow(head);
    cb?.();
    return false;
  };
  patchable.write = (...args: unknown[]): boolean => {
    const { chunk, cb } = splitArgs(args);
    if (cut) {
      cb?.();
      // Swallow, and report backpressure: pipes and token loops then wait for a 'drain' that never comes until the
      // response's 'close' tells them to stop (instead of reading a multi-GB file into the void).
      return false;
    }
    return feed(chunk, cb);
  };
  patchable.end = (...args: unknown[]): ServerResponse => {
    const { chunk, cb } = splitArgs(args);
    if (!cut) {
      feed(chunk);
    }
    if (!cut) {
      rawEnd(cb);
    } else {
      cb?.();
    }
    return res;
  };
}
