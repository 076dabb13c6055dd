// A minimal stand-in for the `vscode` module, for benchmarks of view code outside VS Code: the classes a tree
// provider builds (TreeItem, ThemeIcon, MarkdownString... with VS Code's own escaping in appendText, so the cost is
// comparable) and no-op namespaces. installVscodeStub() makes require('vscode') resolve to this file.
import Module from 'node:module';

export enum TreeItemCollapsibleState {
  None = 0,
  Collapsed = 1,
  Expanded = 2,
}

export class ThemeColor {
  constructor(readonly id: string) {}
}

export class ThemeIcon {
  constructor(
    readonly id: string,
    readonly color?: ThemeColor,
  ) {}
}

export class MarkdownString {
  value: string;
  isTrusted?: boolean;
  supportThemeIcons?: boolean;
  constructor(value = '', supportThemeIcons = false) {
    this.value = value;
    this.supportThemeIcons = supportThemeIcons;
  }
  /** As VS Code's: markdown syntax escaped, runs of spaces kept, `>` escaped, one newline made a paragraph break. */
  appendText(value: string): MarkdownString {
    this.value += value
      .replace(/[\\`*_{}[\]()#+\-!~]/g, '\\$&')
      .replace(/([ \t]+)/g, (_m, g1: string) => '&nbsp;'.repeat(g1.length))
      .replace(/>/gm, '\\>')
      .replace(/\n/g, '\n\n');
    return this;
  }
  appendMarkdown(value: string): MarkdownString {
    this.value += value;
    return this;
  }
}

export interface Command {
  command: string;
  title: string;
}

export class TreeItem {
  id?: string;
  description?: string;
  tooltip?: string | MarkdownString;
  iconPath?: ThemeIcon;
  contextValue?: string;
  command?: Command;
  accessibilityInformation?: { label: string };
  constructor(
    public label: string,
    public collapsibleState: TreeItemCollapsibleState = TreeItemCollapsibleState.None,
  ) {}
}

export class Disposable {
  constructor(private readonly fn: () => void = () => undefined) {}
  dispose(): void {
    this.fn();
  }
}

type Listener<T> = (e: T) => void;

export class EventEmitter<T> {
  private listeners: Listener<T>[] = [];
  readonly event = (listener: Listener<T>): Disposable => {
    this.listeners.push(listener);
    return new Disposable(() => (this.listeners = this.listeners.filter((l) => l !== listener)));
  };
  fire(e: T): void {
    for (const l of this.listeners) l(e);
  }
  dispose(): void {
    this.listeners = [];
  }
}

export const version = '1.100.0-stub';
/** The English text with its `{0}` filled, as vscode.l10n.t does without a translation. */
export const l10n = {
  t: (message: string, ...args: unknown[]): string =>
    message.replace(/\{(\d+)\}/g, (m, i: string) => (i in args ? String(args[Number(i)]) : m)),
};
export const commands = {
  executeCommand: (): Promise<undefined> => Promise.resolve(undefined),
  registerCommand: (): Disposable => new Disposable(),
};
export const window = {
  createOutputChannel: () => ({ trace() {}, debug() {}, info() {}, warn() {}, error() {}, appendLine() {}, show() {}, dispose() {} }),
  onDidChangeWindowState: (): Disposable => new Disposable(),
  // A view's progress bar while its list loads: the task runs, nothing is shown.
  withProgress: <R>(_options: unknown, task: (progress: { report(): void }) => Thenable<R>): Thenable<R> => task({ report() {} }),
};
export const workspace = {
  getConfiguration: () => ({ get: <T>(_key: string, fallback?: T): T | undefined => fallback }),
  onDidChangeConfiguration: (): Disposable => new Disposable(),
};

let installed = false;

/** From now on, require('vscode') in this process loads this stub. */
export function installVscodeStub(): void {
  if (installed) return;
  installed = true;
  const loader = Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
  const original = loader._resolveFilename;
  loader._resolveFilename = function (this: unknown, request: string, ...rest: unknown[]): string {
    return request === 'vscode' ? __filename : original.call(this, request, ...rest);
  };
}
