// Runs GGUF models on this machine in a child process (src/local/runtimeChild.ts, bundled as dist/localRuntime.js): a
// native crash, a hang or a runaway allocation in llama.cpp ends the child, never the extension host. The child starts
// on first use and keeps its loaded model for the next run; it is stopped after `idleSeconds` without use, killed when
// loading takes longer than `loadTimeoutSeconds` or its memory passes `memoryLimitMB`, and each of those ends becomes a
// LocalRuntimeError naming the file. The next run after any end starts a fresh child.
import { fork, type ChildProcess } from 'node:child_process';
import { basename, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { nativeRuntimeAvailable } from './runtimeAvailability';
import { GPU_ARG, parseFromChild, type FromChild, type ToChild } from './runtimeProtocol';

export interface LocalRuntimeSettings {
  threads: number;
  contextSize: number;
  gpu: 'off' | 'auto';
  idleSeconds: number;
  loadTimeoutSeconds: number;
  memoryLimitMB: number;
}

export interface LocalGenerateRequest {
  modelPath: string;
  prompt: string;
  temperature: number;
  maxTokens?: number;
}

export interface LocalGenerateResult {
  text: string;
  stopped: boolean;
  tokens: number;
  firstTokenMs?: number;
  totalMs: number;
}

export type LocalRuntimeErrorKind = 'unavailable' | 'load-failed' | 'load-timeout' | 'memory-limit' | 'crashed';

export class LocalRuntimeError extends Error {
  constructor(
    readonly kind: LocalRuntimeErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'LocalRuntimeError';
  }
}

export interface LocalRuntime {
  /** Streams text chunks; resolves with the whole text (partial when aborted: stopped=true). */
  generate(req: LocalGenerateRequest, onChunk: (text: string) => void, signal: AbortSignal): Promise<LocalGenerateResult>;
  /** Whether this install carries the native runtime (universal .vsix: false). */
  available(): Promise<boolean>;
  dispose(): void;
}

/** Where the child's module and node-llama-cpp are found; the defaults fit the bundled extension (dist/). */
export interface LocalRuntimeLocations {
  /** The child's entry module. Default: dist/localRuntime.js beside the bundle that runs this code. */
  childModule?: string;
  /** The folder node-llama-cpp is resolved from. Default: this module's folder. */
  resolveFrom?: string;
}

/** How long the child may take to import node-llama-cpp and ready its backend (measured at 1–2 s). */
const START_TIMEOUT_MS = 60_000;
const MB = 1024 * 1024;

interface Pending {
  id: number;
  file: string;
  onChunk: (text: string) => void;
  resolve: (result: LocalGenerateResult) => void;
  reject: (err: LocalRuntimeError) => void;
  started: number;
  firstTokenMs?: number;
  loadTimer?: NodeJS.Timeout;
  /** Between the child's 'loading' and 'loaded': the loader cannot be interrupted, only the child ended. */
  loading?: boolean;
}

interface Child {
  process: ChildProcess;
  gpu: 'off' | 'auto';
  ready: boolean;
  exited?: boolean;
  startTimer?: NodeJS.Timeout;
  /** Why the parent ended it, when it did: the pending runs reject with this instead of 'crashed'. */
  ending?: { kind: LocalRuntimeErrorKind; message: (file: string) => string };
}

export function createLocalRuntime(
  settings: () => LocalRuntimeSettings,
  log: (line: string) => void,
  locations: LocalRuntimeLocations = {},
): LocalRuntime {
  const childModule = locations.childModule ?? join(__dirname, 'localRuntime.js');
  const resolveFrom = locations.resolveFrom ?? __dirname;
  const pending = new Map<number, Pending>();
  let child: Child | undefined;
  let nextId = 1;
  let idleTimer: NodeJS.Timeout | undefined;
  let disposed = false;

  function end(c: Child, kind: LocalRuntimeErrorKind, message: (file: string) => string): void {
    c.ending ??= { kind, message };
    c.process.kill('SIGKILL');
  }

  function onExit(c: Child, code: number | null, signal: NodeJS.Signals | null): void {
    if (c.exited) return;
    c.exited = true;
    clearTimeout(c.startTimer);
    if (child === c) child = undefined;
    const how = signal ? `signal ${signal}` : `exit code ${code}`;
    log(`local runtime: child ${c.process.pid} ended (${how})`);
    const ending =
      c.ending ??
      (c.ready
        ? { kind: 'crashed' as const, message: (file: string) => `The local runtime stopped unexpectedly (${how}) while running ${file}.` }
        : {
            kind: 'unavailable' as const,
            message: () => `The local runtime could not start (${how}). The Show Log command has the details.`,
          });
    for (const p of [...pending.values()]) settle(p, () => p.reject(new LocalRuntimeError(ending.kind, ending.message(p.file))));
    scheduleIdleStop();
  }

  function settle(p: Pending, finish: () => void): void {
    clearTimeout(p.loadTimer);
    pending.delete(p.id);
    finish();
    scheduleIdleStop();
  }

  function onMessage(c: Child, raw: unknown): void {
    const message = parseFromChild(raw);
    if (!message) {
      log('local runtime: refused a malformed message from the child');
      return;
    }
    if (message.type === 'ready') {
      c.ready = true;
      clearTimeout(c.startTimer);
      log(`local runtime: ready (${message.gpu === false ? 'CPU' : `GPU: ${message.gpu}`})`);
      return;
    }
    if (message.type === 'memory') {
      const limit = settings().memoryLimitMB;
      if (limit > 0 && message.rss > limit * MB) {
        const used = Math.round(message.rss / MB);
        log(`local runtime: memory ${used} MB passed the limit of ${limit} MB`);
        end(
          c,
          'memory-limit',
          (file) => `Running ${file} used ${used} MB, more than the limit of ${limit} MB: the local runtime was stopped.`,
        );
      }
      return;
    }
    const p = pending.get(message.id);
    if (!p) return;
    handleRun(c, p, message);
  }

  function handleRun(c: Child, p: Pending, message: Exclude<FromChild, { type: 'ready' | 'memory' }>): void {
    switch (message.type) {
      case 'loading': {
        const seconds = settings().loadTimeoutSeconds;
        p.loading = true;
        log(`local runtime: loading ${p.file}`);
        p.loadTimer = setTimeout(() => {
          log(`local runtime: loading ${p.file} took longer than ${seconds} s`);
          end(
            c,
            'load-timeout',
            (file) => `Loading ${file} took longer than ${seconds} s: the local runtime was stopped. Is it a valid GGUF model?`,
          );
        }, seconds * 1000);
        return;
      }
      case 'loaded':
        p.loading = false;
        clearTimeout(p.loadTimer);
        if (!message.reused) log(`local runtime: loaded ${p.file}`);
        return;
      case 'chunk':
        p.firstTokenMs ??= performance.now() - p.started;
        p.onChunk(message.text);
        return;
      case 'done': {
        const result: LocalGenerateResult = {
          text: message.text,
          stopped: message.stopped,
          tokens: message.tokens,
          totalMs: performance.now() - p.started,
          ...(p.firstTokenMs === undefined ? {} : { firstTokenMs: p.firstTokenMs }),
        };
        settle(p, () => p.resolve(result));
        return;
      }
      case 'failed':
        log(`local runtime: ${message.stage === 'load' ? 'loading' : 'running'} ${p.file} failed: ${message.message}`);
        settle(p, () =>
          p.reject(
            message.stage === 'load'
              ? new LocalRuntimeError('load-failed', `Could not load ${p.file} (${message.message}). Is it a complete GGUF model?`)
              : new LocalRuntimeError('crashed', `Running ${p.file} failed: ${message.message}`),
          ),
        );
        return;
    }
  }

  function startChild(gpu: 'off' | 'auto'): Child {
    const proc = fork(childModule, [`${GPU_ARG}${gpu}`], {
      // Inside VS Code, process.execPath is the editor's binary: this makes it run the child as plain Node.
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
      execArgv: [],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      serialization: 'json',
    });
    const c: Child = { process: proc, gpu, ready: false };
    log(`local runtime: started child ${proc.pid}`);
    for (const stream of [proc.stdout, proc.stderr]) {
      if (stream) createInterface({ input: stream }).on('line', (line) => log(`local runtime: ${line}`));
    }
    proc.on('message', (raw) => onMessage(c, raw));
    proc.on('exit', (code, signal) => onExit(c, code, signal));
    proc.on('error', (err) => {
      log(`local runtime: ${err.message}`);
      if (proc.pid === undefined) {
        // Never spawned: no 'exit' follows.
        c.ending ??= { kind: 'unavailable', message: () => `The local runtime could not start: ${err.message}` };
        onExit(c, null, null);
        return;
      }
      end(c, 'crashed', (file) => `The local runtime stopped unexpectedly while running ${file}: ${err.message}`);
    });
    c.startTimer = setTimeout(
      () => end(c, 'unavailable', () => `The local runtime did not start within ${START_TIMEOUT_MS / 1000} s.`),
      START_TIMEOUT_MS,
    );
    return c;
  }

  function scheduleIdleStop(): void {
    clearTimeout(idleTimer);
    idleTimer = undefined;
    const c = child;
    if (!c || pending.size > 0) return;
    idleTimer = setTimeout(() => {
      if (child === c && pending.size === 0) {
        log(`local runtime: idle for ${settings().idleSeconds} s, stopping`);
        child = undefined;
        c.process.kill();
      }
    }, settings().idleSeconds * 1000);
  }

  function send(c: Child, message: ToChild): void {
    if (c.process.connected) c.process.send(message);
  }

  return {
    async generate(req, onChunk, signal) {
      const file = basename(req.modelPath);
      if (disposed) throw new LocalRuntimeError('unavailable', 'The local runtime was disposed.');
      const started = performance.now();
      if (signal.aborted) return { text: '', stopped: true, tokens: 0, totalMs: 0 };
      const s = settings();
      if (child && child.gpu !== s.gpu) {
        log('local runtime: the GPU setting changed, restarting');
        child.ending ??= { kind: 'crashed', message: (f) => `The local runtime restarted while running ${f}.` };
        child.process.kill();
        child = undefined;
      }
      clearTimeout(idleTimer);
      const c = (child ??= startChild(s.gpu));
      const id = nextId++;
      return new Promise<LocalGenerateResult>((resolve, reject) => {
        const onAbort = (): void => {
          const p = pending.get(id);
          if (!p?.loading) {
            send(c, { type: 'abort', id });
            return;
          }
          // Stop means stop now, even while a model loads (a broken file can keep the loader busy until the timeout).
          log(`local runtime: stopped while loading ${p.file}, ending the child`);
          settle(p, () => p.resolve({ text: '', stopped: true, tokens: 0, totalMs: performance.now() - started }));
          end(c, 'crashed', (file) => `The local runtime was stopped while loading ${file}.`);
        };
        signal.addEventListener('abort', onAbort, { once: true });
        const done = <T>(f: (v: T) => void) => {
          return (v: T): void => {
            signal.removeEventListener('abort', onAbort);
            f(v);
          };
        };
        pending.set(id, { id, file, onChunk, resolve: done(resolve), reject: done(reject), started });
        send(c, {
          type: 'generate',
          id,
          modelPath: req.modelPath,
          prompt: req.prompt,
          temperature: req.temperature,
          ...(req.maxTokens === undefined ? {} : { maxTokens: req.maxTokens }),
          options: { threads: s.threads, contextSize: s.contextSize },
        });
      });
    },

    available: () => nativeRuntimeAvailable(resolveFrom),

    dispose() {
      disposed = true;
      clearTimeout(idleTimer);
      if (child) end(child, 'crashed', (file) => `The local runtime was stopped while running ${file}.`);
      child = undefined;
    },
  };
}
