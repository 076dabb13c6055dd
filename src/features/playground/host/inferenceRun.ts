// One run of the playground: sends the request (streamed or not), passes the reasoning and the answer on in ordered,
// batched chunks (a chunk holds one or the other), measures time to first text, thinking time and total time, and
// ends with exactly one `done` or `error`. Stop aborts the HTTP
// request at once. It also keeps what it has sent, so a webview re-created while hidden can be brought up to date.
// No `vscode` import: tested under plain mocha with a fake client.
import type { InferencePiece } from '../../../api/answerText';
import type { ServiceWait } from '../../../api/http';
import type { InferenceRequest } from '../../../api/types';
import { DeltaBatcher, type ChunkKind, type DeltaBatcherOptions } from './deltaBatcher';
import { playgroundObserver } from '../latencyObserver';
import type { DoneMessage, ErrorMessage, HostToWebview, RunSettings, RunSnapshot, RunTiming } from '../protocol';
import { runErrorInfo } from './runError';

/** The part of the service client a run uses (ServiceClient.infer: typed pieces, streamed or not). */
export interface InferenceClient {
  infer(
    req: InferenceRequest,
    opts: { signal?: AbortSignal; interactive?: boolean; onServiceWait?: (wait: ServiceWait) => void },
  ): AsyncIterable<InferencePiece>;
}

export interface InferenceRunOptions {
  batcher?: DeltaBatcherOptions;
  now?: () => number;
  /** A runaway answer is cut here rather than held in memory without bound. */
  maxOutputChars?: number;
}

export const DEFAULT_MAX_OUTPUT_CHARS = 5_000_000;

/** Thrown (and reported as a contract error) when an answer passes maxOutputChars. */
class OutputTooLargeError extends Error {
  readonly kind = 'contract';
  constructor(max: number) {
    super(`The answer passed ${max.toLocaleString('en-US')} characters; the rest was not read.`);
    this.name = 'OutputTooLargeError';
  }
}

export class InferenceRun {
  private readonly controller = new AbortController();
  private readonly parts: string[] = [];
  private readonly reasoningParts: string[] = [];
  private chars = 0;
  private reasoningChars = 0;
  private thinkingMs: number | undefined;
  private nextSeq = 0;
  private ttfbMs: number | undefined;
  private stopRequested = false;
  private ended: DoneMessage | ErrorMessage | undefined;
  /** The service's wait, until the first chunk (kept for a snapshot). */
  private wait: ServiceWait | undefined;
  private readonly now: () => number;
  private readonly maxOutputChars: number;
  private readonly observer = playgroundObserver();

  constructor(
    readonly runId: string,
    readonly settings: RunSettings,
    private readonly post: (message: HostToWebview) => void,
    private readonly options: InferenceRunOptions = {},
  ) {
    this.now = options.now ?? (() => performance.now());
    this.maxOutputChars = options.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS;
  }

  get isRunning(): boolean {
    return this.ended === undefined;
  }

  get end(): DoneMessage | ErrorMessage | undefined {
    return this.ended;
  }

  /** The text sent to the webview so far. */
  get text(): string {
    if (this.parts.length > 1) this.parts.splice(0, this.parts.length, this.parts.join(''));
    return this.parts[0] ?? '';
  }

  /** The reasoning sent to the webview so far. */
  get reasoning(): string {
    const parts = this.reasoningParts;
    if (parts.length > 1) parts.splice(0, parts.length, parts.join(''));
    return parts[0] ?? '';
  }

  snapshot(): RunSnapshot {
    return {
      runId: this.runId,
      text: this.text,
      reasoning: this.reasoning,
      ...(this.thinkingMs !== undefined ? { thinkingMs: round(this.thinkingMs) } : {}),
      nextSeq: this.nextSeq,
      ...(this.wait ? { wait: { ...this.wait } } : {}),
      ...(this.ended ? { end: this.ended } : {}),
    };
  }

  /** Ends the run now: the request is aborted (its connection closed) and the run reports `done` with `stopped`. */
  stop(): void {
    if (!this.isRunning) return;
    this.stopRequested = true;
    this.controller.abort();
  }

