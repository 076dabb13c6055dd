// The evaluation report panels of this window, one per model: opening a model's report again reveals its panel. Panels
// come back after a window reload through the serializer the entry module registers (their page kept the model's name
// in its state). Constructing it is cheap: no panel or page until one is opened.
import * as vscode from 'vscode';
import type { Services } from '../../../../services';
import { isReportPanelState, REPORT_VIEW_TYPE } from '../protocol';
import { ReportPanel, type ReportDeps } from './reportPanel';
import { webviewOptions } from '../../../../util/webviewPanel';
import { untrustedText } from '../../../../util/untrustedText';

export class ReportManager implements vscode.Disposable, vscode.WebviewPanelSerializer {
  private readonly open = new Map<string, ReportPanel>();

  constructor(
    private readonly services: Services,
    private readonly deps: ReportDeps,
  ) {}

  get panels(): readonly ReportPanel[] {
    return [...this.open.values()];
  }

  /** The model's report: its open panel, revealed, or a new one. */
  openReport(modelName: string): ReportPanel {
    const existing = this.open.get(modelName);
    if (existing) {
      existing.panel.reveal();
      return existing;
    }
    const panel = vscode.window.createWebviewPanel(
      REPORT_VIEW_TYPE,
      title(modelName),
      { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
      webviewOptions(this.services.context.extensionUri),
    );
    return this.adopt(panel, modelName, []);
  }

  /** The serializer: a panel open before the reload, with the state its page saved; one without a valid state closes. */
  async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    if (!isReportPanelState(state) || this.open.has(state.modelName)) {
      panel.dispose();
      return;
    }
    panel.title = title(state.modelName);
    this.adopt(panel, state.modelName, state.addedModels);
  }

  private adopt(webviewPanel: vscode.WebviewPanel, modelName: string, addedModels: readonly string[]): ReportPanel {
    const panel = new ReportPanel(webviewPanel, this.services, modelName, addedModels, this.deps);
    this.open.set(modelName, panel);
    const closed = panel.onDidDispose(() => {
      if (this.open.get(modelName) === panel) this.open.delete(modelName);
      closed.dispose();
    });
    return panel;
  }

  dispose(): void {
    for (const panel of [...this.open.values()]) panel.dispose();
    this.open.clear();
  }
}

function title(modelName: string): string {
  return vscode.l10n.t('Report · {0}', untrustedText(modelName, { maxChars: 80 }));
}
