// The jobs status bar item: "$(sync~spin) 2 jobs · 40%" while jobs run (the least advanced one's progress),
// "$(warning) Job failed" on a warning background until the user has looked (ran Show Jobs or clicked the row), hidden
// otherwise. Rendered from the job list by one function, render(), whenever the store or the session changes; the
// words come from statusBarText.ts.
import * as vscode from 'vscode';
import { redact } from '../../api/redact';
import { COMMANDS } from '../../contributions';
import { jobDescription, jobTitle } from '../../jobs/jobFormat';
import { isFollowed, type JobRecord } from '../../jobs/jobRecord';
import type { Services } from '../../services';
import { statusBarText } from './statusBarText';

/** The comparisons this window runs (evaluate/compare/comparisonRuns.ts), as the status bar counts them. */
export interface RunningComparisons {
  running(now: number): { label: string; done: number; total: number; leftMs?: number }[];
  onDidChange(listener: () => void): { dispose: () => void };
}
import { untrustedText } from '../../util/untrustedText';

export const STATUS_BAR_ID = 'hostedReasoning.jobs';

export class JobsStatusBar implements vscode.Disposable {
  readonly item: vscode.StatusBarItem;
  private readonly disposables: vscode.Disposable[] = [];
  /** Renders are async (the scope); only the latest one may write, so a slow old one cannot undo a newer one. */
  private generation = 0;
  private visible = false;

  constructor(
    private readonly services: Pick<Services, 'session' | 'jobs'>,
    private readonly now: () => number = Date.now,
    /** This window's comparisons: each running one counts as a job. */
    private readonly comparisons?: RunningComparisons,
  ) {
    this.item = vscode.window.createStatusBarItem(STATUS_BAR_ID, vscode.StatusBarAlignment.Left, 10);
    this.item.name = vscode.l10n.t('Hosted Reasoning Jobs');
    this.item.command = COMMANDS.showJobs;
    this.disposables.push(
      this.item,
      services.jobs.onDidChange(() => void this.update()),
      services.session.onDidChange(() => void this.update()),
      ...(comparisons ? [comparisons.onDidChange(() => void this.update())] : []),
    );
    // Jobs running before a reload show at once; the scope is read asynchronously, activation does not wait.
    void this.update();
  }

  /** Reads the current scope's jobs and renders them. */
  async update(): Promise<void> {
    const generation = ++this.generation;
    const scope = await this.services.session.scope();
    if (generation !== this.generation) return;
    this.render(scope ? this.services.jobs.list(scope) : []);
  }

  /** The whole item from the job list: text, tooltip, colours, visibility. */
  render(jobs: JobRecord[]): void {
    const now = this.now();
    const running = this.comparisons?.running(now) ?? [];
    const words = statusBarText(jobs, running);
    if (!words) {
      this.item.hide();
      this.visible = false;
      return;
    }
    this.item.text = words.text;
    this.item.backgroundColor = words.warn ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.accessibilityInformation = { label: vscode.l10n.t('Hosted Reasoning: {0}. Show jobs.', words.label), role: 'button' };
    const comparisonLines = running.map((c) => vscode.l10n.t('{0}: {1} of {2}', c.label, c.done, c.total));
    this.item.tooltip = this.tooltip(
      [...jobs.filter((j) => j.state === 'failed' && j.unseenFailure), ...jobs.filter(isFollowed)],
      comparisonLines,
    );
    this.item.show();
    this.visible = true;
  }

  /** Whether the item is shown (StatusBarItem cannot say; in-editor tests ask). */
  get isVisible(): boolean {
    return this.visible;
  }

  /** Plain text (never rendered as markdown); names and the service's error text go through untrustedText. */
  private tooltip(jobs: JobRecord[], comparisons: string[]): string {
    const now = this.now();
    const lines = [vscode.l10n.t('Hosted Reasoning jobs'), ''];
    const all = [...jobs.map((job) => `${jobTitle(job)}: ${jobDescription(job, now)}`), ...comparisons];
    for (const line of all.slice(0, 10)) lines.push(`• ${untrustedText(redact(line))}`);
    if (all.length > 10) lines.push(vscode.l10n.t('• … and {0} more', all.length - 10));
    lines.push('', vscode.l10n.t('Click to show the Jobs view.'));
    return lines.join('\n');
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
