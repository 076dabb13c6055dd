// The Jobs view (`hostedReasoning.jobs`): one row per job of the current scope, newest first, rendered from the job
// store. Rows carry `modelName`, so the model commands in its context menu (evaluate, download) take a row as their
// argument. The view owns its TreeView, because it needs visibility (the elapsed-time ticker) and reveal().
import * as path from 'node:path';
import * as vscode from 'vscode';
import { redact } from '../../api/redact';
import {
  formatAccuracy,
  formatDuration,
  jobDescription,
  jobRowTitle,
  jobTitle,
  elapsedMs,
  stateWord,
  timeLeft,
} from '../../jobs/jobFormat';
import { isActive, isFollowed, jobKey, type JobRecord } from '../../jobs/jobRecord';
import { lineageLines } from '../../jobs/lineage';
import type { Services } from '../../services';
import { untrustedText } from '../../util/untrustedText';

/** A row. Stable per job (the tree refreshes single rows by identity); its record is replaced on each render. */
export class JobNode {
  readonly type = 'job';
  constructor(public job: JobRecord) {}

  get key(): string {
    return jobKey(this.job);
  }

  get scope(): string {
    return this.job.scope;
  }

  /** What the model commands read from their argument (`{ modelName }`). */
  get modelName(): string {
    return this.job.modelName;
  }
}

export function isJobNode(v: unknown): v is JobNode {
  return v instanceof JobNode;
}

const TICK_MS = 1000;

export class JobsView implements vscode.TreeDataProvider<JobNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<JobNode | JobNode[] | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private nodes = new Map<string, JobNode>();
  private ticker: ReturnType<typeof setInterval> | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly services: Pick<Services, 'session' | 'jobs'>,
    /** The view the entry module registered (and owns); this class provides its rows. */
    readonly treeView: vscode.TreeView<JobNode>,
    private readonly now: () => number = Date.now,
  ) {
    this.disposables.push(
      this.changed,
      services.jobs.onDidChange(() => this.refresh()),
      services.session.onDidChange(() => this.refresh()),
      this.treeView.onDidChangeVisibility(() => this.updateTicker()),
      // Clicking (selecting) a failed job is looking at it: the status bar stops warning.
      this.treeView.onDidChangeSelection((e) => void this.markSeen(e.selection)),
    );
  }

  refresh(): void {
    this.changed.fire(undefined);
  }

  async getChildren(element?: JobNode): Promise<JobNode[]> {
    if (element) return [];
    const scope = await this.services.session.scope();
    // Nothing to show (no key, no URL, no jobs): an empty list lets the welcome content of package.json show.
    const jobs = scope ? this.services.jobs.list(scope) : [];
    const next = new Map<string, JobNode>();
    for (const job of jobs) {
      const key = jobKey(job);
      const node = this.nodes.get(key) ?? new JobNode(job);
      node.job = job;
      next.set(key, node);
    }
    this.nodes = next;
    this.updateTicker();
    return [...next.values()];
  }

  getTreeItem(node: JobNode): vscode.TreeItem {
    const job = node.job;
    // A long tuned-model name would crowd out the row's description: the row shows it shortened, the tooltip whole.
    const title = shown(jobTitle(job));
    const item = new vscode.TreeItem(shown(jobRowTitle(job)), vscode.TreeItemCollapsibleState.None);
    item.id = node.key;
    item.description = shown(jobDescription(job, this.now()));
    item.iconPath = iconFor(job);
    item.tooltip = tooltipFor(job, this.now());
    // `followed`: Stop Following is offered; `unreadable` and `unmoved` (a reading that does not move while the answers
    // do): Choose How to Read… is.
    item.contextValue = [
      'job',
      job.kind,
      job.state,
      ...(job.unseenFailure ? ['unseen'] : []),
      ...(isFollowed(job) ? ['followed'] : []),
      ...(isActive(job) && job.unreadableSince !== undefined ? ['unreadable'] : []),
      ...(isActive(job) && job.unreadableSince === undefined && job.unmovedSince !== undefined ? ['unmoved'] : []),
    ].join(' ');
    item.accessibilityInformation = { label: `${title}, ${item.description}` };
    return item;
  }

  getParent(): undefined {
    return undefined; // a flat list; needed for reveal()
  }

  /** Shows and selects one row (from a notification's "Show in Jobs"); false when it is not in the list. */
  async reveal(key: string): Promise<boolean> {
    if (this.nodes.size === 0) await this.getChildren();
    const node = this.nodes.get(key);
    if (!node) return false;
    await this.treeView.reveal(node, { select: true, focus: true });
    return true;
  }

  /** Elapsed times of active jobs tick while the view is on screen; no timer when hidden or nothing runs. */
  private updateTicker(): void {
    const needed = this.treeView.visible && [...this.nodes.values()].some((n) => isFollowed(n.job));
    if (needed && !this.ticker) {
      this.ticker = setInterval(() => {
        const active = [...this.nodes.values()].filter((n) => isFollowed(n.job));
        if (active.length === 0 || !this.treeView.visible) this.updateTicker();
        else this.changed.fire(active);
      }, TICK_MS);
    } else if (!needed && this.ticker) {
      clearInterval(this.ticker);
      this.ticker = undefined;
    }
  }

  private async markSeen(selection: readonly unknown[]): Promise<void> {
    // The view's selection may hold a comparison's row too (evaluate/compare/jobsWithComparisons.ts).
    for (const node of selection) {
      if (isJobNode(node) && node.job.unseenFailure) await this.services.jobs.update(node.scope, node.key, { unseenFailure: false });
    }
  }

  dispose(): void {
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = undefined;
    for (const d of this.disposables) d.dispose();
  }
}

