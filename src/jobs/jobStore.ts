// Persisted job records, one list per scope (service URL + key identity) in globalState, so they survive a
// reload and are shared by all windows. Writes go through here, echo-safe (globalStateEdit.ts); views and the poller
// listen to onDidChange.
import * as vscode from 'vscode';
import { editGlobalState, UNCHANGED, type StoredState } from '../globalStateEdit';
import { DROPPED_EVALUATIONS_KEY_PREFIX, JOBS_KEY_PREFIX } from '../storageKeys';
import { addDropped, boundEvaluations, readDropped } from './evaluationHistory';
import { isActive, isFollowed, jobKey, type JobRecord } from './jobRecord';
import { StoredJobsReader } from './storedJobs';

/** Finished finetune jobs beyond this many per scope are forgotten (evaluations: evaluationHistory.ts). */
const MAX_FINISHED = 200;

export class JobStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<JobRecord | undefined>();
  /** Fires with the job that changed, or undefined when the list changed as a whole. */
  readonly onDidChange = this.changed.event;

  private readonly reader: StoredJobsReader;
  /** A change that did not stick is logged; the next poll writes the list again. */
  private readonly editOptions: { log: (message: string) => void; what: string };

  /** `log` hears about stored records that were ignored or repaired (counts and reasons, no values). */
  constructor(
    private readonly memento: StoredState,
    log: (message: string) => void = () => undefined,
  ) {
    this.reader = new StoredJobsReader(log);
    this.editOptions = { log, what: 'Job store: the job list' };
  }

  /** The scope's jobs, newest first; what globalState holds is checked first (storedJobs.ts). */
  list(scope: string): JobRecord[] {
    return this.read(this.memento.get<unknown>(JOBS_KEY_PREFIX + scope), scope);
  }

  private read(stored: unknown, scope: string): JobRecord[] {
    return this.reader.read(stored, scope).sort((a, b) => b.createdAt - a.createdAt);
  }

  /** The jobs to poll: active and still followed (Stop Following lets one go). */
  active(scope: string): JobRecord[] {
    return this.list(scope).filter(isFollowed);
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
      next = undefined;
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
    for (const scope of scopes) {
      await editGlobalState(this.memento, JOBS_KEY_PREFIX + scope, () => undefined, this.editOptions);
      await editGlobalState(this.memento, DROPPED_EVALUATIONS_KEY_PREFIX + scope, () => undefined, this.editOptions);
    }
    this.changed.fire(undefined);
  }

  /** Re-reads storage (another window may have written) and tells listeners. */
  refresh(): void {
    this.changed.fire(undefined);
  }

  /**
   * Applies `edit` to the scope's stored list and bounds it (finished jobs and evaluations beyond their limits are
   * forgotten, evaluations counted per model). Echo-safe: see globalStateEdit.ts; `edit` may run again on what another
   * window wrote. The evaluations counted are those the list that stuck dropped, once.
   */
  private async change(scope: string, edit: (jobs: JobRecord[]) => JobRecord[] | undefined): Promise<void> {
    let dropped: Record<string, number> = {};
    const kept = await editGlobalState(
      this.memento,
      JOBS_KEY_PREFIX + scope,
      (stored) => {
        dropped = {};
        const next = edit(this.read(stored, scope));
        if (!next) return UNCHANGED;
        const bounded = bound(next);
        dropped = bounded.droppedByModel;
        return bounded.list;
      },
      this.editOptions,
    );
    if (kept && Object.keys(dropped).length > 0) {
      await editGlobalState(
        this.memento,
        DROPPED_EVALUATIONS_KEY_PREFIX + scope,
        (stored) => addDropped(stored, dropped),
        this.editOptions,
      );
    }
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/** The list as stored: active jobs, the newest finished finetunes up to MAX_FINISHED, evaluations as evaluationHistory bounds them. */
function bound(jobs: JobRecord[]): { list: JobRecord[]; droppedByModel: Record<string, number> } {
  const { kept, droppedByModel } = boundEvaluations(jobs);
  const active = kept.filter(isActive);
  const finished = kept.filter((j) => !isActive(j));
  const evaluations = finished.filter((j) => j.kind === 'evaluation');
  const others = finished.filter((j) => j.kind !== 'evaluation').slice(0, MAX_FINISHED);
  return { list: [...active, ...others, ...evaluations], droppedByModel };
}
