// A local model behind the interface a run already uses for the service (InferenceClient), so a local run gets the
// same delta batching, timings, Stop and end messages as a hosted one. The runtime calls back per chunk; the stream
// hands those on in order and ends when generation ends. Stop aborts the runtime's signal (it ends with the partial
// text). No `vscode` import: tested under plain mocha with a fake runtime.
import { InlineReasoning, mergePieces, type InferencePiece } from '../../../api/answerText';
import type { InferenceRequest } from '../../../api/types';
import type { LocalGenerateRequest, LocalRuntime, LocalRuntimeErrorKind } from '../../../local/localRuntime';
import type { InferenceClient } from './inferenceRun';

const RUNTIME_KINDS: ReadonlySet<string> = new Set<LocalRuntimeErrorKind>([
  'unavailable',
  'load-failed',
  'load-timeout',
  'memory-limit',
  'crashed',
]);

/** A local run's failure, in words that name the file; the panel shows it like a service error. */
export class LocalRunFailure extends Error {
  constructor(
    readonly runtimeKind: LocalRuntimeErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'LocalRunFailure';
  }

  /** A crash, a hang or a runaway allocation ends that runtime only: the next run starts a fresh one. */
  get retryable(): boolean {
    return this.runtimeKind === 'crashed' || this.runtimeKind === 'load-timeout' || this.runtimeKind === 'memory-limit';
  }
}

export interface LocalModelTarget {
  path: string;
  /** How the messages name the model: the file's name, never its folder. */
  fileName: string;
}

/** Words for each kind of failure (the panel gives localized ones). */
export type DescribeFailure = (kind: LocalRuntimeErrorKind, fileName: string, detail: string) => string;

/**
 * The longest answer a local run writes. The service bounds an answer on its side; a local model left unbounded writes
 * until its context is full, and a small or badly tuned one may never say it is done.
 */
export const LOCAL_ANSWER_TOKENS = 1024;

export function localInferenceClient(runtime: LocalRuntime, target: LocalModelTarget, describe: DescribeFailure): InferenceClient {
  const request = (req: InferenceRequest): LocalGenerateRequest => ({
    modelPath: target.path,
    prompt: req.prompt,
    temperature: req.temperature,
    maxTokens: LOCAL_ANSWER_TOKENS,
  });
  const failure = (error: unknown): unknown => {
    // By shape, not class: the runtime may come from another bundle (the in-editor tests' fake does).
    const e = typeof error === 'object' && error !== null ? (error as { name?: unknown; kind?: unknown; message?: unknown }) : {};
    if (e.name !== 'LocalRuntimeError' || typeof e.kind !== 'string' || !RUNTIME_KINDS.has(e.kind)) return error;
    const kind = e.kind as LocalRuntimeErrorKind;
    return new LocalRunFailure(kind, describe(kind, target.fileName, typeof e.message === 'string' ? e.message : ''));
  };
  return {
    infer: (req, { signal }) =>
      pieces(req.stream ? streamed(runtime, request(req), signal, failure) : whole(runtime, request(req), signal, failure)),
  };
}

/** A local model that thinks writes `<think>…</think>` first (Qwen3, DeepSeek R1 distills): shown apart, as a service's. */
async function* pieces(text: AsyncIterable<string>): AsyncGenerator<InferencePiece> {
  const inline = new InlineReasoning();
  for await (const t of text) yield* mergePieces(inline.push(t));
  yield* inline.end();
}

async function* whole(
  runtime: LocalRuntime,
  req: LocalGenerateRequest,
  signal: AbortSignal | undefined,
  failure: (error: unknown) => unknown,
): AsyncGenerator<string> {
  const controller = linkedController(signal);
  try {
    yield (await runtime.generate(req, () => undefined, controller.signal)).text;
  } catch (error) {
    throw failure(error);
  } finally {
    controller.dispose();
  }
}

async function* streamed(
  runtime: LocalRuntime,
  req: LocalGenerateRequest,
  signal: AbortSignal | undefined,
  failure: (error: unknown) => unknown,
): AsyncGenerator<string> {
  const controller = linkedController(signal);
  const queue: string[] = [];
  let wake: (() => void) | undefined;
  let finished = false;
  let failed: { error: unknown } | undefined;
  const settle = () => {
    finished = true;
    wake?.();
  };
  void runtime
    .generate(
      req,
      (text) => {
        queue.push(text);
        wake?.();
      },
      controller.signal,
    )
    .then(settle, (error: unknown) => {
      failed = { error };
      settle();
    });
  try {
    for (;;) {
      // Everything that arrived since the last turn goes as one delta: the batcher would join them anyway.
      if (queue.length > 0) yield queue.splice(0).join('');
      else if (finished) break;
      else await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
    if (failed) throw failure(failed.error);
  } finally {
    // Left early (Stop, too much output): the runtime stops generating; after a normal end this changes nothing.
    controller.abort();
    controller.dispose();
  }
}

/** An AbortController that also aborts when `outer` does, and lets go of `outer` when disposed. */
function linkedController(outer: AbortSignal | undefined): AbortController & { dispose(): void } {
  const controller = new AbortController();
  const abort = () => controller.abort();
  if (outer?.aborted) abort();
  else outer?.addEventListener('abort', abort, { once: true });
  return Object.assign(controller, { dispose: () => outer?.removeEventListener('abort', abort) });
}
