// A model name typed into a picker when the service's list is empty or could not be read: the person knows the name
// even when the list does not say it, and one unreadable answer must not stop them (every model picker offers it).
import * as vscode from 'vscode';
import { untrustedText } from './untrustedText';

// The rule itself runs without VS Code too (the store of known names checks what it keeps by it).
export { typedModelName } from '../modelNameRule';

/** The picker item of a typed name. */
export function typedItem(name: string): vscode.QuickPickItem {
  return { label: untrustedText(name), description: vscode.l10n.t('typed name'), alwaysShow: true };
}
