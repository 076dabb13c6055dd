// How evaluation results read everywhere (tree descriptions, tooltips, notifications): one place.
import type { EvaluationResult } from '../api/types';
import type { JobRecord } from '../jobs/jobRecord';

/** "84.0% (42/50)" */
export function formatAccuracy(r: Pick<EvaluationResult, 'accuracy' | 'correct' | 'total'>): string {
  return `${(r.accuracy * 100).toFixed(1)}% (${r.correct}/${r.total})`;
}

/** Completed evaluations with a result, per model name, newest first. */
export function latestEvaluations(jobs: JobRecord[]): Map<string, JobRecord[]> {
  const out = new Map<string, JobRecord[]>();
  for (const j of jobs) {
    if (j.kind !== 'evaluation' || j.state !== 'completed' || !j.result) continue;
    const list = out.get(j.modelName);
    if (list) list.push(j);
    else out.set(j.modelName, [j]);
  }
  const when = (j: JobRecord) => j.finishedAt ?? j.updatedAt;
  for (const list of out.values()) list.sort((a, b) => when(b) - when(a));
  return out;
}
