// The page's translations: the host passes vscode.l10n.bundle (undefined in English) as JSON in the root element's
// `data-l10n` attribute (src/util/webviewHtml.ts), and the page's modules write `l10n.t('Text {0}', x)` of
// src/l10n.ts as the extension host does. Only an object of strings is taken; anything else leaves the page in
// English. No DOM use: tested under plain mocha (l10nStart.ts reads the attribute).
import { formatMessage, useTranslations } from '../../../l10n';

/** The translations in `json` (message → its translation), or undefined when there are none or it is not a bundle. */
export function readBundle(json: string | null | undefined): ReadonlyMap<string, string> | undefined {
  if (!json) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  // A Map, not the object: a message named `constructor` or `__proto__` finds only what the bundle says.
  const bundle = new Map<string, string>();
  for (const [message, translation] of Object.entries(value)) if (typeof translation === 'string') bundle.set(message, translation);
  return bundle.size > 0 ? bundle : undefined;
}

/** Makes l10n.t translate through `bundle` (each message not in it stays English); undefined puts English back. */
export function useBundle(bundle: ReadonlyMap<string, string> | undefined): void {
  useTranslations(bundle ? (message, ...args) => formatMessage(bundle.get(message) ?? message, ...args) : formatMessage);
}
