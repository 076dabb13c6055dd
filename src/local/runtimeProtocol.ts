// The messages between the extension host and the local runtime's child process (src/local/runtimeChild.ts), over the
// fork() IPC channel. Both sides check every message they receive: a child that misbehaves (a native crash can leave
// anything on the channel) or a parent of another version is refused, never acted on half-read.
import { bool, literal, messageProblem, num, exactFields, str, type Check } from '../api/strictChecks';

/** Per request: a change reloads the model. The GPU choice is the child's command line (a change starts a new child). */
export interface ChildOptions {
  /** 0: node-llama-cpp's own choice. */
  threads: number;
  contextSize: number;
}

/** The child's command-line argument that carries the GPU choice. */
export const GPU_ARG = '--gpu=';

/** Parent → child. */
export type ToChild =
  | {
      type: 'generate';
      id: number;
      modelPath: string;
      prompt: string;
      temperature: number;
      maxTokens?: number;
      options: ChildOptions;
    }
  | { type: 'abort'; id: number };

/** Child → parent. */
export type FromChild =
  /** The runtime module is imported and the backend is ready; `gpu` is the backend in use (false: CPU). */
  | { type: 'ready'; gpu: string | false }
  /** Loading a model begins (the parent's load timeout starts). */
  | { type: 'loading'; id: number }
  /** The model is loaded (or was already): generation begins. */
  | { type: 'loaded'; id: number; reused: boolean }
  | { type: 'chunk'; id: number; text: string }
  /** Timings are measured by the parent, on its own clock, from the moment generate() was called. */
  | { type: 'done'; id: number; text: string; stopped: boolean; tokens: number }
  | { type: 'failed'; id: number; stage: 'load' | 'generate'; message: string }
  /** Sent every MEMORY_REPORT_MS, from the child's event loop. */
  | { type: 'memory'; rss: number };

export const MEMORY_REPORT_MS = 250;

const MAX_TEXT = 4 * 1024 * 1024;
const MAX_PATH = 4096;
const id = num(0, Number.MAX_SAFE_INTEGER, true);
const count = num(0, Infinity);
const text = str(0, MAX_TEXT);

const TO_CHILD: Record<ToChild['type'], Check> = {
  generate: exactFields(
    {
      type: literal('generate'),
      id,
      modelPath: str(1, MAX_PATH),
      prompt: text,
      temperature: num(0, 10),
      options: exactFields({ threads: num(0, 1024, true), contextSize: num(64, 1_048_576, true) }),
    },
    { maxTokens: num(1, Infinity, true) },
  ),
  abort: exactFields({ type: literal('abort'), id }),
};

const FROM_CHILD: Record<FromChild['type'], Check> = {
  ready: exactFields({ type: literal('ready'), gpu: (g) => (g === false ? undefined : str(0, 64)(g)) }),
  loading: exactFields({ type: literal('loading'), id }),
  loaded: exactFields({ type: literal('loaded'), id, reused: bool }),
  chunk: exactFields({ type: literal('chunk'), id, text }),
  done: exactFields({ type: literal('done'), id, text, stopped: bool, tokens: count }),
  failed: exactFields({ type: literal('failed'), id, stage: literal('load', 'generate'), message: str(0, 4096) }),
  memory: exactFields({ type: literal('memory'), rss: count }),
};

export function parseToChild(value: unknown): ToChild | undefined {
  return messageProblem(TO_CHILD, value) === undefined ? (value as ToChild) : undefined;
}

export function parseFromChild(value: unknown): FromChild | undefined {
  return messageProblem(FROM_CHILD, value) === undefined ? (value as FromChild) : undefined;
}
