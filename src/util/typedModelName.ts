// A model name typed into a picker when the service's list is empty or could not be read: the person knows the name
// even when the list does not say it, and one unreadable answer must not stop them (every model picker offers it).
import * as vscode from 'vscode';
import { untrustedText } from './untrustedText';

/** The name typed, trimmed; undefined when it cannot be a name (empty, over 256 characters, control
 * characters).
 */
export function typedModelName(value: string): string | undefined {
  const name = value.trim();
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  return name && name.length <= 256 && !/[\u0000-\u001f\u007f-\u009f]/.test(name) ? name : undefined;
}

/** The picker item of a typed name. */
export function typedItem(name: string): vscode.QuickPickItem {
  return { label: untrustedText(name), description: vscode.l10n.t('typed name'), alwaysShow: true };
}
