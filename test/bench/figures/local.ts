// Figure 8: the local runtime. Judged: tokens per second through LocalRuntime (the parent in this process, the child
// it forks running node-llama-cpp) against node-llama-cpp called directly in this process, on the same tiny model,
// one thread, greedy, interleaved in the same run (goal: at most 5 % slower). Context: the first token's time on both,
// the child's cold start (fork, import, backend, load, one token) against a bare Node process doing the same, and the
// resident memory of each after loading.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import type * as NodeLlamaCpp from 'node-llama-cpp' with { 'resolution-mode': 'import' };
import { createLocalRuntime, type LocalRuntime, type LocalRuntimeSettings } from '../../../src/local/localRuntime';
// The child is forked by its path (CHILD): imported here so that the test build compiles it.
import type {} from '../../../src/local/runtimeChild';
import { tinyModelGguf } from '../../service/tinyModel';
import { bySize, type FigureOptions } from '../figure';
import { runsTable, type FigureResult, type Row } from '../report';
import { fmt, interleave, mib, range, summarize } from '../stats';

const repoRoot = path.resolve(__dirname, '..', '..', '..', '..');
const CHILD = path.join(repoRoot, 'out', 'src', 'local', 'runtimeChild.js');
const NODE_LLAMA_CPP = pathToFileURL(path.join(repoRoot, 'node_modules', 'node-llama-cpp', 'dist', 'index.js')).href;
const SETTINGS: LocalRuntimeSettings = {
  threads: 1,
  contextSize: 1024,
  gpu: 'off',
  idleSeconds: 600,
  loadTimeoutSeconds: 120,
  memoryLimitMB: 0,
};
const PROMPT = 'Write a long story about a llama who learns to read.';
/** At most this much slower than node-llama-cpp called directly. */
const GOAL = 0.95;

interface Run {
  tokens: number;
  firstTokenMs: number;
  totalMs: number;
}

const perSecond = (r: Run): number => r.tokens / (r.totalMs / 1000);

/** node-llama-cpp with no process, protocol or runtime between: the model loaded once, a fresh sequence per run. */
async function bare(modelPath: string): Promise<{ run: (maxTokens: number) => Promise<Run>; dispose: () => Promise<void> }> {
  const llm = (await import(NODE_LLAMA_CPP)) as typeof NodeLlamaCpp;
  const llama = await llm.getLlama({ build: 'never', gpu: false, logLevel: llm.LlamaLogLevel.error, progressLogs: false });
  const model = await llama.loadModel({ modelPath });
  const context = await model.createContext({ contextSize: SETTINGS.contextSize, threads: SETTINGS.threads });
  return {
    async run(maxTokens) {
      const started = performance.now();
      let firstTokenMs: number | undefined;
      let tokens = 0;
      const session = new llm.LlamaChatSession({ contextSequence: context.getSequence(), systemPrompt: '', autoDisposeSequence: true });
      await session.prompt(PROMPT, {
        temperature: 0,
        maxTokens,
        onToken: (t) => {
          tokens += t.length;
        },
        onTextChunk: () => {
          firstTokenMs ??= performance.now() - started;
        },
      });
      session.dispose();
      return { tokens, firstTokenMs: firstTokenMs ?? NaN, totalMs: performance.now() - started };
    },
    dispose: () => model.dispose(),
  };
}

async function throughLocalRuntime(runtime: LocalRuntime, modelPath: string, maxTokens: number): Promise<Run> {
  const r = await runtime.generate({ modelPath, prompt: PROMPT, temperature: 0, maxTokens }, () => {}, new AbortController().signal);
  return { tokens: r.tokens, firstTokenMs: r.firstTokenMs ?? NaN, totalMs: r.totalMs };
}

/** Resident memory of a process, from /proc (Linux) or ps. */
async function rssOf(pid: number): Promise<number> {
  const out = await new Promise<string>((resolve, reject) => {
    const ps = spawn('ps', ['-o', 'rss=', '-p', String(pid)]);
    let text = '';
    ps.stdout.on('data', (c: Buffer) => (text += c.toString()));
    ps.once('error', reject);
    ps.once('close', () => resolve(text));
  });
  return Number(out.trim()) * 1024;
}

/** A fresh runtime's first run of one token: fork, import, backend, load, generate. Also the child's memory after it. */
async function coldLocal(modelPath: string): Promise<{ ms: number; rss: number }> {
  let pid = 0;
  const runtime = createLocalRuntime(
    () => SETTINGS,
    (line) => {
      pid ||= Number(/started child (\d+)/.exec(line)?.[1] ?? 0);
    },
    { childModule: CHILD },
  );
  try {
    const started = performance.now();
    await throughLocalRuntime(runtime, modelPath, 1);
    const ms = performance.now() - started;
    return { ms, rss: await rssOf(pid) };
  } finally {
    runtime.dispose();
  }
}

