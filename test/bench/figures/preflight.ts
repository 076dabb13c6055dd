// Figure 12: the pre-flight read of finetune sources (issue 29) over a few hundred MB of PDFs: wall time beside pdfjs
// reading the same files in a bare Node worker (same run, interleaved), and the longest the event loop of this process
// (standing in for the extension host, which calls preflightRead the same way) was blocked meanwhile, measured with
// perf_hooks.monitorEventLoopDelay.
import { mkdtemp, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { preflightRead } from '../../../src/features/finetune/preflight';
import { writeLargePdf } from '../../service/fixtures';
import { bySize, type FigureOptions } from '../figure';
import { runsTable, type FigureResult } from '../report';
import { fmt, interleave, range, summarize } from '../stats';

const TIME_GOAL = 1.2;
/** The read happens in a worker: the calling loop should wait no longer than while a bare worker reads. */
const BLOCK_GOAL = 1.5;

function bareRead(paths: string[]): Promise<number> {
  const started = performance.now();
  const worker = new Worker(path.join(__dirname, '..', 'preflightBareWorker.js'), { workerData: { paths } });
  return new Promise<number>((resolve, reject) => {
    worker.once('message', () => resolve(performance.now() - started));
    worker.once('error', reject);
  }).finally(() => void worker.terminate());
}

export async function run(options: FigureOptions): Promise<FigureResult> {
  const fileCount = bySize(options, { full: 4, quick: 2, tiny: 1 });
  const fileBytes = bySize(options, { full: 75e6, quick: 10e6, tiny: 1e5 });
  const pagesPerFile = bySize(options, { full: 100, quick: 20, tiny: 2 });
  const runs = bySize(options, { full: 5, quick: 2, tiny: 1 });
  const dir = await mkdtemp(path.join(os.tmpdir(), 'hr-bench-preflight-'));
  try {
    const lines = Array.from(
      { length: pagesPerFile * 40 },
      (_, i) => `Line ${i + 1}: the travel policy covers trains, flights and hotels booked ahead.`,
    );
    const paths: string[] = [];
    for (let i = 0; i < fileCount; i++) {
      const p = path.join(dir, `source-${i + 1}.pdf`);
      await writeLargePdf(p, fileBytes, lines);
      paths.push(p);
    }
    const blocked: number[] = [];
    const blockedBare: number[] = [];
    const perRun: (string | number)[][] = [];
    const paired = await interleave(
      runs,
      async (i) => {
        // The same watch while only the bare worker runs: what a loaded machine's scheduling alone gives.
        const delay = monitorEventLoopDelay({ resolution: 10 });
        delay.enable();
        const ms = await bareRead(paths);
        delay.disable();
        if (i >= 0) blockedBare.push(delay.max / 1e6);
        return ms;
      },
      async (i) => {
        const delay = monitorEventLoopDelay({ resolution: 10 });
        delay.enable();
        const started = performance.now();
        const results = await preflightRead(paths.map((p) => ({ path: p, kind: 'pdf' as const, label: path.basename(p) })));
        const ms = performance.now() - started;
        delay.disable();
        const unread = results.filter((r) => r.unreadable !== undefined);
        if (unread.length > 0 || results.some((r) => r.pages !== pagesPerFile)) {
          throw new Error(`pre-flight did not read every page: ${JSON.stringify(results.map((r) => [r.label, r.pages, r.unreadable]))}`);
        }
        // The histogram's maximum: the longest a timer of this loop waited beyond its due time, in ms.
        if (i >= 0) blocked.push(delay.max / 1e6);
        return ms;
      },
      1,
      (i, ref, subject) =>
        perRun.push([
          i + 1,
          fmt(ref / 1000),
          fmt(subject / 1000),
          fmt(subject / ref),
          fmt(blockedBare[i] ?? NaN, 1),
          fmt(blocked[i] ?? NaN, 1),
        ]),
    );
    const total = fileCount * fileBytes;
    const t = summarize(paired.subject);
    const r = summarize(paired.ref);
    const q = summarize(paired.ratios);
    const b = summarize(blocked);
    const bb = summarize(blockedBare);
    const rows = [
      {
        figure: `12. Pre-flight read, ${fileCount} PDFs, ${fmt(total / 1e6, 0)} MB, ${fileCount * pagesPerFile} pages: wall time`,
        subject: `${fmt(t.median / 1000)} s`,
        reference: `${fmt(r.median / 1000)} s pdfjs in a bare worker`,
        ratio: fmt(q.median),
        spread: `ratio ${range(q)}`,
        goal: `≤ ${TIME_GOAL}× bare pdfjs`,
        met: q.median <= TIME_GOAL,
      },
      {
        figure: '12. Pre-flight read: longest event-loop block of the calling process',
        subject: `${fmt(b.median, 1)} ms`,
        reference: `${fmt(bb.median, 1)} ms while only the bare worker reads`,
        ratio: fmt(b.median / bb.median),
        spread: `${fmt(b.min, 1)}–${fmt(b.max, 1)} ms`,
        goal: `≤ ${BLOCK_GOAL}× the bare worker's`,
        met: b.median / bb.median <= BLOCK_GOAL,
      },
    ];
    const section = [
      '## 12. Pre-flight read of finetune sources',
      '',
      `${fileCount} PDFs of ${fmt(fileBytes / 1e6, fileBytes < 1e6 ? 1 : 0)} MB each (${pagesPerFile} text pages, then an unreferenced filler stream: test/service/fixtures.ts writeLargePdf), read by preflightRead (one child process and its worker thread, each file read whole, hashed with SHA-256, every page's text taken, words counted) and, interleaved, by pdfjs alone in a bare worker (test/bench/preflightBareWorker.ts). The calling process's event loop is watched with monitorEventLoopDelay (10 ms resolution) during each read, the bare one too: on a shared, loaded machine the scheduler alone delays a timer by tens of ms.`,
      '',
      runsTable(['run', 'bare pdfjs (s)', 'pre-flight (s)', 'ratio', 'longest block, bare (ms)', 'longest block, pre-flight (ms)'], perRun),
    ].join('\n');
    return { rows, section };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
