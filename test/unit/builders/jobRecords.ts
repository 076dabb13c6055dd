// Job records as the store keeps them, with defaults, for the tests of what is built from records (the evaluation
// report, the comparison, lineage): each test names only what it is about. Ids are unique across a run.
import type { EvaluationResult } from '../../../src/api/types';
import type { JobRecord } from '../../../src/jobs/jobRecord';

/** A time the records are made at (any fixed instant: the tests compare records, not clocks). */
export const T0 = 1_700_000_000_000;
export const JUDGE = 'judge-large-v1';

let nextId = 0;

/** A completed evaluation of `modelName` on `datasetName` finished at `at`, judged by JUDGE. */
export function evaluationRecord(
  modelName: string,
  datasetName: string,
  correct: number,
  total: number,
  at: number,
  extra: Partial<JobRecord> = {},
): JobRecord {
  const result: EvaluationResult = {
    datasetName,
    modelName,
    correct,
    total,
    accuracy: total === 0 ? 0 : correct / total,
    judgeModel: JUDGE,
  };
  return {
    id: `e${nextId++}`,
    kind: 'evaluation',
    scope: 's',
    state: 'completed',
    createdAt: at - 1000,
    updatedAt: at,
    finishedAt: at,
    modelName,
    datasetName,
    result,
    ...extra,
  };
}

/** A completed finetune that made `modelName` from `baseModel`. */
export function finetuneRecord(modelName: string, baseModel: string, createdAt = T0): JobRecord {
  return { id: `f${nextId++}`, kind: 'finetune', scope: 's', state: 'completed', createdAt, updatedAt: createdAt, modelName, baseModel };
}

/** A fresh id of the same series, for records a test builds itself. */
export function nextRecordId(prefix: string): string {
  return `${prefix}${nextId++}`;
}
