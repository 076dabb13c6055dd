// A comparison's exports: every format carries each question's answers, verdicts and bucket, and the service's and
// the workspace's text stays inert in each (no cell break or HTML in Markdown, no formula in a spreadsheet).
import { strict as assert } from 'node:assert';
import { parse } from 'csv-parse/sync';
import { comparisonCsv, comparisonJsonl, comparisonMarkdown } from '../../src/features/evaluate/compare/compareExport';
import type { ComparisonSpec, Entry } from '../../src/features/evaluate/compare/comparisonLog';
import { entryKey } from '../../src/features/evaluate/compare/comparisonLog';
import { summarize } from '../../src/features/evaluate/compare/compareSummary';

const spec: ComparisonSpec = {
  id: 'x',
  setName: 'set|one.csv',
  createdAt: 1,
  models: ['tuned', 'base'],
  scoring: 'normalized',
  knobs: { useRag: false, sequentialBudget: 8, parallelBudget: 1, temperature: 0 },
  items: [
    { question: 'Sum?', expected: '4', line: 2 },
    { question: '=HYPERLINK("x")', expected: 'a|b', line: 3 },
  ],
};
const answers: [number, string, string][] = [
  [0, 'tuned', '4'],
  [0, 'base', '5'],
  [1, 'tuned', '<img src=x> a|b\nmore'],
  [1, 'base', 'A | B'],
];
const entries = new Map<string, Entry>(
  answers.map(([item, model, text]) => [entryKey({ kind: 'answer', item, model }), { kind: 'answer', item, model, text, at: 1 }]),
);
const summary = summarize(spec, entries);

describe('compare: exports', () => {
  it('CSV: a row per question, read back by a CSV parser as written, with a formula disarmed', () => {
    const rows: string[][] = parse(comparisonCsv(spec, summary));
    assert.deepEqual(rows[0], [
      'line',
      'question',
      'expected',
      'tuned answer',
      'tuned verdict',
      'tuned error',
      'base answer',
      'base verdict',
      'base error',
      'bucket',
    ]);
    assert.deepEqual(rows[1], ['2', 'Sum?', '4', '4', 'right', '', '5', 'wrong', '', 'fixed']);
    assert.equal(rows[2]![1], `'=HYPERLINK("x")`);
    assert.equal(rows[2]![3], '<img src=x> a|b\nmore');
    assert.equal(rows[2]![9], 'regressed');
  });

  it('JSONL: a row per question, answers whole', () => {
    const rows = comparisonJsonl(summary)
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { bucket: string; answers: { answer: string; right: boolean }[] });
    assert.deepEqual(
      rows.map((r) => r.bucket),
      ['fixed', 'regressed'],
    );
    assert.equal(rows[1]!.answers[0]!.answer, '<img src=x> a|b\nmore');
  });

  it('Markdown: the finding in words, then a table whose cells hold the text inert', () => {
    const md = comparisonMarkdown(spec, summary, new Date(0));
    assert.match(md, /^# Comparison on set\\\|one\.csv$/m);
    assert.match(md, /tuned fixed 1 and regressed 1 of 2 against base; a difference this large by chance: p = 1\.000/);
    assert.match(
      md,
      /\| 3 \| =HYPERLINK\("x"\) \| a\\\|b \| \[wrong\] &lt;img src=x&gt; a\\\|b more \| \[right\] A \\\| B \| regressed \|/,
    );
    assert.ok(!md.includes('<img'));
  });
});
