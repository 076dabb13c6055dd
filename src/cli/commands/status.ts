// `status <job> [--wait]`: a job's state now, or followed until it ends. A job started here is known by its record
// (its kind, its model); another job id is asked of the finetune endpoint, then of the evaluation endpoint.
import { ApiError } from '../../api/errors';
import type { JobKind, JobRecord } from '../../jobs/jobRecord';
import type { CommandContext } from '../context';
import { CliError } from '../exitCodes';
import { exitCodeOfJob, followJob, pollOnce, progressWords } from '../followJob';
import { jobJson } from '../jsonOutput';
import { isActive } from '../../jobs/jobRecord';

export async function statusCommand(ctx: CommandContext, options: { jobId: string; wait: boolean; intervalMs: number }): Promise<number> {
  let job = ctx.jobs.find(options.jobId) ?? (await unknownJob(ctx, options.jobId));
  job = options.wait ? await followJob(ctx, job, options.intervalMs) : await pollOnce(ctx, job);
  ctx.out.result(jobText(job), { job: jobJson(job) });
  return options.wait || !isActive(job) ? exitCodeOfJob(job) : 0;
}

export function jobText(job: JobRecord): string {
  const lines = [progressWords(job) + (job.progress !== undefined && isActive(job) ? ` (${Math.floor(job.progress)}%)` : '')];
  if (job.error) lines.push(`Error: ${job.error}`);
  if (job.result) {
    const r = job.result;
    lines.push(`Result: ${r.correct}/${r.total} correct (${(r.accuracy * 100).toFixed(1)}%) on ${r.datasetName}`);
  }
  return lines.join('\n');
}

/** A job this state file has no record of: its kind found by asking, then kept like any other. */
async function unknownJob(ctx: CommandContext, id: string): Promise<JobRecord> {
  const now = Date.now();
  const record = (kind: JobKind, modelName: string, datasetName?: string): JobRecord => ({
    id,
    kind,
    scope: ctx.jobs.scope,
    state: 'unknown',
    createdAt: now,
    updatedAt: now,
    modelName,
    ...(datasetName !== undefined && { datasetName }),
  });
  try {
    const status = await ctx.connection.client.getFinetuneStatus(id, { signal: ctx.signal, interactive: true });
    const job = record('finetune', status.modelName ?? '');
    await ctx.jobs.put(job);
    return job;
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 404)) throw error;
  }
  try {
    const status = await ctx.connection.client.getEvaluationStatus(id, { signal: ctx.signal, interactive: true });
    const job = record('evaluation', status.result?.modelName ?? '', status.result?.datasetName);
    await ctx.jobs.put(job);
    return job;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw new CliError(`The service knows no job ${id}.`);
    throw error;
  }
}
