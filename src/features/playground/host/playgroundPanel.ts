// One playground panel on the extension side: the locked-down page, the ready handshake, and the only door between
// the webview and everything else. Every message from the webview passes the protocol guard or is dropped; the
// webview never sees the key and never reaches the network: the host runs the requests and posts their text back.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Services } from '../../../services';
import { InferenceRun } from './inferenceRun';
import { localInferenceClient } from './localInference';
import { localRunFailureMessage } from '../../../local/localRunMessages';
import { playgroundModelEntries } from './playgroundModels';
import { WebviewPanelHost } from '../../../util/webviewPanel';
import type { PresetStore } from './presets';
import {
  isLocalModelId,
  webviewMessageProblem,
  type ExportedRun,
  type HostToWebview,
  type ModelsMessage,
  type Prefill,
  type RunSettings,
  type WebviewToHost,
} from '../protocol';
import { runErrorInfo } from './runError';
import { WALKTHROUGH_CONTEXT } from '../../../walkthroughContext';
import { markWalkthroughStep } from '../../../util/walkthroughStep';
import { exportFileName, sessionMarkdown } from './sessionExport';
import { FIXES } from '../../../util/classifyError';
import { showInformationMessage, showWarningMessage } from '../../../util/notify';
import { untrustedText } from '../../../util/untrustedText';

/** Runs of one panel going at the same time (a comparison needs two). */
const MAX_ACTIVE_RUNS = 4;
/** Ended runs kept for re-sending to a re-created webview; older ones live only in the webview's own state. */
const KEPT_ENDED_RUNS = 8;

export interface PlaygroundPanelOptions {
  presets: PresetStore;
  /** What a new panel starts with; undefined for a panel restored after a reload (its webview state has it all). */
  prefill?: Prefill;
  /** When the history was last cleared (epoch ms), told to every page that loads. */
  historyClearedAt(): number | undefined;
}

export class PlaygroundPanel extends WebviewPanelHost<WebviewToHost, HostToWebview> {
  private readonly runs = new Map<string, InferenceRun>();
  private models: ModelsMessage | undefined;
  /** The service's part of the last list: kept so a change of the local models does not ask the service again. */
  private hosted: ModelsMessage | undefined;
  private modelsLoad: AbortController | undefined;
  private copiedNote: vscode.Disposable | undefined;

  constructor(
    panel: vscode.WebviewPanel,
    private readonly services: Services,
    private readonly options: PlaygroundPanelOptions,
  ) {
    super(panel, services.context.extensionUri, services.log, {
      name: 'Playground',
      script: 'dist/webview/playground.js',
      styles: ['dist/webview/codicon.css', 'media/webview.css', 'media/playground.css'],
      title: 'Playground',
      root: { tag: 'div', testId: 'playground' },
      problem: webviewMessageProblem,
    });
    this.disposables.push(
      options.presets.onDidChange((presets) => this.post({ type: 'presets', presets })),
      // A new key or service URL changes which models exist.
      services.session.onDidChange(() => {
        if (this.everReady) void this.loadModels();
      }),
      // A download completed, or a local model's file is gone.
      services.local.onDidChange(() => {
        if (this.everReady && this.hosted) void this.postModels(this.hosted);
      }),
    );
  }

  /** What a new panel was opened with (undefined for a restored one). */
  get prefill(): Prefill | undefined {
    return this.options.prefill;
  }

  /** Runs still going. */
  get activeRuns(): string[] {
    return [...this.runs.values()].filter((r) => r.isRunning).map((r) => r.runId);
  }

