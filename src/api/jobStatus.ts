// §3/§4.4/§4.6 a job's status, typed: its state, progress, message, error, the model it made and an evaluation's result.
// Where each is in the answer is the profile's (jobStatusReading.ts: inferred once per service, kept, read by it); here
// only what each kind of job makes of it. An evaluation's result is read by the spec's names for its fields (§2).

import { excerpt } from './redact';
import { answerReader } from './errors';
import { isObj } from './answerShape';
import type { JobStatusProfile } from './profileFormat';
import type { JobStatusMemory } from './jobStatusMemory';
import { readJobStatus } from './jobStatusReading';
import { capText } from './types';
import type { EvaluationResult, EvaluationStatus, FinetuneStatus } from './types';

/** A status read, the profile that read it and what changed in it (for the caller to keep and log). */
export interface StatusReading<T> {
  status: T;
  profile: JobStatusProfile;
  change?: string;
}

export const readFinetuneStatus = answerReader(function readFinetuneStatus(
  jobId: string,
  body: unknown,
  known?: JobStatusProfile,
  memory?: JobStatusMemory,
): StatusReading<FinetuneStatus> {
  const { read, profile, change } = readJobStatus('finetuneStatus', body, known, memory && { jobId, memory });
  const status: FinetuneStatus = {
    jobId,
    state: read.state,
    rawState: read.rawState,
    progress: read.progress,
    stage: read.stage,
    message: read.message,
    error: read.error ?? (read.state === 'failed' ? read.message : undefined),
    modelName: read.madeModel,
    raw: body,
  };
  return { status, profile, change };
});

export const readEvaluationStatus = answerReader(function readEvaluationStatus(
  jobId: string,
  body: unknown,
  known?: JobStatusProfile,
  memory?: JobStatusMemory,
): StatusReading<EvaluationStatus> {
  const { read, profile, change } = readJobStatus('evaluationStatus', body, known, memory && { jobId, memory });
  const { state, rawState } = read;
  // How far a running evaluation is, when the service says it (the spec does not): read as a finetune's, for its time left.
  const progress =
    read.progress === undefined ? {} : { progress: read.progress, ...(read.stage === undefined ? {} : { stage: read.stage }) };
  if (state === 'completed') {
    const result = readEvaluationResult(read.result);
    if (result) return { status: { jobId, state, rawState, result, raw: body }, profile, change };
    // The service says the evaluation ended: asking again would get the same result, so polling would never end.
    // Completed without a score would show an empty report; failed, with why and the service's words, is an end the
    // views, the notification and the status bar already show, and the person can run the evaluation again.
    const said = read.result === undefined ? 'the answer holds none' : excerpt(read.result, 300);
    const error = `The evaluation completed, but its result could not be read (${said}).`;
    return { status: { jobId, state: 'failed', rawState, error, raw: body }, profile, change };
  }
  const error = state === 'failed' ? (read.error ?? 'The evaluation failed without a reason.') : undefined;
  return { status: { jobId, state, rawState, ...progress, error, raw: body }, profile, change };
});

/** A text field of the result, by the spec's name. */
function text(o: Record<string, unknown>, field: string): string | undefined {
  const v = o[field];
  if (typeof v === 'string' && v.trim() !== '') return capText(v);
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return undefined;
}

function readEvaluationResult(v: unknown): EvaluationResult | undefined {
  if (!isObj(v)) return undefined;
  const count = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) && x >= 0 ? x : undefined);
  const correct = count(v.correct);
  const total = count(v.total);
  // More correct answers than questions: these are not the counts of one evaluation.
  if (correct !== undefined && total !== undefined && correct > total) return undefined;
  let accuracy = typeof v.accuracy === 'number' && Number.isFinite(v.accuracy) ? v.accuracy : undefined;
  // Spec: a fraction 0..1. A value above 1 is read as a percentage rather than shown as 7,300%; anything else is
  // neither (shown, 1e308 would read "Infinity%"), and the counts, when given, say it instead.
  if (accuracy !== undefined && accuracy > 1 && accuracy <= 100) accuracy = accuracy / 100;
  if (accuracy !== undefined && (accuracy < 0 || accuracy > 1)) accuracy = undefined;
  if (accuracy === undefined && correct !== undefined && total) accuracy = correct / total;
  if (accuracy === undefined) return undefined;
  return {
    datasetName: text(v, 'dataset_name') ?? '',
    modelName: text(v, 'model_name') ?? '',
    split: text(v, 'split'),
    correct: correct ?? Math.round(accuracy * (total ?? 0)),
    total: total ?? 0,
    accuracy,
    judgeModel: text(v, 'judge_model'),
  };
}
