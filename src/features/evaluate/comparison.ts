// What the evaluation report shows, built from job records alone so it is the same after a reload and testable
// without vscode: a model's finished evaluations by dataset, and its base model's beside them (reportView.ts compares
// them). Records must come from one scope (JobStore.list(scope)):
// two services' results for a dataset of the same name are not comparable.
import type { EvaluationResult } from '../../api/types';
import type { JobRecord } from '../../jobs/jobRecord';
import { wilsonInterval, type Interval } from './statistics';

/** Evaluations kept per model, newest first; the report says how many older ones it left out. */
export const MAX_EVALUATIONS_PER_MODEL = 50;

export interface EvaluationEntry {
  jobId: string;
  datasetName: string;
  correct: number;
  total: number;
  /** 0..1, as the service reported it. */
  accuracy: number;
  /** 95 % Wilson interval from correct/total; undefined when there were no questions. */
  interval?: Interval;
  judgeModel?: string;
  /** When the evaluation finished (ms since the epoch). */
  at: number;
}

export interface DatasetEvaluations {
  datasetName: string;
  /** Newest first. */
  evaluations: EvaluationEntry[];
}

export interface ModelEvaluations {
  modelName: string;
  /** The dataset evaluated most recently first. */
  datasets: DatasetEvaluations[];
  /** Older evaluations of this model beyond the limit, left out. */
  dropped: number;
}

export interface Comparison {
  model: ModelEvaluations;
  /** Absent when the base model is not known (not created by this extension, or a base model itself). */
  base?: ModelEvaluations;
}

export interface ComparisonOptions {
  /** The model to compare with; otherwise the base its finetune job recorded, if any. */
  baseModel?: string;
  maxPerModel?: number;
}

export function buildComparison(records: readonly JobRecord[], modelName: string, options: ComparisonOptions = {}): Comparison {
  const limit = Math.max(0, options.maxPerModel ?? MAX_EVALUATIONS_PER_MODEL);
  const baseName = options.baseModel ?? recordedBase(records, modelName);
  const model = evaluationsOf(records, modelName, limit);
  if (baseName === undefined || baseName === modelName) return { model };
  return { model, base: evaluationsOf(records, baseName, limit) };
}

/** The base model the newest finetune job that created this model recorded. */
function recordedBase(records: readonly JobRecord[], modelName: string): string | undefined {
  return records
    .filter((r) => r.kind === 'finetune' && r.modelName === modelName && r.baseModel !== undefined)
    .sort((a, b) => b.createdAt - a.createdAt)[0]?.baseModel;
}

function evaluationsOf(records: readonly JobRecord[], modelName: string, limit: number): ModelEvaluations {
  const all = records
    .flatMap((r) =>
      r.kind === 'evaluation' && r.state === 'completed' && r.result && r.modelName === modelName ? [entryOf(r, r.result)] : [],
    )
    .sort(newestFirst);
  const kept = all.slice(0, limit);
  const byDataset = new Map<string, EvaluationEntry[]>();
  for (const entry of kept) {
    const list = byDataset.get(entry.datasetName);
    if (list) {
      list.push(entry);
    } else {
      byDataset.set(entry.datasetName, [entry]);
    }
  }
  // Map keeps insertion order, and entries went in newest first: datasets come out by their newest evaluation.
  const datasets = [...byDataset].map(([datasetName, evaluations]) => ({ datasetName, evaluations }));
  return { modelName, datasets, dropped: all.length - kept.length };
}

function entryOf(record: JobRecord, result: EvaluationResult): EvaluationEntry {
  const interval = wilsonInterval(result.correct, result.total);
  return {
    jobId: record.id,
    // What the user asked to evaluate on, so repeated runs group together even if the service spells it otherwise.
    datasetName: record.datasetName ?? result.datasetName,
    correct: result.correct,
    total: result.total,
    accuracy: result.accuracy,
    ...(interval && { interval }),
    ...(result.judgeModel !== undefined && { judgeModel: result.judgeModel }),
    at: record.finishedAt ?? record.updatedAt,
  };
}

// Ties (same millisecond) fall back to the job id so the order never depends on the order of the stored list.
function newestFirst(a: EvaluationEntry, b: EvaluationEntry): number {
  return b.at - a.at || (a.jobId < b.jobId ? -1 : a.jobId > b.jobId ? 1 : 0);
}
