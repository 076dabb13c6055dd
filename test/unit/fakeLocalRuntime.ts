// A LocalRuntime that streams scripted chunks (one per event-loop turn, no timers), can hold after some of them until
// its signal aborts (to test Stop), and can fail with a runtime error kind. Used by the unit tests and, through the
// ExtensionApi's services, by the in-editor tests.
import {
  LocalRuntimeError,
  type LocalGenerateRequest,
  type LocalGenerateResult,
  type LocalRuntime,
  type LocalRuntimeErrorKind,
} from '../../src/local/localRuntime';

export interface FakeScript {
  chunks: string[];
  /** Emit this many chunks, then wait until the run is aborted (it then ends with the partial text). */
  holdAfter?: number;
  /** After the chunks, fail like the runtime does. */
  fail?: { kind: LocalRuntimeErrorKind; message: string };
}

export class FakeLocalRuntime implements LocalRuntime {
  readonly requests: LocalGenerateRequest[] = [];
  /** How many generations saw their signal abort. */
  aborted = 0;
  disposed = false;
  private heldOnce!: () => void;
  /** Resolves when a generation reaches holdAfter. */
  readonly held = new Promise<void>((resolve) => (this.heldOnce = resolve));

  constructor(
    public script: FakeScript = { chunks: ['Hello', ' from', ' this', ' machine.'] },
    public isAvailable = true,
  ) {}

  available(): Promise<boolean> {
    return Promise.resolve(this.isAvailable);
  }

  async generate(req: LocalGenerateRequest, onChunk: (text: string) => void, signal: AbortSignal): Promise<LocalGenerateResult> {
    this.requests.push(req);
    const { chunks, holdAfter, fail } = this.script;
    let text = '';
    const result = (stopped: boolean): LocalGenerateResult => ({ text, stopped, tokens: text.length, totalMs: 0 });
    for (let i = 0; i <= chunks.length; i++) {
      if (i === holdAfter) {
        this.heldOnce();
        await new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve())));
      }
      if (signal.aborted) {
        this.aborted++;
        return result(true);
      }
      if (i === chunks.length) break;
      await new Promise<void>((resolve) => setImmediate(resolve));
      onChunk(chunks[i]!);
      text += chunks[i]!;
    }
    if (fail) throw new LocalRuntimeError(fail.kind, fail.message);
    return result(false);
  }

  dispose(): void {
    this.disposed = true;
  }
}
