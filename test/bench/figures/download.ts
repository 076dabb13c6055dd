// Figure 5: a 2 GiB artifact through the API's redirect to the signed-URL origin, ServiceClient.download against
// `curl -L` on the same URL; then a transfer cut at 50% and resumed. Emulator, curl and the measured client each run
// in their own process; every downloaded file is deleted at once.
import { mkdtemp, rm, statfs } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { EmulatorProcess } from '../emulatorProcess';
import type { FigureOptions } from '../figure';
import { curl, runNodeJson } from '../proc';
import { runsTable, type FigureResult, type Row } from '../report';
import { fmt, GiB, interleave, MiB, mib, range, summarize } from '../stats';
import type { TransferJob, TransferResult } from '../transferWorker';

const KEY = 'demo-key';
const MODEL = 'bench-artifact';
const TIME_GOAL = 1.1;
const MEMORY_GOAL = 64 * MiB;
const REFETCH_GOAL = 1 * MiB;

export async function run(options: FigureOptions): Promise<FigureResult> {
  const size = options.quick ? 256 * MiB : 2 * GiB;
  const runs = options.quick ? 2 : 5;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'hr-bench-download-'));
  const fs = await statfs(dir);
  const free = fs.bavail * fs.bsize;
  if (free < 3 * size + GiB) throw new Error(`not enough disk space in ${os.tmpdir()}: ${mib(free)} free, ${mib(3 * size + GiB)} needed`);
  const em = await EmulatorProcess.start({ downloadMode: 'redirect' });
  try {
    const info = await em.addCustomModel(KEY, MODEL, size);
    const url = `${em.url}/cr/finetune_model/download?model_name=${encodeURIComponent(MODEL)}`;
    const job: TransferJob = { kind: 'download', baseUrl: em.url, apiKey: KEY, modelName: MODEL, directory: dir };
    const memory: TransferResult[] = [];
    const bare: TransferResult[] = [];
    const curlCpu: { user: number; system: number }[] = [];
    const perRun: (string | number)[][] = [];
    const paired = await interleave(
      runs,
      async (i) => {
        const out = path.join(dir, 'curl.gguf');
        // curl sends -H headers to the redirect target too; irrelevant here (timing only), avoided by the client.
        const r = await curl(['-L', '-H', `X-API-Key: ${KEY}`, '-o', out, '-w', '%{time_total} %{http_code} %{size_download}', url]);
        await rm(out, { force: true });
        if (r.fields[0] !== '200' || Number(r.fields[1]) !== info.size) throw new Error(`curl: ${r.fields.join(' ')}`);
        if (i >= 0) curlCpu.push({ user: r.cpuUserMs, system: r.cpuSystemMs });
        return r.ms;
      },
      async (i) => {
        const r = await runNodeJson<TransferResult>('transferWorker.js', job);
        await rm(String(r.detail.path), { force: true });
        if (r.detail.bytes !== info.size) throw new Error(`client downloaded ${String(r.detail.bytes)} bytes of ${info.size}`);
        if (i >= 0) {
          memory.push(r);
          // Context, after each pair: what Node itself needs for the same bytes.
          const b = await runNodeJson<TransferResult>('transferWorker.js', { ...job, kind: 'bareDownload' } satisfies TransferJob);
          await rm(String(b.detail.path), { force: true });
          bare.push(b);
        }
        return r.ms;
      },
      1,
      (i, ref, subject) => {
        const m = memory[i];
        const cpu = (u: number, s: number) => `${fmt(u / 1000)} + ${fmt(s / 1000)}`;
        perRun.push([i + 1, fmt(ref / 1000), fmt(subject / 1000), fmt(subject / ref), fmt(bare[i].ms / 1000), cpu(curlCpu[i].user, curlCpu[i].system), cpu(m.cpuUserMs, m.cpuSystemMs), cpu(bare[i].cpuUserMs, bare[i].cpuSystemMs), mib(m.baselineRss), m.peakRss !== undefined ? mib(m.peakRss - m.baselineRss) : '—', mib(m.polledPeakRss - m.baselineRss)]);
      },
    );

    // Cut at 50%: the storage origin ends the first response after half the bytes; the client resumes by Range.
    const cutAt = Math.floor(size / 2);
    await em.call({ op: 'clearReceived' });
    await em.call({ op: 'addFault', rule: { origin: 'storage', pathRegex: '^/artifacts/', kind: 'truncate', afterBytes: cutAt, times: 1 } });
    const cut = await runNodeJson<TransferResult>('transferWorker.js', job);
    await rm(String(cut.detail.path), { force: true });
    const storage = (await em.received()).filter((r) => r.origin === 'storage');
    const rangeHeader = storage[1]?.headers.range;
    const rangeStart = typeof rangeHeader === 'string' ? Number(/^bytes=(\d+)-/.exec(rangeHeader)?.[1] ?? NaN) : NaN;
    // Sent by storage: the cut response (exactly cutAt bytes), then size - rangeStart; anything beyond size was fetched twice.
    const refetched = Number.isFinite(rangeStart) ? cutAt - rangeStart : NaN;
    const cutOk = cut.detail.bytes === info.size && storage.length === 2;

    const t = summarize(paired.subject);
    const c = summarize(paired.ref);
    const q = summarize(paired.ratios);
    const growth = summarize(memory.map((m) => (m.peakRss ?? m.polledPeakRss) - m.baselineRss));
    const cutGrowth = (cut.peakRss ?? cut.polledPeakRss) - cut.baselineRss;
    const bareT = summarize(bare.map((b) => b.ms));
    const vsBare = summarize(paired.subject.map((sub, i) => sub / bare[i].ms));
    const med = (xs: number[]) => summarize(xs).median;
    const curlUser = med(curlCpu.map((x) => x.user));
    const curlSys = med(curlCpu.map((x) => x.system));
    const clientUser = med(memory.map((x) => x.cpuUserMs));
    const clientSys = med(memory.map((x) => x.cpuSystemMs));
    const bareUser = med(bare.map((x) => x.cpuUserMs));
    const bareSys = med(bare.map((x) => x.cpuSystemMs));
    const gib = fmt(size / GiB, 2);
    const rows: Row[] = [
      {
        figure: `5. Download, ${gib} GiB via redirect: wall time`,
        subject: `${fmt(t.median / 1000)} s (${fmt(size / MiB / (t.median / 1000), 0)} MiB/s)`,
        reference: `${fmt(c.median / 1000)} s curl -L`,
        ratio: fmt(q.median),
        spread: `ratio ${range(q)}`,
        goal: `≤ ${TIME_GOAL}× curl`,
        met: q.median <= TIME_GOAL,
      },
      {
        figure: '5. Download: peak RSS growth of the downloading process',
        subject: mib(growth.median),
        reference: '—',
        ratio: '—',
        spread: `${mib(growth.min)}–${mib(growth.max)} (cut run: ${mib(cutGrowth)})`,
        goal: '≤ 64 MiB',
        met: Math.max(growth.max, cutGrowth) <= MEMORY_GOAL,
      },
      {
        figure: '5. Download: bytes fetched twice after a cut at 50%',
        subject: Number.isFinite(refetched) ? `${refetched} B` : 'no resume seen',
        reference: '—',
        ratio: '—',
        spread: `Range start ${rangeStart} vs cut at ${cutAt}`,
        goal: '< 1 MiB',
        met: cutOk && refetched >= 0 && refetched < REFETCH_GOAL,
      },
    ];
    const section = [
      '## 5. Download',
      '',
      `Method: the emulator (own process, redirect mode) holds a ${gib} GiB GGUF artifact for a custom model. Subject:`,
      `\`ServiceClient.download\` in a fresh Node process (\`transferWorker.ts\`): \`GET /cr/finetune_model/download\` with`,
      `the key, 302 to the signed-URL origin, fetched there without the key into \`<name>.part\` (length checked —`,
      `a redirect announces no checksum, so nothing is hashed — then renamed). Reference: \`curl -L -H 'X-API-Key: ...' -o file\` on the same URL (curl`,
      `forwards the header to the redirect target; irrelevant for timing). Both write to ${os.tmpdir()}; each file is`,
      `deleted right after its run. ${runs} interleaved pairs after one warm-up pair. Memory as for the upload (VmHWM`,
      `reset before the call, after a warm-up request and a GC).`,
      '',
      runsTable(['Run', 'curl (s)', 'client (s)', 'ratio', 'bare node:http pipe (s)', 'CPU user + system (s): curl', 'client', 'bare pipe', 'client RSS before', 'peak growth (VmHWM)', 'peak growth (polled)'], perRun),
      '',
      `Context (not judged): "bare node:http pipe" is a fresh Node process that reads the redirect by hand and pipes the`,
      `storage response into the file with \`stream.pipeline\` — no axios, no checks, no progress: ${fmt(bareT.median / 1000)} s median,`,
      `${fmt(bareT.median / c.median)}× curl; the client took ${fmt(vsBare.median)}× the bare pipe (median of the runs' ratios, ${range(vsBare)}).`,
      '',
      ...(q.median > TIME_GOAL
        ? [
            `**Why the goal is missed.** The transfer is CPU-bound: curl used ${fmt(curlUser / 1000)} s user + ${fmt(curlSys / 1000)} s system CPU (medians),`,
            `the client ${fmt(clientUser / 1000)} + ${fmt(clientSys / 1000)} s and the bare Node pipe ${fmt(bareUser / 1000)} + ${fmt(bareSys / 1000)} s. Node reads the socket into a fresh`,
            '64 KiB buffer per read, its HTTP parser hands on slices, the file writes go through the thread pool, and the',
            'garbage collector frees the buffers: in a CPU profile of the client, GC, `socketOnData` and the file writes are the',
            'largest items, as in the bare pipe\'s. The system time (page cache, page faults on fresh buffers, writeback of the',
            '2 GiB) also varies from run to run with what the disk is doing. The client\'s own path (async iteration over',
            'axios\'s stream, the idle watchdog, the write loop) is the part above the bare pipe. Proposal (not done): write the',
            'body with `stream.pipeline(response, fileStream)`, with the watchdog and progress as listeners, so no promise is',
            'made per chunk; the bare pipe bounds what that can gain.',
            '',
          ]
        : []),
      '**Changed in the product for this figure** (d87617d): the SHA-256 is computed only when the service announces',
      'one (metadata mode); a redirect can be checked by length only, so the transfer is no longer hashed on the way and a',
      'resume no longer re-reads the part file to rebuild the hash (about 0.3 s of CPU per 512 MiB before).',
      '',
      `Cut and resume: a \`truncate\` fault on the storage origin ends the first response after ${cutAt} bytes (50%).`,
      `The client saw ${String(cut.detail.resumes)} resume(s), downloaded ${String(cut.detail.bytes)} bytes (checked: ${String(cut.detail.verified)}),`,
      `and asked storage for \`${String(rangeHeader)}\`: ${Number.isFinite(refetched) ? `${refetched} bytes` : 'an unknown amount'} fetched twice`,
      `(storage requests: ${storage.map((r) => `${r.status ?? '?'}${r.fault ? ` ${r.fault}` : ''}${typeof r.headers.range === 'string' ? ` ${r.headers.range}` : ''}`).join(', ')}).`,
    ].join('\n');
    return { rows, section };
  } finally {
    await em.close();
    await rm(dir, { recursive: true, force: true });
  }
}
