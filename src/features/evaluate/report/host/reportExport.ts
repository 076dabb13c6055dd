// The report as files a person keeps or shares: Markdown (two tables, evaluations and comparisons) and CSV (one row per
// evaluation, each compared one carrying its difference from the report's model). Model, dataset and judge names come
// from the service, so each cell is made safe for its format: in Markdown a `|` or a line break would end the cell or
// the row, and `<` would start HTML; in a spreadsheet a text cell starting with = + - @ (or a tab or CR) runs as a
// formula. Numbers are written by us, so they are left as numbers (a negative difference stays -0.12). No vscode.
import {
  lineageTime,
  type ReportComparison,
  type ReportDataset,
  type ReportEvaluation,
  type ReportLineage,
  type ReportView,
} from '../protocol';

/** Markdown table cell: no cell or row breaks, no raw HTML. */
export function markdownCell(text: string): string {
  return text
    .replace(/\r\n|\r|\n/g, ' ')
    .replace(/\|/g, '\\|')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/** A CSV field per RFC 4180, a text one disarmed against formula injection by a leading apostrophe. */
export function csvCell(value: string | number | undefined): string {
  if (value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const points = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)} pts`;
const iso = (ms: number) => new Date(ms).toISOString();

export function reportMarkdown(view: ReportView, exportedAt = new Date()): string {
  const out = [`# Evaluation report: ${markdownCell(view.modelName)}`, ''];
  if (view.baseModel !== undefined) out.push(`Base model: ${markdownCell(view.baseModel)}`, '');
  out.push(`Exported ${exportedAt.toISOString()}. Accuracies with their 95 % Wilson interval.`);
  if (view.dropped > 0) out.push('', `${view.dropped} older evaluation${view.dropped === 1 ? ' was' : 's were'} dropped.`);
  if (view.lineage) out.push('', ...lineageMarkdown(view.lineage));
  out.push('', '## Evaluations', '');
  out.push('| Dataset | Model | Role | Accuracy | 95 % interval | Correct / total | Judge | Finished |');
  out.push('|---|---|---|---|---|---|---|---|');
  for (const dataset of view.datasets) {
    for (const column of dataset.columns) {
      for (const e of column.evaluations) {
        out.push(
          `| ${[
            markdownCell(dataset.datasetName),
            markdownCell(column.name),
            column.role,
            pct(e.accuracy),
            interval(e),
            `${e.correct} / ${e.total}`,
            markdownCell(e.judgeModel ?? 'unknown'),
            iso(e.at),
          ].join(' | ')} |`,
        );
      }
    }
  }
  const compared = view.datasets.flatMap((d) => d.comparisons.map((c) => ({ dataset: d, c })));
  if (compared.length > 0) {
    out.push('', `## ${markdownCell(view.modelName)} compared`, '');
    out.push('| Dataset | Compared with | Difference | 95 % interval | Verdict | Judges |');
    out.push('|---|---|---|---|---|---|');
    for (const { dataset, c } of compared) {
      out.push(
        `| ${[
          markdownCell(dataset.datasetName),
          `${markdownCell(c.otherModel)} (${c.role})`,
          c.estimate === undefined ? 'n/a' : points(c.estimate),
          c.lower === undefined || c.upper === undefined ? 'n/a' : `${points(c.lower)} to ${points(c.upper)}`,
          c.verdict ?? 'n/a',
          judgeWords(c),
        ].join(' | ')} |`,
      );
    }
  }
  return `${out.join('\n')}\n`;
}

/** "Where it came from": the finetune's facts as a list, its files as a table; every recorded word escaped as a cell is. */
function lineageMarkdown(l: ReportLineage): string[] {
  const out = [
    '## Where it came from',
    '',
    `- Base model: ${markdownCell(l.baseModel)}`,
    `- Questions: ${l.numQs} · mode ${markdownCell(l.mode)}`,
    ...(l.useCase ? [`- Use case: ${markdownCell(l.useCase)}`] : []),
    `- Finetune job: ${markdownCell(l.jobId)}`,
    `- Started: ${lineageTime(l.startedAt)}`,
    ...(l.finishedAt !== undefined ? [`- Ended: ${lineageTime(l.finishedAt)}`] : []),
    '',
    '| Source file | Size (bytes) | SHA-256 |',
    '|---|---|---|',
  ];
  for (const f of l.files) out.push(`| ${markdownCell(f.name)} | ${f.size} | ${f.sha256 ?? 'not recorded'} |`);
  return out;
}

export const CSV_HEADER = [
  'dataset',
  'model',
  'role',
  'accuracy',
  'ci95_lower',
  'ci95_upper',
  'correct',
  'total',
  'judge_model',
  'finished_at',
  'difference_from_report_model',
  'difference_ci95_lower',
  'difference_ci95_upper',
  'verdict',
  'judges_differ',
] as const;

/** CRLF line ends, as RFC 4180 has them. */
export function reportCsv(view: ReportView): string {
  const rows: string[][] = [[...CSV_HEADER]];
  for (const dataset of view.datasets) {
    for (const column of dataset.columns) {
      column.evaluations.forEach((e, i) => {
        // Only the newest evaluation of a model is the one compared (comparison.ts).
        const c = i === 0 ? comparisonWith(dataset, column.name) : undefined;
        rows.push(csvRow(dataset.datasetName, column.name, column.role, e, c));
      });
    }
  }
  return rows.map((r) => r.join(',')).join('\r\n') + '\r\n';
}

function csvRow(datasetName: string, model: string, role: string, e: ReportEvaluation, c: ReportComparison | undefined): string[] {
  return [
    csvCell(datasetName),
    csvCell(model),
    csvCell(role),
    csvCell(e.accuracy),
    csvCell(e.lower),
    csvCell(e.upper),
    csvCell(e.correct),
    csvCell(e.total),
    csvCell(e.judgeModel),
    csvCell(iso(e.at)),
    // The report's model minus this one, as the comparison states it.
    csvCell(c?.estimate),
    csvCell(c?.lower),
    csvCell(c?.upper),
    csvCell(c?.verdict),
    csvCell(c ? String(c.judgesDiffer) : undefined),
  ];
}

function comparisonWith(dataset: ReportDataset, modelName: string): ReportComparison | undefined {
  return dataset.comparisons.find((c) => c.otherModel === modelName);
}

function interval(e: ReportEvaluation): string {
  return e.lower === undefined || e.upper === undefined ? 'n/a' : `${pct(e.lower)} – ${pct(e.upper)}`;
}

function judgeWords(c: ReportComparison): string {
  if (c.judgesDiffer) return 'differ: not measured the same way';
  return c.judgeUnknown ? 'not known for both' : 'same';
}

/** `evaluation-report-<model>-2024-05-01-1412.<ext>`, the model name reduced to characters safe in a file name. */
export function reportFileName(modelName: string, format: 'markdown' | 'csv', now = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  const safe =
    modelName
      .replace(/[^A-Za-z0-9_-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'model';
  const stamp = `${now.getFullYear()}-${p(now.getMonth() + 1)}-${p(now.getDate())}-${p(now.getHours())}${p(now.getMinutes())}`;
  return `evaluation-report-${safe}-${stamp}.${format === 'markdown' ? 'md' : 'csv'}`;
}
