// The extension behind a forward proxy, inside the real extension host: every request goes through VS Code's proxy
// support (the extension adds no proxy logic of its own), so `http.proxy` sends all of a journey's calls through the
// proxy as CONNECT tunnels, `http.noProxy` sends them all direct, and a proxy that wants credentials (407) is said as
// such. The proxy is the npm `proxy` package on loopback; the service is the emulator over HTTPS (so the proxy sees
// CONNECT tunnels, as for a real https service) under a made-up name that only the proxy resolves (to 127.0.0.2):
// VS Code sends localhost, 127.0.0.1 and ::1 direct whatever the settings, and a request that did not go through the
// proxy could not even find the host. Its certificate comes from the run's private CA (testTrust.ts). The proxy's own
// connections come from 127.0.0.3, so the emulator tells each request's way by the address it came from. For the
// direct leg (http.noProxy) the extension host's resolver learns the name for that test only, as a hosts file would.
import * as assert from 'node:assert/strict';
// The module object itself (a namespace import's properties are read-only): net reads its lookup at each connect.
import dns from 'node:dns';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { collectInference } from '../../src/api/client';
import { COMMANDS } from '../../src/contributions';
import type { FinetuneAnswers } from '../../src/features/finetune/finetuneCommand';
import type { ErrorNode } from '../../src/features/models/modelsTree';
import { startEmulator, type Emulator, type RecordedRequest } from '../service/emulator';
import { writePdf } from '../service/fixtures';
import { startForwardProxy, type ForwardProxy } from '../service/forwardProxy';
import { answeringInputBoxes, modelsView, waitFor } from './helpers';
import { EMULATOR_SETTINGS, useRig } from './rig';
import { PROXIED_LOOPBACK, SERVICE_NAME, testCertificates } from './testTrust';
import { EVERY_HOST_TAG } from './suiteResult';

const rig = useRig();
const KEY = 'demo-key';
/** The address the proxy's connections to the emulator come from. */
const PROXY_SOURCE = '127.0.0.3';
/** VS Code's settings this file changes; their global values are put back after it, pass or fail. */
const HTTP_SETTINGS = ['proxy', 'noProxy', 'proxySupport', 'proxyAuthorization'] as const;
const OWN_SETTINGS = ['baseUrl', 'downloadFolder'] as const;
const PROXY_CREDENTIALS = { user: 'proxy-user', password: 'proxy-pass' };
const PROXY_AUTHORIZATION = `Basic ${Buffer.from(`${PROXY_CREDENTIALS.user}:${PROXY_CREDENTIALS.password}`).toString('base64')}`;

async function setHttp(key: (typeof HTTP_SETTINGS)[number], value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('http').update(key, value, vscode.ConfigurationTarget.Global);
  assert.deepEqual(vscode.workspace.getConfiguration('http').inspect(key)?.globalValue, value, `setting http.${key}`);
}

type Lookup = typeof dns.lookup;

/**
 * Runs `body` while the extension host's resolver answers `name` with `address` (as a hosts-file entry would); every
 * other name is resolved as before, and the resolver is put back afterwards.
 */
async function resolvingName<T>(name: string, address: string, body: () => Promise<T>): Promise<T> {
  const original = dns.lookup;
  const patched = ((hostname: string, options: unknown, callback?: unknown) => {
    const cb = (typeof options === 'function' ? options : callback) as (e: Error | null, a: unknown, f?: number) => void;
    if (hostname !== name) return (original as (...args: unknown[]) => void)(hostname, options, callback);
    const all = typeof options === 'object' && options !== null && (options as { all?: boolean }).all === true;
    process.nextTick(() => (all ? cb(null, [{ address, family: 4 }]) : cb(null, address, 4)));
  }) as unknown as Lookup;
  dns.lookup = patched;
  try {
    return await body();
  } finally {
    dns.lookup = original;
  }
}

/** What a request was, for messages and the report: `api GET /cr/get_allowed_models 200`. */
function describeCall(r: RecordedRequest): string {
  return `${r.origin} ${r.method} ${r.path.replace(/\?.*$/, '')} ${r.status ?? '-'}`;
}

