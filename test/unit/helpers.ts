// Shared rig for client tests: an emulator per suite and clients bound to it.
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { collectInference, ServiceClient, type InferencePiece } from '../../src/api/client';
import type { CallOptions, HttpConfig } from '../../src/api/http';
import type { JobStatusPart, JobStatusProfile } from '../../src/api/profileFormat';
import type { AnswerContext, PartProfile, ProfileBook, ProfilePart } from '../../src/api/profileBook';
import type { DownloadProfile, ModelListProfile, StartedJobProfile, StreamProfile } from '../../src/api/profileFormat';
import type { StartAnswer } from '../../src/api/startedJobInference';
import type { InferenceRequest } from '../../src/api/types';
import { startEmulator, type Emulator, type EmulatorOptions } from '../service/emulator';

export const KEY = 'demo-key';
export const OTHER_KEY = 'other-key';

/** Starts an emulator for the enclosing `describe` and closes it after. */
export function useEmulator(options: EmulatorOptions = {}): { readonly emu: Emulator } {
  const holder = {} as { emu: Emulator };
  before(async () => {
    holder.emu = await startEmulator({
      tokenIntervalMs: 1,
      finetuneDurationMs: 400,
      evaluationDurationMs: 200,
      artifactBytes: 256 * 1024,
      ...options,
    });
  });
  after(async () => {
    await holder.emu?.close();
  });
  return holder;
}

/**
 * An emulator for fault tests: faults and the requests seen are cleared before each test, `model` is the first model
 * the demo key lists, and `hits(path)` counts the API requests to `path` (query left out).
 */
export function useFaultEmulator(): { readonly emu: Emulator; readonly model: string; readonly hits: (p: string) => number } {
  const ctx = useEmulator();
  let model = '';
  before(async () => {
    const [first] = await clientFor(ctx.emu).listModels();
    if (!first) throw new Error('the emulator listed no model');
    model = first.name;
  });
  beforeEach(() => {
    ctx.emu.faults.clear();
    ctx.emu.clearReceived();
  });
  return {
    get emu() {
      return ctx.emu;
    },
    get model() {
      return model;
    },
    hits: (p) => ctx.emu.received.filter((r) => r.origin === 'api' && r.path.split('?')[0] === p).length,
  };
}

/** A client with fast timeouts and retries that do not sleep, recording the delays it would have waited. */
export function clientFor(emu: Emulator, key = KEY, overrides: Partial<HttpConfig> = {}): ServiceClient & { delays: number[] } {
  const delays: number[] = [];
  const client = new ServiceClient({
    baseUrl: emu.url,
    apiKey: key,
    sleep: async (ms, signal) => {
      delays.push(ms);
      if (signal?.aborted) throw new Error('aborted');
    },
    ...overrides,
    timeouts: { requestMs: 5_000, streamIdleMs: 2_000, connectMs: 5_000, uploadIdleMs: 10_000, ...overrides.timeouts },
  });
  return Object.assign(client, { delays });
}

/**
 * An emulator for download tests: `model` is a custom model of the test key with an artifact of `artifactBytes`;
 * before each test its faults and the requests seen are cleared and `configure` (how it answers a download) applied;
 * `tmp.dir` is a fresh folder to download into.
 */
export function useDownloadEmulator(
  model: string,
  artifactBytes: number,
  configure: Partial<EmulatorOptions>,
): { readonly emu: Emulator; readonly tmp: { readonly dir: string } } {
  const ctx = useEmulator({ artifactBytes });
  const tmp = tempDir();
  before(async () => {
    await ctx.emu.addCustomModel(KEY, model);
  });
  beforeEach(() => {
    ctx.emu.faults.clear();
    ctx.emu.clearReceived();
    ctx.emu.configure(configure);
  });
  return {
    get emu() {
      return ctx.emu;
    },
    tmp,
  };
}

export function tempDir(prefix = 'hr-test-'): { readonly dir: string } {
  const holder = {} as { dir: string };
  beforeEach(() => {
    holder.dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  });
  afterEach(() => {
    rmSync(holder.dir, { recursive: true, force: true });
  });
  return holder;
}

export async function collect(stream: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const d of stream) out.push(d);
  return out;
}

/** The answer's pieces of a streamed run, as text deltas (reasoning left out). */
export async function* answerDeltas(pieces: AsyncIterable<InferencePiece>): AsyncGenerator<string> {
  for await (const p of pieces) if (p.kind === 'answer') yield p.text;
}

/** A streamed run's answer deltas: `client.infer` with `stream: true`. */
export function inferStream(client: ServiceClient, req: InferenceRequest, opts: CallOptions = {}): AsyncGenerator<string> {
  return answerDeltas(client.infer({ ...req, stream: true }, opts));
}

