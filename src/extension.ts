// Composition root: builds services and registers views and commands. Nothing else lives here.
import type * as vscode from 'vscode';

export function activate(_context: vscode.ExtensionContext): void {
  // Contributions arrive with the extension issue.
}

export function deactivate(): void {}
