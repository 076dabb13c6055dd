// Local emulator of the hosted reasoning & finetuning service (spec: /work/shared/spec/hosted-service-api.md).
// Two plain node:http servers: the API origin (/cr/... routes plus the /_emulator control API) and a signed-URL
// storage origin on another port, so clients can be tested against cross-origin redirects. Each concern lives in
// its own module; this one wires them together: options, state, routing, recording, faults, lifecycle.
import { randomBytes } from 'node:crypto';
import { mkdtemp, mkdir, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCustomModel, handleDownload } from './artifacts';
import { handleControl } from './control';
import { DEFAULT_DATASETS, handleEvaluateAsync, handleEvaluateStatus } from './evaluation';
import { applyFaults, FaultTable } from './faults';
import { handleFinetuneStatus, handleGenerateQuestions, madeModelOf } from './finetune';
import { answerInStyle, sendDetail } from './http-util';
import { handleInference } from './inference';
import { authenticate, DEFAULT_KEYS, handleAllowedModels, keyConfig } from './keys';
import { Recorder } from './recorder';
import { handleStorage } from './storage';
import type { ArtifactInfo, Emulator, EmulatorOptions, KeyConfig, ResolvedOptions, State } from './types';

export type {
  ArtifactInfo,
  DatasetConfig,
  Emulator,
  EmulatorOptions,
  FaultKind,
  FaultRule,
  Framing,
  KeyConfig,
  ModelListShape,
  RecordedRequest,
  ReasoningForm,
  RedirectStatus,
  ResolvedOptions,
  StorageChecksum,
} from './types';
export { FaultTable } from './faults';
export { DEFAULT_KEYS, MODEL_LIST_SHAPES } from './keys';
export { DEFAULT_DATASETS, JUDGE_MODEL } from './evaluation';
export { STREAM_ERROR_MARKER, composeReasoning } from './inference';
export { REASONING_FORMS } from './types';
export { SERVICE_SHAPES, type ServiceShape } from './styles';
export { readGgufHeader } from './gguf';

const DEFAULTS = {
  host: '127.0.0.1',
  port: 0,
  storagePort: 0,
  tokenIntervalMs: 5,
  finetuneDurationMs: 1500,
  holdFinetunes: false,
  rushFinetunes: false,
  renameTunedModels: false,
  evaluationDurationMs: 800,
  holdEvaluations: false,
  holdInferenceAfter: -1,
  answerShapes: {},
  shape: 'default',
  artifactBytes: 2 * 1024 * 1024,
  downloadMode: 'redirect',
  redirectStatus: 302,
  signedUrlTtlMs: 60_000,
  storageChecksum: 'none',
  streamChunkBytes: 0,
  streamTokenChars: 0,
  recordTokenWrites: false,
  keepAliveTimeoutMs: 5_000,
  reasoning: 'none',
  thinkMs: 0,
  answerDelayMs: 0,
} as const;

type Handler = (state: State, key: string, req: IncomingMessage, res: ServerResponse, query: URLSearchParams) => void | Promise<void>;

/** Method -> handler per path. Paths are matched exactly, like FastAPI routes without path parameters. */
const ROUTES: Record<string, Record<string, Handler>> = {
  '/cr/get_allowed_models': { GET: (s, k, _q, res) => handleAllowedModels(s, k, res) },
  '/cr/provider_predict_platform_base_oss': { POST: (s, k, req, res) => handleInference(s, k, req, res) },
  '/cr/generate_questions': { POST: (s, k, req, res) => handleGenerateQuestions(s, k, req, res) },
  '/cr/generate_questions_status': { GET: (s, k, _q, res, query) => handleFinetuneStatus(s, k, res, query) },
  '/cr/finetune_model/evaluate_async': { POST: (s, k, req, res) => handleEvaluateAsync(s, k, req, res) },
  '/cr/finetune_model/evaluate_status': { GET: (s, k, _q, res, query) => handleEvaluateStatus(s, k, res, query) },
  '/cr/finetune_model/download': { GET: (s, k, _q, res, query) => handleDownload(s, k, res, query) },
};

