// The local runtime against the real node-llama-cpp in a real child process, on tiny models (one thread): start,
// streaming, reuse of the loaded model, stop, a crash mid-run, the malformed file that hangs the loader, a truncated
// file, the memory limit, the idle stop, and whether the native runtime is installed.
import { strict as assert } from 'node:assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createLocalRuntime, LocalRuntimeError, type LocalRuntime, type LocalRuntimeSettings } from '../../src/local/localRuntime';
import { tinyModelGguf } from '../service/tinyModel';
// Compiled with the tests (nothing imports the child's entry: it is forked by path); a type import runs nothing.
import type {} from '../../src/local/runtimeChild';

const CHILD = resolve(__dirname, '../../src/local/runtimeChild.js');

const BASE: LocalRuntimeSettings = { threads: 1, contextSize: 512, gpu: 'off', idleSeconds: 60, loadTimeoutSeconds: 30, memoryLimitMB: 0 };

/** A runtime with its log kept, and a promise for the next log line that matches. */
function rig(overrides: Partial<LocalRuntimeSettings> = {}): {
  runtime: LocalRuntime;
  lines: string[];
  next: (re: RegExp) => Promise<string>;
} {
  const lines: string[] = [];
  const waiting: { re: RegExp; resolve: (line: string) => void }[] = [];
  const runtime = createLocalRuntime(
    () => ({ ...BASE, ...overrides }),
    (line) => {
      lines.push(line);
      for (const w of [...waiting]) {
        if (w.re.test(line)) {
          waiting.splice(waiting.indexOf(w), 1);
          w.resolve(line);
        }
      }
    },
    { childModule: CHILD },
  );
  return { runtime, lines, next: (re) => new Promise((r) => waiting.push({ re, resolve: r })) };
}

const pidOf = (line: string): number => Number(/child (\d+)/.exec(line)?.[1]);

async function rejection(promise: Promise<unknown>): Promise<LocalRuntimeError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof LocalRuntimeError, String(err));
    return err;
  }
  assert.fail('expected a LocalRuntimeError');
}