function iconFor(job: JobRecord): vscode.ThemeIcon {
  if (isActive(job) && job.unfollowedAt !== undefined) return new vscode.ThemeIcon('eye-closed');
  if (isActive(job) && (job.unreadableSince !== undefined || job.unmovedSince !== undefined)) {
    return new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'));
  }
  switch (job.state) {
    case 'queued':
    case 'running':
      return new vscode.ThemeIcon('loading~spin');
    case 'completed':
      return new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed'));
    case 'failed':
      return new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground'));
    case 'cancelled':
      return new vscode.ThemeIcon('circle-slash');
    default:
      return new vscode.ThemeIcon('question');
  }
}

/**
 * Every detail of a job, as plain text: a string tooltip is never rendered as markdown, and the service's words
 * (state, message, error) and the names in it go through untrustedText besides, so nothing in it is a link.
 */
export function tooltipFor(job: JobRecord, now: number): string {
  const lines = [shown(jobTitle(job)), ''];
  const row = (label: string, value: string | undefined) => {
    if (value !== undefined && value !== '') lines.push(`${label}: ${shown(value)}`);
  };
  row(vscode.l10n.t('Job id'), job.id);
  row(vscode.l10n.t('Kind'), job.kind === 'finetune' ? vscode.l10n.t('finetuning') : vscode.l10n.t('evaluation'));
  row(
    vscode.l10n.t('State'),
    job.rawState && job.rawState !== job.state ? vscode.l10n.t('{0} (service: {1})', stateWord(job), job.rawState) : job.state,
  );
  if (job.progress !== undefined && isActive(job)) row(vscode.l10n.t('Progress'), `${Math.round(job.progress)}%`);
  row(vscode.l10n.t('Estimate'), timeLeft(job, now));
  if (isActive(job) && job.unreadableSince !== undefined) {
    row(
      vscode.l10n.t('Status'),
      vscode.l10n.t(
        'unreadable since {0}: the job is not failed for it, and is asked again, less often (the answers are in the log)',
        new Date(job.unreadableSince).toLocaleString(),
      ),
    );
    row(vscode.l10n.t('The service said'), job.unreadableWords);
  } else if (isActive(job) && job.unmovedSince !== undefined) {
    row(
      vscode.l10n.t('Status'),
      vscode.l10n.t(
        "read the same since {0} while the service's answers changed: it may be misread (Choose How to Read…)",
        new Date(job.unmovedSince).toLocaleString(),
      ),
    );
  }
  if (isActive(job) && job.unfollowedAt !== undefined) {
    row(
      vscode.l10n.t('Not followed'),
      vscode.l10n.t(
        'since {0} (Stop Following): not asked about any more; nothing was cancelled on the service',
        new Date(job.unfollowedAt).toLocaleString(),
      ),
    );
  }
  row(vscode.l10n.t('Message'), job.message);
  row(vscode.l10n.t('Error'), job.error);
  row(vscode.l10n.t('Model'), job.modelName);
  row(vscode.l10n.t('Name asked for'), job.requestedName);
  row(vscode.l10n.t('Base model'), job.baseModel);
  if (job.files?.length) {
    const names = job.files.map((f) => path.basename(f));
    row(vscode.l10n.t('Files ({0})', names.length), names.length > 10 ? `${names.slice(0, 10).join(', ')}, …` : names.join(', '));
  }
  row(vscode.l10n.t('Dataset'), job.datasetName);
  if (job.result) {
    row(vscode.l10n.t('Accuracy'), formatAccuracy(job.result));
    row(vscode.l10n.t('Split'), job.result.split);
    row(vscode.l10n.t('Judged by'), job.result.judgeModel);
  }
  row(vscode.l10n.t('Started'), new Date(job.createdAt).toLocaleString());
  if (job.finishedAt !== undefined) row(vscode.l10n.t('Finished'), new Date(job.finishedAt).toLocaleString());
  row(isActive(job) ? vscode.l10n.t('Running for') : vscode.l10n.t('Took'), formatDuration(elapsedMs(job, now)));
  if (job.lineage) lines.push('', vscode.l10n.t('Lineage'), ...lineageLines(job.lineage, job.finishedAt));
  return lines.join('\n');
}

/** Text of a job (names, the service's words) as a row or a tooltip may show it. */
function shown(text: string): string {
  return untrustedText(redact(text));
}
