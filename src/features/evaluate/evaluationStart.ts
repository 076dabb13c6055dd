// The paid start of an evaluation without vscode, for every face that starts one (the extension's command, Chat and
// language-model tool through submitEvaluation in evaluateCommand.ts; the MCP server in src/mcp): an evaluation of the
// same model on the same dataset that is running (recorded) or being started (jobs/startingJobs.ts) refuses the start
// with a StartRefusedError naming it, unless `startAnother` says the person wants a second one (each is paid for); the
// job record is written the moment the service answers, before anything else. What a face does after the record (its
// recent datasets, its model list) it does in `recorded`.
import { l10n } from '../../l10n';
import { isFollowed, type JobRecord } from '../../jobs/jobRecord';
import { clockTime } from '../../jobs/jobFormat';
import { StartRefusedError, underWayText } from '../../jobs/startingJobs';
import type { JobRecords, PaidStartDeps, StartConnection } from '../finetune/finetuneStart';

/** The record a started evaluation is written as, all but its id (the service's answer gives it). */
export function evaluationStartRecord(scope: string, modelName: string, datasetName: string, now: number): Omit<JobRecord, 'id'> {
  return { kind: 'evaluation', scope, state: 'queued', createdAt: now, updatedAt: now, modelName, datasetName };
}

/** The followed evaluation of this model on this dataset still running in `scope`, if any (the newest). */
export function runningEvaluation(records: { jobs: Pick<JobRecords, 'list'> }, scope: string, modelName: string, datasetName: string) {
  return records.jobs
    .list(scope)
    .find((j) => j.kind === 'evaluation' && isFollowed(j) && j.modelName === modelName && j.datasetName === datasetName);
}

/** The evaluation started and recorded; its job id. Throws the client's error or a StartRefusedError. */
export async function submitEvaluationOnce(
  deps: PaidStartDeps,
  connection: StartConnection,
  modelName: string,
  datasetName: string,
  options: { signal?: AbortSignal; startAnother?: boolean; recorded?: (job: JobRecord) => void | Promise<void> } = {},
): Promise<string> {
  if (options.startAnother) return sendEvaluation(deps, connection, modelName, datasetName, options);
  const taken = await deps.starting.take({ kind: 'evaluation', scope: connection.scope, modelName, datasetName });
  if ('underWay' in taken) {
    const text = underWayText(taken.underWay);
    deps.log(`Evaluation not started: ${text}`);
    throw new StartRefusedError(text, { underWay: taken.underWay });
  }
  try {
    // Read once the start holds its entry: a job recorded by a start that held it just before counts.
    await deps.jobs.reload?.();
    const running = runningEvaluation(deps, connection.scope, modelName, datasetName);
    if (running) {
      deps.log(`Evaluation not started: ${running.id} evaluates ${modelName} on ${datasetName} already.`);
      throw new StartRefusedError(runningText(running), { running });
    }
    return await sendEvaluation(deps, connection, modelName, datasetName, options);
  } finally {
    await taken.hold.release();
  }
}

/** "An evaluation of m on d is running (started 16:02)." */
function runningText(job: JobRecord): string {
  return l10n.t('An evaluation of {0} on {1} is running (started {2}).', job.modelName, job.datasetName ?? '', clockTime(job.createdAt));
}

async function sendEvaluation(
  deps: PaidStartDeps,
  { client, scope }: StartConnection,
  modelName: string,
  datasetName: string,
  options: { signal?: AbortSignal; recorded?: (job: JobRecord) => void | Promise<void> },
): Promise<string> {
  const started = await client.startEvaluation(modelName, datasetName, { interactive: true, signal: options.signal });
  const job: JobRecord = { ...evaluationStartRecord(scope, modelName, datasetName, Date.now()), id: started.jobId };
  await deps.jobs.put(job);
  await options.recorded?.(job);
  deps.log(`Evaluation ${job.id} started: ${modelName} on ${datasetName}.`);
  return job.id;
}
