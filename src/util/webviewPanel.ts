// One webview panel on the extension side (the playground, the evaluation report): the locked-down page, the ready
// handshake, and the only door between the page and everything else. Every message from the page passes its
// protocol's guard or is dropped; nothing is posted before the page said `ready`.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { Log } from '../log';
import { webviewHtml, type WebviewHtmlInput } from './webviewHtml';

/** The panel options: scripts on, forms and command links off, files only from the extension's own webview folders. */
export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewPanelOptions & vscode.WebviewOptions {
  return {
    enableScripts: true,
    enableForms: false,
    enableCommandUris: false,
    // The page keeps its state with setState/getState; holding a hidden page in memory is not needed.
    retainContextWhenHidden: false,
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(extensionUri, 'media')],
  };
}

export interface PageSpec {
  /** For the log. */
  name: string;
  /** Paths under the extension's folder. */
  script: string;
  styles: string[];
  title: string;
  root: WebviewHtmlInput['root'];
  /** The protocol's guard: why a message from the page is invalid, or undefined. */
  problem(message: unknown): string | undefined;
}

export abstract class WebviewPanelHost<In extends { type: string }, Out> implements vscode.Disposable {
  protected readonly disposables: vscode.Disposable[] = [];
  private readonly posted = new vscode.EventEmitter<Out>();
  private readonly disposedEmitter = new vscode.EventEmitter<void>();
  protected readyOnce!: () => void;
  protected everReady = false;
  protected disposed = false;
  /** Every message posted to the page: the in-editor tests record the panel's side of the protocol here. */
  readonly onDidPostMessage = this.posted.event;
  readonly onDidDispose = this.disposedEmitter.event;
  /** Resolves when the page's script ran and said `ready` the first time (the page loaded under its policy). */
  readonly ready = new Promise<void>((resolve) => (this.readyOnce = resolve));

  constructor(
    readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    protected readonly log: Log,
    private readonly page: PageSpec,
  ) {
    // Set again for a restored panel: its saved options may name the folders of an older install of the extension.
    panel.webview.options = webviewOptions(extensionUri);
    panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'activity-bar.svg');
    const asset = (file: string) => panel.webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...file.split('/'))).toString();
    panel.webview.html = webviewHtml({
      cspSource: panel.webview.cspSource,
      nonce: randomBytes(18).toString('base64'),
      scriptUri: asset(page.script),
      styleUris: page.styles.map(asset),
      title: page.title,
      root: page.root,
      // The page's own strings translate through the bundle (features/playground/page/pageL10n.ts).
      lang: vscode.env.language,
      ...(vscode.l10n.bundle && { l10nBundle: vscode.l10n.bundle }),
    });
    this.disposables.push(
      this.posted,
      this.disposedEmitter,
      panel.webview.onDidReceiveMessage((m: unknown) => this.handleMessage(m)),
      panel.onDidDispose(() => this.dispose()),
    );
  }

  /** Handles one message as the page sends it; returns whether it was valid. Public so tests drive it like the page. */
  handleMessage(raw: unknown): boolean {
    if (this.disposed) return false;
    const problem = this.page.problem(raw);
    if (problem) {
      // The reason only: the message itself may be large or hold the user's text.
      this.log.warn(`${this.page.name}: dropped an invalid message from the webview (${problem}).`);
      return false;
    }
    const message = raw as In;
    this.dispatch(message).catch((e: unknown) => this.log.error(`${this.page.name}: handling "${message.type}" failed: ${String(e)}`));
    return true;
  }

  protected abstract dispatch(message: In): Promise<void>;

  protected post(message: Out): void {
    if (!this.everReady || this.disposed) return;
    void this.panel.webview.postMessage(message);
    this.posted.fire(message);
  }

  /** What a panel ends besides its listeners (runs, loads); called once, first. */
  protected disposing(): void {}

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.disposing();
    this.disposedEmitter.fire();
    for (const d of this.disposables.splice(0)) d.dispose();
    this.panel.dispose();
  }
}
