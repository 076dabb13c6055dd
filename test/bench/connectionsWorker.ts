// One client process for the connection-reuse figure: the real ServiceClient makes a burst of calls or polls a job at
// an interval, either in plain Node or under VS Code's own proxy support (the @vscode/proxy-agent module of the
// installed VS Code server build, patched into http/https the way the extension host patches them), so the figure
// counts the connections and tunnels each way opens. node connectionsWorker.js '<ConnectionsJob JSON>'; prints one
// JSON line (ConnectionsResult). The emulator's test CA is trusted through NODE_EXTRA_CA_CERTS (set by the figure).
// The module objects themselves (a namespace import's properties are read-only): patched in place, as VS Code does.
import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { ServiceClient } from '../../src/api/client';

export interface ConnectionsJob {
  baseUrl: string;
  apiKey: string;
  /**
   * 'burst': `count` model lists back to back; 'poll': `count` status calls for `jobId`, `intervalMs` apart; 'start':
   * set-up, starts a finetune job from `pdf` and prints its id.
   */
  calls: 'burst' | 'poll' | 'start';
  pdf?: string;
  count: number;
  intervalMs: number;
  jobId: string;
  /** Apply VS Code's proxy support first, with these settings (the module's path in the VS Code server build). */
  vscode?: { proxyAgentModule: string; proxySupport: 'override' | 'on' | 'off'; proxy: string };
}

export interface ConnectionsResult {
  wallMs: number;
  jobId?: string;
}

interface ProxyAgentModule {
  createProxyResolver(params: object): { resolveProxyWithRequest: unknown };
  createHttpPatch(params: object, originals: typeof http | typeof https, resolveProxy: unknown): object;
}

/** What the extension host does at its start (extensionHostProcess.js), with the settings given and no system proxy. */
async function applyVscodeProxySupport(settings: NonNullable<ConnectionsJob['vscode']>): Promise<void> {
  const agent = (await import(settings.proxyAgentModule)) as ProxyAgentModule;
  const quiet = () => undefined;
  const params = {
    resolveProxy: () => Promise.resolve(undefined),
    getProxyURL: () => settings.proxy,
    getProxySupport: () => settings.proxySupport,
    getNoProxyConfig: () => [],
    isAdditionalFetchSupportEnabled: () => false,
    addCertificatesV1: () => false,
    addCertificatesV2: () => false,
    log: { trace: quiet, debug: quiet, info: quiet, warn: quiet, error: quiet },
    getLogLevel: () => 6, // Off
    proxyResolveTelemetry: quiet,
    isUseHostProxyEnabled: () => false,
    loadAdditionalCertificates: () => Promise.resolve([]),
    env: {},
  };
  const { resolveProxyWithRequest } = agent.createProxyResolver(params);
  Object.assign(http, agent.createHttpPatch(params, http, resolveProxyWithRequest));
  Object.assign(https, agent.createHttpPatch(params, https, resolveProxyWithRequest));
}

async function main(): Promise<void> {
  const job = JSON.parse(process.argv[2] ?? '{}') as ConnectionsJob;
  if (job.vscode) await applyVscodeProxySupport(job.vscode);
  const client = new ServiceClient({ baseUrl: job.baseUrl, apiKey: job.apiKey });
  if (job.calls === 'start') {
    const started = await client.startFinetune({
      files: [job.pdf ?? ''],
      numQs: 5,
      mode: 'pretraining',
      modelName: 'connections-poll',
      modelType: 'oss-reasoner-8b',
      useCase: '',
    });
    console.log(JSON.stringify({ wallMs: 0, jobId: started.jobId } satisfies ConnectionsResult));
    return;
  }
  const start = performance.now();
  for (let i = 0; i < job.count; i++) {
    if (job.calls === 'burst') await client.listModels();
    else {
      if (i > 0) await sleep(job.intervalMs);
      await client.getFinetuneStatus(job.jobId);
    }
  }
  const result: ConnectionsResult = { wallMs: performance.now() - start };
  console.log(JSON.stringify(result));
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
    process.exit(1);
  },
);