  protected async dispatch(message: WebviewToHost): Promise<void> {
    switch (message.type) {
      case 'ready':
        return this.onReady();
      case 'run':
        return this.startRun(message.runId, message.settings);
      case 'stop':
        this.runs.get(message.runId)?.stop();
        return;
      case 'refreshModels':
        return this.loadModels();
      case 'copy':
        await vscode.env.clipboard.writeText(message.text);
        this.copiedNote?.dispose();
        this.copiedNote = vscode.window.setStatusBarMessage(vscode.l10n.t('$(copy) Copied to the clipboard'), 2000);
        return;
      case 'openLink':
        return this.openLink(message.url);
      case 'savePreset': {
        const result = await this.options.presets.save(message.preset);
        if (!result.saved) {
          void showWarningMessage(vscode.l10n.t('Preset not saved: {0}', result.reason ?? vscode.l10n.t('unknown reason')));
        }
        return;
      }
      case 'deletePreset':
        return this.options.presets.delete(message.name);
      case 'export':
        return this.exportSession(message.runs);
      case 'fix':
        await vscode.commands.executeCommand(FIXES[message.fix].command, ...FIXES[message.fix].args);
        return;
    }
  }

  /** Tells the page the history was cleared at `at` (a hidden page hears it from the next `init`). */
  historyCleared(at: number): void {
    this.post({ type: 'clearHistory', at });
  }

  private onReady(): void {
    // Each `ready` is a fresh page (first load, or re-created after being hidden): it gets everything it needs again.
    const first = !this.everReady;
    this.everReady = true;
    this.post({
      type: 'init',
      presets: this.options.presets.list(),
      ...(first && this.options.prefill ? { prefill: this.options.prefill } : {}),
      runs: [...this.runs.values()].map((r) => r.snapshot()),
      ...(this.options.historyClearedAt() !== undefined && { historyClearedAt: this.options.historyClearedAt() }),
    });
    if (this.models && !this.models.loading) this.post(this.models);
    else if (!this.modelsLoad) void this.loadModels();
    this.readyOnce();
  }

  private async startRun(runId: string, settings: RunSettings): Promise<void> {
    if (this.runs.has(runId)) return; // a repeated message: the run is already going or over
    const run = new InferenceRun(runId, settings, (m) => this.post(m));
    this.runs.set(runId, run);
    this.prune();
    if (this.activeRuns.length > MAX_ACTIVE_RUNS) {
      run.refuse(`At most ${MAX_ACTIVE_RUNS} runs can go at once in one playground; stop one first.`);
      return;
    }
    if (isLocalModelId(settings.modelName)) {
      await this.runLocally(run);
    } else {
      this.panel.title = vscode.l10n.t('Playground · {0}', untrustedText(settings.modelName, { maxChars: 80 }));
      this.services.log.info(`Playground: run ${runId} on ${settings.modelName} (${settings.stream ? 'streamed' : 'not streamed'}).`);
      await run.execute(async () => (await this.services.session.connect()).client);
    }
    const end = run.end;
    if (end?.type === 'error') this.services.log.warn(`Playground: run ${runId} failed (${end.error.kind}): ${end.error.message}`);
    if (end?.type === 'done' && !end.stopped) markWalkthroughStep(WALKTHROUGH_CONTEXT.inferenceFinished);
    this.prune();
  }

  /**
   * A run on a local model: the page sent an id, and only this window's record turns it into a file (a path from the
   * page is never opened). Retrieval and the budgets are the service's: they do not apply here.
   */
  private async runLocally(run: InferenceRun): Promise<void> {
    const { origin } = await this.services.session.current();
    const model = await this.services.local.resolve(run.settings.modelName, origin);
    if (!model) {
      run.refuse(
        vscode.l10n.t('This local model is no longer known here (its file was moved or deleted): choose Run Locally on it again.'),
      );
      return;
    }
    if (!(await this.services.local.trust.allows(model))) {
      run.refuse(
        vscode.l10n.t(
          'Restricted Mode: {0} is run locally only once you trust this workspace (Manage Workspace Trust); then run again.',
          path.basename(model.path),
        ),
      );
      return;
    }
    const fileName = path.basename(model.path);
    this.panel.title = vscode.l10n.t('Playground · Local · {0}', untrustedText(model.label, { maxChars: 80 }));
    this.services.log.info(
      `Playground: run ${run.runId} on local model ${fileName} (${run.settings.stream ? 'streamed' : 'not streamed'}).`,
    );
    const runtime = this.services.local.runtime;
    await run.execute(async () => localInferenceClient(runtime, { path: model.path, fileName }, localRunFailureMessage));
  }

