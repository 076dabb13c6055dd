// What the Jobs view shows: the jobs (features/jobs/jobsTree.ts) and the comparisons on a person's questions (comparisonRows.ts),
// newest first by when each started. The jobs' provider stays whole and on its own (its rows, ticker, reveal and
// selection); this one lays the comparisons' rows among them and hands each row to the builder of its kind.
import * as vscode from 'vscode';
import { ComparisonNode, comparisonTreeItem, isComparisonNode, type ComparisonRowSource } from './comparisonRows';
import type { JobNode, JobsView } from '../../jobs/jobsTree';

export type JobsRow = JobNode | ComparisonNode;

export class JobsWithComparisons implements vscode.TreeDataProvider<JobsRow>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<JobsRow | JobsRow[] | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  /** Stable per comparison: the tree refreshes rows by identity. */
  private comparisonNodes = new Map<string, ComparisonNode>();
  private readonly disposables: vscode.Disposable[];

  constructor(
    private readonly services: { session: { scope(): Promise<string | undefined> } },
    readonly jobs: JobsView,
    private readonly comparisons: ComparisonRowSource,
  ) {
    this.disposables = [
      this.changed,
      jobs.onDidChangeTreeData((e) => this.changed.fire(e)),
      comparisons.onDidChange(() => this.changed.fire(undefined)),
    ];
  }

  async getChildren(element?: JobsRow): Promise<JobsRow[]> {
    if (element) return [];
    const jobs = await this.jobs.getChildren();
    const scope = await this.services.session.scope();
    const rows = scope ? await this.comparisons.rows(scope) : [];
    const next = new Map<string, ComparisonNode>();
    for (const row of rows) {
      const key = `comparison:${row.id}`;
      const node = this.comparisonNodes.get(key) ?? new ComparisonNode(row);
      node.row = row;
      next.set(key, node);
    }
    this.comparisonNodes = next;
    if (next.size === 0) return jobs;
    // Newest first; a stable sort keeps the jobs' own order among themselves.
    const dated: { at: number; node: JobsRow }[] = [
      ...jobs.map((node) => ({ at: node.job.createdAt, node })),
      ...[...next.values()].map((node) => ({ at: node.row.createdAt, node })),
    ];
    return dated.sort((a, b) => b.at - a.at).map((d) => d.node);
  }

  /** The rows of comparisons as last listed (in-editor tests read them). */
  get comparisonRows(): readonly ComparisonNode[] {
    return [...this.comparisonNodes.values()];
  }

  getTreeItem(node: JobsRow): vscode.TreeItem {
    return isComparisonNode(node) ? comparisonTreeItem(node) : this.jobs.getTreeItem(node);
  }

  getParent(): undefined {
    return undefined;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
