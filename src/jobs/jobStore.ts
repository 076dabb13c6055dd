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

export class JobStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<JobRecord | undefined>();
  /** Fires with the job that changed, or undefined when the list changed as a whole. */
  readonly onDidChange = this.changed.event;

  private readonly reader: StoredJobsReader;

  /** `log` hears about stored records that were ignored or repaired (counts and reasons, no values). */
  constructor(
    private readonly memento: JobMemento,
    log: (message: string) => void = () => undefined,
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
    const others = this.list(job.scope).filter((j) => jobKey(j) !== jobKey(job));
    await this.write(job.scope, [job, ...others]);
    this.changed.fire(job);
  }

  async update(scope: string, key: string, patch: Partial<JobRecord>): Promise<JobRecord | undefined> {
    const current = this.get(scope, key);
    if (!current) return undefined;
    const next = { ...current, ...patch, updatedAt: Date.now() };
    await this.put(next);
    return next;
  }

  async remove(scope: string, keys: string[]): Promise<void> {
    const drop = new Set(keys);
    await this.write(
      scope,
      this.list(scope).filter((j) => !drop.has(jobKey(j))),
    );
    this.changed.fire(undefined);
  }

  /** Re-reads storage (another window may have written) and tells listeners. */
  refresh(): void {
    this.changed.fire(undefined);
  }

  private async write(scope: string, jobs: JobRecord[]): Promise<void> {
    const { kept, droppedByModel } = boundEvaluations(jobs);
    const active = kept.filter(isActive);
    const finished = kept.filter((j) => !isActive(j));
    const evaluations = finished.filter((j) => j.kind === 'evaluation');
    const others = finished.filter((j) => j.kind !== 'evaluation').slice(0, MAX_FINISHED);
    // The list first, with no await between reading it and writing it: another put must not write over this one.
    const written = this.memento.update(JOBS_KEY_PREFIX + scope, [...active, ...others, ...evaluations]);
    if (Object.keys(droppedByModel).length > 0) {
      const key = DROPPED_EVALUATIONS_KEY_PREFIX + scope;
      await this.memento.update(key, addDropped(this.memento.get<unknown>(key), droppedByModel));
    }
    await written;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
