// hosted_get_job: one job's status by its id (as hosted_start_finetune, hosted_start_evaluation or hosted_list_jobs
// gave it): state, progress, the model it made, the error in words. A running job is read from the service first
// (one round of the poller, which keeps the record every view shows), so the answer is as fresh as it can be.
import * as vscode from 'vscode';
import type { Services } from '../../services';
import type { EditorJobPoller as JobPoller } from '../../jobs/editorJobPoller';
import { isFollowed } from '../../jobs/jobRecord';
import { fields, requiredString, runTool, said, textResult } from './toolShared';
import { jobStatusLines } from './toolText';

export function getJobTool(services: Services, poller: JobPoller): vscode.LanguageModelTool<unknown> {
  return {
    prepareInvocation: () => ({ invocationMessage: vscode.l10n.t('Reading a hosted job’s status') }),
    invoke: (options) =>
      runTool('Reading the job', async () => {
        const id = requiredString(fields(options.input), 'jobId');
        const { scope } = await services.session.connect();
        const find = () => services.jobs.list(scope).find((j) => j.id === id);
        const job = find();
        if (!job) {
          return textResult([`No job ${said(id, 100)} is known here for this service and key. hosted_list_jobs lists the jobs there are.`]);
        }
        if (isFollowed(job)) await poller.pollNow();
        return textResult(jobStatusLines(find() ?? job, Date.now()));
      }),
  };
}
