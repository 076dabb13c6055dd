// A comparison on a person's own questions as the report shows it, from its spec and compareSummary.ts's findings: the
// per-question table (each text cut to what a page shows; the export has it whole), the buckets, the accuracies with
// their Wilson interval, and the paired difference with its interval and p-value. Which rows differ is decided here,
// once, so the page's filter and the tests agree. Plain data for the page, where every string is written as text.
// No vscode.
import { l10n } from '../../../../l10n';
import type { ComparisonSpec } from '../../compare/comparisonLog';
import type { ComparisonSummary, QuestionRow } from '../../compare/compareSummary';
import { REPORT_LIMITS, type ReportQuestionComparison, type ReportQuestionRow } from '../protocol';

export function questionComparisonView(spec: ComparisonSpec, summary: ComparisonSummary): ReportQuestionComparison {
  return {
    setName: spec.setName,
    createdAt: spec.createdAt,
    models: [...spec.models],
    pairwise: spec.scoring === 'pairwise',
    scoring: scoringWords(spec),
    accuracies: summary.accuracies.map((a) => ({
      model: a.model,
      correct: a.correct,
      scored: a.scored,
      ...(a.interval && { lower: a.interval.lower, upper: a.interval.upper }),
    })),
    pairs: summary.pairs.map((p) => ({
      other: p.other,
      buckets: { ...p.buckets },
      n: p.n,
      ...(p.estimate !== undefined && { estimate: p.estimate }),
      ...(p.interval && { lower: p.interval.lower, upper: p.interval.upper }),
      ...(p.verdict !== undefined && { verdict: p.verdict }),
      ...(p.p !== undefined && { p: p.p }),
      sentence: p.sentence,
    })),
    rows: summary.rows.slice(0, REPORT_LIMITS.questionRows).map(rowView),
    questions: summary.rows.length,
    missing: summary.missing,
    failed: summary.failed,
  };
}

/**
 * Where the models' verdicts differ: one right and another wrong, or a pairwise judge that preferred one (a tie, or a
 * question not yet scored for two models, is not a difference).
 */
export function rowDiffers(row: Pick<QuestionRow, 'answers' | 'bucket'>): boolean {
  if (row.bucket === 'win' || row.bucket === 'loss') return true;
  const verdicts = new Set(row.answers.flatMap((a) => (a.right === undefined ? [] : [a.right])));
  return verdicts.size > 1;
}

function rowView(row: QuestionRow): ReportQuestionRow {
  return {
    line: row.line,
    question: cut(row.question),
    ...(row.expected !== undefined && { expected: cut(row.expected) }),
    answers: row.answers.map((a) => ({
      model: a.model,
      ...(a.text !== undefined && { text: cut(a.text) }),
      ...(a.reasoning !== undefined && { reasoning: cut(a.reasoning) }),
      ...(a.error !== undefined && { error: cut(a.error) }),
      ...(a.right !== undefined && { right: a.right }),
    })),
    ...(row.bucket !== undefined && { bucket: row.bucket }),
    differs: rowDiffers(row),
  };
}

function cut(text: string): string {
  const max = REPORT_LIMITS.questionChars;
  return text.length > max ? l10n.t('{0}… (cut: {1} characters in all)', text.slice(0, max), text.length) : text;
}

function scoringWords(spec: Pick<ComparisonSpec, 'scoring' | 'judgeModel'>): string {
  switch (spec.scoring) {
    case 'exact':
      return l10n.t('exact match with the expected answer');
    case 'normalized':
      return l10n.t('match with the expected answer, ignoring case, spacing, punctuation and how numbers are written');
    case 'judge':
      return l10n.t('judged against the expected answer by {0}', spec.judgeModel ?? '?');
    case 'pairwise':
      return l10n.t('which answer is better, by the judge {0}, each pair asked in both orders', spec.judgeModel ?? '?');
  }
}
