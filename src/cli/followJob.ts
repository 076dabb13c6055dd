// `--wait`: a job polled until it ends, its record kept in the state file at each answer (so a wait stopped by Ctrl+C,
// or a lost connection, is resumed by `status <job> --wait`). Stopping the wait never touches the job: it keeps running
// on the service, and the message says how to follow it again. A finetune that completes without naming its model
// takes the name the model list gives it (findMadeModel), as the extension's poller does.
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError } from '../api/errors';
import { isActive, jobKey, type JobRecord } from '../jobs/jobRecord';
import { findMadeModel } from '../jobs/madeModel';
import { endsUnnamed, evaluationPatch, finetunePatch, gonePatch, withMadeName } from '../jobs/statusPatch';
import type { CommandContext } from './context';
import { CliError, EXIT } from './exitCodes';
import { followCommand } from './jsonOutput';

/** Stopped waiting (Ctrl+C): the job keeps running. Carries the job for the --json document. */
export class StoppedWaitingError extends CliError {
  constructor(readonly job: JobRecord) {
    super(
      `Stopped waiting. The ${job.kind === 'finetune' ? 'finetuning job' : 'evaluation'} ${job.id} keeps running on the service; follow it with:\n  ${followCommand(job.id)}`,
      EXIT.interrupted,
    );
  }
}

/** One status answer applied to the record (and written); a job the service no longer knows (404) ends failed. */
export async function pollOnce(ctx: CommandContext, job: JobRecord): Promise<JobRecord> {
  const { client } = ctx.connection;
  const now = () => Date.now();
  try {
    if (job.kind === 'finetune') {
      const status = await client.getFinetuneStatus(job.id, { signal: ctx.signal });
      const patch = finetunePatch(job, status, now());
      if (!endsUnnamed(job, status)) return await ctx.jobs.patch(job, patch);
      // Completed without naming the model it made: the model list names it, as the extension's poller finds it.
      const made = await madeModelOf(ctx, job);
      return await ctx.jobs.patch(job, made === undefined ? patch : withMadeName(job, patch, made));
    }
    const status = await client.getEvaluationStatus(job.id, { signal: ctx.signal });
    return await ctx.jobs.patch(job, evaluationPatch(job, status, now()));
  } catch (error) {
    if (ctx.signal.aborted) throw new StoppedWaitingError(job);
    if (error instanceof ApiError && error.status === 404) return ctx.jobs.patch(job, gonePatch(job, now()));
    throw error;
  }
}

/**
 * The listed model the finetune made (madeModel.ts), never a name another finetune recorded here made or is making;
 * undefined when the list cannot be read (the job then keeps the name asked for, as before).
 */
async function madeModelOf(ctx: CommandContext, job: JobRecord): Promise<string | undefined> {
  let listed;
  try {
    listed = await ctx.connection.client.listModels({ signal: ctx.signal });
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    ctx.out.debug(`The model list could not be read to name the model made: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
  const claimed = new Set(
    ctx.jobs
      .list()
      .filter((j) => j.kind === 'finetune' && jobKey(j) !== jobKey(job) && j.state !== 'failed')
      .map((j) => j.modelName),
  );
  return findMadeModel({ requested: job.requestedName ?? job.modelName, baseModel: job.baseModel, claimed }, listed);
}

export async function followJob(ctx: CommandContext, start: JobRecord, intervalMs: number): Promise<JobRecord> {
  let job = start;
  for (;;) {
    job = await pollOnce(ctx, job);
    ctx.out.progress(progressWords(job), job.progress === undefined ? undefined : job.progress / 100);
    if (!isActive(job)) {
      ctx.out.clearBar();
      return job;
    }
    try {
      await sleep(intervalMs, undefined, { signal: ctx.signal });
    } catch {
      throw new StoppedWaitingError(job);
    }
  }
}

export function progressWords(job: JobRecord): string {
  const what = job.kind === 'finetune' ? `Finetuning ${job.modelName}` : `Evaluating ${job.modelName} on ${job.datasetName ?? '?'}`;
  const state = job.state === 'unknown' ? (job.rawState ?? 'unknown') : (job.rawState ?? job.state);
  // No percent: on a terminal the bar shows it; in a log a line per percent would drown the changes of state.
  const message = job.message ? `: ${job.message}` : '';
  return `${what}: ${state}${message}`;
}

/** The exit code of a job waited for: done when it completed. */
export function exitCodeOfJob(job: JobRecord): number {
  return job.state === 'completed' ? EXIT.done : EXIT.failed;
}
