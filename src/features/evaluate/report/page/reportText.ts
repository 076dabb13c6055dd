// The report's words, from the view-model alone: the verdict sentences, the judge warning and the chart's summary for
// screen readers. Plain functions (no DOM), so plain mocha checks them.
import { l10n } from '../../../../l10n';
import type { ReportComparison, ReportDataset, ReportEvaluation, ReportView } from '../protocol';

export const percent = (x: number): string => `${(x * 100).toFixed(1)}%`;

/** "+12.0 pts" / "−3.5 pts": a difference of accuracies, in percentage points. */
export const points = (x: number): string => l10n.t('{0} pts', signed(x));

const signed = (x: number): string => `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)}`;

export function intervalText(e: Pick<ReportEvaluation, 'lower' | 'upper'>): string {
  return e.lower === undefined || e.upper === undefined
    ? l10n.t('no interval (no questions)')
    : l10n.t('{0} to {1}', percent(e.lower), percent(e.upper));
}

/** "tuned is better than base-8b (base): +24.0 pts, 95 % interval +6.1 to +39.3 pts." */
export function verdictSentence(modelName: string, c: ReportComparison): string {
  const other = c.role === 'base' ? l10n.t('{0} (its base)', c.otherModel) : l10n.t('{0} (added)', c.otherModel);
  if (c.verdict === undefined || c.estimate === undefined || c.lower === undefined || c.upper === undefined) {
    return l10n.t('{0} cannot be compared with {1}: one of them has no questions counted.', modelName, other);
  }
  const numbers = l10n.t('{0}, 95 % interval {1} to {2}', points(c.estimate), signed(c.lower), points(c.upper));
  switch (c.verdict) {
    case 'better':
      return l10n.t('{0} is better than {1}: {2}.', modelName, other, numbers);
    case 'worse':
      return l10n.t('{0} is worse than {1}: {2}.', modelName, other, numbers);
    default:
      return l10n.t('{0} against {1}: no clear difference at this sample size ({2}).', modelName, other, numbers);
  }
}

/** Undefined when the judges are the same model. */
export function judgeWarning(dataset: ReportDataset, c: ReportComparison): string | undefined {
  const judge = (name: string) => dataset.columns.find((col) => col.name === name)?.evaluations[0]?.judgeModel;
  const mine = dataset.columns[0]?.evaluations[0]?.judgeModel;
  if (c.judgesDiffer) {
    return l10n.t(
      'Different judges ({0} and {1}): these accuracies were not measured the same way.',
      mine ?? '?',
      judge(c.otherModel) ?? '?',
    );
  }
  if (c.judgeUnknown) return l10n.t('A judge is not known for both results: they may not have been measured the same way.');
  return undefined;
}

/** The chart's aria-label: every bar's number, as the table has them. */
export function chartSummary(view: ReportView): string {
  if (view.datasets.length === 0) return l10n.t('No evaluations of {0} to chart.', view.modelName);
  const parts = view.datasets.map((d) => {
    const bars = d.columns.flatMap((c) => {
      const e = c.evaluations[0];
      return e ? [l10n.t('{0} {1} (95 % interval {2})', c.name, percent(e.accuracy), intervalText(e))] : [];
    });
    return `${d.datasetName}: ${bars.join(', ')}`;
  });
  return l10n.t('Accuracy by dataset. {0}.', parts.join('; '));
}

export function droppedNote(dropped: number): string | undefined {
  if (dropped <= 0) return undefined;
  return dropped === 1
    ? l10n.t('1 older evaluation was dropped (only the newest are kept).')
    : l10n.t('{0} older evaluations were dropped (only the newest are kept).', dropped);
}
