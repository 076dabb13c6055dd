// A tree data provider that stands in for the real one until the extension's main module is loaded: the view is
// registered at activation (cheap), and the first time VS Code asks it for rows the main module is loaded and
// connected. Every later call goes straight to the real provider.
import * as vscode from 'vscode';

export class DeferredTree<T> implements vscode.TreeDataProvider<T>, vscode.Disposable {
  private target: vscode.TreeDataProvider<T> | undefined;
  private readonly changed = new vscode.EventEmitter<T | T[] | undefined | null | void>();
  readonly onDidChangeTreeData = this.changed.event;
  private forwarding: vscode.Disposable | undefined;

  /** `load` must connect() a provider before it resolves. */
  constructor(private readonly load: () => Promise<unknown>) {}

  connect(target: vscode.TreeDataProvider<T>): void {
    this.forwarding?.dispose();
    this.target = target;
    this.forwarding = target.onDidChangeTreeData?.((e) => this.changed.fire(e));
  }

  async getChildren(element?: T): Promise<T[] | null | undefined> {
    if (!this.target) await this.load();
    return this.connected().getChildren(element);
  }

  // Elements only come from getChildren, so the real provider is there by the time these are asked.
  getTreeItem(element: T): vscode.TreeItem | Thenable<vscode.TreeItem> {
    return this.connected().getTreeItem(element);
  }

  getParent(element: T): vscode.ProviderResult<T> {
    return this.connected().getParent?.(element);
  }

  resolveTreeItem(item: vscode.TreeItem, element: T, token: vscode.CancellationToken): vscode.ProviderResult<vscode.TreeItem> {
    const target = this.connected();
    return target.resolveTreeItem ? target.resolveTreeItem(item, element, token) : item;
  }

  dispose(): void {
    this.forwarding?.dispose();
    this.changed.dispose();
  }

  private connected(): vscode.TreeDataProvider<T> {
    if (!this.target) throw new Error('the view asked for a row before its provider was loaded');
    return this.target;
  }
}