  /** Keeps every running run and the most recent ended ones. */
  private prune(): void {
    const ended = [...this.runs.values()].filter((r) => !r.isRunning);
    for (const run of ended.slice(0, Math.max(0, ended.length - KEPT_ENDED_RUNS))) this.runs.delete(run.runId);
  }

  private async loadModels(): Promise<void> {
    this.modelsLoad?.abort();
    const load = new AbortController();
    this.modelsLoad = load;
    const previous = this.models?.models ?? [];
    this.post({ type: 'models', loading: true, models: previous });
    let message: ModelsMessage;
    try {
      const { client } = await this.services.session.connect();
      const list = await client.listModels({ signal: load.signal, interactive: true });
      message = { type: 'models', loading: false, models: list.map((m) => ({ name: m.name, kind: m.kind })) };
    } catch (error) {
      if (load.signal.aborted) return; // replaced by a newer load, or the panel closed
      message = { type: 'models', loading: false, models: [], error: runErrorInfo(error) };
    } finally {
      if (this.modelsLoad === load) this.modelsLoad = undefined;
    }
    this.hosted = message;
    await this.postModels(message);
  }

  /** The service's list (or its error) with the local models after it: those run even when the service cannot. */
  private async postModels(hosted: ModelsMessage): Promise<void> {
    let local: Awaited<ReturnType<typeof this.services.local.visible>> = [];
    try {
      local = await this.services.local.visible((await this.services.session.current()).origin);
    } catch (error) {
      this.services.log.warn(`Playground: could not list the local models: ${String(error)}`);
    }
    if (this.hosted !== hosted) return; // a newer list is on its way
    const message: ModelsMessage = { ...hosted, models: playgroundModelEntries(hosted.models, local) };
    this.models = message;
    this.post(message);
  }

  private async openLink(url: string): Promise<void> {
    let parsed: URL | undefined;
    try {
      parsed = new URL(url);
    } catch {
      parsed = undefined;
    }
    // Only https leaves the editor: no http, mailto, file, command or vscode links from model output.
    if (parsed?.protocol !== 'https:') {
      void showWarningMessage(vscode.l10n.t('The playground opens only https links; this one was not opened: {0}', url.slice(0, 200)));
      return;
    }
    await vscode.env.openExternal(vscode.Uri.parse(parsed.href, true));
  }

  private async exportSession(runs: ExportedRun[]): Promise<void> {
    if (runs.length === 0) {
      void showInformationMessage(vscode.l10n.t('There are no runs to export yet.'));
      return;
    }
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const target = await vscode.window.showSaveDialog({
      title: vscode.l10n.t('Export Playground Session'),
      saveLabel: vscode.l10n.t('Export'),
      filters: { Markdown: ['md'] },
      ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, exportFileName()) } : {}),
    });
    if (!target) return;
    // A local model's id means nothing in a document: it is named as the page names it.
    const labels = new Map(this.services.local.all().map((m) => [m.id, m.label]));
    const named = runs.map((r) =>
      isLocalModelId(r.settings.modelName)
        ? { ...r, settings: { ...r.settings, modelName: localName(labels.get(r.settings.modelName)) } }
        : r,
    );
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(sessionMarkdown(named)));
    const open = await showInformationMessage(
      runs.length === 1
        ? vscode.l10n.t('Exported 1 run to {0}.', target.fsPath)
        : vscode.l10n.t('Exported {0} runs to {1}.', runs.length, target.fsPath),
      vscode.l10n.t('Open'),
    );
    if (open) await vscode.window.showTextDocument(target);
  }

  protected override disposing(): void {
    // Closing the panel ends its requests: nobody is left to read them.
    for (const run of this.runs.values()) run.stop();
    this.modelsLoad?.abort();
    this.copiedNote?.dispose();
  }
}

function localName(label: string | undefined): string {
  return label === undefined ? vscode.l10n.t('Local model') : vscode.l10n.t('Local · {0}', label);
}
