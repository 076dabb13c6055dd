// What the pre-flight read warns about before a finetune is paid for (issue 29): a PDF that looks scanned (no or
// almost no text layer), two files with the same bytes, more questions than the text can carry, a file that could not
// be read. Warnings only: the person decides, nothing is blocked. Pure, for the wizard, Chat and the tests alike.
import { l10n } from '../../l10n';
import type { PreflightResult } from './preflight';

/** Fewer words than this per page and a PDF looks scanned: a page of text holds hundreds, a caption or a page number a few. */
export const SCANNED_WORDS_PER_PAGE = 5;
/**
 * Words of source text one generated question needs at least: below it the questions repeat or invent. An estimate
 * (a short paragraph per question), said in the warning with the ratio so the person can judge it.
 */
export const WORDS_PER_QUESTION = 50;

export interface PreflightWarning {
  code: 'scanned' | 'unreadable' | 'encrypted' | 'duplicate' | 'tooManyQuestions' | 'partial';
  /** The files it concerns (labels). */
  labels: string[];
  message: string;
}

export function looksScanned(r: PreflightResult): boolean {
  return r.kind === 'pdf' && r.unreadable === undefined && (r.pages ?? 0) > 0 && r.words < SCANNED_WORDS_PER_PAGE * (r.pages ?? 0);
}

export function preflightWarnings(results: readonly PreflightResult[], numQs?: number): PreflightWarning[] {
  const warnings: PreflightWarning[] = [];
  for (const r of results) {
    if (r.unreadable !== undefined) {
      warnings.push({
        code: r.encrypted ? 'encrypted' : 'unreadable',
        labels: [r.label],
        message: l10n.t('{0}: {1}. It can still be uploaded.', r.label, r.unreadable),
      });
    } else if (looksScanned(r)) {
      warnings.push({
        code: 'scanned',
        labels: [r.label],
        message: l10n.t(
          '{0} looks scanned: {1} words on {2} pages, no text layer to speak of. The service will likely read nothing from it.',
          r.label,
          r.words,
          r.pages ?? 0,
        ),
      });
    } else if (r.encrypted) {
      warnings.push({
        code: 'encrypted',
        labels: [r.label],
        message: l10n.t('{0} is encrypted (it opens without a password here); the service may not read it.', r.label),
      });
    }
    if (r.partial) {
      warnings.push({ code: 'partial', labels: [r.label], message: l10n.t('{0}: only its first pages were read here.', r.label) });
    }
  }
  const bySha = new Map<string, string[]>();
  for (const r of results) {
    if (r.sha256 === '') continue;
    bySha.set(r.sha256, [...(bySha.get(r.sha256) ?? []), r.label]);
  }
  for (const labels of bySha.values()) {
    if (labels.length < 2) continue;
    warnings.push({
      code: 'duplicate',
      labels,
      message: l10n.t('{0} have the same bytes (SHA-256): the service reads the same text {1} times.', labels.join(', '), labels.length),
    });
  }
  const words = results.reduce((sum, r) => sum + r.words, 0);
  if (numQs !== undefined && numQs > 0 && words < numQs * WORDS_PER_QUESTION) {
    warnings.push({
      code: 'tooManyQuestions',
      labels: [],
      message: l10n.t(
        '{0} questions asked of {1} words of text: {2} words per question, fewer than the {3} a question usually needs. Fewer questions, or more documents, may train better.',
        numQs,
        words,
        formatRatio(words / numQs),
        WORDS_PER_QUESTION,
      ),
    });
  }
  return warnings;
}

function formatRatio(x: number): string {
  return x >= 10 ? String(Math.round(x)) : x.toFixed(1);
}