function splitUrl(raw: string | undefined): { path: string; query: URLSearchParams } {
  const url = raw ?? '/';
  const q = url.indexOf('?');
  return { path: q < 0 ? url : url.slice(0, q), query: new URLSearchParams(q < 0 ? '' : url.slice(q + 1)) };
}

function internalError(res: ServerResponse, err: unknown): void {
  if (!res.headersSent) {
    sendDetail(res, 500, 'Internal Server Error');
  } else {
    res.destroy();
  }
  if (process.env.EMULATOR_DEBUG) {
    console.error('[emulator]', err);
  }
}

async function serveApi(state: State, emulator: Emulator, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { path, query } = splitUrl(req.url);
  if (path.startsWith('/_emulator/')) {
    await handleControl(emulator, req, res, path, query);
    return;
  }
  answerInStyle(res, () => state.options.shape);
  const entry = state.recorder.record('api', req, res);
  entry.connection = connectionIds.get(req.socket);
  entry.peer = req.socket.remoteAddress;
  const method = req.method ?? 'GET';
  if (!(await applyFaults(state.faults.take('api', method, path), res, entry, state.recorder))) {
    req.resume();
    return;
  }
  const route = ROUTES[path];
  if (!route) {
    req.resume();
    sendDetail(res, 404, 'Not Found');
    return;
  }
  const handler = route[method];
  if (!handler) {
    req.resume();
    sendDetail(res, 405, 'Method Not Allowed', { Allow: Object.keys(route).join(', ') });
    return;
  }
  const key = authenticate(state, req, res);
  if (key === undefined) {
    req.resume();
    return;
  }
  await handler(state, key, req, res, query);
}

async function serveStorage(state: State, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const entry = state.recorder.record('storage', req, res);
  entry.connection = connectionIds.get(req.socket);
  entry.peer = req.socket.remoteAddress;
  const { path } = splitUrl(req.url);
  if (!(await applyFaults(state.faults.take('storage', req.method ?? 'GET', path), res, entry, state.recorder))) {
    return;
  }
  await handleStorage(state, req, res);
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** Connection numbers per origin, never reused (requests per connection); `connections` counts from clearReceived. */
const connectionIds = new WeakMap<Socket, number>();

function trackSockets(server: Server, counter: { count: number }): Set<Socket> {
  const sockets = new Set<Socket>();
  // A TLS server's 'connection' is the TCP socket; its requests arrive on the TLS socket wrapping it.
  const event = 'setSecureContext' in server ? 'secureConnection' : 'connection';
  server.on(event, (socket: Socket) => {
    sockets.add(socket);
    connectionIds.set(socket, ++counter.count);
    socket.once('close', () => sockets.delete(socket));
  });
  return sockets;
}

function originServer(options: ResolvedOptions): Server {
  const server = options.tls ? createTlsServer({ key: options.tls.key, cert: options.tls.cert }) : createServer();
  server.keepAliveTimeout = options.keepAliveTimeoutMs;
  return server;
}

function closeServer(server: Server, sockets: Set<Socket>): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
    for (const socket of sockets) {
      socket.destroy();
    }
  });
}

