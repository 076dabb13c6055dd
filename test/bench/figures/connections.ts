// Figure 10: connection reuse. How many connections (and, behind a proxy, CONNECT tunnels) the real ServiceClient opens
// for a burst of calls and for job polling at the default interval, each in a fresh process: in plain Node (the
// runtime's agent), and under VS Code's own proxy support (@vscode/proxy-agent from the installed VS Code server build,
// patched in as the extension host does). The client's own keep-alive agents were removed after this figure showed
// that inside VS Code, with its default settings, every request gets VS Code's agent and its own connection anyway:
// the agents gained nothing where the extension runs. The figure stays as the record of that. The emulator serves
// HTTPS with a test CA (trusted through NODE_EXTRA_CA_CERTS) and keeps idle connections for 60 s, as services commonly
// do; it counts the connections it accepts, the proxy (npm `proxy`) the tunnels.
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { NEWEST_HOST } from '../../runners/vscodeServerLayout';
import { startEmulator } from '../../service/emulator';
import { writePdf } from '../../service/fixtures';
import { startForwardProxy } from '../../service/forwardProxy';
import { makeTestCertificates } from '../../service/testCertificates';
import type { ConnectionsJob, ConnectionsResult } from '../connectionsWorker';
import { bySize, type FigureOptions } from '../figure';
import { runProcess } from '../proc';
import { runsTable, type FigureResult, type Row } from '../report';
import { fmt } from '../stats';

const KEY = 'demo-key';
/** A name only the proxy resolves (VS Code's tunnel checks an IP host's certificate against "localhost"). */
const NAME = 'hr-emulator.test';
/** The default hostedReasoning.pollIntervalSeconds. */
const POLL_INTERVAL_MS = 5_000;

interface Case {
  label: string;
  calls: 'burst' | 'poll';
  vscode?: 'override' | 'on';
  viaProxy: boolean;
}

interface Measured {
  c: Case;
  requests: number;
  connections: number;
  tunnels: number;
  wallMs: number;
}

