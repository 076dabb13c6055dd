// The local runtime's child process (bundled as dist/localRuntime.js, forked by src/local/localRuntime.ts): it holds
// llama.cpp, so a native crash, a hang or a runaway allocation ends this process and never the extension host. It keeps
// one loaded model for reuse, runs one request at a time, and reports its memory so the parent can stop it.
import type * as NodeLlamaCppModule from 'node-llama-cpp' with { 'resolution-mode': 'import' };
import { GPU_ARG, MEMORY_REPORT_MS, parseToChild, type ChildOptions, type FromChild, type ToChild } from './runtimeProtocol';

type NodeLlamaCpp = typeof NodeLlamaCppModule;
type Llama = Awaited<ReturnType<NodeLlamaCpp['getLlama']>>;
type LlamaModel = Awaited<ReturnType<Llama['loadModel']>>;
type LlamaContext = Awaited<ReturnType<LlamaModel['createContext']>>;

interface Loaded {
  path: string;
  threads: number;
  contextSize: number;
  model: LlamaModel;
  context: LlamaContext;
}

function send(message: FromChild): void {
  process.send?.(message);
}

const gpu = process.argv.find((a) => a.startsWith(GPU_ARG))?.slice(GPU_ARG.length) === 'auto' ? 'auto' : false;

// Started at once: importing node-llama-cpp and readying the backend takes 1–2 s, overlapping the first request's trip.
const runtime = (async () => {
  // A real import(): node-llama-cpp is ESM only. It is never bundled into this file (its binaries are found next to its
  // own files); a platform .vsix ships it as its own bundle (scripts/packageTarget.ts).
  const llm: NodeLlamaCpp = await import('node-llama-cpp');
  const llama = await llm.getLlama({ build: 'never', gpu, logLevel: llm.LlamaLogLevel.warn, progressLogs: false });
  send({ type: 'ready', gpu: llama.gpu });
  return { llm, llama };
})();

let loaded: Loaded | undefined;
const aborts = new Map<number, AbortController>();
let queue: Promise<void> = Promise.resolve();

async function load(id: number, modelPath: string, options: ChildOptions, llama: Llama): Promise<Loaded> {
  if (loaded && loaded.path === modelPath && loaded.threads === options.threads && loaded.contextSize === options.contextSize) {
    send({ type: 'loaded', id, reused: true });
    return loaded;
  }
  const previous = loaded;
  loaded = undefined;
  await previous?.context.dispose();
  await previous?.model.dispose();
  send({ type: 'loading', id });
  const model = await llama.loadModel({ modelPath });
  try {
    const context = await model.createContext({
      contextSize: Math.min(options.contextSize, model.trainContextSize),
      ...(options.threads > 0 ? { threads: options.threads } : {}),
    });
    loaded = { path: modelPath, threads: options.threads, contextSize: options.contextSize, model, context };
  } catch (err) {
    await model.dispose();
    throw err;
  }
  send({ type: 'loaded', id, reused: false });
  return loaded;
}

async function generate(request: Extract<ToChild, { type: 'generate' }>, abort: AbortController): Promise<void> {
  const { id } = request;
  let stage: 'load' | 'generate' = 'load';
  try {
    const { llm, llama } = await runtime;
    const { context } = await load(id, request.modelPath, request.options, llama);
    if (abort.signal.aborted) {
      send({ type: 'done', id, text: '', stopped: true, tokens: 0 });
      return;
    }
    stage = 'generate';
    // One sequence per request: every run starts from an empty history, like a hosted call.
    const session = new llm.LlamaChatSession({ contextSequence: context.getSequence(), systemPrompt: '', autoDisposeSequence: true });
    let tokens = 0;
    try {
      const result = await session.promptWithMeta(request.prompt, {
        temperature: request.temperature,
        ...(request.maxTokens === undefined ? {} : { maxTokens: request.maxTokens }),
        signal: abort.signal,
        stopOnAbortSignal: true,
        onToken: (t) => {
          tokens += t.length;
        },
        onTextChunk: (text) => send({ type: 'chunk', id, text }),
      });
      send({ type: 'done', id, text: result.responseText, stopped: result.stopReason === 'abort', tokens });
    } finally {
      session.dispose();
    }
  } catch (err) {
    send({ type: 'failed', id, stage, message: (err instanceof Error ? err.message : String(err)).slice(0, 2000) });
  }
}

process.on('message', (raw: unknown) => {
  const message = parseToChild(raw);
  if (!message) {
    process.stderr.write('local runtime: refused a malformed message\n');
    return;
  }
  if (message.type === 'abort') {
    aborts.get(message.id)?.abort();
    return;
  }
  const abort = new AbortController();
  aborts.set(message.id, abort);
  queue = queue.then(() => generate(message, abort)).finally(() => aborts.delete(message.id));
});

// The parent went away (closed window, crashed host): nothing is left to serve.
process.on('disconnect', () => process.exit(0));

setInterval(() => send({ type: 'memory', rss: process.memoryUsage.rss() }), MEMORY_REPORT_MS).unref();

runtime.catch((err: unknown) => {
  process.stderr.write(`local runtime: could not start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(3);
});
