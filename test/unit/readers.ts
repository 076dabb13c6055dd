// The readers the unit tests call, over the one routine every kind of answer is read through (readAnswer, given the
// kind's description), as the client calls it: an answer read with no profile known, or by one. Test code only: the
// extension has no per-kind reader that only forwards.
import { readAnswer } from '../../src/api/answerReading';
import { DOWNLOAD_ANSWER, downloadContext } from '../../src/api/downloadAnswer';
import { readEvaluationStatus, readFinetuneStatus } from '../../src/api/jobStatus';
import { MODEL_LIST } from '../../src/api/modelListReading';
import type { DownloadProfile, ModelListProfile } from '../../src/api/profileFormat';
import { readStartedJob, type StartAnswer } from '../../src/api/startedJob';
import type { DownloadTarget, EvaluationStatus, FinetuneStatus, ModelInfo, StartedJob } from '../../src/api/types';

export function readModelList(
  body: unknown,
  known?: ModelListProfile,
): { models: ModelInfo[]; profile?: ModelListProfile; change?: string } {
  const { value: models, profile, change } = readAnswer(MODEL_LIST, body, known, undefined);
  return { models, profile, change };
}

export const decodeModelList = (body: unknown): ModelInfo[] => readModelList(body).models;

export function readDownloadAnswer(
  body: unknown,
  { now = Date.now(), apiUrl, known }: { now?: number; apiUrl?: string; known?: DownloadProfile } = {},
): { target: DownloadTarget; profile: DownloadProfile; change?: string } {
  const { value: target, profile, change } = readAnswer(DOWNLOAD_ANSWER, body, known, downloadContext(apiUrl, now));
  return { target, profile: profile!, change };
}

export const decodeDownloadMetadata = (body: unknown, now = Date.now(), apiUrl?: string): DownloadTarget =>
  readDownloadAnswer(body, { now, apiUrl }).target;

export const decodeStartedJob = (body: unknown, answer: StartAnswer = {}): StartedJob => readStartedJob(body, answer).job;

export const decodeFinetuneStatus = (jobId: string, body: unknown): FinetuneStatus => readFinetuneStatus(jobId, body).status;

export const decodeEvaluationStatus = (jobId: string, body: unknown): EvaluationStatus => readEvaluationStatus(jobId, body).status;