describe('local runtime (child process, real node-llama-cpp)', function () {
  // A hang guard, not a measure: each test starts node-llama-cpp children, whose start took over 30 s at a load of 20.
  this.timeout(120_000);
  let dir: string;
  let model: string;
  let other: string;
  const runtimes: LocalRuntime[] = [];
  const make = (overrides: Partial<LocalRuntimeSettings> = {}): ReturnType<typeof rig> => {
    const r = rig(overrides);
    runtimes.push(r.runtime);
    return r;
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'local-runtime-'));
    model = join(dir, 'support-v1.gguf');
    other = join(dir, 'support-v2.gguf');
    await writeFile(model, tinyModelGguf({ seed: 'support-v1' }));
    await writeFile(other, tinyModelGguf({ seed: 'support-v2' }));
  });

  afterEach(() => {
    for (const r of runtimes.splice(0)) r.dispose();
  });

  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('starts a child on first use, streams chunks, and reuses the loaded model for the next run', async () => {
    const { runtime, lines } = make();
    const chunks: string[] = [];
    const first = await runtime.generate(
      { modelPath: model, prompt: 'Hello', temperature: 0, maxTokens: 24 },
      (c) => chunks.push(c),
      new AbortController().signal,
    );
    assert.ok(chunks.length > 0);
    assert.equal(chunks.join(''), first.text);
    assert.equal(first.stopped, false);
    assert.ok(first.tokens > 0 && first.tokens <= 24, `${first.tokens} tokens`);
    assert.ok(first.firstTokenMs !== undefined && first.firstTokenMs <= first.totalMs);

    const second = await runtime.generate(
      { modelPath: model, prompt: 'Hello', temperature: 0, maxTokens: 24 },
      () => {},
      new AbortController().signal,
    );
    assert.equal(second.text, first.text, 'greedy runs of the same prompt on the same model agree');
    assert.equal(lines.filter((l) => /started child/.test(l)).length, 1);
    assert.equal(lines.filter((l) => /loaded support-v1\.gguf/.test(l)).length, 1, 'loaded once, reused');

    await runtime.generate({ modelPath: other, prompt: 'Hello', temperature: 0, maxTokens: 4 }, () => {}, new AbortController().signal);
    assert.equal(lines.filter((l) => /loaded support-v2\.gguf/.test(l)).length, 1, 'another file is loaded in the same child');
    assert.equal(lines.filter((l) => /started child/.test(l)).length, 1);
  });

  it('stops on abort with the partial text (stopped=true)', async () => {
    const { runtime } = make();
    const abort = new AbortController();
    const chunks: string[] = [];
    const result = await runtime.generate(
      { modelPath: model, prompt: 'Tell me a long story', temperature: 0, maxTokens: 400 },
      (c) => {
        chunks.push(c);
        abort.abort();
      },
      abort.signal,
    );
    assert.equal(result.stopped, true);
    assert.ok(result.tokens < 400, `${result.tokens} tokens`);
    assert.ok(chunks.length > 0);
    assert.ok(chunks.join('').startsWith(result.text), 'the partial text is what was streamed');
  });

  it('a child killed mid-run is "crashed", naming the file; the next run starts a fresh child', async () => {
    const { runtime, lines, next } = make();
    let pid = 0;
    const run = runtime.generate(
      { modelPath: model, prompt: 'Tell me a long story', temperature: 0, maxTokens: 400 },
      () => process.kill(pid, 'SIGKILL'),
      new AbortController().signal,
    );
    // generate() forks the child before its first await, so the pid is logged by now.
    pid = pidOf(lines.find((l) => /started child/.test(l)) ?? '');
    assert.ok(pid > 0);
    const crashed = await rejection(run);
    assert.equal(crashed.kind, 'crashed');
    assert.match(crashed.message, /support-v1\.gguf/);
    const restarted = next(/started child/);
    const again = await runtime.generate(
      { modelPath: model, prompt: 'Hi', temperature: 0, maxTokens: 4 },
      () => {},
      new AbortController().signal,
    );
    assert.ok(again.tokens > 0);
    assert.notEqual(pidOf(await restarted), pid);
  });

  it('a malformed file that spins the loader is killed after the load timeout: "load-timeout", naming the file', async () => {
    const malformed = join(dir, 'malformed.gguf');
    // 15 bytes: magic, version 3, then a tensor count cut short; measured to spin at full CPU while memory grows.
    await writeFile(malformed, Buffer.concat([Buffer.from('GGUF'), Buffer.from([3, 0, 0, 0]), Buffer.alloc(7, 0xff)]));
    const { runtime } = make({ loadTimeoutSeconds: 1 });
    const err = await rejection(
      runtime.generate({ modelPath: malformed, prompt: 'Hi', temperature: 0 }, () => {}, new AbortController().signal),
    );
    assert.equal(err.kind, 'load-timeout');
    assert.match(err.message, /malformed\.gguf/);
    const again = await runtime.generate(
      { modelPath: model, prompt: 'Hi', temperature: 0, maxTokens: 4 },
      () => {},
      new AbortController().signal,
    );
    assert.ok(again.tokens > 0, 'a fresh child after the kill');
  });

  it('stop while a model loads ends the child at once: stopped=true, no wait for the load timeout', async () => {
    const malformed = join(dir, 'spinning.gguf');
    await writeFile(malformed, Buffer.concat([Buffer.from('GGUF'), Buffer.from([3, 0, 0, 0]), Buffer.alloc(7, 0xff)]));
    const { runtime, next } = make({ loadTimeoutSeconds: 3600 });
    const abort = new AbortController();
    const loading = next(/loading spinning\.gguf/);
    const run = runtime.generate({ modelPath: malformed, prompt: 'Hi', temperature: 0 }, () => {}, abort.signal);
    await loading;
    const ended = next(/ended/);
    abort.abort();
    const result = await run;
    assert.deepEqual({ text: result.text, stopped: result.stopped, tokens: result.tokens }, { text: '', stopped: true, tokens: 0 });
    await ended;
  });

  it('a truncated file is "load-failed", naming the file', async () => {
    const truncated = join(dir, 'truncated.gguf');
    const whole = tinyModelGguf({ seed: 'truncated' });
    await writeFile(truncated, whole.subarray(0, Math.floor(whole.length / 2)));
    const { runtime } = make();
    const err = await rejection(
      runtime.generate({ modelPath: truncated, prompt: 'Hi', temperature: 0 }, () => {}, new AbortController().signal),
    );
    assert.equal(err.kind, 'load-failed');
    assert.match(err.message, /truncated\.gguf/);
  });

  it('a child past the memory limit is killed: "memory-limit", naming the file', async () => {
    // Importing node-llama-cpp alone takes the child well past 40 MB.
    const { runtime } = make({ memoryLimitMB: 40 });
    const err = await rejection(
      runtime.generate({ modelPath: model, prompt: 'Hi', temperature: 0 }, () => {}, new AbortController().signal),
    );
    assert.equal(err.kind, 'memory-limit');
    assert.match(err.message, /support-v1\.gguf/);
    assert.match(err.message, /40 MB/);
  });

  it('stops the child after idleSeconds without use, and starts a fresh one for the next run', async () => {
    const { runtime, next } = make({ idleSeconds: 0.2 });
    const started = next(/started child/);
    await runtime.generate({ modelPath: model, prompt: 'Hi', temperature: 0, maxTokens: 4 }, () => {}, new AbortController().signal);
    const pid = pidOf(await started);
    const ended = await next(/ended/);
    assert.equal(pidOf(ended), pid);
    const restarted = next(/started child/);
    await runtime.generate({ modelPath: model, prompt: 'Hi', temperature: 0, maxTokens: 4 }, () => {}, new AbortController().signal);
    assert.notEqual(pidOf(await restarted), pid);
  });

  it('a child that ends before it is ready is "unavailable" (a broken install), and says where to look', async () => {
    const runtime = createLocalRuntime(
      () => BASE,
      () => {},
      { childModule: join(dir, 'missing.js') },
    );
    runtimes.push(runtime);
    const err = await rejection(
      runtime.generate({ modelPath: model, prompt: 'Hi', temperature: 0 }, () => {}, new AbortController().signal),
    );
    assert.equal(err.kind, 'unavailable');
    assert.match(err.message, /Show Log/);
  });

  it('is available when node-llama-cpp and its platform package are installed, not otherwise', async () => {
    assert.equal(await rig().runtime.available(), true);
    const bare = await mkdtemp(join(tmpdir(), 'no-runtime-'));
    try {
      const runtime = createLocalRuntime(
        () => BASE,
        () => {},
        { childModule: CHILD, resolveFrom: bare },
      );
      assert.equal(await runtime.available(), false);
    } finally {
      await rm(bare, { recursive: true, force: true });
    }
  });
});