export async function run(options: FigureOptions): Promise<FigureResult> {
  const burst = bySize(options, { full: 100, quick: 20, tiny: 3 });
  const polls = bySize(options, { full: 12, quick: 3, tiny: 2 });
  // A tiny run polls faster: it shows the harness runs, not what Node's agent does with an idle connection after 5 s.
  const pollIntervalMs = bySize(options, { full: POLL_INTERVAL_MS, quick: POLL_INTERVAL_MS, tiny: 200 });
  const dir = await mkdtemp(path.join(os.tmpdir(), 'hr-bench-connections-'));
  const proxyAgentModule = path.join(NEWEST_HOST.vscodeDir, 'node_modules', '@vscode', 'proxy-agent', 'out', 'index.js');
  const haveVscode = existsSync(NEWEST_HOST.installMarkerPath) && existsSync(proxyAgentModule);
  try {
    const certs = await makeTestCertificates({ dns: [NAME], ips: ['127.0.0.1'] });
    const caFile = path.join(dir, 'ca.pem');
    await writeFile(caFile, certs.ca);
    const pdf = path.join(dir, 'tiny.pdf');
    await writePdf(pdf, ['A small document for a job that stays queued.']);
    const env = { ...process.env, NODE_EXTRA_CA_CERTS: caFile };
    const worker = async (job: ConnectionsJob): Promise<ConnectionsResult> => {
      const r = await runProcess(process.execPath, [path.join(__dirname, '..', 'connectionsWorker.js'), JSON.stringify(job)], { env });
      if (r.code !== 0) throw new Error(`connectionsWorker failed (${r.code}): ${r.stderr.trim().slice(-2000)}`);
      return JSON.parse(r.stdout.trim().split('\n').pop() ?? '') as ConnectionsResult;
    };

    const measure = async (c: Case): Promise<Measured> => {
      const emu = await startEmulator({
        host: '127.0.0.1',
        advertisedHost: NAME,
        tls: { key: certs.key, cert: certs.cert },
        keepAliveTimeoutMs: 60_000,
        finetuneDurationMs: 1e9, // the polled job stays queued
      });
      const proxy = await startForwardProxy({ hosts: { [NAME]: '127.0.0.1' } });
      try {
        // Direct: the address itself (the name resolves nowhere); through the proxy: the name, which only it resolves.
        const port = new URL(emu.url).port;
        const baseUrl = c.viaProxy ? emu.url : `https://127.0.0.1:${port}`;
        const base = { baseUrl, apiKey: KEY, count: c.calls === 'burst' ? burst : polls, intervalMs: pollIntervalMs };
        const vscode = c.vscode ? { proxyAgentModule, proxySupport: c.vscode, proxy: proxy.url } : undefined;
        const direct = `https://127.0.0.1:${port}`;
        const started = c.calls === 'poll' ? await worker({ ...base, baseUrl: direct, calls: 'start', pdf, jobId: '' }) : undefined;
        emu.clearReceived();
        proxy.clear();
        const r = await worker({ ...base, calls: c.calls, jobId: started?.jobId ?? '', vscode });
        return {
          c,
          requests: emu.received.length,
          connections: emu.connections.api + emu.connections.storage,
          tunnels: proxy.received.filter((p) => p.method === 'CONNECT').length,
          wallMs: r.wallMs,
        };
      } finally {
        await proxy.close();
        await emu.close();
      }
    };

    const vs = (c: Case[]) => (haveVscode ? c : []);
    const burstCases: Case[] = [
      { label: 'plain Node (the runtime’s agent)', calls: 'burst', viaProxy: false },
      ...vs([{ label: 'in VS Code’s proxy support (override, no proxy)', calls: 'burst', vscode: 'override', viaProxy: false }]),
    ];
    const pollCases: Case[] = [
      { label: 'plain Node (the runtime’s agent)', calls: 'poll', viaProxy: false },
      ...vs([
        { label: 'behind a proxy, VS Code’s proxy support (override)', calls: 'poll', vscode: 'override', viaProxy: true },
        { label: 'behind a proxy, VS Code’s proxy support (on)', calls: 'poll', vscode: 'on', viaProxy: true },
      ]),
    ];
    // Bursts one after another (their wall times are compared); the polling cases at once (they mostly sleep).
    // A discarded first burst warms the emulator's code in this process: the first case would otherwise pay for it.
    if (options.size !== 'tiny') await measure(burstCases[0]!);
    const burstResults: Measured[] = [];
    for (const c of burstCases) burstResults.push(await measure(c));
    const pollResults = await Promise.all(pollCases.map(measure));

    const perConnection = (m: Measured) => fmt(m.requests / Math.max(1, m.connections), 1);
    const rows: Row[] = [];
    const [node, inVscode] = burstResults;
    if (node && inVscode) {
      rows.push({
        figure: `10. Connections, ${burst} model lists back to back, in VS Code ${NEWEST_HOST.vscodeVersion}`,
        subject: `${inVscode.connections} connection(s), ${perConnection(inVscode)} requests each`,
        reference: `${node.connections} in plain Node`,
        // Connections, not time: one run per case on a shared machine times nothing reliably (wall times are context).
        ratio: '—',
        spread: `wall ${fmt(inVscode.wallMs, 0)} / ${fmt(node.wallMs, 0)} ms (one run each)`,
        goal: 'context (VS Code decides; the extension adds no agent of its own)',
        met: undefined,
      });
    }
    const [pollNode, proxied, proxiedOn] = pollResults;
    if (pollNode) {
      rows.push({
        figure: `10. Connections, ${polls} polls at ${pollIntervalMs / 1000} s, plain Node`,
        subject: `${pollNode.connections} connection(s) for ${pollNode.requests} polls`,
        reference: '—',
        ratio: '—',
        spread: 'Node’s agent closes an idle connection after 5 s',
        goal: 'context',
        met: undefined,
      });
    }
    if (proxied) {
      rows.push({
        figure: `10. Tunnels, ${polls} polls at ${pollIntervalMs / 1000} s behind a proxy, VS Code’s proxy support`,
        subject: `${proxied.tunnels} CONNECT tunnels for ${proxied.requests} polls (override)`,
        reference: `${proxiedOn?.tunnels ?? '—'} (on)`,
        ratio: '—',
        spread: 'a tunnel per request: VS Code closes each connection (see section)',
        goal: 'context (not reachable by the extension)',
        met: undefined,
      });
    }
    const table = [...burstResults, ...pollResults].map((m) => [
      m.c.calls === 'burst' ? `${burst} lists` : `${polls} polls, ${pollIntervalMs / 1000} s apart`,
      m.c.label,
      m.requests,
      m.connections,
      m.c.viaProxy ? m.tunnels : '—',
      perConnection(m),
      fmt(m.wallMs, 0),
    ]);
    const section = [
      '## 10. Connection reuse',
      '',
      runsTable(
        ['Calls', 'Client', 'requests (emulator)', 'connections (emulator)', 'CONNECT tunnels', 'requests per connection', 'wall ms'],
        table,
      ),
      '',
      haveVscode ? '' : 'The VS Code server build is not installed: the rows under VS Code’s proxy support were not measured.',
    ].join('\n');
    return { rows, section };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
