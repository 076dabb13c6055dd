// One "window" of the extension for the polling figure: the real JobPoller (src/jobs) with a real clock, the real
// ServiceClient, and an in-memory job list, in a process of its own so process.cpuUsage() is the
// poller's alone. node pollWorker.js '<PollJob JSON>'; prints one JSON line (PollResult).
import { performance } from 'node:perf_hooks';
import http from 'node:http';
import { ServiceClient } from '../../src/api/client';
import { readEvaluationStatus, readFinetuneStatus } from '../../src/api/jobStatus';
import type { EvaluationStatus, FinetuneStatus } from '../../src/api/types';
import { isActive, jobKey, type JobRecord } from '../../src/jobs/jobRecord';
import { JobPoller, systemClock, type PollClock, type PollJobs, type StatusSource } from '../../src/jobs/jobPoller';

export interface PollJob {
  baseUrl: string;
  apiKey: string;
  jobIds: string[];
  windowMs: number;
  intervalMs: number;
  /** Timer and clock slack allowed when judging spans of one interval (ms). */
  toleranceMs: number;
  /**
   * 'idle': the same process without a scheduler (the reference). 'bareHttp': the scheduler with a status source
   * that is a plain node:http GET (no axios, no retry layer): the floor of what one status request costs.
   */
  mode: 'poller' | 'idle' | 'bareHttp';
}

export interface PollResult {
  cpuMs: number;
  cpuUserMs: number;
  cpuSystemMs: number;
  wallMs: number;
  timersArmed: number;
  rounds: number;
  requests: number;
  /** Shortest time between two requests for the same job, as sent (ms; undefined below two requests). */
  minSendGapMs?: number;
  /** Most requests (all jobs) sent within any span of one interval (less `toleranceMs`): the request budget's measure. */
  maxPerInterval: number;
  /** Timeouts alive halfway through the window (between the harness's two sleeps, so none of its own). */
  extraTimeouts: number;
  hasTimerAtEnd: boolean;
  states: Record<string, number>;
}

const SCOPE = 'bench';

class MemJobs implements PollJobs {
  readonly records = new Map<string, JobRecord>();
  active(scope: string): JobRecord[] {
    return [...this.records.values()].filter((j) => j.scope === scope && isActive(j));
  }
  get(scope: string, key: string): JobRecord | undefined {
    const j = this.records.get(key);
    return j && j.scope === scope ? j : undefined;
  }
  async update(scope: string, key: string, patch: Partial<JobRecord>): Promise<JobRecord | undefined> {
    const j = this.get(scope, key);
    if (!j) return undefined;
    const next = { ...j, ...patch };
    this.records.set(key, next);
    return next;
  }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function bareGet(url: string, apiKey: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'X-API-Key': apiKey, Accept: 'application/json' } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => (res.statusCode === 200 ? resolve(JSON.parse(body)) : reject(new Error(`HTTP ${res.statusCode}`))));
      })
      .on('error', reject);
  });
}

/** The status calls as plain GETs (mode 'bareHttp'). */
function bareSource(baseUrl: string, apiKey: string): StatusSource {
  return {
    getFinetuneStatus: async (id: string): Promise<FinetuneStatus> =>
      readFinetuneStatus(id, await bareGet(`${baseUrl}/cr/generate_questions_status?job_id=${encodeURIComponent(id)}`, apiKey)).status,
    getEvaluationStatus: async (id: string): Promise<EvaluationStatus> =>
      readEvaluationStatus(id, await bareGet(`${baseUrl}/cr/finetune_model/evaluate_status?job_id=${encodeURIComponent(id)}`, apiKey))
        .status,
  };
}

async function main(): Promise<void> {
  const job = JSON.parse(process.argv[2] ?? '') as PollJob;
  const client = new ServiceClient({ baseUrl: job.baseUrl, apiKey: job.apiKey, log: () => undefined });
  await client.listModels(); // modules and the connection warm, as in a window that has been open a while
  const jobs = new MemJobs();
  const now = Date.now();
  for (const id of job.jobIds) {
    const record: JobRecord = { id, kind: 'finetune', scope: SCOPE, state: 'queued', createdAt: now, updatedAt: now, modelName: `m-${id}` };
    jobs.records.set(jobKey(record), record);
  }
  let timersArmed = 0;
  const clock: PollClock = { ...systemClock, setTimer: (fn, ms) => (timersArmed++, systemClock.setTimer(fn, ms)) };
  let rounds = 0;
  let requests = 0;
  // Send times per job, from a thin wrapper around the source.
  const sent = new Map<string, number[]>();
  const inner: StatusSource = job.mode === 'bareHttp' ? bareSource(job.baseUrl, job.apiKey) : client;
  const source: StatusSource = {
    getFinetuneStatus: (id, opts) => {
      const times = sent.get(id) ?? [];
      times.push(performance.now());
      sent.set(id, times);
      return inner.getFinetuneStatus(id, opts);
    },
    getEvaluationStatus: (id, opts) => inner.getEvaluationStatus(id, opts),
  };
  const scheduler =
    job.mode !== 'idle'
      ? new JobPoller({
          connect: async () => ({ scope: SCOPE, source }),
          jobs,
          claimNotice: async () => true, // the jobs stay queued: no end to announce
          intervalMs: () => job.intervalMs,
          clock,
          onDidPoll: (r) => {
            rounds++;
            requests += r.requests;
          },
        })
      : undefined;
  (globalThis as { gc?: () => void }).gc?.();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await scheduler?.sync();
  await sleep(job.windowMs / 2);
  // Between the two sleeps: no timer of the harness is alive here.
  const extraTimeouts = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
  await sleep(job.windowMs / 2);
  const cpu = process.cpuUsage(c0);
  const wallMs = performance.now() - t0;
  const hasTimerAtEnd = scheduler?.hasTimer ?? false;
  scheduler?.dispose();
  let minSendGapMs: number | undefined;
  for (const times of sent.values()) {
    for (let i = 1; i < times.length; i++) minSendGapMs = Math.min(minSendGapMs ?? Infinity, times[i]! - times[i - 1]!);
  }
  // Spans of one interval less the tolerance: the scheduler counts in whole ms of Date.now(), these times are
  // performance.now() fractions, and a timer may fire a little off.
  const allSent = [...sent.values()].flat().sort((a, b) => a - b);
  let maxPerInterval = 0;
  for (let i = 0, j = 0; j < allSent.length; j++) {
    while (allSent[i]! <= allSent[j]! - (job.intervalMs - job.toleranceMs)) i++;
    maxPerInterval = Math.max(maxPerInterval, j - i + 1);
  }
  const states: Record<string, number> = {};
  for (const r of jobs.records.values()) states[r.state] = (states[r.state] ?? 0) + 1;
  const result: PollResult = {
    cpuMs: (cpu.user + cpu.system) / 1000,
    cpuUserMs: cpu.user / 1000,
    cpuSystemMs: cpu.system / 1000,
    wallMs,
    timersArmed,
    rounds,
    requests,
    minSendGapMs,
    maxPerInterval,
    extraTimeouts,
    hasTimerAtEnd,
    states,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
    process.exit(1);
  },
);
