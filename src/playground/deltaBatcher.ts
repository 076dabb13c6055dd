// Coalesces a run's text deltas before they cross to the webview. A fast model (thousands of tokens a second) would
// otherwise cost one postMessage (a structured clone and an IPC hop) per token and make the webview re-render for
// each; one message per display frame or so looks the same to a person and costs a fraction.
// No `vscode` import: the batcher is tested under plain mocha with a fake clock.

export interface BatcherClock {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface DeltaBatcherOptions {
  /** Longest a delta waits before it is sent: about one display frame. */
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
};

export class DeltaBatcher {
  private parts: string[] = [];
  private pendingChars = 0;
  private timer: unknown;
  private sentAny = false;
  private closed = false;
  private readonly intervalMs: number;
  private readonly maxChars: number;
  private readonly clock: BatcherClock;

  /** `emit` receives the text in order; nothing is dropped, merged across emits or sent twice. */
  constructor(
    private readonly emit: (text: string) => void,
    options: DeltaBatcherOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? DEFAULT_INTERVAL_MS;
    this.maxChars = options.maxChars ?? DEFAULT_MAX_CHARS;
    this.clock = options.clock ?? realClock;
  }

  /** Text waiting to be sent. */
  get pending(): number {
    return this.pendingChars;
  }

  push(delta: string): void {
    if (this.closed) throw new Error('DeltaBatcher: push after close');
    if (delta.length === 0) return;
    this.parts.push(delta);
    this.pendingChars += delta.length;
    // The first text goes out at once: time to first token is what a person notices most.
    if (!this.sentAny || this.pendingChars >= this.maxChars) {
      this.flush();
      return;
    }
    // One timer per batch, started by its first delta: at most one timed flush per interval however fast deltas come.
    if (this.timer === undefined) {
      this.timer = this.clock.setTimeout(() => {
        this.timer = undefined;
        this.flush();
      }, this.intervalMs);
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
    this.sentAny = true;
    this.emit(text);
  }

  /** Flushes and refuses further text; the run's end message must follow every chunk, never precede one. */
  close(): void {
    this.flush();
    this.closed = true;
  }
}
