// Spec 4.5-4.6: POST /cr/finetune_model/evaluate_async and GET /cr/finetune_model/evaluate_status. Status walks
// queued -> running -> completed|failed over evaluationDurationMs (running for as long as holdEvaluations is set);
// scores are deterministic per (model, dataset).
import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readJsonObject, sendDetail, sendJson, sendStarted, sendValidation, type ValidationIssue } from './http-util';
import { customModelsOf, hasModel, modelNamed } from './keys';
import { evaluationRunningWord, evaluationStartExtras, evaluationStatusExtras, styledEvaluationError } from './styles';
import type { DatasetConfig, State } from './types';

export const DEFAULT_DATASETS: Record<string, DatasetConfig> = {
  'demo-qa': { total: 50 },
  'arith-small': { total: 20 },
  'reasoning-hard': { total: 200 },
};

export const JUDGE_MODEL = 'judge-large-v1';

export type EvaluationStatus = 'queued' | 'running' | 'completed' | 'failed';
// 'running' is the default style's word for the state between the spec's queued and completed|failed (styles.ts).

export interface EvaluationJob {
  id: string;
  key: string;
  datasetName: string;
  modelName: string;
  /** The model's name as submitted (Google-style `models/<id>`), echoed in the result. */
  askedName: string;
  submittedAt: number;
  durationMs: number;
  /** Decided at submit time from the dataset table then in force. */
  outcome: { kind: 'result'; correct: number; total: number; judgeModel: string } | { kind: 'error'; error: string };
}

/**
 * Deterministic score: a hash of model + dataset picks a ratio in [0.40, 0.70) for base models and [0.70, 0.95) for
 * custom ones (a finetuned model should look better), unless the dataset pins a ratio for this model (scores) or for
 * every model (correctRatio).
 */
export function scoreFor(modelName: string, custom: boolean, datasetName: string, dataset: DatasetConfig): number {
  const pinned =
    dataset.scores && Object.prototype.hasOwnProperty.call(dataset.scores, modelName) ? dataset.scores[modelName] : dataset.correctRatio;
  if (pinned !== undefined) {
    return Math.round(dataset.total * Math.min(1, Math.max(0, pinned)));
  }
  const h = createHash('sha256').update(`${modelName}\n${datasetName}`).digest().readUInt16BE(0) / 0x10000;
  const ratio = custom ? 0.7 + 0.25 * h : 0.4 + 0.3 * h;
  return Math.round(dataset.total * ratio);
}

function statusOf(state: State, job: EvaluationJob): EvaluationStatus {
  const elapsed = Date.now() - job.submittedAt;
  if (elapsed < job.durationMs * 0.25) {
    return 'queued';
  }
  if (elapsed < job.durationMs || state.options.holdEvaluations) {
    return 'running';
  }
  return job.outcome.kind === 'result' ? 'completed' : 'failed';
}

export async function handleEvaluateAsync(state: State, key: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readJsonObject(req, res);
  if (!body.ok) {
    return;
  }
  const issues: ValidationIssue[] = [];
  const field = (name: string): string | undefined => {
    const v = body.value[name];
    if (v === undefined || v === null) {
      issues.push({ type: 'missing', loc: ['body', name], msg: 'Field required', input: body.value });
      return undefined;
    }
    if (typeof v !== 'string') {
      issues.push({ type: 'string_type', loc: ['body', name], msg: 'Input should be a valid string', input: v });
      return undefined;
    }
    if (v === '') {
      issues.push({
        type: 'string_too_short',
        loc: ['body', name],
        msg: 'String should have at least 1 character',
        input: v,
        ctx: { min_length: 1 },
      });
      return undefined;
    }
    return v;
  };
  const datasetName = field('dataset_name');
  const askedName = field('model_name');
  if (issues.length > 0 || datasetName === undefined || askedName === undefined) {
    sendValidation(res, issues);
    return;
  }
  const modelName = modelNamed(state, key, askedName);
  if (!hasModel(state, key, modelName)) {
    sendDetail(res, 404, `Model '${modelName}' not found`);
    return;
  }
  const dataset = Object.prototype.hasOwnProperty.call(state.options.datasets, datasetName)
    ? state.options.datasets[datasetName]
    : undefined;
  const custom = customModelsOf(state, key).has(modelName);
  const job: EvaluationJob = {
    id: randomUUID(),
    key,
    datasetName,
    modelName,
    askedName,
    submittedAt: Date.now(),
    durationMs: state.options.evaluationDurationMs,
    // An unknown dataset is accepted and fails later, like a worker discovering it (spec 7: failure is in the poll).
    outcome: dataset
      ? {
          kind: 'result',
          correct: scoreFor(modelName, custom, datasetName, dataset),
          total: dataset.total,
          judgeModel: dataset.judgeModel ?? JUDGE_MODEL,
        }
      : { kind: 'error', error: `Dataset '${datasetName}' not found` },
  };
  state.evaluationJobs.set(job.id, job);
  if (state.options.shape !== 'default') {
    // Spec 4.5 shows this answer: `job_id` and `status`; a style only adds fields of its own beside them.
    sendJson(res, 200, { job_id: job.id, status: 'queued', ...evaluationStartExtras(state.options.shape, job.id, job.submittedAt) });
    return;
  }
  sendStarted(res, state.options.answerShapes.start, job.id, '/cr/finetune_model/evaluate_status');
}

export function handleEvaluateStatus(state: State, key: string, res: ServerResponse, query: URLSearchParams): void {
  const id = query.get('job_id');
  if (id === null || id === '') {
    sendValidation(res, [{ type: 'missing', loc: ['query', 'job_id'], msg: 'Field required', input: null }]);
    return;
  }
  const job = state.evaluationJobs.get(id);
  if (!job || job.key !== key) {
    sendDetail(res, 404, `Evaluation job '${id}' not found`);
    return;
  }
  const status = statusOf(state, job);
  const shape = state.options.shape;
  const word = status === 'running' ? evaluationRunningWord(shape) : status;
  // A held evaluation (holdEvaluations) runs past its duration: it says less than 100 % until it ends.
  const percent = Math.min(
    status === 'running' ? 99 : 100,
    Math.max(0, ((Date.now() - job.submittedAt) / Math.max(1, job.durationMs)) * 100),
  );
  const view: Record<string, unknown> = { job_id: job.id, status: word, ...evaluationStatusExtras(shape, job.id, status, percent) };
  if (status === 'completed' && job.outcome.kind === 'result') {
    const { correct, total, judgeModel } = job.outcome;
    view.result = {
      dataset_name: job.datasetName,
      model_name: job.askedName,
      split: 'test',
      correct,
      total,
      accuracy: total === 0 ? 0 : correct / total,
      judge_model: judgeModel,
    };
  } else if (status === 'failed' && job.outcome.kind === 'error') {
    view.error = styledEvaluationError(shape, job.outcome.error);
  }
  sendJson(res, 200, view);
}
