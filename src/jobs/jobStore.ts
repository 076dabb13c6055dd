// Persisted job records, one list per scope (service URL + key identity) in globalState, so they survive a
// reload and are shared by all windows. Writes go through here; views and the poller listen to onDidChange.
import * as vscode from 'vscode';
import { DROPPED_EVALUATIONS_KEY_PREFIX, JOBS_KEY_PREFIX } from '../storageKeys';
import { addDropped, boundEvaluations, readDropped } from './evaluationHistory';
import { isActive, jobKey, type JobRecord } from './jobRecord';
import { StoredJobsReader } from './storedJobs';

/** The part of vscode.Memento the store needs (globalState in the extension, a Map in unit tests). */
export interface JobMemento {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

/** Finished finetune jobs beyond this many per scope are forgotten (evaluations: evaluationHistory.ts). */
const MAX_FINISHED = 200;
/** Writes of one change before the store gives up until the next one (see change()). */
const MAX_WRITE_ATTEMPTS = 3;

export class JobStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<JobRecord | undefined>();
  /** Fires with the job that changed, or undefined when the list changed as a whole. */
  readonly onDidChange = this.changed.event;

  private readonly reader: StoredJobsReader;
  /** The change being written; the next waits for it (see change()). */
  private queue: Promise<void> = Promise.resolve();

  /** `log` hears about stored records that were ignored or repaired (counts and reasons, no values). */
  constructor(
    private readonly memento: JobMemento,
    private readonly log: (message: string) => void = () => undefined,
  ) {
    this.reader = new StoredJobsReader(log);
  }

  /** The scope's jobs, newest first; what globalState holds is checked first (storedJobs.ts). */
  list(scope: string): JobRecord[] {
    return this.reader.read(this.memento.get<unknown>(JOBS_KEY_PREFIX + scope), scope).sort((a, b) => b.createdAt - a.createdAt);
  }

  active(scope: string): JobRecord[] {
    return this.list(scope).filter(isActive);
  }

  get(scope: string, key: string): JobRecord | undefined {
    return this.list(scope).find((j) => jobKey(j) === key);
  }

  /** Finished evaluations of each model the history limit dropped in this scope, across reloads. */
  droppedEvaluations(scope: string): Record<string, number> {
    return readDropped(this.memento.get<unknown>(DROPPED_EVALUATIONS_KEY_PREFIX + scope));
  }

  /** Adds or replaces a job; written before the UI reports it started, so nothing submitted is forgotten. */
  async put(job: JobRecord): Promise<void> {
    await this.change(job.scope, (jobs) => [job, ...jobs.filter((j) => jobKey(j) !== jobKey(job))]);
    this.changed.fire(job);
  }

  async update(scope: string, key: string, patch: Partial<JobRecord>): Promise<JobRecord | undefined> {
    let next: JobRecord | undefined;
    await this.change(scope, (jobs) => {
      const current = jobs.find((j) => jobKey(j) === key);
      if (!current) return undefined;
      next = { ...current, ...patch, updatedAt: Date.now() };
      return [next, ...jobs.filter((j) => j !== current)];
    });
    if (next) this.changed.fire(next);
    return next;
  }

  async remove(scope: string, keys: string[]): Promise<void> {
    const drop = new Set(keys);
    await this.change(scope, (jobs) => jobs.filter((j) => !drop.has(jobKey(j))));
    this.changed.fire(undefined);
  }

  /**
   * Forgets every job of these scopes and the counts of evaluations the history limit dropped (Clear Stored
   * Records…). Running jobs are forgotten too: nothing is cancelled on the service, they are no longer followed.
   */
  async clear(scopes: readonly string[]): Promise<void> {
    const run = async (): Promise<void> => {
      for (const scope of scopes) {
        await this.memento.update(JOBS_KEY_PREFIX + scope, undefined);
        await this.memento.update(DROPPED_EVALUATIONS_KEY_PREFIX + scope, undefined);
      }
    };
    const done = this.queue.then(run);
    this.queue = done.catch(() => undefined);
    await done;
    this.changed.fire(undefined);
  }

  /** Re-reads storage (another window may have written) and tells listeners. */
  refresh(): void {
    this.changed.fire(undefined);
  }

  /**
   * Applies `edit` to the scope's stored list, one change at a time, and reads the result back. VS Code echoes every
   * flushed globalState write back into the window's copy; an echo of an earlier flush that lands between a write and
   * its own flush puts the older list back, and the flush then stores that. Three evaluations started at once lost one
   * that way (in CI). Read back after the write, such a loss shows, and the edit is made again on what is there, which
   * also keeps what another window wrote meanwhile.
   */
  private change(scope: string, edit: (jobs: JobRecord[]) => JobRecord[] | undefined): Promise<void> {
    const run = async (): Promise<void> => {
      for (let attempt = 1; attempt <= MAX_WRITE_ATTEMPTS; attempt++) {
        const next = edit(this.list(scope));
        if (!next) return;
        const written = JSON.stringify(await this.write(scope, next));
        if (JSON.stringify(this.memento.get<unknown>(JOBS_KEY_PREFIX + scope)) === written) return;
      }
      this.log(`Job store: the job list did not keep a change after ${MAX_WRITE_ATTEMPTS} writes; the next poll repairs it.`);
    };
    const done = this.queue.then(run);
    this.queue = done.catch(() => undefined);
    return done;
  }

  /** Writes the bounded list (and the counts it dropped); returns the list written. */
  private async write(scope: string, jobs: JobRecord[]): Promise<JobRecord[]> {
    const { kept, droppedByModel } = boundEvaluations(jobs);
    const active = kept.filter(isActive);
    const finished = kept.filter((j) => !isActive(j));
    const evaluations = finished.filter((j) => j.kind === 'evaluation');
    const others = finished.filter((j) => j.kind !== 'evaluation').slice(0, MAX_FINISHED);
    const list = [...active, ...others, ...evaluations];
    const written = this.memento.update(JOBS_KEY_PREFIX + scope, list);
    if (Object.keys(droppedByModel).length > 0) {
      const key = DROPPED_EVALUATIONS_KEY_PREFIX + scope;
      await this.memento.update(key, addDropped(this.memento.get<unknown>(key), droppedByModel));
    }
    await written;
    return list;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
