// The jobs started or followed from the command line, kept in the state file per scope (service and key) as the
// extension keeps them in globalState (JobRecord, read back through storedJobs.ts, which drops what is unreadable):
// what `status <job> --wait` resumes, and what `report` compares.
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

  find(id: string): JobRecord | undefined {
    return this.list().find((j) => j.id === id);
  }

  async put(record: JobRecord): Promise<void> {
    const others = this.list().filter((j) => jobKey(j) !== jobKey(record));
    const all = [...others, record];
    await this.state.update(this.key, all.slice(Math.max(0, all.length - MAX_RECORDS)));
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