describe(`behind a proxy (http.proxy, http.noProxy, 407) ${EVERY_HOST_TAG}`, function () {
  this.timeout(60_000);
  let emu: Emulator;
  let proxy: ForwardProxy;
  let folder: string | undefined;
  let downloads: string | undefined;
  const saved = { http: new Map<string, unknown>(), own: new Map<string, unknown>() };

  before(async function () {
    this.timeout(30_000);
    const http = vscode.workspace.getConfiguration('http');
    for (const key of HTTP_SETTINGS) saved.http.set(key, http.inspect(key)?.globalValue);
    const own = vscode.workspace.getConfiguration('hostedReasoning');
    for (const key of OWN_SETTINGS) saved.own.set(key, own.inspect(key)?.globalValue);
    const { key, cert } = testCertificates();
    emu = await startEmulator({ ...EMULATOR_SETTINGS, host: PROXIED_LOOPBACK, advertisedHost: SERVICE_NAME, tls: { key, cert } });
    proxy = await startForwardProxy({ localAddress: PROXY_SOURCE, hosts: { [SERVICE_NAME]: PROXIED_LOOPBACK } });
    const workspace = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(workspace, 'no workspace folder');
    folder = await fsp.mkdtemp(path.join(workspace, 'suite-proxy-'));
    downloads = await fsp.mkdtemp(path.join(os.tmpdir(), 'hr-suite-proxy-'));
    await writePdf(path.join(folder, 'guide.pdf'), ['The proxy guide says every call goes through the proxy.']);
    await rig.setSetting('baseUrl', emu.url);
    await rig.setSetting('downloadFolder', downloads);
  });

  after(async function () {
    this.timeout(30_000);
    const failures: unknown[] = [];
    const attempt = async (step: () => PromiseLike<unknown>) => Promise.resolve(step()).catch((e: unknown) => failures.push(e));
    await attempt(() => rig.clearKey());
    for (const [key, value] of saved.http) {
      await attempt(() => vscode.workspace.getConfiguration('http').update(key, value, vscode.ConfigurationTarget.Global));
    }
    for (const [key, value] of saved.own) {
      await attempt(() => vscode.workspace.getConfiguration('hostedReasoning').update(key, value, vscode.ConfigurationTarget.Global));
    }
    // The rig's emulator again for the files after this one (the rig restores the user's value at the very end).
    await attempt(() => rig.setSetting('baseUrl', rig.emu.url));
    if (folder) await attempt(() => fsp.rm(folder!, { recursive: true, force: true }));
    if (downloads) await attempt(() => fsp.rm(downloads!, { recursive: true, force: true }));
    await attempt(() => proxy?.close() ?? Promise.resolve());
    await attempt(() => emu?.close() ?? Promise.resolve());
    if (failures.length) throw failures[0];
  });

  /** CONNECTs to the emulator's origins (anything else the host sends through the proxy is not ours to judge). */
  function tunnelsToEmulator() {
    const ours = new Set([new URL(emu.url).host, new URL(emu.storageUrl).host]);
    return proxy.received.filter((r) => r.method === 'CONNECT' && ours.has(r.target));
  }

  /**
   * One person's journey: the key check, the models list, a finetune (upload, then the poller's status calls until it
   * completes), the download (the API's redirect, then the signed URL on the storage origin), a streamed run and a
   * non-streamed run. Returns the emulator's record of it.
   */
  async function journey(label: string): Promise<RecordedRequest[]> {
    emu.clearReceived();
    proxy.clear();
    await rig.clearKey();
    await rig.useKey(KEY);
    // The key change reloads the view too; a load in progress shows no rows: wait for the models themselves.
    await rig.api.models.refresh();
    await waitFor(`${label}: the Models view to list the models`, async () =>
      (await modelsView(rig.api)).models.length > 0 ? true : undefined,
    );
    const baseModel = emu.options.keys[KEY]?.models[0];
    assert.ok(baseModel);
    const answers: FinetuneAnswers = {
      baseModel,
      modelName: `proxy-${label.replace(/\W+/g, '-')}-${Date.now().toString(36)}`,
      numQs: 5,
      mode: 'pretraining',
      useCase: 'proxy test',
    };
    const outcome = await rig.api.finetune({ files: [path.join(folder!, 'guide.pdf')], answers });
    assert.ok(outcome && outcome.status === 'started', `${label}: the finetune did not start: ${JSON.stringify(outcome)}`);
    const { scope, id } = outcome.job;
    await waitFor(
      `${label}: the poller to see job ${id} complete`,
      () => {
        const job = rig.api.services.jobs.list(scope).find((j) => j.id === id && j.kind === 'finetune');
        if (job?.state === 'failed') throw new Error(`the job failed: ${job.error ?? job.message ?? '?'}`);
        return job?.state === 'completed' ? job : undefined;
      },
      { timeoutMs: 20_000, intervalMs: 100 },
    );
    const saved = await vscode.commands.executeCommand<string | undefined>(COMMANDS.download, { modelName: answers.modelName });
    assert.ok(saved, `${label}: the download returned no path`);
    const [got, want] = await Promise.all([fsp.stat(saved), fsp.stat(emu.artifactPath(answers.modelName, KEY) ?? '')]);
    assert.equal(got.size, want.size, `${label}: the downloaded artifact's size differs`);
    const { client } = await rig.api.services.session.connect();
    const run = {
      prompt: 'Say hello through the proxy.',
      modelName: baseModel,
      useRag: false,
      sequentialBudget: 1,
      parallelBudget: 1,
      temperature: 0,
    };
    let streamed = '';
    for await (const piece of client.infer({ ...run, stream: true })) if (piece.kind === 'answer') streamed += piece.text;
    assert.ok(streamed.length > 0, `${label}: the streamed run said nothing`);
    const whole = await collectInference(client.infer({ ...run, stream: false }));
    assert.ok(whole.answer.length > 0, `${label}: the non-streamed run said nothing`);

    const calls = [...emu.received];
    const seen = calls.map(describeCall);
    const expect = (what: string, test: (r: RecordedRequest) => boolean) =>
      assert.ok(calls.some(test), `${label}: no ${what} in ${seen.join('; ')}`);
    expect('key check / list', (r) => r.method === 'GET' && r.path.startsWith('/cr/get_allowed_models'));
    expect('upload', (r) => r.method === 'POST' && r.path.startsWith('/cr/generate_questions'));
    expect('status poll', (r) => r.method === 'GET' && r.path.startsWith('/cr/generate_questions_status'));
    expect('download redirect', (r) => r.origin === 'api' && r.path.startsWith('/cr/finetune_model/download') && r.status === 302);
    expect('storage download', (r) => r.origin === 'storage' && r.method === 'GET' && r.status === 200);
    assert.equal(calls.filter((r) => r.method === 'POST' && r.path.startsWith('/cr/provider_predict')).length, 2, `${label}: runs`);
    // Logged for the record of which calls took which way (the in-editor run's output).
    console.log(
      `[proxy test] ${label}: ${calls.length} calls, ${tunnelsToEmulator().length} CONNECT tunnels, ${emu.connections.api + emu.connections.storage} connections, ${calls.filter((r) => r.headers.connection === 'close').length} asked to close: ${seen.join('; ')}`,
    );
    return calls;
  }

  function assertAllProxied(label: string, calls: RecordedRequest[]): void {
    const direct = calls.filter((r) => r.peer !== PROXY_SOURCE);
    assert.deepEqual(direct.map(describeCall), [], `${label}: calls that did not come through the proxy`);
    // Each connection the emulator accepted is one tunnel the proxy opened for it, and nothing else reached it.
    const tunnels = tunnelsToEmulator();
    assert.ok(tunnels.length > 0, `${label}: the proxy saw no CONNECT to the emulator`);
    assert.equal(tunnels.length, emu.connections.api + emu.connections.storage, `${label}: tunnels vs connections`);
    assert.ok(
      tunnels.some((t) => t.target === new URL(emu.storageUrl).host),
      `${label}: the storage download was not tunnelled`,
    );
  }

  it('sends every call of a journey through http.proxy (http.proxySupport "override", the default)', async () => {
    await setHttp('proxySupport', 'override');
    await setHttp('noProxy', []);
    await setHttp('proxy', proxy.url);
    assertAllProxied('override', await journey('override'));
  });

  it('still sends every call through http.proxy under http.proxySupport "on" (no agent of the extension opts out)', async () => {
    await setHttp('proxySupport', 'on');
    await setHttp('noProxy', []);
    await setHttp('proxy', proxy.url);
    assertAllProxied('on', await journey('on'));
  });

  it('sends every call direct when http.noProxy names the service host', async () => {
    await setHttp('proxySupport', 'override');
    await setHttp('proxy', proxy.url);
    await setHttp('noProxy', [SERVICE_NAME]);
    const calls = await resolvingName(SERVICE_NAME, PROXIED_LOOPBACK, () => journey('noProxy'));
    assert.deepEqual(
      calls.filter((r) => r.peer === PROXY_SOURCE).map(describeCall),
      [],
      'calls that went through the proxy although http.noProxy names the host',
    );
    assert.deepEqual(tunnelsToEmulator(), [], 'the proxy saw a CONNECT to the emulator');
  });

  it('a proxy answering 407 is said as the proxy asking for credentials, in the key box and the Models view', async () => {
    await setHttp('proxySupport', 'override');
    await setHttp('noProxy', []);
    await setHttp('proxy', proxy.url);
    proxy.requireAuthorization(PROXY_AUTHORIZATION);
    try {
      await rig.clearKey();
      proxy.clear();
      emu.clearReceived();
      const stored = await answeringInputBoxes([KEY], async (asked) => {
        const ok = await vscode.commands.executeCommand<boolean>(COMMANDS.setApiKey);
        return { ok, refusals: asked.flatMap((b) => b.refusals ?? []) };
      });
      assert.equal(stored.ok, false, 'a key was stored although the proxy let no request through');
      assert.ok(
        proxy.received.some((r) => r.refused),
        'the proxy refused nothing',
      );
      assert.equal(stored.refusals.length, 1, `the box's messages: ${JSON.stringify(stored.refusals)}`);
      const said = stored.refusals[0] ?? '';
      assert.match(said, /proxy/i);
      assert.match(said, /http\.proxy\b/);
      assert.match(said, /http\.proxyAuthorization/);
      assert.doesNotMatch(said, /Correct the key|refused the (API )?key|service refused|service failed/i, said);
      assert.deepEqual(emu.received.map(describeCall), [], 'requests reached the service through a proxy that refused them');

      // The Models view with a key stored (unchecked): its row offers the proxy settings, not the key.
      const origin = new URL(emu.url).origin;
      await rig.api.services.session.keys.set(origin, KEY);
      await rig.api.models.refresh();
      const rows = await waitFor('the Models view to show its error rows', async () => {
        const errors = (await modelsView(rig.api)).roots.filter((n): n is ErrorNode => n.type === 'error');
        return errors.length > 0 ? errors : undefined;
      });
      assert.deepEqual(
        rows.map((r) => r.command.command),
        [COMMANDS.openProxySettings],
        `rows: ${JSON.stringify(rows.map((r) => [r.label, r.detail]))}`,
      );
      assert.match(rows[0]?.label ?? '', /proxy/i);
      assert.doesNotMatch(rows.map((r) => `${r.label} ${r.detail}`).join(' '), /\bkey\b/i);

      // Credentials in http.proxy (user:password@host) are what VS Code's proxy support sends: the key check passes.
      await rig.clearKey();
      const withCredentials = new URL(proxy.url);
      withCredentials.username = PROXY_CREDENTIALS.user;
      withCredentials.password = PROXY_CREDENTIALS.password;
      await setHttp('proxy', withCredentials.href);
      await rig.useKey(KEY);
      assert.ok(
        proxy.received.some((r) => !r.refused && r.method === 'CONNECT'),
        'no tunnel was let through with the credentials',
      );
    } finally {
      proxy.requireAuthorization(undefined);
    }
  });
});