function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const ownsDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'hosted-emulator-')));
  await mkdir(dataDir, { recursive: true });
  const resolved: ResolvedOptions = {
    ...DEFAULTS,
    ...options,
    keys: { ...(options.keys ?? DEFAULT_KEYS) },
    datasets: { ...(options.datasets ?? DEFAULT_DATASETS) },
    dataDir,
  };
  const state: State = {
    options: resolved,
    customModels: new Map(),
    faults: new FaultTable(),
    recorder: new Recorder(),
    secret: randomBytes(32),
    storageUrl: '',
    finetuneJobs: new Map(),
    evaluationJobs: new Map(),
    closed: false,
    tokenWrites: [],
  };

  const counts = { api: { count: 0, base: 0 }, storage: { count: 0, base: 0 } };
  const storage = originServer(resolved);
  const storageSockets = trackSockets(storage, counts.storage);
  const api = originServer(resolved);
  const apiSockets = trackSockets(api, counts.api);
  const scheme = resolved.tls ? 'https' : 'http';

  const storagePort = await listen(storage, resolved.storagePort, resolved.host);
  let apiPort: number;
  try {
    apiPort = await listen(api, resolved.port, resolved.host);
  } catch (err) {
    await closeServer(storage, storageSockets);
    throw err;
  }
  const host = urlHost(resolved.advertisedHost ?? resolved.host);
  state.storageUrl = `${scheme}://${host}:${storagePort}`;
  resolved.port = apiPort;
  resolved.storagePort = storagePort;

  const findModel = (modelName: string, key?: string): ArtifactInfo | undefined => {
    for (const [owner, models] of state.customModels) {
      const model = models.get(modelName);
      if (model && (key === undefined || key === owner)) {
        return model.artifact;
      }
    }
    return undefined;
  };

  const emulator: Emulator = {
    url: `${scheme}://${host}:${apiPort}`,
    storageUrl: state.storageUrl,
    get options() {
      return state.options;
    },
    configure(patch: Partial<EmulatorOptions>): void {
      const { host: _h, port: _p, storagePort: _s, dataDir: _d, keys, datasets, ...rest } = patch;
      Object.assign(state.options, rest);
      if ('responseText' in patch && patch.responseText === undefined) {
        delete state.options.responseText;
      }
      if ('responseTextByModel' in patch && patch.responseTextByModel === undefined) {
        delete state.options.responseTextByModel;
      }
      if ('reasoningText' in patch && patch.reasoningText === undefined) {
        delete state.options.reasoningText;
      }
      if (keys) {
        state.options.keys = { ...keys };
      }
      if (datasets) {
        state.options.datasets = { ...datasets };
      }
    },
    setKey(key: string, config: KeyConfig): void {
      state.options.keys[key] = { ...config, models: [...config.models] };
    },
    faults: state.faults,
    get received() {
      return state.recorder.received;
    },
    get connections() {
      return { api: counts.api.count - counts.api.base, storage: counts.storage.count - counts.storage.base };
    },
    clearReceived(): void {
      state.recorder.clear();
      counts.api.base = counts.api.count;
      counts.storage.base = counts.storage.count;
    },
    artifactPath(modelName: string, key?: string): string | undefined {
      return findModel(modelName, key)?.path;
    },
    artifactInfo(modelName: string, key?: string): ArtifactInfo | undefined {
      const info = findModel(modelName, key);
      return info ? { ...info } : undefined;
    },
    async addCustomModel(key: string, modelName: string, opts: { artifactBytes?: number; baseModel?: string } = {}): Promise<void> {
      if (!Object.prototype.hasOwnProperty.call(state.options.keys, key)) {
        throw new TypeError(`unknown key '${key}'`);
      }
      const baseModel = opts.baseModel ?? keyConfig(state, key).models[0] ?? 'unknown-base';
      await createCustomModel(state, key, modelName, baseModel, opts.artifactBytes ?? state.options.artifactBytes);
    },
    madeModel(jobId: string): string | undefined {
      return madeModelOf(state, jobId);
    },
    runningFinetunes(): number {
      return [...state.finetuneJobs.values()].filter((job) => job.status !== 'completed' && job.status !== 'failed').length;
    },
    get tokenWrites() {
      return state.tokenWrites;
    },
    activeConnections(): number {
      return apiSockets.size;
    },
    dropConnections(): number {
      const count = apiSockets.size;
      for (const socket of apiSockets) socket.destroy();
      return count;
    },
    async close(): Promise<void> {
      if (state.closed) {
        return;
      }
      state.closed = true;
      await Promise.all([closeServer(api, apiSockets), closeServer(storage, storageSockets)]);
      if (ownsDataDir) {
        await rm(dataDir, { recursive: true, force: true, maxRetries: 3 });
      }
    },
  };

  api.on('request', (req: IncomingMessage, res: ServerResponse) => {
    serveApi(state, emulator, req, res).catch((err: unknown) => internalError(res, err));
  });
  storage.on('request', (req: IncomingMessage, res: ServerResponse) => {
    serveStorage(state, req, res).catch((err: unknown) => internalError(res, err));
  });
  return emulator;
}
