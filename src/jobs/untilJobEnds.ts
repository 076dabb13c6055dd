// How long a message that a job started ("Evaluating m on d…" in the status bar) may stay: until the job is no longer
// queued or running, and at most a few seconds (the jobs status bar item and the Jobs view follow a long job). A fixed
// time alone said "Evaluating…" beside a job that had already finished. No vscode: the store's event is passed in.
import { isActive, type JobRecord } from './jobRecord';

export interface WatchedJob {
  /** Fires when the job (or any job) changed: the store's onDidChange. */
  readonly onDidChange: (listener: () => void) => { dispose(): void };
  /** The job's record as stored now; undefined once it was removed. */
  readonly current: () => JobRecord | undefined;
}

/** Resolves once the job ended (or was removed), or after `maxMs`, whichever comes first; then stops listening. */
export function untilJobEnds(job: WatchedJob, maxMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const ended = (): boolean => {
      const record = job.current();
      return record === undefined || !isActive(record);
    };
    if (ended()) {
      resolve();
      return;
    }
    const finish = (): void => {
      clearTimeout(timer);
      listener.dispose();
      resolve();
    };
    const timer = setTimeout(finish, maxMs);
    const listener = job.onDidChange(() => {
      if (ended()) finish();
    });
  });
}
