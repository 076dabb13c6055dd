// Figure 6: requests and CPU of the job poller over a window with 0, 1 and 100 active jobs, against the same process
// without a poller. All four run at once, each in its own process (CPU time is per process); the emulator counts the
// status requests it receives.
import { mkdtemp, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { ServiceClient } from '../../../src/api/client';
import { writePdf } from '../../service/fixtures';
import { EmulatorProcess } from '../emulatorProcess';
import { bySize, type FigureOptions } from '../figure';
import type { PollJob, PollResult } from '../pollWorker';
import { runNodeJson } from '../proc';
import { runsTable, type FigureResult, type Row } from '../report';
import { fmt } from '../stats';
import { REQUEST_BUDGET } from '../../../src/jobs/requestBudget';

const KEY = 'demo-key';
const STATUS = '/cr/generate_questions_status';

/** Timer and clock slack allowed when judging "once per interval" (per job and for all jobs together), ms. */
const TOLERANCE_MS = 5;

export async function run(options: FigureOptions): Promise<FigureResult> {
  const windowMs = bySize(options, { full: 120_000, quick: 12_000, tiny: 1_000 });
  // Full: the default pollIntervalSeconds; quick and tiny: shorter.
  const intervalMs = bySize(options, { full: 5_000, quick: 2_000, tiny: 250 });
  /** The many-jobs case (100; a tiny run starts fewer jobs: each is an upload). */
  const many = bySize(options, { full: 100, quick: 100, tiny: 3 });
  const dir = await mkdtemp(path.join(os.tmpdir(), 'hr-bench-poll-'));
  const em = await EmulatorProcess.start({ finetuneDurationMs: 1e9 }); // jobs stay queued (active) throughout
  try {
    const pdf = path.join(dir, 'tiny.pdf');
    await writePdf(pdf, ['A small document for a job that stays queued.']);
    const client = new ServiceClient({ baseUrl: em.url, apiKey: KEY });
    const ids: string[] = [];
    for (let i = 0; i < 1 + 2 * many; i++) {
      const started = await client.startFinetune({
        files: [pdf],
        numQs: 5,
        mode: 'pretraining',
        modelName: `poll-${i}`,
        modelType: 'oss-reasoner-8b',
        useCase: '',
      });
      ids.push(started.jobId);
    }
    await em.call({ op: 'clearReceived' });
    const base = { baseUrl: em.url, apiKey: KEY, windowMs, intervalMs, toleranceMs: TOLERANCE_MS };
    const cases: { label: string; job: PollJob }[] = [
      { label: 'idle process (reference)', job: { ...base, jobIds: [], mode: 'idle' } },
      { label: '0 jobs', job: { ...base, jobIds: [], mode: 'poller' } },
      { label: '1 job', job: { ...base, jobIds: ids.slice(0, 1), mode: 'poller' } },
      { label: `${many} jobs`, job: { ...base, jobIds: ids.slice(1, 1 + many), mode: 'poller' } },
      { label: `${many} jobs, bare node:http source (context)`, job: { ...base, jobIds: ids.slice(1 + many), mode: 'bareHttp' } },
    ];
    const results = await Promise.all(cases.map((c) => runNodeJson<PollResult>('pollWorker.js', c.job)));
    const received = (await em.received(STATUS)).filter((r) => r.origin === 'api');
    const byJob = new Map<string, number[]>();
    for (const r of received) {
      const id = new URLSearchParams(r.path.split('?')[1] ?? '').get('job_id') ?? '';
      const times = byJob.get(id) ?? [];
      times.push(r.time);
      byJob.set(id, times);
    }
    const serverSide = (jobIds: string[]) => {
      let total = 0;
      let most = 0;
      let minGap = Infinity;
      for (const id of jobIds) {
        const times = byJob.get(id) ?? [];
        total += times.length;
        most = Math.max(most, times.length);
        for (let i = 1; i < times.length; i++) minGap = Math.min(minGap, times[i]! - times[i - 1]!);
      }
      return { total, most, minGap };
    };
    const maxPerJob = Math.floor(windowMs / intervalMs) + 1;
    const idle = results[0]!;
    const pct = (r: PollResult) => (100 * r.cpuMs) / r.wallMs;
    const table: (string | number)[][] = [];
    const rows: Row[] = [];
    cases.forEach((c, i) => {
      const r = results[i]!;
      const s = serverSide(c.job.jobIds);
      table.push([
        c.label,
        r.requests,
        s.total,
        s.most,
        r.maxPerInterval,
        r.minSendGapMs !== undefined ? fmt(r.minSendGapMs / 1000, 3) : '—',
        Number.isFinite(s.minGap) ? fmt(s.minGap / 1000, 3) : '—',
        r.rounds,
        r.timersArmed,
        r.extraTimeouts,
        r.hasTimerAtEnd ? 'yes' : 'no',
        fmt(r.cpuUserMs, 0),
        fmt(r.cpuSystemMs, 0),
        `${fmt(pct(r), 3)} %`,
        r.requests ? fmt(r.cpuMs / r.requests, 2) : '—',
      ]);
      if (i === 0 || c.job.mode === 'bareHttp') return;
      const jobs = c.job.jobIds.length;
      // Judged on the send times (the scheduler's rule); the emulator's arrival times add the machine's jitter.
      const requestsOk =
        jobs === 0
          ? s.total === 0 && r.requests === 0
          : s.most <= maxPerJob && (r.minSendGapMs ?? Infinity) >= intervalMs - TOLERANCE_MS && r.maxPerInterval <= REQUEST_BUDGET;
      const timerOk = jobs === 0 ? r.timersArmed === 0 && !r.hasTimerAtEnd && r.extraTimeouts <= idle.extraTimeouts : true;
      const cpuOk = jobs === many ? pct(r) < 1 : true;
      rows.push({
        figure: `6. Polling, ${c.label}, ${windowMs / 1000} s at ${intervalMs / 1000} s interval`,
        subject: `${s.total} requests, ${fmt(pct(r), 3)} % CPU${jobs === 0 ? `, ${r.timersArmed} timers` : ''}`,
        reference: `${fmt(pct(idle), 3)} % CPU idle`,
        ratio: pct(idle) > 0 ? fmt(pct(r) / pct(idle)) : '—',
        spread:
          jobs === 0
            ? `${r.extraTimeouts} timeouts alive (idle process: ${idle.extraTimeouts})`
            : `≤ ${s.most} per job (max ${maxPerJob}); min gap ${fmt((r.minSendGapMs ?? NaN) / 1000, 3)} s sent, ${fmt(s.minGap / 1000, 3)} s received; ≤ ${r.maxPerInterval} in one interval${jobs > 1 ? `; ${fmt(r.cpuMs / Math.max(1, r.requests), 2)} ms CPU/request` : ''}`,
        goal:
          jobs === 0
            ? '0 requests, no timer'
            : jobs === 1
              ? '≤ 1 request/job/interval'
              : `≤ 1 request/job/interval; ≤ ${REQUEST_BUDGET} requests/interval; < 1 % of a core`,
        met: requestsOk && timerOk && cpuOk,
      });
    });
    const section = [
      '## 6. Polling',
      '',
      runsTable(
        [
          'Case',
          'requests (poller)',
          'requests (emulator)',
          'most for one job',
          'most in one interval (sent)',
          'min gap sent (s)',
          'min gap received (s)',
          'rounds',
          'timers armed',
          'timeouts alive',
          'timer at end',
          'user CPU (ms)',
          'system CPU (ms)',
          'CPU (% of a core)',
          'CPU ms / request',
        ],
        table,
      ),
    ].join('\n');
    return { rows, section };
  } finally {
    await em.close();
    await rm(dir, { recursive: true, force: true });
  }
}
