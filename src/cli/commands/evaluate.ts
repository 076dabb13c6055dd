// `evaluate <model> <dataset> [--wait]`: starts an evaluation (a paid job, started once: never retried when the outcome
// is unknown, as every POST of the client), records it, and follows it with --wait.
import type { JobRecord } from '../../jobs/jobRecord';
import type { CommandContext } from '../context';
import { exitCodeOfJob, followJob } from '../followJob';
import { followCommand, jobJson } from '../jsonOutput';
import { jobText } from './status';

export async function evaluateCommand(
  ctx: CommandContext,
  options: { model: string; dataset: string; wait: boolean; intervalMs: number },
): Promise<number> {
  const started = await ctx.connection.client.startEvaluation(options.model, options.dataset, { signal: ctx.signal, interactive: true });
  const now = Date.now();
  let job: JobRecord = {
    id: started.jobId,
    kind: 'evaluation',
    scope: ctx.jobs.scope,
    state: 'queued',
    createdAt: now,
    updatedAt: now,
    modelName: options.model,
    datasetName: options.dataset,
  };
  await ctx.jobs.put(job);
  ctx.out.note(`Started evaluation ${job.id} of ${options.model} on ${options.dataset}.`);
  if (!options.wait) {
    ctx.out.result(`Follow it with: ${followCommand(job.id)}`, { job: jobJson(job) });
    return 0;
  }
  job = await followJob(ctx, job, options.intervalMs);
  ctx.out.result(jobText(job), { job: jobJson(job) });
  return exitCodeOfJob(job);
}
