// The jobs the MCP server reads and records: the command line's store (cli/jobFile.ts, the state file under the config
// folder), so a job the command line started or evaluated is the server's too and the other way round. The same
// records as the extension's (jobs/jobRecord.ts), refreshed with the same patches as the poller's (jobs/statusPatch.ts).
// The service has no list of jobs, so a job is found again only here. A server runs for hours beside command-line
// runs: each tool call reloads the file first (`reload`), and a paid start reads it again once it holds its entry.
import type { ServiceClient } from '../api/client';
import type { JobRecord } from '../jobs/jobRecord';
import { evaluationPatch, finetunePatch, gonePatch, type JobPatch } from '../jobs/statusPatch';
import type { JobRecords } from '../features/finetune/finetuneStart';

/** The store the server is given: the command line's JobFile (cli/jobFile.ts), of one service and key (`scope`). */
export interface McpJobStore {
  readonly scope: string;
  list(): JobRecord[];
  put(job: JobRecord): Promise<void>;
  patch(job: JobRecord, patch: JobPatch): Promise<JobRecord>;
  reload(): Promise<void>;
}

export class McpJobs implements JobRecords {
  constructor(private readonly file: McpJobStore) {}

  list(scope: string): JobRecord[] {
    return scope === this.file.scope ? this.file.list() : [];
  }

  put(job: JobRecord): Promise<void> {
    return this.file.put(job);
  }

  /** What another run or server recorded since. */
  reload(): Promise<void> {
    return this.file.reload();
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
    return this.file.patch({ ...job, updatedAt: now }, patch);
  }
}
