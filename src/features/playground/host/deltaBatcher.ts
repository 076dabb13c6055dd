// Coalesces a run's text deltas before they cross to the webview. A fast model (thousands of tokens a second) would
// otherwise cost one postMessage (a structured clone and an IPC hop) per token and make the webview re-render for
// each; one message per display frame or so looks the same to a person and costs a fraction.
// No `vscode` import: the batcher is tested under plain mocha with a fake clock.

export interface BatcherClock {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  /** Milliseconds on a monotonic clock. */
  time(): number;
}

export interface DeltaBatcherOptions {
  /** Shortest time between two messages, and so the longest a delta waits: about one display frame. */
  intervalMs?: number;
  /** Pending text this long is sent at once, so a burst cannot build one huge message. */
  maxChars?: number;
  clock?: BatcherClock;
}

/**
 * One display frame at 60 Hz: the page renders at most once a frame, so waiting longer only adds latency (every token
 * waits up to this long), and posting more often only adds messages.
 */
export const DEFAULT_INTERVAL_MS = 16;
export const DEFAULT_MAX_CHARS = 16 * 1024;

const realClock: BatcherClock = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  time: () => performance.now(),
};

/** What a chunk holds: the answer, or the reasoning written before it (shown apart). */
export type ChunkKind = 'answer' | 'reasoning';

export class DeltaBatcher {
  private parts: string[] = [];
  private kind: ChunkKind = 'answer';
  private pendingChars = 0;
  private timer: unknown;
  /** When the last message went out; undefined before the first. */
  private sentAt: number | undefined;
  private closed = false;
  private readonly intervalMs: number;
  private readonly maxChars: number;
  private readonly clock: BatcherClock;

  /** `emit` receives the text in order; nothing is dropped, merged across emits or kinds, or sent twice. */
  constructor(
    private readonly emit: (text: string, kind: ChunkKind) => void,
    options: DeltaBatcherOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? DEFAULT_INTERVAL_MS;
    this.maxChars = options.maxChars ?? DEFAULT_MAX_CHARS;
    this.clock = options.clock ?? realClock;
  }

  push(delta: string, kind: ChunkKind = 'answer'): void {
    if (this.closed) throw new Error('DeltaBatcher: push after close');
    if (delta.length === 0) return;
    // A change of kind sends what is pending first: one message never mixes reasoning with the answer.
    if (kind !== this.kind && this.pendingChars > 0) this.flush();
    this.kind = kind;
    this.parts.push(delta);
    this.pendingChars += delta.length;
    // Text goes out at once when the last message is an interval old or more (the first text: time to first token
    // is what a person notices most; a model slower than one token per frame: every token as it comes). Otherwise it
    // waits for the rest of the interval, so messages are at most one per interval however fast deltas come.
    const wait = this.sentAt === undefined ? 0 : this.sentAt + this.intervalMs - this.clock.time();
    if (wait <= 0 || this.pendingChars >= this.maxChars) {
      this.flush();
      return;
    }
    if (this.timer === undefined) {
      this.timer = this.clock.setTimeout(() => {
        this.timer = undefined;
        this.flush();
      }, wait);
    }
  }

  /** Sends whatever is pending now (the run ended, failed or was stopped). */
  flush(): void {
    if (this.timer !== undefined) {
      this.clock.clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.pendingChars === 0) return;
    const text = this.parts.length === 1 ? (this.parts[0] as string) : this.parts.join('');
    this.parts = [];
    this.pendingChars = 0;
    this.sentAt = this.clock.time();
    this.emit(text, this.kind);
  }

  /** Flushes and refuses further text; the run's end message must follow every chunk, never precede one. */
  close(): void {
    this.flush();
    this.closed = true;
  }
}
