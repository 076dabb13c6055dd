// The Models view: base and custom models apart, each with its latest evaluation; an error row with the
// action that fixes it when the list cannot be had. Rendering is a pure function of (models, jobs, error).
import * as vscode from 'vscode';
import { NetworkError, TimeoutError } from '../../api/errors';
import { redact } from '../../api/redact';
import { COMMANDS } from '../../contributions';
import { identifiersOf } from '../../api/modelIdentifiers';
import type { ModelInfo } from '../../api/types';
import type { JobRecord } from '../../jobs/jobRecord';
import { NotConfiguredError } from '../../connection/session';
import { VIEW_MODELS, type Services } from '../../services';
import { classifyError, FIXES } from '../../util/classifyError';
import { withProgress } from '../../util/notify';
import { untrustedText } from '../../util/untrustedText';
import { formatAccuracy } from '../../jobs/jobFormat';
import { latestEvaluations } from '../../jobs/evaluationHistory';
import { lineageLines, lineageOrigins } from '../../jobs/lineage';
import { WALKTHROUGH_CONTEXT } from '../../walkthroughContext';
import { markWalkthroughStep } from '../../util/walkthroughStep';
import { shownNames } from './modelLabel';

export type ModelsNode = GroupNode | ModelNode | ErrorNode;

export interface GroupNode {
  type: 'group';
  kind: 'base' | 'custom' | 'all';
  models: ModelNode[];
}

export interface ModelNode {
  type: 'model';
  model: ModelInfo;
  /** base/custom as shown: from the answer, or from our own finetune jobs when the answer does not say. */
  kind: 'base' | 'custom' | 'unknown';
  latest?: JobRecord;
  history: JobRecord[];
  /** The finetune job of this extension that created the model, when it recorded a lineage. */
  origin?: JobRecord;
  /** What the row shows: the shortest readable identifier no other model shares (modelLabel.ts). */
  label?: string;
}

export interface ErrorNode {
  type: 'error';
  label: string;
  detail: string;
  command: vscode.Command;
  icon: string;
}

type LoadState =
  | { status: 'idle' }
  | { status: 'loading'; promise: Promise<void> }
  | { status: 'loaded'; models: ModelInfo[]; scope: string }
  | { status: 'failed'; error: unknown };

