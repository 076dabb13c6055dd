// A job as the extension remembers it: enough to show it, poll it after a reload, and offer the next step.
// Never holds the API key; `scope` separates services and keys (see Session.scope).
import type { EvaluationResult, JobState } from '../api/types';
import type { ModelLineage } from './lineage';
import type { ProgressReading } from './progressReadings';

export type JobKind = 'finetune' | 'evaluation';

export interface JobRecord {
  /** The service's job id. */
  id: string;
  kind: JobKind;
  scope: string;
  state: JobState;
  /** The service's own word when it is not one we know. */
  rawState?: string;
  /** 0..100 */
  progress?: number;
  /** Running only: when each progress was first said, and in which stage, for the time left (progressReadings.ts). */
  readings?: ProgressReading[];
  message?: string;
  error?: string;
  createdAt: number;
  updatedAt: number;
  finishedAt?: number;
  /**
   * finetune: the model being created, under the service's own name once the finished job gave one; evaluation: the
   * model evaluated. Every view, notification and command uses this one name.
   */
  modelName: string;
  /** finetune only: the name asked for, kept when the service named the model otherwise. */
  requestedName?: string;
  /** finetune only */
  baseModel?: string;
  files?: string[];
  /** Where the model came from (files by hash, answers); recorded when the job started. */
  lineage?: ModelLineage;
  /** evaluation only */
  datasetName?: string;
  result?: EvaluationResult;
  /** A failure the user has not looked at yet (the status bar warns until then). */
  unseenFailure?: boolean;
  /**
   * Since when (wall time) the status answers could not be read: kept from the first unreadable answer, cleared by a
   * readable one. The job is not failed for it (only the service's own word fails a job), so the row says it instead.
   */
  unreadableSince?: number;
  /** The words of the last unreadable answer, humanised (service text: shown only through untrustedText). */
  unreadableWords?: string;
  /**
   * Since when (wall time) what is read of the job (state, progress, message) has not moved while the service's answers
   * did, for many polls: the answer is likely misread, and the row says so and offers Choose How to Read…
   */
  unmovedSince?: number;
  /** When the person chose Stop Following: the job is no longer polled here, nothing was cancelled on the service. */
  unfollowedAt?: number;
}

export function jobKey(job: Pick<JobRecord, 'kind' | 'id'>): string {
  return `${job.kind}:${job.id}`;
}

export function isActive(job: JobRecord): boolean {
  return job.state === 'queued' || job.state === 'running' || job.state === 'unknown';
}

/** Active and not let go with Stop Following: the jobs the poller asks about. */
export function isFollowed(job: JobRecord): boolean {
  return isActive(job) && job.unfollowedAt === undefined;
}