  /** Runs to the end; never throws (failures become an `error` message). */
  async execute(connect: () => Promise<InferenceClient>): Promise<void> {
    const started = this.now();
    const signal = this.controller.signal;
    const batcher = new DeltaBatcher((text, kind) => this.sendChunk(text, kind), this.options.batcher);
    const accept = (piece: InferencePiece) => {
      const delta = piece.text;
      if (delta.length === 0) return;
      if (this.chars + this.reasoningChars + delta.length > this.maxOutputChars) throw new OutputTooLargeError(this.maxOutputChars);
      const at = this.now() - started;
      if (this.ttfbMs === undefined) this.ttfbMs = at;
      if (piece.kind === 'reasoning') {
        this.reasoningChars += delta.length;
        this.observer?.reasoningRead?.(this.runId);
      } else {
        // Thinking ends where the answer starts.
        if (this.chars === 0 && this.reasoningChars > 0) this.thinkingMs = at;
        this.chars += delta.length;
        this.observer?.deltaRead?.(this.runId);
      }
      batcher.push(delta, piece.kind);
    };
    try {
      const client = await connect();
      signal.throwIfAborted();
      // The spec's documented usage sends the prompt again as the query part.
      const request: InferenceRequest = { ...this.settings, queryOnly: this.settings.queryOnly ?? this.settings.prompt };
      // A person watches the run: the service's wait is said in the pane, and slept at most once (then Retry).
      const onServiceWait = (wait: ServiceWait) => {
        this.wait = wait;
        this.post({ type: 'wait', runId: this.runId, waitMs: wait.waitMs, until: wait.until });
      };
      // Leaving the loop (stop, too much output) closes the generator, which aborts the request.
      for await (const piece of client.infer(request, { signal, interactive: true, onServiceWait })) {
        if (this.stopRequested) break;
        accept(piece);
      }
      batcher.close();
      this.finish({ type: 'done', runId: this.runId, stopped: this.stopRequested, timing: this.timing(started) });
    } catch (error) {
      batcher.close();
      this.controller.abort();
      if (this.stopRequested) {
        // The abort we caused surfaces as a cancellation: the user asked for it, it is not a failure.
        this.finish({ type: 'done', runId: this.runId, stopped: true, timing: this.timing(started) });
      } else {
        this.finish({ type: 'error', runId: this.runId, error: runErrorInfo(error), timing: this.timing(started) });
      }
    }
  }

  /** Used when a run is refused before it starts (too many at once). */
  refuse(message: string): void {
    this.finish({
      type: 'error',
      runId: this.runId,
      error: { message, kind: 'request', retryable: true },
      timing: { totalMs: 0, chars: 0 },
    });
  }

  private sendChunk(text: string, kind: ChunkKind): void {
    this.wait = undefined;
    // Kept as sent (not as received), so a snapshot's text and nextSeq always agree.
    (kind === 'reasoning' ? this.reasoningParts : this.parts).push(text);
    const seq = this.nextSeq++;
    this.observer?.chunkPosted?.(this.runId, seq);
    this.post({
      type: 'chunk',
      runId: this.runId,
      seq,
      text,
      ...(kind === 'reasoning' ? { reasoning: true as const } : {}),
      ...(seq === 0 && this.ttfbMs !== undefined ? { ttfbMs: round(this.ttfbMs) } : {}),
    });
  }

  private timing(started: number): RunTiming {
    const totalMs = this.now() - started;
    const reasoned = this.reasoningChars > 0;
    return {
      ...(this.ttfbMs !== undefined ? { ttfbMs: round(this.ttfbMs) } : {}),
      totalMs: round(totalMs),
      chars: this.chars,
      ...(reasoned ? { reasoningChars: this.reasoningChars, thinkingMs: round(this.thinkingMs ?? totalMs) } : {}),
    };
  }

  private finish(message: DoneMessage | ErrorMessage): void {
    if (this.ended) return;
    this.ended = message;
    this.post(message);
  }
}

/** Tenths of a millisecond: finer is noise, coarser hides a fast first token. */
function round(ms: number): number {
  return Math.round(Math.max(0, ms) * 10) / 10;
}
