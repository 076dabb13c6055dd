// Figure 4: 500 MB of PDF files through ServiceClient.startFinetune, against `curl -F` sending the same files to the
// same route. The emulator, curl and the measured client each run in their own process.
import { mkdtemp, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { writeLargePdf } from '../../service/fixtures';
import { EmulatorProcess } from '../emulatorProcess';
import { bySize, type FigureOptions } from '../figure';
import { curl, runNodeJson } from '../proc';
import { runsTable, type FigureResult } from '../report';
import { fmt, interleave, MiB, mib, range, summarize } from '../stats';
import type { TransferJob, TransferResult } from '../transferWorker';

const KEY = 'demo-key';
const BASE = 'oss-reasoner-8b';
const ROUTE = '/cr/generate_questions';
const TIME_GOAL = 1.2;
const MEMORY_GOAL = 64 * MiB;

export async function run(options: FigureOptions): Promise<FigureResult> {
  const fileCount = 5;
  const fileBytes = bySize(options, { full: 100e6, quick: 10e6, tiny: 100e3 });
  // The server sets the pace and the load swings it: more pairs steady the median.
  const runs = bySize(options, { full: 7, quick: 2, tiny: 1 });
  const dir = await mkdtemp(path.join(os.tmpdir(), 'hr-bench-upload-'));
  // Jobs stay queued (no extraction competes with the next run); their uploads are deleted after each run.
  const em = await EmulatorProcess.start({ finetuneDurationMs: 1e9 });
  try {
    const files: string[] = [];
    for (let i = 0; i < fileCount; i++) {
      const file = path.join(dir, `source-${i + 1}.pdf`);
      await writeLargePdf(file, fileBytes);
      files.push(file);
    }
    const total = fileCount * fileBytes;
    let seq = 0;
    const memory: TransferResult[] = [];
    const curlCpu: string[] = [];
    const curlCpuMs: number[] = [];
    const perRun: (string | number)[][] = [];
    const paired = await interleave(
      runs,
      async (i) => {
        const name = `bench-curl-${++seq}`;
        const r = await curl([
          '-o',
          '/dev/null',
          '-w',
          '%{time_total} %{http_code} %{size_upload}',
          '-H',
          `X-API-Key: ${KEY}`,
          '-H',
          'Expect:',
          ...files.flatMap((f) => ['-F', `files=@${f};type=application/pdf`]),
          '-F',
          'numQs=10',
          '-F',
          'mode=pretraining',
          '-F',
          `modelName=${name}`,
          '-F',
          `modelType=${BASE}`,
          '-F',
          'use_case=',
          `${em.url}${ROUTE}`,
        ]);
        if (r.fields[0] !== '200') throw new Error(`curl upload answered ${r.fields[0]}`);
        if (i >= 0) {
          curlCpu.push(`${fmt(r.cpuUserMs / 1000)} + ${fmt(r.cpuSystemMs / 1000)}`);
          curlCpuMs.push(r.cpuUserMs + r.cpuSystemMs);
        }
        await em.call({ op: 'purgeUploads' });
        return r.ms;
      },
      async (i) => {
        const job: TransferJob = {
          kind: 'upload',
          baseUrl: em.url,
          apiKey: KEY,
          files,
          modelName: `bench-client-${++seq}`,
          modelType: BASE,
        };
        const r = await runNodeJson<TransferResult>('transferWorker.js', job);
        if (typeof r.detail.jobId !== 'string') throw new Error('the client upload returned no job id');
        await em.call({ op: 'purgeUploads' });
        if (i >= 0) memory.push(r);
        return r.ms;
      },
      bySize(options, { full: 1, quick: 1, tiny: 0 }),
      (i, ref, subject) => {
        const m = memory[i]!;
        perRun.push([
          i + 1,
          fmt(ref / 1000, 2),
          fmt(subject / 1000, 2),
          fmt(subject / ref),
          curlCpu[i]!,
          `${fmt(m.cpuUserMs / 1000)} + ${fmt(m.cpuSystemMs / 1000)}`,
          mib(m.baselineRss),
          m.peakRss !== undefined ? mib(m.peakRss - m.baselineRss) : '—',
          mib(m.polledPeakRss - m.baselineRss),
        ]);
      },
    );
    const t = summarize(paired.subject);
    const c = summarize(paired.ref);
    const q = summarize(paired.ratios);
    const growth = summarize(memory.map((m) => (m.peakRss ?? m.polledPeakRss) - m.baselineRss));
    const rows = [
      {
        figure: `4. Upload, ${fileCount} PDFs, ${fmt(total / 1e6, 0)} MB: wall time`,
        subject: `${fmt(t.median / 1000)} s (${fmt(total / 1e6 / (t.median / 1000), 0)} MB/s)`,
        reference: `${fmt(c.median / 1000)} s curl -F`,
        ratio: fmt(q.median),
        spread: `ratio ${range(q)}`,
        goal: `≤ ${TIME_GOAL}× curl`,
        met: q.median <= TIME_GOAL,
      },
      {
        figure: '4. Upload: peak RSS growth of the uploading process',
        subject: mib(growth.median),
        reference: '—',
        ratio: '—',
        spread: `${mib(growth.min)}–${mib(growth.max)}`,
        goal: '≤ 64 MiB',
        met: growth.max <= MEMORY_GOAL,
      },
    ];
    const section = [
      '## 4. Upload',
      '',
      runsTable(
        [
          'Run',
          'curl (s)',
          'client (s)',
          'ratio',
          'CPU user + system (s): curl',
          'client',
          'client RSS before',
          'peak growth (VmHWM)',
          'peak growth (polled)',
        ],
        perRun,
      ),
      '',
    ].join('\n');
    return { rows, section };
  } finally {
    await em.close();
    await rm(dir, { recursive: true, force: true });
  }
}
