// Restricted Mode for local runs (see trustPolicy.ts for which files wait). In an untrusted window a run of such a
// file is refused with why, and the notification offers VS Code's Manage Workspace Trust; an action that has a natural
// continuation (Run Locally: open the playground on the file) goes on by itself once the user grants trust.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { showWarningMessage } from '../util/notify';
import type { LocalModelRecord } from './storedLocalModels';
import { waitsForTrust } from './trustPolicy';

/** VS Code's own command: opens the Workspace Trust editor. */
export const MANAGE_WORKSPACE_TRUST = 'workbench.trust.manage';

type Judged = Pick<LocalModelRecord, 'source' | 'path'>;

/** The path as written and where its links lead (when it exists): a workspace folder reached through a link counts. */
async function namesOf(file: string): Promise<string[]> {
  const real = await fsp.realpath(file).catch(() => undefined);
  return real && real !== file ? [file, real] : [file];
}

export class WorkspaceTrustGate implements vscode.Disposable {
  /** The one action waiting for trust: a newer refusal replaces it. */
  private waiting: vscode.Disposable | undefined;

  /** Whether this model may run in this window now (always, once the workspace is trusted). */
  async mayRun(model: Judged): Promise<boolean> {
    if (vscode.workspace.isTrusted) return true;
    const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
    const folderNames = (await Promise.all(folders.map(namesOf))).flat();
    return !waitsForTrust(model, await namesOf(model.path), folderNames);
  }

  /**
   * true when the model may run. Otherwise false at once, while a notification tells the user why and offers Manage
   * Workspace Trust; when they take it, `continueWith` (if given) runs once trust is granted.
   */
  async allows(model: Judged, continueWith?: () => unknown): Promise<boolean> {
    if (await this.mayRun(model)) return true;
    void this.explain(model, continueWith);
    return false;
  }

  private async explain(model: Judged, continueWith: (() => unknown) | undefined): Promise<void> {
    const manage = vscode.l10n.t('Manage Workspace Trust');
    const choice = await showWarningMessage(
      vscode.l10n.t(
        'Restricted Mode: {0} comes from a workspace, and running it hands the file to native code (llama.cpp). Trust this workspace to run it locally.',
        path.basename(model.path),
      ),
      manage,
    );
    if (choice !== manage) return;
    if (continueWith) this.continueOnceTrusted(continueWith);
    await vscode.commands.executeCommand(MANAGE_WORKSPACE_TRUST);
  }

  private continueOnceTrusted(action: () => unknown): void {
    this.waiting?.dispose();
    const subscription = vscode.workspace.onDidGrantWorkspaceTrust(() => {
      subscription.dispose();
      if (this.waiting === subscription) this.waiting = undefined;
      void action();
    });
    this.waiting = subscription;
  }

  dispose(): void {
    this.waiting?.dispose();
    this.waiting = undefined;
  }
}
