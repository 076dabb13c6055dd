// How far one answer travels in the client (issue 36's "a job status from the socket to the Jobs view through ≤ 10
// files"): the functions of src/ that run, counted by V8's precise coverage (call counts, reset at each take), while
// one finetune status goes from a local HTTP service's socket through the real client, its kept profile (the real
// ServiceProfiles book), the real poller and job store to the Jobs view's row (getChildren, getTreeItem, with the
// vscode stub); and while one stream event goes from the socket to the piece the client yields. Warm-up rounds come
// first, so what is counted is a steady poll (the profile kept, nothing inferred), as the issue's "about 21 on a steady
// poll" counts. Run: npx tsc -p tsconfig.test.json && node out/test/bench/statusPath.js
import { createRequire } from 'node:module';
import { createServer, type Server } from 'node:http';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { Disposable, installVscodeStub } from './vscodeStub';
import { FakeClock, SCOPE } from '../unit/pollRig';
import type * as ClientModule from '../../src/api/client';
import type * as ProfilesModule from '../../src/connection/serviceProfiles';
import type * as StoreModule from '../../src/jobs/jobStore';
import type * as PollerModule from '../../src/jobs/jobPoller';
import type * as TreeModule from '../../src/features/jobs/jobsTree';

installVscodeStub();
const load = createRequire(__filename);
// The service profile setting is read with inspect() (serviceProfiles.ts): none set.
(load('vscode') as { workspace: { getConfiguration: unknown } }).workspace.getConfiguration = () => ({
  get: <T>(_key: string, fallback?: T) => fallback,
  inspect: () => undefined,
});
const { ServiceClient, collectInference } = load('../../src/api/client') as typeof ClientModule;
const { ServiceProfiles } = load('../../src/connection/serviceProfiles') as typeof ProfilesModule;
const { JobStore } = load('../../src/jobs/jobStore') as typeof StoreModule;
const { JobPoller } = load('../../src/jobs/jobPoller') as typeof PollerModule;
const { JobsView } = load('../../src/features/jobs/jobsTree') as typeof TreeModule;

let step = 0;

function service(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/cr/generate_questions_status') {
      step += 10;
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ job_id: url.searchParams.get('job_id'), status: 'running', progress: Math.min(step, 99) }));
    } else if (url.pathname === '/cr/get_allowed_models') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ models: [{ name: 'oss-reasoner-8b' }] }));
    } else if (url.pathname === '/cr/provider_predict_platform_base_oss') {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.end('data: {"token":"Hello"}\n\ndata: {"token":" there"}\n\ndata: [DONE]\n\n');
    } else {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })),
  );
}

interface Coverage {
  result: { url: string; functions: { functionName: string; ranges: { startOffset: number; count: number }[] }[] }[];
}

/** The src/ functions that ran since the last take: file (as src/…ts) → function names (an unnamed one by its offset). */
async function ran(session: Session): Promise<Map<string, string[]>> {
  const { result } = (await session.post('Profiler.takePreciseCoverage')) as Coverage;
  const out = new Map<string, string[]>();
  for (const script of result) {
    const file = script.url.startsWith('file://') ? new URL(script.url).pathname : script.url;
    const at = file.indexOf(`${path.sep}out${path.sep}src${path.sep}`);
    if (at < 0) continue;
    const name = `src/${file.slice(at + 9).replace(/\.js$/, '.ts')}`;
    const fns = script.functions
      .filter((f) => f.ranges[0]!.count > 0 && f.functionName !== '')
      .map((f) => f.functionName)
      .concat(
        script.functions
          .filter((f) => f.ranges[0]!.count > 0 && f.functionName === '')
          .map((f) => `(anonymous @${f.ranges[0]!.startOffset})`),
      );
    // The module's own top level (V8 reports it as an unnamed function over the whole script) ran at load, not now.
    if (fns.length > 0) out.set(name, fns);
  }
  return out;
}

function print(title: string, files: Map<string, string[]>): void {
  let functions = 0;
  for (const f of files.values()) functions += f.length;
  console.log(`\n${title}: ${files.size} files, ${functions} functions`);
  for (const [file, fns] of [...files].sort()) console.log(`  ${file} (${fns.length}): ${fns.join(', ')}`);
}

async function main(): Promise<void> {
  const { server, url } = await service();
  const stored = new Map<string, unknown>();
  const memento = { get: <T>(k: string) => stored.get(k) as T | undefined, update: async (k: string, v: unknown) => void stored.set(k, v) };
  const log = { error() {}, warn() {}, info() {}, debug() {}, trace() {} } as unknown as ConstructorParameters<typeof ServiceProfiles>[1];
  const profiles = new ServiceProfiles(memento, log);
  const client = new ServiceClient({ baseUrl: url, apiKey: 'k', sleep: async () => undefined }, profiles.bookFor(new URL(url).origin));
  const jobs = new JobStore(memento);
  const clock = new FakeClock();
  const trouble: string[] = [];
  const poller = new JobPoller({
    connect: async () => ({ scope: SCOPE, source: client }),
    jobs,
    claimNotice: async () => true,
    intervalMs: () => 5_000,
    clock,
    random: () => 0.5,
    // A poll that fails would measure the failure's path, not a status's: said, and the figure is not taken.
    log: (level, message) => {
      if (level === 'warn' || level === 'error') trouble.push(message);
    },
  });
  const session = { scope: async () => SCOPE, onDidChange: () => new Disposable() };
  const treeView = { visible: false, onDidChangeVisibility: () => new Disposable(), onDidChangeSelection: () => new Disposable() };
  const view = new JobsView(
    { session, jobs } as unknown as ConstructorParameters<typeof JobsView>[0],
    treeView as unknown as ConstructorParameters<typeof JobsView>[1],
    clock.now,
  );
  await jobs.put({
    id: 'ft-1',
    kind: 'finetune',
    scope: SCOPE,
    state: 'running',
    createdAt: clock.now(),
    updatedAt: clock.now(),
    modelName: 'm',
  });
  await poller.sync();
  const row = async () => {
    const [node] = await view.getChildren();
    return view.getTreeItem(node!);
  };

  const inspector = new Session();
  inspector.connect();
  await inspector.post('Profiler.enable');
  await inspector.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
  // Warm-up: the first answers infer the profile and keep it (a second answer agreeing: inferredKeeping.ts).
  for (let i = 0; i < 4; i++) {
    clock.pass(5_000);
    await poller.pollNow();
    await row();
  }
  await ran(inspector);
  clock.pass(5_000);
  await poller.pollNow();
  const item = await row();
  if (trouble.length > 0 || !/%/.test(String(item.description))) {
    throw new Error(`no status was read (${trouble.join('; ') || String(item.description)}): the figure would count a failure's path`);
  }
  print(
    `One steady finetune status, socket to the Jobs view row ("${item.label as string} — ${item.description as string}")`,
    await ran(inspector),
  );

  const run = () =>
    collectInference(
      client.infer({
        prompt: 'hi',
        modelName: 'oss-reasoner-8b',
        stream: true,
        useRag: false,
        sequentialBudget: 1,
        parallelBudget: 1,
        temperature: 0,
      }),
    );
  await run();
  await run();
  await ran(inspector);
  const answer = await run();
  print(`One streamed run of two events, socket to the pieces the client yields (${JSON.stringify(answer)})`, await ran(inspector));

  await inspector.post('Profiler.stopPreciseCoverage');
  inspector.disconnect();
  poller.dispose();
  view.dispose();
  jobs.dispose();
  profiles.dispose();
  server.close();
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
