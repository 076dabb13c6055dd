// The JSON documents `--json` writes, one per command: their field names are a contract with the pipelines that read
// them (README, "Command line"), held by test/unit/cliJson.test.ts. A field is added, never renamed or removed.
import type { DownloadOutcome } from '../api/download';
import type { ModelInfo } from '../api/types';
import type { JobRecord } from '../jobs/jobRecord';

export interface JobJson {
  id: string;
  kind: 'finetune' | 'evaluation';
  state: string;
  /** The model the finetune makes, or the model evaluated. */
  model: string;
  baseModel?: string;
  dataset?: string;
  progress?: number;
  message?: string;
  error?: string;
  result?: { dataset: string; correct: number; total: number; accuracy: number; judgeModel?: string };
  /** The command that follows the job from here. */
  follow: string;
}

export function jobJson(job: JobRecord): JobJson {
  return {
    id: job.id,
    kind: job.kind,
    state: job.state === 'unknown' && job.rawState ? job.rawState : job.state,
    model: job.modelName,
    ...(job.baseModel !== undefined && { baseModel: job.baseModel }),
    ...(job.datasetName !== undefined && { dataset: job.datasetName }),
    ...(job.progress !== undefined && { progress: job.progress }),
    ...(job.message !== undefined && { message: job.message }),
    ...(job.error !== undefined && { error: job.error }),
    ...(job.result && {
      result: {
        dataset: job.result.datasetName,
        correct: job.result.correct,
        total: job.result.total,
        accuracy: job.result.accuracy,
        ...(job.result.judgeModel !== undefined && { judgeModel: job.result.judgeModel }),
      },
    }),
    follow: followCommand(job.id),
  };
}

export function followCommand(jobId: string): string {
  return `hosted-reasoning status ${shellWord(jobId)} --wait`;
}

/** A word a POSIX shell reads back as it is (job ids are the service's text). */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9._:/@%+=-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export interface ModelJson {
  name: string;
  kind: string;
  baseModel?: string;
  createdAt?: string;
}

export function modelJson(m: ModelInfo): ModelJson {
  return {
    name: m.name,
    kind: m.kind,
    ...(m.baseModel !== undefined && { baseModel: m.baseModel }),
    ...(m.createdAt !== undefined && { createdAt: m.createdAt }),
  };
}

export interface DownloadJson {
  path: string;
  bytes: number;
  verified: string;
  sha256?: string;
  resumedFrom: number;
  resumes: number;
  renewals: number;
}

export function downloadJson(o: DownloadOutcome): DownloadJson {
  return {
    path: o.path,
    bytes: o.bytes,
    verified: o.verified,
    ...(o.sha256 !== undefined && { sha256: o.sha256 }),
    resumedFrom: o.resumedFrom,
    resumes: o.resumes,
    renewals: o.renewals,
  };
}

export interface ErrorJson {
  error: { kind: string; message: string; exitCode: number };
}
