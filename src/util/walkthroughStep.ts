// Marks a walkthrough step done by setting its context key. VS Code remembers a completed step, so a key is only ever
// set to true, and once per window: the Models view asks for rows on every refresh.
import * as vscode from 'vscode';
import type { WalkthroughContextKey } from '../walkthroughContext';

const done = new Set<WalkthroughContextKey>();

export function markWalkthroughStep(key: WalkthroughContextKey): void {
  if (done.has(key)) return;
  done.add(key);
  void vscode.commands.executeCommand('setContext', key, true);
}
