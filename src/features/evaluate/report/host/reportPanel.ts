// One evaluation report panel on the extension side: the locked-down page, and the only door between it and the rest.
// Every message from the page passes the protocol guard or is dropped. The page names a dataset only by the index of
// a row this panel rendered, and never a model: what is evaluated comes from this panel's own view or the user's pick.
import * as vscode from 'vscode';
import type { Services } from '../../../../services';
import {
  reportMessageProblem,
  REPORT_LIMITS,
  type ExportFormat,
  type HostToReport,
  type ReportQuestionComparison,
  type ReportToHost,
  type ReportView,
} from '../protocol';
import { WebviewPanelHost } from '../../../../util/webviewPanel';
import { buildReportView } from './reportView';
import { reportCsv, reportFileName, reportMarkdown } from './reportExport';
import { defaultSaveFolder } from '../../../download/defaultSaveFolder';
import { showInformationMessage } from '../../../../util/notify';
import { untrustedText } from '../../../../util/untrustedText';
import { editGlobalState } from '../../../../globalStateEdit';

const LAST_EXPORT_FOLDER = 'hostedReasoning.report.lastExportFolder';

/** What the panel needs from the rest of the extension, given by the manager (and by tests). */
export interface ReportDeps {
  /** The evaluate command's own start (evaluateCommand.ts): job id, or undefined when it could not start. */
  startEvaluation(modelName: string, datasetName: string): Promise<string | undefined>;
  /** A quick pick of the models the key allows; undefined when cancelled. */
  pickModel(title: string): Promise<string | undefined>;
  /** The base model the service lists for a custom model, if the list is loaded. */
  listedBase(modelName: string): string | undefined;
  /** The comparisons on the person's own questions that name the model (keptComparisons.ts); none when not given. */
  questionComparisons?(modelName: string, scope: string | undefined): ReportQuestionComparison[];
  /**
   * Heard while a comparison of this window runs (its models named): at its start and end, and as its requests end at
   * most once a second (comparisonRuns.ts), so an open report shows the comparison filling in.
   */
  onDidChangeComparisons?(listener: (models: readonly string[]) => void): vscode.Disposable;
}

export class ReportPanel extends WebviewPanelHost<ReportToHost, HostToReport> {
  private current: ReportView | undefined;
  private rendering = Promise.resolve();
  private readonly added: string[];

  constructor(
    panel: vscode.WebviewPanel,
    private readonly services: Services,
    readonly modelName: string,
    addedModels: readonly string[],
    private readonly deps: ReportDeps,
  ) {
    super(panel, services.context.extensionUri, services.log, {
      name: 'Evaluation report',
      script: 'dist/webview/report.js',
      styles: ['media/webview.css', 'media/report.css'],
      title: vscode.l10n.t('Evaluation Report'),
      root: { tag: 'main', testId: 'evaluation-report' },
      problem: reportMessageProblem,
    });
    this.added = [...addedModels].slice(0, REPORT_LIMITS.addedModels);
    this.disposables.push(
      // Jobs started from here (or anywhere) fill the report in as they finish.
      services.jobs.onDidChange(() => this.render()),
      services.session.onDidChange(() => this.render()),
      ...(deps.onDidChangeComparisons
        ? [deps.onDidChangeComparisons((models) => void (models.includes(this.modelName) && this.render()))]
        : []),
    );
  }

  /** What the page shows now (undefined before the first render). */
  get view(): ReportView | undefined {
    return this.current;
  }

  /** Builds the view from the stored jobs and posts it; resolves when posted. */
  render(): Promise<void> {
    // One at a time, in order: a slow scope lookup must not post an older view after a newer one.
    this.rendering = this.rendering
      .then(() => this.renderNow())
      .catch((e: unknown) => this.services.log.error(`Evaluation report: ${String(e)}`));
    return this.rendering;
  }

  private async renderNow(): Promise<void> {
    if (this.disposed) return;
    const scope = await this.services.session.scope();
    const listedBase = this.deps.listedBase(this.modelName);
    this.current = buildReportView({
      records: scope ? this.services.jobs.list(scope) : [],
      modelName: this.modelName,
      addedModels: this.added,
      ...(listedBase !== undefined && { listedBase }),
      droppedByModel: scope ? this.services.jobs.droppedEvaluations(scope) : {},
      questionComparisons: this.deps.questionComparisons?.(this.modelName, scope) ?? [],
    });
    this.post({ type: 'report', view: this.current });
  }

  protected async dispatch(message: ReportToHost): Promise<void> {
    switch (message.type) {
      case 'ready':
        this.everReady = true;
        await this.render();
        this.readyOnce();
        return;
      case 'evaluateBase':
        return this.evaluateBase(message.datasetId);
      case 'addModel':
        return this.addModel();
      case 'export':
        return this.export(message.format);
    }
  }

  private async evaluateBase(datasetId: number): Promise<void> {
    const view = this.current;
    const dataset = view?.datasets[datasetId];
    // Only what this panel offered: a row it rendered, whose base it showed as missing.
    if (!view?.baseModel || !dataset?.canEvaluateBase) return;
    await this.deps.startEvaluation(view.baseModel, dataset.datasetName);
  }

  private async addModel(): Promise<void> {
    const picked = await this.deps.pickModel(vscode.l10n.t('Add which model to the comparison with {0}?', untrustedText(this.modelName)));
    if (!picked || this.disposed) return;
    if (picked !== this.modelName && picked !== this.current?.baseModel && !this.added.includes(picked)) {
      if (this.added.length >= REPORT_LIMITS.addedModels) this.added.shift();
      this.added.push(picked);
    }
    await this.render();
    // Evaluated on the report's datasets where it has no result yet and none is running: each is a paid job.
    for (const dataset of this.current?.datasets ?? []) {
      const column = dataset.columns.find((c) => c.name === picked);
      if (column && (column.evaluations.length > 0 || column.running)) continue;
      if (this.disposed) return;
      await this.deps.startEvaluation(picked, dataset.datasetName);
    }
  }

  private async export(format: ExportFormat): Promise<void> {
    const view = this.current;
    if (!view) return;
    const state = this.services.context.globalState;
    const folder = defaultSaveFolder(state.get<string>(LAST_EXPORT_FOLDER));
    const target = await vscode.window.showSaveDialog({
      title: vscode.l10n.t('Export Evaluation Report'),
      saveLabel: vscode.l10n.t('Export'),
      filters: format === 'markdown' ? { Markdown: ['md'] } : { CSV: ['csv'] },
      defaultUri: vscode.Uri.joinPath(vscode.Uri.file(folder), reportFileName(view.modelName, format)),
    });
    if (!target) return;
    const content = format === 'markdown' ? reportMarkdown(view) : reportCsv(view);
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(content));
    if (target.scheme === 'file') await editGlobalState(state, LAST_EXPORT_FOLDER, () => vscode.Uri.joinPath(target, '..').fsPath);
    const open = vscode.l10n.t('Open');
    const pick = await showInformationMessage(vscode.l10n.t('Exported the evaluation report to {0}.', target.fsPath), open);
    if (pick === open) await vscode.window.showTextDocument(target);
  }
}
