// The comparisons' rows of the Jobs view (jobsTree.ts lists them beside the jobs): this window's runs from the
// registry (comparisonRuns.ts), the others from their kept logs (keptComparisons.ts), with the state words of
// comparisonRowText.ts. A row's commands (comparisonRowCommands.ts) take its node, and find the comparison again by its id.
import * as vscode from 'vscode';
import { comparisonRunning } from './comparisonHold';
import { comparisonLeftMs, type ComparisonRuns } from './comparisonRuns';
import type { KeptComparisons } from '../report/host/keptComparisons';
import { untrustedText } from '../../../util/untrustedText';
import {
  comparisonContextValue,
  comparisonRowDescription,
  comparisonRowLabel,
  comparisonRowState,
  type ComparisonRow,
} from './comparisonRowText';

/** A row. Stable per comparison (the tree refreshes rows by identity); its row data is replaced on each listing. */
export class ComparisonNode {
  readonly type = 'comparison';
  constructor(public row: ComparisonRow) {}

  get key(): string {
    return `comparison:${this.row.id}`;
  }
}

export function isComparisonNode(v: unknown): v is ComparisonNode {
  return v instanceof ComparisonNode;
}

export class ComparisonRowSource implements vscode.Disposable {
  private readonly removed = new vscode.EventEmitter<void>();

  constructor(
    readonly runs: ComparisonRuns,
    readonly kept: KeptComparisons,
    private readonly now: () => number = Date.now,
  ) {}

  /** Heard when a run of this window starts, moves (at most once a second) or ends, and when a row is removed. */
  onDidChange(listener: () => void): vscode.Disposable {
    return vscode.Disposable.from(new vscode.Disposable(this.runs.onDidChange(listener).dispose), this.removed.event(listener));
  }

  /** Leaves a comparison out of the list (its result stays kept, in the report). */
  remove(dir: string): void {
    this.kept.removeFromJobs(dir);
    this.removed.fire();
  }

  /**
   * Leaves the finished comparisons of `scope` out of the list, as Clear Finished Jobs does with jobs: those done, or
   * cancelled here (their results stay kept, in the report). A running or interrupted one stays: it has what is
   * missing to send. Returns how many were left out.
   */
  async clearFinished(scope: string): Promise<number> {
    const finished = (await this.rows(scope)).filter((r) => r.state === 'done' || r.state === 'cancelled');
    for (const row of finished) this.kept.removeFromJobs(row.dir);
    if (finished.length > 0) this.removed.fire();
    return finished.length;
  }

  dispose(): void {
    this.removed.dispose();
  }

  /** The comparisons of `scope`, newest first. */
  async rows(scope: string | undefined): Promise<ComparisonRow[]> {
    const now = this.now();
    const listed = this.kept.listed(scope, (dir) => this.runs.get(dir) !== undefined);
    return Promise.all(
      listed.map(async (k): Promise<ComparisonRow> => {
        const brief = { id: k.id, dir: k.dir, setName: k.setName, models: k.models, createdAt: k.createdAt };
        const run = this.runs.get(k.dir);
        if (run) {
          const leftMs = comparisonLeftMs(run, now);
          return {
            ...brief,
            state: 'running',
            done: run.done,
            total: run.total || k.requests,
            failed: run.failed,
            ...(leftMs !== undefined && { leftMs }),
          };
        }
        const elsewhere = k.missing + k.failed > 0 && (await comparisonRunning(k.dir));
        const state = comparisonRowState({
          runningHere: false,
          runningElsewhere: elsewhere,
          cancelledHere: this.runs.wasCancelled(k.dir),
          missing: k.missing,
        });
        return { ...brief, state, done: k.requests - k.missing, total: k.requests, failed: k.failed };
      }),
    );
  }
}

/** The tree item of a comparison's row: names inert, the spinner only while it runs, read aloud without icon codes. */
export function comparisonTreeItem(node: ComparisonNode): vscode.TreeItem {
  const row = node.row;
  const label = untrustedText(comparisonRowLabel(row));
  const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None);
  item.id = node.key;
  item.description = untrustedText(comparisonRowDescription(row));
  item.iconPath = iconFor(row);
  item.contextValue = comparisonContextValue(row);
  item.tooltip = tooltipFor(row);
  item.accessibilityInformation = { label: `${label}, ${item.description}` };
  return item;
}

function iconFor(row: ComparisonRow): vscode.ThemeIcon {
  switch (row.state) {
    case 'running':
    case 'elsewhere':
      return new vscode.ThemeIcon('loading~spin');
    case 'cancelled':
    case 'interrupted':
      return new vscode.ThemeIcon('debug-pause');
    case 'done':
      return row.failed > 0
        ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'))
        : new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed'));
  }
}

/** Plain text (a string tooltip is never rendered as markdown); the names go through untrustedText. */
function tooltipFor(row: ComparisonRow): string {
  const lines = [
    untrustedText(comparisonRowLabel(row)),
    '',
    `${vscode.l10n.t('Kind')}: ${vscode.l10n.t('comparison on your questions')}`,
    `${vscode.l10n.t('Models')}: ${untrustedText(row.models.join(', '))}`,
    `${vscode.l10n.t('Questions')}: ${untrustedText(row.setName)}`,
    `${vscode.l10n.t('Progress')}: ${untrustedText(comparisonRowDescription(row))}`,
    `${vscode.l10n.t('Started')}: ${new Date(row.createdAt).toLocaleString()}`,
  ];
  if (row.state === 'cancelled' || row.state === 'interrupted') {
    lines.push('', vscode.l10n.t('Every finished request is kept: Resume sends only the {0} missing.', row.total - row.done));
  }
  if (row.failed > 0 && row.state !== 'running') {
    lines.push(vscode.l10n.t("{0} failed requests are kept with the service's words: Retry Failed sends them again.", row.failed));
  }
  return lines.join('\n');
}