export class ModelsTreeProvider implements vscode.TreeDataProvider<ModelsNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<ModelsNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private state: LoadState = { status: 'idle' };
  private readonly disposables: vscode.Disposable[] = [];
  private generation = 0;

  constructor(private readonly services: Services) {
    this.disposables.push(
      this.changed,
      // Another service or key: the old list is not theirs, so it goes at once, before the new one is asked for.
      services.session.onDidChange(() => void this.refresh()),
      // A finished evaluation changes a description; a finished finetune adds a model (the poller asks for a refresh).
      services.jobs.onDidChange(() => this.changed.fire(undefined)),
      // A download completes, or its file turns out gone: the Run Locally item comes or goes.
      services.local.onDidChange(() => this.changed.fire(undefined)),
    );
  }

  /** The models last loaded (for pickers), or undefined when not loaded. */
  get models(): ModelInfo[] | undefined {
    return this.state.status === 'loaded' ? this.state.models : undefined;
  }

  /** Why the last load failed (for pickers that offer kept names), or undefined when it did not. */
  /** A list is being asked for now (a refresh under way). */
  get loading(): boolean {
    return this.state.status === 'loading';
  }

  get failure(): unknown {
    return this.state.status === 'failed' ? this.state.error : undefined;
  }

  /**
   * Drops the cached list (the view shows no rows until the new list is in) and loads it again. Resolves when the
   * new list (or its error) is in.
   */
  async refresh(): Promise<void> {
    this.state = { status: 'idle' };
    const loading = this.load();
    this.changed.fire(undefined);
    await loading;
  }

  /** Loads once; concurrent callers share the request. */
  load(): Promise<void> {
    if (this.state.status === 'loading') return this.state.promise;
    if (this.state.status === 'loaded' || this.state.status === 'failed') return Promise.resolve();
    const generation = ++this.generation;
    const promise = (async () => {
      let next: LoadState;
      try {
        const { client, scope } = await this.services.session.connect();
        next = { status: 'loaded', models: await client.listModels({ interactive: true }), scope };
      } catch (error) {
        next = { status: 'failed', error };
        if (!(error instanceof NotConfiguredError)) {
          this.services.log.error(`Listing models failed: ${error instanceof Error ? error.message : String(error)}`, error);
        }
      }
      if (generation !== this.generation) return; // a newer refresh won
      this.state = next;
      const unreachable = next.status === 'failed' && isUnreachable(next.error);
      void vscode.commands.executeCommand('setContext', 'hostedReasoning.serviceUnreachable', unreachable);
      this.changed.fire(undefined);
    })();
    this.state = { status: 'loading', promise };
    // The view's own progress bar while it has no rows to show.
    void withProgress({ location: { viewId: VIEW_MODELS } }, () => promise);
    return promise;
  }

  /**
   * The list asked again for the poller (a running finetune's model may have appeared), through the view's own
   * client call, so one request serves both: the rows stay on screen meanwhile and show the new list when it is in. A
   * load already in flight is shared. A failure is the caller's to handle; the view keeps what it showed.
   */
  async latest(opts: { signal?: AbortSignal; retries?: number } = {}): Promise<readonly ModelInfo[]> {
    if (this.state.status === 'loading') await this.state.promise;
    const generation = this.generation;
    const { client, scope } = await this.services.session.connect();
    const models = await client.listModels({ signal: opts.signal, retries: opts.retries });
    // Only over a list of the same service and key, and only when no refresh started meanwhile.
    if (generation === this.generation && (this.state.status !== 'loaded' || this.state.scope === scope)) {
      const before = this.state.status === 'loaded' ? this.state.models.map((m) => m.name).join('\n') : undefined;
      this.state = { status: 'loaded', models, scope };
      if (before !== models.map((m) => m.name).join('\n')) this.changed.fire(undefined);
    }
    return models;
  }

  async getChildren(node?: ModelsNode): Promise<ModelsNode[]> {
    if (node) return node.type === 'group' ? node.models : [];
    // While a list loads the view has no rows (a refresh's load fires a change when it ends): rows of the previous
    // service or key never stay on screen while the new one is asked.
    if (this.state.status === 'loading') return [];
    await this.load();
    if (this.state.status === 'loaded' && this.state.models.length > 0) markWalkthroughStep(WALKTHROUGH_CONTEXT.modelsListed);
    return buildRoots(this.state, (scope) => this.services.jobs.list(scope));
  }

  getTreeItem(node: ModelsNode): vscode.TreeItem {
    if (node.type === 'group') {
      const label =
        node.kind === 'base'
          ? vscode.l10n.t('Base models')
          : node.kind === 'custom'
            ? vscode.l10n.t('Custom models')
            : vscode.l10n.t('Models');
      const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.Expanded);
      item.id = `group:${node.kind}`;
      item.description = String(node.models.length);
      item.contextValue = `group ${node.kind}`;
      return item;
    }
    if (node.type === 'error') {
      const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.None);
      item.id = `error:${node.label}`;
      const detail = untrustedText(redact(node.detail));
      item.description = detail;
      item.tooltip = vscode.l10n.t('{0}\n\nClick: {1}', detail, node.command.title);
      item.iconPath = new vscode.ThemeIcon(node.icon, new vscode.ThemeColor('errorForeground'));
      item.command = node.command;
      item.contextValue = 'error';
      // Screen readers read the row as seen, then the detail; not the tooltip's "Click:" hint.
      item.accessibilityInformation = { label: `${node.label}. ${detail}` };
      return item;
    }
    const item = modelItem(node);
    // Run Locally is offered only where it can work: a custom model this extension downloaded.
    if (node.kind === 'custom' && this.services.local.hasDownload(node.model.name)) item.contextValue += ' downloaded';
    return item;
  }

  /**
   * VS Code asks for this when a row is hovered (or opened) and a property it needs is undefined: the model tooltips
   * are built here, for the one row hovered, instead of for every row in getTreeItem. With 10,000 models that was
   * most of the time the view took to appear (test/bench/PERFORMANCE.md, figure 7).
   */
  resolveTreeItem(item: vscode.TreeItem, node: ModelsNode): vscode.TreeItem {
    if (node.type === 'model' && item.tooltip === undefined) item.tooltip = modelTooltip(node);
    return item;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

export function isUnreachable(error: unknown): boolean {
  return error instanceof NetworkError || error instanceof TimeoutError;
}

/** Pure: the root rows for a load state. */
export function buildRoots(state: LoadState, jobsOf: (scope: string) => JobRecord[]): ModelsNode[] {
  if (state.status === 'failed') return errorRows(state.error);
  if (state.status !== 'loaded') return [];
  const jobs = jobsOf(state.scope);
  const evaluations = latestEvaluations(jobs);
  const ours = new Set(jobs.filter((j) => j.kind === 'finetune').map((j) => j.modelName));
  const origins = lineageOrigins(jobs);
  // The shortest readable identifier no other model shares (`models/x` and `tunedModels/x` keep their whole form).
  const labels = shownNames(state.models);
  const nodes: ModelNode[] = state.models.map((model, i) => {
    // A job or an evaluation may name the model by any of its identifiers (the one its status said).
    const names = identifiersOf(model);
    const history = names.map((n) => evaluations.get(n)).find((h) => h?.length) ?? [];
    const kind = model.kind !== 'unknown' ? model.kind : names.some((n) => ours.has(n)) ? 'custom' : 'unknown';
    const origin = names.map((n) => origins.get(n)).find((o) => o !== undefined);
    const label = labels[i]!;
    return { type: 'model', model, kind, latest: history[0], history, label, ...(origin ? { origin } : {}) };
  });
  const byName = (a: ModelNode, b: ModelNode) => a.model.name.localeCompare(b.model.name);
  const custom = nodes.filter((n) => n.kind === 'custom').sort(byName);
  const base = nodes.filter((n) => n.kind !== 'custom').sort(byName);
  if (custom.length === 0) {
    return base.length ? [{ type: 'group', kind: base.some((n) => n.kind === 'base') ? 'base' : 'all', models: base }] : [];
  }
  return [
    { type: 'group', kind: 'base', models: base },
    { type: 'group', kind: 'custom', models: custom },
  ];
}

// Which rows (Retry when it may help, then the fix) follows classifyError; the words are the view's own.
function errorRows(error: unknown): ModelsNode[] {
  const info = classifyError(error);
  if (info.kind === 'notConfigured') return []; // the welcome content says what to do
  const unreachable = isUnreachable(error);
  // Listing models sends nothing but the URL and the key: no answer, or a refused request, points at the URL. A view
  // with nothing to click would leave the user stuck, so the log is the fallback.
  const fix = unreachable || info.kind === 'request' ? FIXES.configureBaseUrl : (info.fix ?? (info.retryable ? undefined : FIXES.showLog));
  const rows: ErrorNode[] = [];
  const row = (label: string, command: string, title: string, icon: string) =>
    rows.push({ type: 'error', label, detail: info.message, command: { command, title }, icon });
  if (info.retryable) {
    if (unreachable) {
      row(vscode.l10n.t('Cannot reach the service — retry'), COMMANDS.refreshModels, vscode.l10n.t('Retry'), 'debug-disconnect');
    } else row(vscode.l10n.t('The service failed — retry'), COMMANDS.refreshModels, vscode.l10n.t('Retry'), 'error');
  }
  // A list that cannot be read, or could be read two ways: the person says where the names are, once (issue 27).
  if (info.kind === 'contract') {
    rows.push({
      type: 'error',
      label: vscode.l10n.t('The model list could not be read — choose how to read it'),
      detail: info.message,
      // The place, never a path: the command opens the list the book kept.
      command: { command: COMMANDS.chooseHowToRead, title: vscode.l10n.t('Choose How to Read…'), arguments: [{ place: 'modelList' }] },
      icon: 'list-selection',
    });
  }
  if (fix === FIXES.setApiKey) row(vscode.l10n.t('The service refused the API key — set a valid key'), fix.command, fix.title, 'key');
  else if (fix === FIXES.openProxySettings) {
    row(vscode.l10n.t('The proxy asks for credentials — set them in http.proxy'), fix.command, fix.title, 'lock');
  } else if (fix === FIXES.configureBaseUrl) {
    row(
      unreachable ? vscode.l10n.t('Check the service URL') : vscode.l10n.t('The service URL or request is not valid'),
      fix.command,
      fix.title,
      'gear',
    );
  } else if (fix) {
    row(
      info.retryable
        ? vscode.l10n.t('See the log for what the service said')
        : vscode.l10n.t('The service answered something unreadable — see the log'),
      fix.command,
      fix.title,
      'error',
    );
  }
  return rows;
}

function modelItem(node: ModelNode): vscode.TreeItem {
  const { model, kind, latest } = node;
  // The shortest readable identifier (the tooltip starts with the whole name the list leads with, then the others).
  const name = untrustedText(node.label ?? model.name);
  const item = new vscode.TreeItem(name, vscode.TreeItemCollapsibleState.None);
  item.id = `model:${model.name}`;
  item.contextValue = `model ${kind}`;
  item.iconPath = new vscode.ThemeIcon(kind === 'custom' ? 'sparkle' : 'hubot');
  if (latest?.result) item.description = formatAccuracy(latest.result);
  // No tooltip here: resolveTreeItem builds it when the row is hovered (see modelTooltip).
  item.accessibilityInformation = {
    label: latest?.result
      ? kind === 'custom'
        ? vscode.l10n.t('Custom model {0}, accuracy {1}', name, formatAccuracy(latest.result))
        : vscode.l10n.t('Base model {0}, accuracy {1}', name, formatAccuracy(latest.result))
      : kind === 'custom'
        ? vscode.l10n.t('Custom model {0}', name)
        : vscode.l10n.t('Base model {0}', name),
  };
  return item;
}

/**
 * The model row's tooltip as plain text (never rendered as markdown): name, kind, base model, date and the last
 * evaluations. Every name and date in it comes from the service, so each goes through untrustedText too.
 */
export function modelTooltip(node: ModelNode): string {
  const { model, kind } = node;
  const lines = [
    untrustedText(model.name),
    kind === 'custom' ? vscode.l10n.t('Custom model') : kind === 'base' ? vscode.l10n.t('Base model') : vscode.l10n.t('Model'),
  ];
  if (model.otherNames?.length) lines.splice(1, 0, ...model.otherNames.map((n) => vscode.l10n.t('Also: {0}', untrustedText(n))));
  if (model.baseModel) lines.push(vscode.l10n.t('Base: {0}', untrustedText(model.baseModel)));
  if (model.createdAt) lines.push(vscode.l10n.t('Created: {0}', untrustedText(model.createdAt)));
  if (node.origin?.lineage) lines.push('', vscode.l10n.t('Lineage'), ...lineageLines(node.origin.lineage, node.origin.finishedAt));
  if (node.history.length) {
    lines.push('', vscode.l10n.t('Evaluations'));
    for (const job of node.history.slice(0, 5)) {
      const r = job.result!;
      lines.push(
        untrustedText(`${r.datasetName || job.datasetName}: ${formatAccuracy(r)}${r.judgeModel ? ` · judge ${r.judgeModel}` : ''}`),
      );
    }
  }
  return lines.join('\n');
}
