// A failure's message as a caller outside the extension's own surfaces gets it (another extension through `vscode.lm`, an
// agent through a language-model tool or the MCP server): inert and one line (untrustedText), bounded, and naming no
// address: the service's address is the person's own setting, of no use to the caller and not for it to pass on. No
// vscode (l10n.t is vscode.l10n.t in the extension).
import { l10n } from '../l10n';
import { untrustedText } from './untrustedText';

const ADDRESS = /\b[a-z][a-z0-9+.-]*:\/\/[^\s)]+/gi;

/** The message as another extension or an agent gets it: inert, one line, no address. */
export function messageForCallers(message: string): string {
  return untrustedText(message.replace(ADDRESS, l10n.t('(address not shown)')), { maxChars: 1000 });
}
