// The jobs the MCP server started, as the extension keeps them in globalState: the same records (jobs/jobRecord.ts),
// read back through the same check (readStoredJobs) and refreshed with the same patches as the poller's
// (jobs/statusPatch.ts). The service has no list of jobs, so a job an agent started is found again only here.
// Kept in memory, and under `stateDir` when the server was given one (a file per service and key, written atomically:
// a temporary file renamed over it; each write merges the file's records first, so two servers sharing the folder keep
// each other's jobs). Without a stateDir they last as long as the server.
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { ServiceClient } from '../api/client';
import { readStoredJobs } from '../jobs/storedJobs';
import { jobKey, type JobRecord } from '../jobs/jobRecord';
import { evaluationPatch, finetunePatch, gonePatch } from '../jobs/statusPatch';
import type { JobRecords } from '../features/finetune/finetuneStart';

/** Most records a file keeps (the newest): the list an agent reads is bounded anyway. */
const MAX_KEPT = 500;

export class McpJobs implements JobRecords {
  private jobs = new Map<string, JobRecord>();
  private writing: Promise<void> = Promise.resolve();

  private constructor(
    private readonly scope: string,
    private readonly file: string | undefined,
    private readonly log: (line: string) => void,
  ) {}

  /** The jobs of `scope` kept under `stateDir` (none without one). */
  static async open(scope: string, stateDir: string | undefined, log: (line: string) => void): Promise<McpJobs> {
    const file = stateDir && path.join(stateDir, `jobs-${createHash('sha256').update(scope).digest('hex').slice(0, 16)}.json`);
    const jobs = new McpJobs(scope, file, log);
    for (const j of await jobs.readFile()) jobs.jobs.set(jobKey(j), j);
    return jobs;
  }

  list(scope: string): JobRecord[] {
    return scope === this.scope ? [...this.jobs.values()] : [];
  }

  async put(job: JobRecord): Promise<void> {
    this.jobs.set(jobKey(job), job);
    await this.save();
  }

  /** The job read anew from the service, its record patched as the poller patches it; a job the service lost fails. */
  async refresh(job: JobRecord, client: ServiceClient, signal?: AbortSignal): Promise<JobRecord> {
    const now = Date.now();
    let patch;
    try {
      patch =
        job.kind === 'finetune'
          ? finetunePatch(job, await client.getFinetuneStatus(job.id, { signal, interactive: true }), now)
          : evaluationPatch(job, await client.getEvaluationStatus(job.id, { signal, interactive: true }), now);
    } catch (error) {
      if ((error as { status?: unknown } | null)?.status !== 404) throw error;
      patch = gonePatch(job, now);
    }
    const updated: JobRecord = { ...job, ...patch, updatedAt: now };
    await this.put(updated);
    return updated;
  }

  private async readFile(): Promise<JobRecord[]> {
    if (!this.file) return [];
    let raw: unknown;
    try {
      raw = JSON.parse(await fsp.readFile(this.file, 'utf8')) as unknown;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') {
        this.log(`MCP: the job file could not be read (${String(e)}); starting without it.`);
      }
      return [];
    }
    const read = readStoredJobs(raw, this.scope);
    if (read.dropped.length > 0) this.log(`MCP: ${read.dropped.length} unusable job records were left out of the job file.`);
    return read.jobs;
  }

  /** One write at a time; each merges what another server wrote since, ours winning for the same job. */
  private save(): Promise<void> {
    const file = this.file;
    if (!file) return Promise.resolve();
    this.writing = this.writing
      .catch(() => undefined)
      .then(async () => {
        for (const j of await this.readFile()) if (!this.jobs.has(jobKey(j))) this.jobs.set(jobKey(j), j);
        const kept = [...this.jobs.values()].sort((a, b) => b.createdAt - a.createdAt).slice(0, MAX_KEPT);
        await fsp.mkdir(path.dirname(file), { recursive: true });
        const temporary = `${file}.${process.pid}.tmp`;
        await fsp.writeFile(temporary, JSON.stringify(kept), { mode: 0o600 });
        await fsp.rename(temporary, file);
      });
    return this.writing;
  }
}
