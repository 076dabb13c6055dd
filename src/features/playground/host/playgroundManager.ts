// All playground panels of this window: opens new ones, brings panels back after a window reload (the serializer),
// and owns what they share (the presets). Constructing it is cheap: no panel, page or bundle until one is opened.
import * as vscode from 'vscode';
import type { Services } from '../../../services';
import { PlaygroundPanel } from './playgroundPanel';
import { webviewOptions } from '../../../util/webviewPanel';
import { PresetStore } from './presets';
import { PLAYGROUND_VIEW_TYPE, type Prefill } from '../protocol';
import { PLAYGROUND_HISTORY_CLEARED_KEY } from '../../../storageKeys';
import { editGlobalState } from '../../../globalStateEdit';

export interface OpenOptions extends Prefill {
  /** Where the panel goes; the active editor group by default. */
  viewColumn?: vscode.ViewColumn;
  /** The panel's title when the model's name is not what a person knows it by (a local model's id). */
  title?: string;
}

export class PlaygroundManager implements vscode.Disposable, vscode.WebviewPanelSerializer {
  private readonly open = new Set<PlaygroundPanel>();
  readonly presets: PresetStore;

  constructor(private readonly services: Services) {
    this.presets = new PresetStore(services.context.globalState, (m) => services.log.warn(m));
  }

  /** The open panels, oldest first. */
  get panels(): readonly PlaygroundPanel[] {
    return [...this.open];
  }

  /**
   * Clears the history of every playground page (Clear Stored Records…). A page keeps its history in its own webview
   * state, which only it can change: open pages are told now, and a page that loads later (a hidden one shown again,
   * one restored after a reload) hears the time in its `init` and drops what is older.
   */
  async clearHistory(): Promise<void> {
    const at = Date.now();
    // Echo-safe (globalStateEdit.ts): an echo of an earlier write must not put back an older time.
    await editGlobalState(this.services.context.globalState, PLAYGROUND_HISTORY_CLEARED_KEY, () => at, {
      log: (m) => this.services.log.warn(m),
      what: 'The time the playground history was cleared',
    });
    for (const panel of this.open) panel.historyCleared(at);
  }

  private historyClearedAt(): number | undefined {
    const at = this.services.context.globalState.get<unknown>(PLAYGROUND_HISTORY_CLEARED_KEY);
    return typeof at === 'number' && Number.isFinite(at) ? at : undefined;
  }

  /** Opens a new panel (several may be open: each is its own session). */
  openPanel(options: OpenOptions = {}): PlaygroundPanel {
    const prefill: Prefill = {
      ...(options.modelName ? { modelName: options.modelName } : {}),
      ...(options.context ? { context: options.context } : {}),
      ...(options.prompt ? { prompt: options.prompt } : {}),
    };
    const panel = vscode.window.createWebviewPanel(
      PLAYGROUND_VIEW_TYPE,
      options.title ?? (prefill.modelName ? vscode.l10n.t('Playground · {0}', prefill.modelName) : vscode.l10n.t('Playground')),
      { viewColumn: options.viewColumn ?? vscode.ViewColumn.Active, preserveFocus: false },
      webviewOptions(this.services.context.extensionUri),
    );
    return this.adopt(panel, prefill);
  }

  /** The serializer: VS Code hands back a panel that was open before the reload; its webview restores its own state. */
  async deserializeWebviewPanel(panel: vscode.WebviewPanel, _state: unknown): Promise<void> {
    this.adopt(panel, undefined);
  }

  private adopt(webviewPanel: vscode.WebviewPanel, prefill: Prefill | undefined): PlaygroundPanel {
    const panel = new PlaygroundPanel(webviewPanel, this.services, {
      presets: this.presets,
      prefill,
      historyClearedAt: () => this.historyClearedAt(),
    });
    this.open.add(panel);
    const closed = panel.onDidDispose(() => {
      this.open.delete(panel);
      closed.dispose();
    });
    return panel;
  }

  dispose(): void {
    for (const panel of [...this.open]) panel.dispose();
    this.open.clear();
    this.presets.dispose();
  }
}
