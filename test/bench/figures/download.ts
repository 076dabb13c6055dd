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
import type { BareWriter, TransferJob, TransferResult } from '../transferWorker';

const KEY = 'demo-key';
const MODEL = 'bench-artifact';
const TIME_GOAL = 1.1;
const MEMORY_GOAL = 64 * MiB;
const REFETCH_GOAL = 1 * MiB;
/** The bare Node references: each round runs them and the client, each in a fresh process (see BareWriter). */
const WRITERS: BareWriter[] = ['pipeline', 'coalesce', 'events'];
const WRITER_NAMES: Record<BareWriter, string> = {
  pipeline: 'Node pipeline',
  coalesce: 'Node 1 MiB coalescer',
  events: "Node 'data' events",
};

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
    const bare: Record<BareWriter, TransferResult[]> = { pipeline: [], coalesce: [], events: [] };
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
        // The Node downloads of a round (the client and the three bare ones) in an order rotated every round: in one
        // fixed order the runs in the same places stood out (the one right after curl, always the client, was slower in
        // system time), so each takes each place in turn.
        const kinds: (BareWriter | 'client')[] = ['client', ...WRITERS];
        const order = i < 0 ? ['client' as const] : kinds.map((_, k) => kinds[(k + i) % kinds.length]!);
        let clientMs = NaN;
        for (const kind of order) {
          const r = await runNodeJson<TransferResult>('transferWorker.js', kind === 'client' ? job : ({ ...job, kind: 'bareDownload', writer: kind } satisfies TransferJob));
          await rm(String(r.detail.path), { force: true });
          if (r.detail.bytes !== info.size) throw new Error(`${kind} downloaded ${String(r.detail.bytes)} bytes of ${info.size}`);
          if (kind === 'client') clientMs = r.ms;
          if (i < 0) continue;
          if (kind === 'client') memory.push(r);
          else bare[kind].push(r);
        }
        return clientMs;
      },
      1,
      (i, ref, subject) => {
        const m = memory[i]!;
        const cpu = (u: number, s: number) => `${fmt(u / 1000)} + ${fmt(s / 1000)}`;
        perRun.push([
          i + 1, fmt(ref / 1000), fmt(subject / 1000), fmt(subject / ref),
          ...WRITERS.map((w) => fmt(bare[w][i]!.ms / 1000)),
          cpu(curlCpu[i]!.user, curlCpu[i]!.system), cpu(m.cpuUserMs, m.cpuSystemMs),
          ...WRITERS.map((w) => cpu(bare[w][i]!.cpuUserMs, bare[w][i]!.cpuSystemMs)),
          mib(m.baselineRss), m.peakRss !== undefined ? mib(m.peakRss - m.baselineRss) : '—', mib(m.polledPeakRss - m.baselineRss),
        ]);
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
    const med = (xs: number[]) => summarize(xs).median;
    const gibs = size / GiB;
    /** One process's transfer: wall time, ratio to curl, CPU and costs per GiB (medians over the runs). */
    const profile = (rs: TransferResult[]) => ({
      ms: med(rs.map((r) => r.ms)),
      vsCurl: med(rs.map((r, i) => r.ms / paired.ref[i]!)),
      user: med(rs.map((r) => r.cpuUserMs)) / gibs,
      system: med(rs.map((r) => r.cpuSystemMs)) / gibs,
      faults: med(rs.map((r) => r.minorFaults)) / gibs,
      switches: med(rs.map((r) => r.contextSwitches)) / gibs,
    });
    const client = profile(memory);
    const refs = Object.fromEntries(WRITERS.map((w) => [w, profile(bare[w])])) as Record<BareWriter, ReturnType<typeof profile>>;
    // The leanest Node way measured in this run: the lowest median ratio to curl.
    const best = WRITERS.reduce((a, b) => (refs[b].vsCurl < refs[a].vsCurl ? b : a));
    const vsBest = summarize(paired.subject.map((sub, i) => sub / bare[best][i]!.ms));
    const curlUser = med(curlCpu.map((x) => x.user)) / gibs;
    const curlSys = med(curlCpu.map((x) => x.system)) / gibs;
    const perGiB = (p: { user: number; system: number }) => `${fmt(p.user / 1000, 2)} + ${fmt(p.system / 1000, 2)} s`;
    const costs = (p: ReturnType<typeof profile>) => `${perGiB(p)}, ${fmt(p.faults / 1000, 1)}k minor page faults, ${fmt(p.switches / 1000, 1)}k context switches`;
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
      `deleted right after its run. ${runs} rounds after one warm-up pair: curl, then the client and the three bare Node downloads`,
      `below in an order rotated every round. Memory as for the upload (VmHWM`,
      `reset before the call, after a warm-up request and a GC).`,
      '',
      runsTable(
        ['Run', 'curl (s)', 'client (s)', 'ratio', ...WRITERS.map((w) => `${WRITER_NAMES[w]} (s)`), 'CPU user + system (s): curl', 'client',
          ...WRITERS.map((w) => WRITER_NAMES[w]), 'client RSS before', 'peak growth (VmHWM)', 'peak growth (polled)'],
        perRun,
      ),
      '',
      `Context (not judged): three bare Node downloads, each a fresh process that reads the redirect by hand and writes the`,
      `storage response to the file with no checks and no progress, in every round: ${WRITERS.map((w) => `${WRITER_NAMES[w]} ${fmt(refs[w].ms / 1000)} s (${fmt(refs[w].vsCurl)}× curl)`).join(', ')}`,
      `(medians). "pipeline" is \`stream.pipeline(response, file stream with a 1 MiB buffer)\`; "1 MiB coalescer" puts a`,
      `Transform in between that copies the chunks into 1 MiB blocks, so the file gets one write per MiB; "'data' events"`,
      `writes each chunk into a file stream with a 1 MiB buffer and pauses the response while it is full, which is how the`,
      `client writes. The leanest of them in this run was ${WRITER_NAMES[best]}; the client took ${fmt(vsBest.median)}× it (median of the runs' ratios, ${range(vsBest)}).`,
      '',
      `CPU per GiB (user + system, medians), with the client's and the bare downloads' minor page faults and voluntary context`,
      `switches per GiB: curl ${perGiB({ user: curlUser, system: curlSys })}; client ${costs(client)}; ${WRITERS.map((w) => `${WRITER_NAMES[w]} ${costs(refs[w])}`).join('; ')}.`,
      '',
      ...(q.median > TIME_GOAL
        ? [
            ...(refs[best].vsCurl > TIME_GOAL
              ? [
                  `**Why the goal is missed.** The fastest Node way to put these bytes on disk measured here, with nothing of the`,
                  `client's (${WRITER_NAMES[best]}), took ${fmt(refs[best].vsCurl)}× curl's time, against a goal of ${TIME_GOAL}× for the client; the client itself is`,
                  `${fmt(vsBest.median)}× that bare download.`,
                ]
              : [
                  `**Why the goal is missed.** A bare Node download reached ${fmt(refs[best].vsCurl)}× curl's time in this run (${WRITER_NAMES[best]}), within the`,
                  `${TIME_GOAL}× goal; the client took ${fmt(vsBest.median)}× that bare download, so the client's own path and the run-to-run noise make the`,
                  `difference here, not Node's floor.`,
                ]),
            `The transfer is CPU-bound on this ${os.cpus().length}-core machine (the emulator sends from its own process on the same`,
            `cores) and Node spends ${fmt((refs[best].user + refs[best].system) / (curlUser + curlSys))}× curl's CPU per GiB on it: its socket reads go into a fresh 64 KiB buffer each (curl reuses`,
            'one), freed later by the garbage collector, and fresh memory costs page faults (counted above); its file writes go',
            'through the thread pool, a context switch each way.',
            refs.coalesce.vsCurl > refs.events.vsCurl
              ? `Coalescing into 1 MiB blocks makes fewer writes but needs fresh blocks of its own (${fmt(refs.coalesce.faults / 1000, 1)}k faults per GiB against ${fmt(refs.events.faults / 1000, 1)}k for 'data' events) and was slower here.`
              : `Coalescing into 1 MiB blocks (${fmt(refs.coalesce.faults / 1000, 1)}k faults per GiB against ${fmt(refs.events.faults / 1000, 1)}k for 'data' events) was not slower here.`,
            ...(refs[best].vsCurl > TIME_GOAL ? ['What remains is Node\'s own read path, which a client built on node:http cannot change.'] : []),
            'The system time also varies from run to run with what the disk and the other processes are doing.',
            '',
          ]
        : []),
      '**Changed in the product for this figure.** (1) The SHA-256 is computed only when the service announces one',
      '(metadata mode); a redirect can be checked by length only, so the transfer is no longer hashed on the way and a',
      'resume no longer re-reads the part file to rebuild the hash (about 0.3 s of CPU per 512 MiB before). (2) The client',
      'read the body with `for await` over axios\'s stream through a second async generator (the idle watchdog): a promise',
      'per chunk per layer, and Readable\'s async iterator reads everything buffered at once, which concatenates the chunks',
      'into a new buffer (in a `node --cpu-prof` profile of a 1 GiB download, garbage collection took about six times the',
      'bare pipe\'s). The signed-URL hop is now one plain',
      'node:http(s) GET (`storageRequest.ts`: no key, no default headers, no redirect followed, connect timeout) and',
      '`writeBody.ts` writes from \'data\' events into a file stream with a 1 MiB buffer, pausing the response while it is',
      'full; the idle watchdog (stopped while the disk is the slow side), progress, cancellation, Range resume and the',
      'length/SHA-256 checks are unchanged.',
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
