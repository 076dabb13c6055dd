// The report's words, from the view-model alone: the verdict sentences, the judge warning and the chart's summary for
// screen readers. Plain functions (no DOM), so plain mocha checks them.
import type { ReportComparison, ReportDataset, ReportEvaluation, ReportView } from '../protocol';

export const percent = (x: number): string => `${(x * 100).toFixed(1)}%`;

/** "+12.0 pts" / "−3.5 pts": a difference of accuracies, in percentage points. */
export const points = (x: number): string => `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)} pts`;

export function intervalText(e: Pick<ReportEvaluation, 'lower' | 'upper'>): string {
  return e.lower === undefined || e.upper === undefined ? 'no interval (no questions)' : `${percent(e.lower)} to ${percent(e.upper)}`;
}

/** "tuned is better than base-8b (base): +24.0 pts, 95 % interval +6.1 to +39.3 pts." */
export function verdictSentence(modelName: string, c: ReportComparison): string {
  const other = `${c.otherModel} (${c.role === 'base' ? 'its base' : 'added'})`;
  if (c.verdict === undefined || c.estimate === undefined || c.lower === undefined || c.upper === undefined) {
    return `${modelName} cannot be compared with ${other}: one of them has no questions counted.`;
  }
  const numbers = `${points(c.estimate)}, 95 % interval ${points(c.lower).replace(' pts', '')} to ${points(c.upper)}`;
  switch (c.verdict) {
    case 'better':
      return `${modelName} is better than ${other}: ${numbers}.`;
    case 'worse':
      return `${modelName} is worse than ${other}: ${numbers}.`;
    default:
      return `${modelName} against ${other}: no clear difference at this sample size (${numbers}).`;
  }
}

/** Undefined when the judges are the same model. */
export function judgeWarning(dataset: ReportDataset, c: ReportComparison): string | undefined {
  const judge = (name: string) => dataset.columns.find((col) => col.name === name)?.evaluations[0]?.judgeModel;
  const mine = dataset.columns[0]?.evaluations[0]?.judgeModel;
  if (c.judgesDiffer) {
    return `Different judges (${mine ?? '?'} and ${judge(c.otherModel) ?? '?'}): these accuracies were not measured the same way.`;
  }
  if (c.judgeUnknown) return 'A judge is not known for both results: they may not have been measured the same way.';
  return undefined;
}

/** The chart's aria-label: every bar's number, as the table has them. */
export function chartSummary(view: ReportView): string {
  if (view.datasets.length === 0) return `No evaluations of ${view.modelName} to chart.`;
  const parts = view.datasets.map((d) => {
    const bars = d.columns.flatMap((c) => {
      const e = c.evaluations[0];
      return e ? [`${c.name} ${percent(e.accuracy)} (95 % interval ${intervalText(e)})`] : [];
    });
    return `${d.datasetName}: ${bars.join(', ')}`;
  });
  return `Accuracy by dataset. ${parts.join('; ')}.`;
}

export function droppedNote(dropped: number): string | undefined {
  if (dropped <= 0) return undefined;
  return `${dropped} older evaluation${dropped === 1 ? ' was' : 's were'} dropped (only the newest are kept).`;
}
