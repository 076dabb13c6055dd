// One file's pre-flight counts in words ("3 pages, 1,204 words"; "12 paragraphs, 480 words, encrypted"), the same in
// the review, the preview and Chat.
import { l10n } from '../../l10n';
import type { PreflightResult } from './preflight';

export function describeCounts(r: PreflightResult): string {
  if (r.unreadable !== undefined) return r.encrypted ? l10n.t('encrypted, no text read') : l10n.t('no text read');
  const words = r.words === 1 ? l10n.t('1 word') : l10n.t('{0} words', r.words.toLocaleString('en-US'));
  const parts =
    r.kind === 'pdf'
      ? [r.pages === 1 ? l10n.t('1 page') : l10n.t('{0} pages', (r.pages ?? 0).toLocaleString('en-US')), words]
      : [r.paragraphs === 1 ? l10n.t('1 paragraph') : l10n.t('{0} paragraphs', (r.paragraphs ?? 0).toLocaleString('en-US')), words];
  if (r.encrypted) parts.push(l10n.t('encrypted'));
  return parts.join(', ');
}
