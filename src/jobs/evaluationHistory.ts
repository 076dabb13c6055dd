// How many finished evaluations a scope keeps: beyond the limit the oldest are forgotten, and how many of each model's
// were forgotten is counted, so the report can say its history is not complete. Finetune jobs are bounded on their own
// (jobStore.ts): many evaluations must not push out the job that recorded a model's lineage. And which of the kept
// ones a model shows (the Models view's rows, the tools' answers). No vscode: plain mocha.
import { isActive, type JobRecord } from './jobRecord';

/** Finished evaluations kept per scope (service origin and key). */
export const MAX_EVALUATIONS = 200;

export interface BoundedEvaluations {
  /** The list without the dropped records, in its order. */
  kept: JobRecord[];
  /** Evaluations dropped now, per model name. */
  droppedByModel: Record<string, number>;
}

export function boundEvaluations(jobs: readonly JobRecord[], limit = MAX_EVALUATIONS): BoundedEvaluations {
  const finished = jobs.filter((j) => j.kind === 'evaluation' && !isActive(j));
  if (finished.length <= limit) return { kept: [...jobs], droppedByModel: {} };
  // Oldest by when it was started; ties by id so the choice never depends on the list's order.
  const oldestFirst = [...finished].sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const drop = new Set(oldestFirst.slice(0, finished.length - limit));
  const droppedByModel: Record<string, number> = {};
  for (const j of drop) droppedByModel[j.modelName] = (droppedByModel[j.modelName] ?? 0) + 1;
  return { kept: jobs.filter((j) => !drop.has(j)), droppedByModel };
}

/** Adds counts to what was stored (a stored value that is not a map of counts counts as none). */
export function addDropped(stored: unknown, more: Readonly<Record<string, number>>): Record<string, number> {
  const sum = readDropped(stored);
  for (const [model, n] of Object.entries(more)) sum[model] = (sum[model] ?? 0) + n;
  return { ...sum };
}

/** The stored counts, each a non-negative integer; anything else in storage is ignored. */
export function readDropped(stored: unknown): Record<string, number> {
  // No prototype: a model may be called "__proto__".
  const out = Object.create(null) as Record<string, number>;
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return { ...out };
  for (const [model, n] of Object.entries(stored as Record<string, unknown>)) {
    if (typeof n === 'number' && Number.isInteger(n) && n > 0) out[model] = n;
  }
  return { ...out };
}

/** Completed evaluations with a result, per model name, newest first (their accuracy reads as jobFormat.ts formats it). */
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
