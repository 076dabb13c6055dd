// The book the client reads and reports each kind of answer through: whoever keeps one origin's service profile
// (the extension's ServiceProfiles, bound to the origin the key is for; none in tests and benchmarks, which then
// infer every answer).

import type { JobStatusPart, JobStatusProfile } from './jobStatusProfile';
import type { DownloadProfile, ModelListProfile, StartedJobProfile, StreamProfile } from './serviceProfile';
import type { StartAnswer } from './startedJobInference';

/**
 * What the client asks of whoever keeps one origin's profile (the extension's store, bound to the origin the key is
 * for; none in tests and benchmarks, which then infer every answer).
 */
export interface ProfileBook {
  /** The profile to read the model list by: the setting's for this origin, else the one kept. */
  modelList(): ModelListProfile | undefined;
  /** A model list was read: by which profile, what changed when it was inferred now (to keep and log), its first names. */
  readModelList(reading: { profile: ModelListProfile; change?: string; samples: string[] }): void;
  /** A model list nothing could read (or two ways could): kept for the person to choose how to read it. */
  unreadableModelList(body: unknown): void;
  /** Where started jobs' ids are: the setting's for this origin, else the places kept. */
  startedJob(): StartedJobProfile | undefined;
  /** A start answer of `kind` was read at `from`; `change` is set when that place was inferred now (to keep and log). */
  readStartedJob(reading: { kind: 'finetune' | 'evaluation'; from: string; change?: string }): void;
  /**
   * A start answer nothing could read (its status, Location and what the request sent in `answer`): the job may exist,
   * so it is kept for the person to choose where its id is (Choose How to Read the Started Job…).
   */
  unreadableStartedJob(kind: 'finetune' | 'evaluation', body: unknown, answer: StartAnswer): void;
  /** Where a download answer's values are: the setting's for this origin, else the one kept. */
  download(): DownloadProfile | undefined;
  /** A download answer was read by `profile`; `change` is set when it was inferred now (to keep and log). */
  readDownload(reading: { profile: DownloadProfile; change?: string }): void;
  /** The profile to read a job status by (`part`: which endpoint): the setting's for this origin, else the one kept. */
  jobStatus(part: JobStatusPart): JobStatusProfile | undefined;
  /** A job status was read by a profile inferred or grown now: the profile to keep, and what changed (to log). */
  readJobStatus(part: JobStatusPart, reading: { profile: JobStatusProfile; change: string }): void;
  /** A job status nothing could read: kept for the person to choose how to read it (Choose How to Read… on its row). */
  unreadableJobStatus(part: JobStatusPart, body: unknown): void;
  /** The profile to read a stream's events by: the setting's for this origin, else the one kept. */
  stream(): StreamProfile | undefined;
  /** A stream was read by a profile inferred, or changed, in the run: it is kept, and `change` logged. */
  readStream(reading: { profile: StreamProfile; change: string }): void;
  /** The profile to read a non-streamed inference answer by: the setting's for this origin, else the one kept. */
  answer(): StreamProfile | undefined;
  /** A non-streamed answer was read by a profile inferred, or changed, now: it is kept, and `change` logged. */
  readAnswer(reading: { profile: StreamProfile; change: string }): void;
  /**
   * An inference answer nothing could read, kept for the person to choose how to read it: a non-streamed answer's
   * body (`answer`), or a stream's first events, as a list (`stream`).
   */
  unreadableAnswer(part: 'answer' | 'stream', body: unknown): void;
  /** A download answer with no URL the client could use, and the model it was for (Choose How to Read…, then again). */
  unreadableDownload(body: unknown, modelName: string): void;
}
