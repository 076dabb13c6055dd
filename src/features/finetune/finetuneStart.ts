// The paid start of a finetune without vscode, for every face that starts one (the extension's command, Chat and
// language-model tool through startFinetuneJob in finetuneCommand.ts; the MCP server in src/mcp): the start held one
// per service, key and model name (jobs/startingJobs.ts), the duplicate-name rule read again once held, the upload, and
// the job record written the moment the service answers with an id, before anything else, so nothing that follows can
// forget a job the person is paying for. What a face does after the record (its model list, its walkthrough) it does
// in `recorded`, still inside the hold.
import type { ServiceClient } from '../../api/client';
import type { JobRecord } from '../../jobs/jobRecord';
import { isActive } from '../../jobs/jobRecord';
import { buildLineage, type LineageInput } from '../../jobs/lineage';
import { StartRefusedError, underWayText, type StartingJobs } from '../../jobs/startingJobs';
import { modelNameProblem, type FinetuneAnswers } from './finetuneAnswers';
import { uploadFiles, type CheckedFile } from './finetuneFiles';

/** The job records of a face: read for the rules, written once a start is answered. */
export interface JobRecords {
  list(scope: string): JobRecord[];
  put(job: JobRecord): Promise<void>;
  /**
   * Reads again what another process recorded (the command line's and the MCP server's file, which both write); called
   * once a start holds its entry, before its checks. The extension's store has none: globalState is the window's.
   */
  reload?(): Promise<void>;
}

/** What a paid start needs of the face that starts it. */
export interface PaidStartDeps {
  starting: StartingJobs;
  jobs: JobRecords;
  log: (line: string) => void;
}

/** The client and the scope (`<base URL>#<key identity>`) its jobs are kept under. */
export interface StartConnection {
  client: ServiceClient;
  scope: string;
}

/** The job record a start writes, and its lineage's parts, all but what the service's answer gives (the id, digests). */
export function startedRecord(
  scope: string,
  a: FinetuneAnswers,
  files: readonly CheckedFile[],
  now: number,
): { job: Omit<JobRecord, 'id' | 'lineage'>; lineage: Omit<LineageInput, 'jobId'> } {
  return {
    job: {
      kind: 'finetune',
      scope,
      state: 'queued',
      createdAt: now,
      updatedAt: now,
      modelName: a.modelName,
      baseModel: a.baseModel,
      files: files.map((f) => f.label),
    },
    lineage: { startedAt: now, baseModel: a.baseModel, numQs: a.numQs, mode: a.mode, useCase: a.useCase, files, sha256: [] },
  };
}

/** Models that jobs of this scope are creating or have created: the new model may not take these names. */
export function pendingModelNames(records: { jobs: Pick<JobRecords, 'list'> }, scope: string): string[] {
  return records.jobs
    .list(scope)
    .filter((j) => j.kind === 'finetune' && (isActive(j) || j.state === 'completed'))
    .map((j) => j.modelName);
}

/**
 * The checked files (`paths`: one disk path per file, in order) uploaded with the answers, and the job recorded.
 * Throws the client's error, or a StartRefusedError naming the start of the same name under way (before a byte is
 * sent); `signal` aborts the upload.
 */
export async function startFinetuneOnce(
  deps: PaidStartDeps,
  connection: StartConnection,
  files: readonly CheckedFile[],
  paths: readonly string[],
  a: FinetuneAnswers,
  options: {
    signal?: AbortSignal;
    onProgress?: (p: { sent: number; total: number }) => void;
    recorded?: (job: JobRecord) => void | Promise<void>;
  } = {},
): Promise<JobRecord> {
  const taken = await deps.starting.take({ kind: 'finetune', scope: connection.scope, modelName: a.modelName });
  if ('underWay' in taken) {
    const text = underWayText(taken.underWay);
    deps.log(`Finetune: not started: ${text}`);
    throw new StartRefusedError(text, { underWay: taken.underWay });
  }
  try {
    await deps.jobs.reload?.();
    const problem = modelNameProblem(a.modelName, pendingModelNames(deps, connection.scope));
    if (problem) throw new StartRefusedError(problem);
    const started = await connection.client.startFinetune(
      // The checked sizes: a file that changed since (or changes while it is sent) fails the upload, job-less.
      {
        files: uploadFiles(files, paths),
        numQs: a.numQs,
        mode: a.mode,
        modelName: a.modelName,
        modelType: a.baseModel,
        useCase: a.useCase,
      },
      {
        signal: options.signal,
        onProgress: (p) => {
          taken.hold.progress(p.sent, p.total);
          options.onProgress?.(p);
        },
      },
    );
    // Written first, before anything else: see the header comment.
    const { job: record, lineage } = startedRecord(connection.scope, a, files, Date.now());
    const job: JobRecord = {
      ...record,
      id: started.jobId,
      lineage: buildLineage({ ...lineage, jobId: started.jobId, sha256: started.sha256 }),
    };
    await deps.jobs.put(job);
    await options.recorded?.(job);
    return job;
  } finally {
    await taken.hold.release();
  }
}
