// The messages between the extension host and the local runtime's child process (src/local/runtimeChild.ts), over the
// fork() IPC channel. Both sides check every message they receive: a child that misbehaves (a native crash can leave
// anything on the channel) or a parent of another version is refused, never acted on half-read.

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

type Fields = Record<string, unknown>;

function isRecord(x: unknown): x is Fields {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

const isId = (v: unknown): boolean => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isCount = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v) && v >= 0;
const isText = (v: unknown, max: number): boolean => typeof v === 'string' && v.length <= max;

/** Exactly these keys, each passing its check; optional ones may be absent. */
function fits(
  value: Fields,
  required: Record<string, (v: unknown) => boolean>,
  optional: Record<string, (v: unknown) => boolean> = {},
): boolean {
  for (const key of Object.keys(value)) {
    if (!Object.hasOwn(required, key) && !Object.hasOwn(optional, key)) return false;
  }
  for (const [key, ok] of Object.entries(required)) {
    if (!Object.hasOwn(value, key) || !ok(value[key])) return false;
  }
  for (const [key, ok] of Object.entries(optional)) {
    if (value[key] !== undefined && !ok(value[key])) return false;
  }
  return true;
}

const MAX_TEXT = 4 * 1024 * 1024;
const MAX_PATH = 4096;

function isOptions(v: unknown): boolean {
  return (
    isRecord(v) &&
    fits(v, {
      threads: (n) => typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= 1024,
      contextSize: (n) => typeof n === 'number' && Number.isInteger(n) && n >= 64 && n <= 1_048_576,
    })
  );
}

export function parseToChild(value: unknown): ToChild | undefined {
  if (!isRecord(value)) return undefined;
  switch (value.type) {
    case 'generate':
      return fits(
        value,
        {
          type: () => true,
          id: isId,
          modelPath: (p) => typeof p === 'string' && p.length > 0 && p.length <= MAX_PATH,
          prompt: (p) => isText(p, MAX_TEXT),
          temperature: (t) => typeof t === 'number' && Number.isFinite(t) && t >= 0 && t <= 10,
          options: isOptions,
        },
        { maxTokens: (n) => typeof n === 'number' && Number.isInteger(n) && n > 0 },
      )
        ? (value as ToChild)
        : undefined;
    case 'abort':
      return fits(value, { type: () => true, id: isId }) ? (value as ToChild) : undefined;
    default:
      return undefined;
  }
}

export function parseFromChild(value: unknown): FromChild | undefined {
  if (!isRecord(value)) return undefined;
  const type = () => true;
  let ok: boolean;
  switch (value.type) {
    case 'ready':
      ok = fits(value, { type, gpu: (g) => g === false || isText(g, 64) });
      break;
    case 'loading':
      ok = fits(value, { type, id: isId });
      break;
    case 'loaded':
      ok = fits(value, { type, id: isId, reused: (r) => typeof r === 'boolean' });
      break;
    case 'chunk':
      ok = fits(value, { type, id: isId, text: (t) => isText(t, MAX_TEXT) });
      break;
    case 'done':
      ok = fits(value, { type, id: isId, text: (t) => isText(t, MAX_TEXT), stopped: (s) => typeof s === 'boolean', tokens: isCount });
      break;
    case 'failed':
      ok = fits(value, { type, id: isId, stage: (s) => s === 'load' || s === 'generate', message: (m) => isText(m, 4096) });
      break;
    case 'memory':
      ok = fits(value, { type, rss: isCount });
      break;
    default:
      ok = false;
  }
  return ok ? (value as FromChild) : undefined;
}