/** The same in a bare Node process (spawned, so it pays the same process start), timed from the spawn. */
async function coldBare(dir: string, modelPath: string): Promise<{ ms: number; rss: number }> {
  const script = path.join(dir, 'bare.mjs');
  writeFileSync(
    script,
    `const llm = await import(${JSON.stringify(NODE_LLAMA_CPP)});
const llama = await llm.getLlama({ build: 'never', gpu: false, logLevel: llm.LlamaLogLevel.error, progressLogs: false });
const model = await llama.loadModel({ modelPath: process.argv[2] });
const context = await model.createContext({ contextSize: ${SETTINGS.contextSize}, threads: ${SETTINGS.threads} });
const session = new llm.LlamaChatSession({ contextSequence: context.getSequence(), systemPrompt: '' });
await session.prompt(${JSON.stringify(PROMPT)}, { temperature: 0, maxTokens: 1 });
process.stdout.write(String(process.memoryUsage.rss()));
process.exit(0);
`,
  );
  const started = performance.now();
  const rss = await new Promise<number>((resolve, reject) => {
    const child = spawn(process.execPath, [script, modelPath], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve(Number(out)) : reject(new Error(`bare process: exit ${code}`))));
  });
  return { ms: performance.now() - started, rss };
}

export async function run(options: FigureOptions): Promise<FigureResult> {
  const runs = bySize(options, { full: 11, quick: 3, tiny: 1 });
  const coldRuns = bySize(options, { full: 5, quick: 1, tiny: 1 });
  const maxTokens = bySize(options, { full: 256, quick: 64, tiny: 4 });
  const warmup = bySize(options, { full: 2, quick: 2, tiny: 0 });
  const dir = mkdtempSync(path.join(tmpdir(), 'hr-bench-local-'));
  const modelPath = path.join(dir, 'tiny.gguf');
  writeFileSync(modelPath, tinyModelGguf({ seed: 'bench' }));
  try {
    const last = { bare: { ms: NaN, rss: NaN }, local: { ms: NaN, rss: NaN } };
    const colds = await interleave(
      coldRuns,
      async () => (last.bare = await coldBare(dir, modelPath)).ms,
      async () => (last.local = await coldLocal(modelPath)).ms,
      0,
    );
    // A tiny run takes the memory of its one cold run of each (each cold start loads the backend: seconds).
    const coldMemory = options.size === 'tiny' ? last : { bare: await coldBare(dir, modelPath), local: await coldLocal(modelPath) };

    const direct = await bare(modelPath);
    const runtime = createLocalRuntime(
      () => SETTINGS,
      () => {},
      { childModule: CHILD },
    );
    const refRuns: Run[] = [];
    const subjectRuns: Run[] = [];
    try {
      const paired = await interleave(
        runs,
        async (i) => {
          const r = await direct.run(maxTokens);
          if (i >= 0) refRuns.push(r);
          return perSecond(r);
        },
        async (i) => {
          const r = await throughLocalRuntime(runtime, modelPath, maxTokens);
          if (i >= 0) subjectRuns.push(r);
          return perSecond(r);
        },
        warmup,
      );
      const s = summarize(paired.subject);
      const r = summarize(paired.ref);
      const q = summarize(paired.ratios);
      const fs = summarize(subjectRuns.map((x) => x.firstTokenMs));
      const fr = summarize(refRuns.map((x) => x.firstTokenMs));
      const firstRatio = summarize(subjectRuns.map((x, i) => x.firstTokenMs / refRuns[i]!.firstTokenMs));
      const cs = summarize(colds.subject);
      const cr = summarize(colds.ref);
      const cq = summarize(colds.ratios);
      const rows: Row[] = [
        {
          figure: `8. Local runtime: tokens/s, tiny model, 1 thread, ${maxTokens} tokens (${runs} runs)`,
          subject: `${fmt(s.median)} tok/s LocalRuntime`,
          reference: `${fmt(r.median)} tok/s node-llama-cpp in process`,
          ratio: fmt(q.median),
          spread: range(q),
          goal: `≥ ${GOAL}× (at most 5 % slower)`,
          met: q.median >= GOAL,
        },
        {
          figure: '8. Local runtime: first token (model loaded)',
          subject: `${fmt(fs.median)} ms`,
          reference: `${fmt(fr.median)} ms`,
          ratio: fmt(firstRatio.median),
          spread: range(fs, ' ms'),
          goal: '—',
          met: undefined,
        },
        {
          figure: `8. Local runtime: cold start to the first token (fork, import, load; ${coldRuns} runs)`,
          subject: `${fmt(cs.median)} ms child`,
          reference: `${fmt(cr.median)} ms bare Node process`,
          ratio: fmt(cq.median),
          spread: range(cs, ' ms'),
          goal: '—',
          met: undefined,
        },
        {
          figure: '8. Local runtime: resident memory after the first run',
          subject: `${mib(coldMemory.local.rss)} child`,
          reference: `${mib(coldMemory.bare.rss)} bare Node process`,
          ratio: fmt(coldMemory.local.rss / coldMemory.bare.rss),
          spread: '—',
          goal: '—',
          met: undefined,
        },
      ];
      const section = [
        '## 8. Local runtime',
        '',
        runsTable(
          ['Pair', 'reference tok/s', 'subject tok/s', 'ratio', 'reference first token ms', 'subject first token ms'],
          paired.ref.map((ref, i) => [
            i + 1,
            fmt(ref),
            fmt(paired.subject[i]!),
            fmt(paired.ratios[i]!),
            fmt(refRuns[i]!.firstTokenMs),
            fmt(subjectRuns[i]!.firstTokenMs),
          ]),
        ),
      ].join('\n');
      return { rows, section };
    } finally {
      runtime.dispose();
      await direct.dispose();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
