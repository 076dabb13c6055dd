// A comparison as files a person keeps or shares: CSV and JSON Lines (a row per question: each model's answer and
// verdict, the bucket) and Markdown (the findings in words, the accuracies, the buckets, then the per-question table).
// Answers and questions are the service's and the workspace's text: each cell is made safe for its format by the
// report's own cell writers (no cell or row break and no HTML in Markdown, no formula in a spreadsheet). No vscode.
import { csvCell, markdownCell } from '../report/host/reportExport';
import type { ComparisonSpec } from './comparisonLog';
import type { Bucket, ComparisonSummary, QuestionRow } from './compareSummary';

const BUCKET_WORDS: Record<Bucket, string> = {
  fixed: 'fixed',
  regressed: 'regressed',
  bothRight: 'both right',
  bothWrong: 'both wrong',
  win: 'win',
  loss: 'loss',
  tie: 'tie',
};

export function bucketWords(bucket: Bucket | undefined): string {
  return bucket === undefined ? '' : BUCKET_WORDS[bucket];
}

const verdict = (right: boolean | undefined) => (right === undefined ? '' : right ? 'right' : 'wrong');
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

export function comparisonCsv(spec: ComparisonSpec, summary: ComparisonSummary): string {
  const header = ['line', 'question', 'expected', ...spec.models.flatMap((m) => [`${m} answer`, `${m} verdict`, `${m} error`]), 'bucket'];
  const rows = summary.rows.map((r) => [
    r.line,
    r.question,
    r.expected,
    ...r.answers.flatMap((a) => [a.text, verdict(a.right), a.error]),
    bucketWords(r.bucket),
  ]);
  return [header, ...rows].map((cells) => cells.map((c) => csvCell(c)).join(',')).join('\r\n') + '\r\n';
}

export function comparisonJsonl(summary: ComparisonSummary): string {
  return summary.rows.map((r) => JSON.stringify(jsonRow(r))).join('\n') + '\n';
}

function jsonRow(r: QuestionRow): unknown {
  return {
    line: r.line,
    question: r.question,
    ...(r.expected !== undefined && { expected: r.expected }),
    answers: r.answers.map((a) => ({
      model: a.model,
      ...(a.text !== undefined && { answer: a.text }),
      ...(a.reasoning !== undefined && { reasoning: a.reasoning }),
      ...(a.right !== undefined && { right: a.right }),
      ...(a.error !== undefined && { error: a.error }),
    })),
    ...(r.bucket !== undefined && { bucket: bucketWords(r.bucket) }),
  };
}

export function comparisonMarkdown(spec: ComparisonSpec, summary: ComparisonSummary, exportedAt = new Date()): string {
  const out = [`# Comparison on ${markdownCell(spec.setName)}`, ''];
  out.push(
    `Models: ${spec.models.map(markdownCell).join(', ')}. Scoring: ${scoringWords(spec)}. Exported ${exportedAt.toISOString()}.`,
    '',
  );
  if (summary.missing > 0 || summary.failed > 0) {
    out.push(`Not finished: ${summary.missing} requests missing, ${summary.failed} failed.`, '');
  }
  for (const p of summary.pairs) out.push(`- ${markdownCell(p.sentence)}`);
  if (summary.accuracies.length > 0) {
    out.push('', '| Model | Accuracy | 95 % Wilson interval | Right / scored |', '|---|---|---|---|');
    for (const a of summary.accuracies) {
      const interval = a.interval ? `${pct(a.interval.lower)} – ${pct(a.interval.upper)}` : '';
      out.push(`| ${markdownCell(a.model)} | ${a.scored ? pct(a.correct / a.scored) : ''} | ${interval} | ${a.correct} / ${a.scored} |`);
    }
  }
  out.push('', '## Questions', '');
  out.push(`| Line | Question | Expected | ${spec.models.map(markdownCell).join(' | ')} | Bucket |`);
  out.push(`|---|---|---|${spec.models.map(() => '---|').join('')}---|`);
  for (const r of summary.rows) {
    const cells = r.answers.map((a) =>
      markdownCell(a.error !== undefined ? `(failed: ${a.error})` : `${verdict(a.right) ? `[${verdict(a.right)}] ` : ''}${a.text ?? ''}`),
    );
    out.push(
      `| ${r.line} | ${markdownCell(r.question)} | ${markdownCell(r.expected ?? '')} | ${cells.join(' | ')} | ${bucketWords(r.bucket)} |`,
    );
  }
  return out.join('\n') + '\n';
}

export function scoringWords(spec: Pick<ComparisonSpec, 'scoring' | 'judgeModel'>): string {
  switch (spec.scoring) {
    case 'exact':
      return 'exact match with the expected answer';
    case 'normalized':
      return 'match with the expected answer, ignoring case, spacing, punctuation and how numbers are written';
    case 'judge':
      return `judged against the expected answer by ${markdownCell(spec.judgeModel ?? '')}`;
    case 'pairwise':
      return `pairwise judge ${markdownCell(spec.judgeModel ?? '')}, each pair asked in both orders`;
  }
}
