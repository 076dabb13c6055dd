// `evaluate <model> <dataset> [--wait] [--again]`: starts an evaluation (a paid job, started once: never retried when
// the outcome is unknown, as every POST of the client), records it, and follows it with --wait. As in the extension
// and the MCP server (evaluationStart.ts), an evaluation of the same model on the same dataset that is running here or
// being started (by another run, the extension or the MCP server) refuses the start, naming it; --again starts another.
import { submitEvaluationOnce } from '../../features/evaluate/evaluationStart';
import type { JobRecord } from '../../jobs/jobRecord';
import { StartRefusedError } from '../../jobs/startingJobs';
import type { CommandContext } from '../context';
import { CliError } from '../exitCodes';
import { exitCodeOfJob, followJob } from '../followJob';
import { followCommand, jobJson } from '../jsonOutput';
import { paidStartDeps, startConnection } from '../paidStart';
import { jobText } from './status';

export async function evaluateCommand(
  ctx: CommandContext,
  options: { model: string; dataset: string; wait: boolean; again: boolean; intervalMs: number },
): Promise<number> {
  let id: string;
  try {
    id = await submitEvaluationOnce(paidStartDeps(ctx), startConnection(ctx), options.model, options.dataset, {
      signal: ctx.signal,
      startAnother: options.again,
    });
  } catch (error) {
    if (error instanceof StartRefusedError) throw new CliError(`${error.message} Add --again to start another (each is paid for).`);
    throw error;
  }
  let job: JobRecord | undefined = ctx.jobs.find(id);
  if (!job) throw new CliError(`The evaluation ${id} was started but not recorded.`, 1);
  ctx.out.note(`Started evaluation ${job.id} of ${options.model} on ${options.dataset}.`);
  if (!options.wait) {
    ctx.out.result(`Follow it with: ${followCommand(job.id)}`, { job: jobJson(job) });
    return 0;
  }
  job = await followJob(ctx, job, options.intervalMs);
  ctx.out.result(jobText(job), { job: jobJson(job) });
  return exitCodeOfJob(job);
}
