// Records every request each origin receives (control API excluded) so tests can assert what was sent where:
// e.g. that the signed-URL origin never saw X-API-Key, or that a stopped stream was aborted by the client.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RecordedInference, RecordedRequest } from './types';

/** Long benchmarks must not grow memory without bound: keep the most recent entries only. */
const MAX_ENTRIES = 50_000;

export class Recorder {
  /** Same array for the emulator's lifetime (clear() empties it in place), so callers may keep a reference. */
  readonly received: RecordedRequest[] = [];
  /** Entries whose connection the emulator itself cut (reset/truncate faults): not a client abort. */
  private readonly cutByFault = new WeakSet<RecordedRequest>();
  /** Each request's entry, for a route that adds what it read of the body (inference: the prompt the model got). */
  private readonly entries = new WeakMap<IncomingMessage, RecordedRequest>();

  record(origin: 'api' | 'storage', req: IncomingMessage, res: ServerResponse): RecordedRequest {
    const entry: RecordedRequest = {
      origin,
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      headers: { ...req.headers },
      time: Date.now(),
    };
    this.received.push(entry);
    this.entries.set(req, entry);
    if (this.received.length > MAX_ENTRIES) {
      this.received.splice(0, this.received.length - MAX_ENTRIES);
    }
    res.once('close', () => {
      if (res.headersSent) {
        entry.status = res.statusCode;
      }
      if (!res.writableFinished && !this.cutByFault.has(entry)) {
        entry.aborted = true;
      }
    });
    return entry;
  }

  /** Records the fields of the request's JSON body a test reads (see RecordedRequest.inference). */
  noteInference(req: IncomingMessage, inference: RecordedInference): void {
    const entry = this.entries.get(req);
    if (entry) entry.inference = inference;
  }

  markCutByFault(entry: RecordedRequest): void {
    this.cutByFault.add(entry);
  }

  clear(): void {
    this.received.length = 0;
  }
}
