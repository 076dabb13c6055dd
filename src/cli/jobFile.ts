// The jobs started or followed outside VS Code, by the command line and the MCP server alike: one store for both faces,
// kept in the state file per scope (service and key) as the extension keeps them in globalState (JobRecord, read back
// through storedJobs.ts, which drops what is unreadable): what `status <job> --wait` resumes, what `report` compares,
// and what hosted_list_jobs and hosted_get_job read. Every write is a read-modify-write of the file's records under its
// lock (FileState.edit), so two runs, or a run and a server, recording at once keep both jobs; `reload` reads what the
// other face wrote since this one loaded the file.
import { readStoredJobs } from '../jobs/storedJobs';
import { jobKey, type JobRecord } from '../jobs/jobRecord';
import type { JobPatch } from '../jobs/statusPatch';
import { JOBS_KEY_PREFIX } from '../storageKeys';
import type { FileState } from './fileState';

/** Records kept per scope; the oldest finished ones go first. */
const MAX_RECORDS = 500;

export class JobFile {
  constructor(
    private readonly state: FileState,
    readonly scope: string,
  ) {}

  private get key(): string {
    return `${JOBS_KEY_PREFIX}${this.scope}`;
  }

  list(): JobRecord[] {
    return readStoredJobs(this.state.get<unknown>(this.key), this.scope).jobs;
  }

  /** Loads the state file again: the jobs another run or server recorded since. */
  reload(): Promise<void> {
    return this.state.reload();
  }

  find(id: string): JobRecord | undefined {
    return this.list().find((j) => j.id === id);
  }

  /** Records `record` (replacing the one of the same job) beside the records the file holds now. */
  async put(record: JobRecord): Promise<void> {
    await this.state.edit(this.key, (stored) => {
      const others = readStoredJobs(stored, this.scope).jobs.filter((j) => jobKey(j) !== jobKey(record));
      const all = [...others, record];
      return all.slice(Math.max(0, all.length - MAX_RECORDS));
    });
  }

  /** The record with `patch` applied (fields set to undefined are removed), written. */
  async patch(record: JobRecord, patch: JobPatch): Promise<JobRecord> {
    const next = { ...record } as Record<string, unknown>;
    for (const [k, v] of Object.entries(patch)) {
      if (v === undefined) delete next[k];
      else next[k] = v;
    }
    const updated = next as unknown as JobRecord;
    await this.put(updated);
    return updated;
  }
}
