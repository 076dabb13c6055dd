// Which evaluations a model row shows (their accuracy reads as jobs/jobFormat.ts formats it everywhere).
import type { JobRecord } from '../../jobs/jobRecord';

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