/** A non-streamed run's answer and reasoning. */
export function inferWhole(
  client: ServiceClient,
  req: InferenceRequest,
  opts: CallOptions = {},
): Promise<{ reasoning: string; answer: string }> {
  return collectInference(client.infer({ ...req, stream: false }, opts));
}

export async function until<T>(fn: () => Promise<T | undefined>, timeoutMs = 10_000, everyMs = 50): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export const baseRequest = {
  prompt: 'Explain LoRA in two sentences.',
  modelName: '',
  stream: true,
  useRag: false,
  sequentialBudget: 1,
  parallelBudget: 1,
  temperature: 0.7,
};

/**
 * What a test hears of each kind of answer through the one book (profileBook.ts), written per kind as the tests
 * look at them: the profile to read by, a reading (for the job statuses, the stream and the non-streamed answer only
 * when it changed the profile, as those tests look at changes), and an answer nothing could read.
 */
export interface KindHandlers {
  modelList(): ModelListProfile | undefined;
  readModelList(reading: { profile: ModelListProfile; change?: string; samples: string[] }): void;
  unreadableModelList(body: unknown): void;
  startedJob(): StartedJobProfile | undefined;
  readStartedJob(reading: { kind: 'finetune' | 'evaluation'; from: string; change?: string }): void;
  unreadableStartedJob(kind: 'finetune' | 'evaluation', body: unknown, answer: StartAnswer): void;
  download(): DownloadProfile | undefined;
  readDownload(reading: { profile: DownloadProfile; change?: string }): void;
  unreadableDownload(body: unknown, modelName: string): void;
  jobStatus(part: JobStatusPart): JobStatusProfile | undefined;
  readJobStatus(part: JobStatusPart, reading: { profile: JobStatusProfile; change: string }): void;
  unreadableJobStatus(part: JobStatusPart, body: unknown): void;
  stream(): StreamProfile | undefined;
  readStream(reading: { profile: StreamProfile; change: string }): void;
  answer(): StreamProfile | undefined;
  readAnswer(reading: { profile: StreamProfile; change: string }): void;
  unreadableAnswer(part: 'answer' | 'stream', body: unknown): void;
}

/** A ProfileBook that keeps nothing and hears nothing; a test overrides the kinds of answer it looks at. */
export function emptyProfileBook(overrides: Partial<KindHandlers> = {}): ProfileBook {
  const h: KindHandlers = {
    modelList: () => undefined,
    readModelList: () => undefined,
    unreadableModelList: () => undefined,
    startedJob: () => undefined,
    readStartedJob: () => undefined,
    unreadableStartedJob: () => undefined,
    jobStatus: () => undefined,
    readJobStatus: () => undefined,
    unreadableJobStatus: () => undefined,
    download: () => undefined,
    readDownload: () => undefined,
    stream: () => undefined,
    readStream: () => undefined,
    answer: () => undefined,
    readAnswer: () => undefined,
    unreadableAnswer: () => undefined,
    unreadableDownload: () => undefined,
    ...overrides,
  };
  const profiles: { [P in ProfilePart]: () => PartProfile<P> | undefined } = {
    modelList: () => h.modelList(),
    startedJob: () => h.startedJob(),
    download: () => h.download(),
    finetuneStatus: () => h.jobStatus('finetuneStatus'),
    evaluationStatus: () => h.jobStatus('evaluationStatus'),
    stream: () => h.stream(),
    answer: () => h.answer(),
  };
  return {
    profile: <P extends ProfilePart>(part: P) => profiles[part](),
    learned: (part, r) => {
      const { change } = r;
      if (part === 'modelList') h.readModelList({ profile: r.profile as ModelListProfile, change, samples: r.samples ?? [] });
      if (part === 'download') h.readDownload({ profile: r.profile as DownloadProfile, change });
      if (part === 'startedJob') {
        const kind = (r.context as AnswerContext<'startedJob'>).kind;
        h.readStartedJob({ kind, from: (r.profile as StartedJobProfile)[kind]!, change });
      }
      if (change === undefined) return;
      if (part === 'finetuneStatus' || part === 'evaluationStatus') {
        h.readJobStatus(part, { profile: r.profile, change });
      }
      if (part === 'stream') h.readStream({ profile: r.profile as StreamProfile, change });
      if (part === 'answer') h.readAnswer({ profile: r.profile as StreamProfile, change });
    },
    unreadable: (part, body, context) => {
      if (part === 'modelList') h.unreadableModelList(body);
      if (part === 'startedJob') {
        const { kind, answer } = context as AnswerContext<'startedJob'>;
        h.unreadableStartedJob(kind, body, answer);
      }
      if (part === 'download') h.unreadableDownload(body, (context as AnswerContext<'download'>).modelName);
      if (part === 'finetuneStatus' || part === 'evaluationStatus') h.unreadableJobStatus(part, body);
      if (part === 'stream' || part === 'answer') h.unreadableAnswer(part, body);
    },
  };
}
