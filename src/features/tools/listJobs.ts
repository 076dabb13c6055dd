// hosted_list_jobs: the jobs started here for this service and key (finetunes and evaluations), newest first, with
// their state and progress as the poller last read them.
import * as vscode from 'vscode';
import type { Services } from '../../services';
import { runTool, textResult } from './toolShared';
import { jobListLines } from './toolText';

export function listJobsTool(services: Services): vscode.LanguageModelTool<unknown> {
  return {
    prepareInvocation: () => ({ invocationMessage: vscode.l10n.t('Listing the hosted jobs') }),
    invoke: () =>
      runTool('Listing the jobs', async () => {
        const { scope } = await services.session.connect();
        return textResult(jobListLines(services.jobs.list(scope), Date.now()));
      }),
  };
}
