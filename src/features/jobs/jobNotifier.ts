// Tells the user a job ended, once across all windows (the poller decides which window: `JobFinished.notify`), and
// offers the next step: evaluate, try, download or run locally a new model; see an evaluation in the list; read why one failed.
import * as vscode from 'vscode';
import { redact } from '../../api/redact';
import { COMMANDS } from '../../contributions';
import type { Log } from '../../log';
import { evaluationSummary, oneLine } from '../../jobs/jobFormat';
import { jobKey, type JobRecord } from '../../jobs/jobRecord';
import type { JobFinished } from '../../jobs/jobPoller';
import { showErrorMessage, showInformationMessage, showWarningMessage } from '../../util/notify';

/** What `COMMANDS.showJobs` accepts to reveal one row. */
export interface ShowJobsArgs {
  key: string;
}

export class JobNotifier implements vscode.Disposable {
  private readonly subscription: vscode.Disposable;

  constructor(
    poller: { readonly onDidFinishJob: vscode.Event<JobFinished> },
    private readonly log: Log,
    /** Whether this install runs models locally (the platform packages do, the universal one does not). */
    private readonly runsLocally: () => Promise<boolean> = () => Promise.resolve(false),
  ) {
    this.subscription = poller.onDidFinishJob((e) => {
      if (!e.notify) return;
      // Not awaited: a notification stays open until the user acts, and the poller must not wait for that.
      this.announce(e.job).catch((err: unknown) => this.log.error(`Job notification failed: ${String(err)}`));
    });
  }

  /** Shows the message for an ended job and runs the action picked; resolves when the user acted or closed it. */
  async announce(job: JobRecord): Promise<void> {
    switch (job.state) {
      case 'completed':
        return job.kind === 'finetune' ? this.modelReady(job) : this.evaluationDone(job);
      case 'failed':
        return this.failed(job);
      case 'cancelled':
        return this.cancelled(job);
      default:
        return undefined;
    }
  }

  private async modelReady(job: JobRecord): Promise<void> {
    const modelName = job.modelName;
    // The answer is the button's shown (translated) title.
    const evaluate = vscode.l10n.t('Evaluate');
    const tryIt = vscode.l10n.t('Try in Playground');
    const download = vscode.l10n.t('Download');
    const runLocally = vscode.l10n.t('Run Locally');
    const local = await this.runsLocally().catch(() => false);
    const pick = await showInformationMessage(
      vscode.l10n.t('Model {0} is ready.', modelName),
      evaluate,
      tryIt,
      download,
      ...(local ? [runLocally] : []),
    );
    if (pick === evaluate) await vscode.commands.executeCommand(COMMANDS.evaluate, { modelName });
    else if (pick === tryIt) await vscode.commands.executeCommand(COMMANDS.openPlayground, { modelName });
    else if (pick === download) await vscode.commands.executeCommand(COMMANDS.download, { modelName });
    else if (pick === runLocally) {
      // Download first (the folder or a save dialog, as the Download button), then run the file just recorded.
      const file = await vscode.commands.executeCommand<string | undefined>(COMMANDS.download, { modelName });
      if (file) await vscode.commands.executeCommand(COMMANDS.runLocally, { modelName });
    }
  }

  private async evaluationDone(job: JobRecord): Promise<void> {
    const openReport = vscode.l10n.t('Open Report');
    const pick = await showInformationMessage(serverText(evaluationSummary(job)), openReport, vscode.l10n.t('Show in Jobs'));
    if (pick === openReport) await vscode.commands.executeCommand(COMMANDS.openEvaluationReport, job.modelName);
    else if (pick) await this.showJobs(job);
  }

  private async failed(job: JobRecord): Promise<void> {
    const why = job.error !== undefined ? serverText(job.error) : vscode.l10n.t('no reason given');
    const message =
      job.kind === 'finetune'
        ? vscode.l10n.t('Creating model {0} failed: {1}', job.modelName, why)
        : job.datasetName
          ? vscode.l10n.t('Evaluating {0} on {1} failed: {2}', job.modelName, job.datasetName, why)
          : vscode.l10n.t('Evaluating {0} failed: {1}', job.modelName, why);
    const showLog = vscode.l10n.t('Show Log');
    const showJobs = vscode.l10n.t('Show Jobs');
    const pick = await showErrorMessage(message, showLog, showJobs);
    if (pick === showLog) this.log.show();
    else if (pick === showJobs) await this.showJobs(job);
  }

  private async cancelled(job: JobRecord): Promise<void> {
    const message =
      job.kind === 'finetune'
        ? vscode.l10n.t('Creating model {0} was cancelled on the service.', job.modelName)
        : vscode.l10n.t('Evaluating {0} was cancelled on the service.', job.modelName);
    const pick = await showWarningMessage(message, vscode.l10n.t('Show Jobs'));
    if (pick) await this.showJobs(job);
  }

  private async showJobs(job: JobRecord): Promise<void> {
    await vscode.commands.executeCommand(COMMANDS.showJobs, { key: jobKey(job) } satisfies ShowJobsArgs);
  }

  dispose(): void {
    this.subscription.dispose();
  }
}

/** The service's words, on one bounded line and with anything secret-looking removed. */
function serverText(text: string): string {
  return redact(oneLine(text, 300));
}
