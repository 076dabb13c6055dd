// The evaluation report's side of a comparison on a person's questions: the view-model the page draws (buckets,
// accuracies with Wilson intervals, the paired difference and McNemar's p as compareSummary.ts finds them, which rows
// differ for the filter, texts cut), and the kept comparisons the report lists (those that name its model, newest first,
// read again only when their files change, forgotten once cleared).
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ComparisonLog, type ComparisonSpec, type Entry } from '../../src/features/evaluate/compare/comparisonLog';
import { summarize } from '../../src/features/evaluate/compare/compareSummary';
import { KeptComparisons } from '../../src/features/evaluate/report/host/keptComparisons';
import { questionComparisonView, rowDiffers } from '../../src/features/evaluate/report/host/questionComparisonView';
import { buildReportView } from '../../src/features/evaluate/report/host/reportView';
import { REPORT_LIMITS } from '../../src/features/evaluate/report/protocol';

const TUNED = 'my-tuned';
const BASE = 'oss-reasoner-8b';

function spec(id: string, n: number, over: Partial<ComparisonSpec> = {}): ComparisonSpec {
  return {
    id,
    setName: 'questions.jsonl',
    createdAt: 1_000,
    models: [TUNED, BASE],
    scoring: 'normalized',
    knobs: { useRag: false, sequentialBudget: 8, parallelBudget: 1, temperature: 0 },
    items: Array.from({ length: n }, (_, i) => ({ question: `Question ${i}?`, expected: `${i}`, line: i + 2 })),
    ...over,
  };
}

/** Answers making the tuned model right on items < `tunedRight`, the base on items in [`baseFrom`, `baseTo`). */
function answer(log: ComparisonLog, n: number, tunedRight: number, baseFrom: number, baseTo: number): void {
  for (let i = 0; i < n; i++) {
    const at = 1;
    log.append({ kind: 'answer', item: i, model: TUNED, text: i < tunedRight ? `${i}` : 'no', reasoning: `thought ${i}`, at });
    log.append({ kind: 'answer', item: i, model: BASE, text: i >= baseFrom && i < baseTo ? `${i}` : 'no', at });
  }
}

describe('compare in the evaluation report: the view-model', () => {
  let root: string;
  beforeEach(() => (root = fs.mkdtempSync(path.join(os.tmpdir(), 'hr-qview-'))));
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('carries the buckets, each accuracy with its Wilson interval, the paired difference with its interval and McNemar p', () => {
    // Tuned right on 0-15, base on 14-18, of 50: fixed 14, regressed 3, both right 2, both wrong 31.
    const log = ComparisonLog.create(root, spec('a', 50));
    answer(log, 50, 16, 14, 19);
    const summary = summarize(log.spec, log.entries());
    const view = questionComparisonView(log.spec, summary);
    const pair = view.pairs[0]!;
    assert.deepEqual(pair.buckets, { fixed: 14, regressed: 3, bothRight: 2, bothWrong: 31 });
    assert.equal(pair.p, summary.pairs[0]!.p);
    assert.equal(pair.p?.toFixed(3), '0.013'); // exact McNemar: 2·P(X ≤ 3 | 17, ½), as the tool's in-editor test has it
    assert.deepEqual(
      [pair.estimate, pair.lower, pair.upper],
      [summary.pairs[0]!.estimate, summary.pairs[0]!.interval?.lower, summary.pairs[0]!.interval?.upper],
    );
    assert.equal(pair.estimate?.toFixed(4), '0.2200');
    assert.deepEqual(
      view.accuracies.map((a) => [a.model, a.correct, a.scored, a.lower?.toFixed(3), a.upper?.toFixed(3)]),
      [
        [TUNED, 16, 50, summary.accuracies[0]!.interval?.lower.toFixed(3), summary.accuracies[0]!.interval?.upper.toFixed(3)],
        [BASE, 5, 50, summary.accuracies[1]!.interval?.lower.toFixed(3), summary.accuracies[1]!.interval?.upper.toFixed(3)],
      ],
    );
    assert.equal(view.rows.length, 50);
    assert.deepEqual(
      view.rows.filter((r) => r.differs).map((r) => r.bucket),
      [...Array.from({ length: 14 }, () => 'fixed'), ...Array.from({ length: 3 }, () => 'regressed')],
    );
    assert.equal(view.rows[0]!.answers[0]!.reasoning, 'thought 0');
    assert.deepEqual([view.rows[0]!.line, view.rows[0]!.question, view.rows[0]!.expected], [2, 'Question 0?', '0']);
    assert.deepEqual([view.missing, view.failed, view.questions, view.pairwise], [0, 0, 50, false]);
  });

  it('says what is missing and failed, and differs only where two verdicts disagree or a judge preferred one', () => {
    const log = ComparisonLog.create(root, spec('b', 3));
    log.append({ kind: 'answer', item: 0, model: TUNED, text: '0', at: 1 });
    log.append({ kind: 'answer', item: 0, model: BASE, error: 'The service said "overloaded" (503)', at: 1 });
    const view = questionComparisonView(log.spec, summarize(log.spec, log.entries()));
    assert.deepEqual([view.missing, view.failed], [4, 1]);
    assert.equal(view.rows[0]!.differs, false, 'one verdict and a failure are not a difference');
    assert.equal(view.rows[0]!.answers[1]!.error, 'The service said "overloaded" (503)');
    assert.equal(
      rowDiffers({
        answers: [
          { model: 'a', right: true },
          { model: 'b', right: false },
        ],
      }),
      true,
    );
    assert.equal(
      rowDiffers({
        answers: [
          { model: 'a', right: true },
          { model: 'b', right: true },
        ],
      }),
      false,
    );
    assert.equal(rowDiffers({ answers: [{ model: 'a' }, { model: 'b' }], bucket: 'win' }), true);
    assert.equal(rowDiffers({ answers: [{ model: 'a' }, { model: 'b' }], bucket: 'tie' }), false);
  });

  it('cuts a long answer and keeps at most the shown rows, saying how many questions the set has', () => {
    const n = REPORT_LIMITS.questionRows + 5;
    const log = ComparisonLog.create(root, spec('c', n));
    const long = 'x'.repeat(REPORT_LIMITS.questionChars + 10);
    log.append({ kind: 'answer', item: 0, model: TUNED, text: long, at: 1 } satisfies Entry);
    const view = questionComparisonView(log.spec, summarize(log.spec, log.entries()));
    assert.equal(view.rows.length, REPORT_LIMITS.questionRows);
    assert.equal(view.questions, n);
    const shown = view.rows[0]!.answers[0]!.text!;
    assert.ok(shown.startsWith('x'.repeat(REPORT_LIMITS.questionChars)));
    assert.match(shown, new RegExp(`… \\(cut: ${long.length} characters in all\\)$`));
  });

  it('the report view carries the comparisons it is given, and none by default', () => {
    assert.deepEqual(buildReportView({ records: [], modelName: TUNED }).questionComparisons, []);
    const log = ComparisonLog.create(root, spec('d', 2));
    const view = questionComparisonView(log.spec, summarize(log.spec, log.entries()));
    assert.deepEqual(buildReportView({ records: [], modelName: TUNED, questionComparisons: [view] }).questionComparisons, [view]);
  });
});

describe('compare in the evaluation report: the kept comparisons', () => {
  let root: string;
  beforeEach(() => (root = fs.mkdtempSync(path.join(os.tmpdir(), 'hr-kept-'))));
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('lists those that name the model, newest first, follows a log that grows, and forgets a cleared one', () => {
    const older = ComparisonLog.create(root, spec('older', 2, { createdAt: 1 }));
    ComparisonLog.create(root, spec('newer', 2, { createdAt: 2, setName: 'newer.csv' }));
    ComparisonLog.create(root, spec('other', 2, { createdAt: 3, models: ['x', 'y'] }));
    fs.mkdirSync(path.join(root, 'not-a-comparison'));
    const kept = new KeptComparisons(root);
    assert.deepEqual(
      kept.forModel(BASE, undefined).map((c) => [c.setName, c.missing]),
      [
        ['newer.csv', 4],
        ['questions.jsonl', 4],
      ],
    );
    assert.deepEqual(kept.forModel('nobody', undefined), []);
    older.append({ kind: 'answer', item: 0, model: TUNED, text: '0', at: 1 });
    assert.equal(kept.forModel(TUNED, undefined)[1]!.missing, 3, 'the grown log read again');
    older.remove();
    assert.deepEqual(
      kept.forModel(TUNED, undefined).map((c) => c.setName),
      ['newer.csv'],
    );
  });

  it('shows only the comparisons made with the report’s service and key (and those kept before they were recorded)', () => {
    ComparisonLog.create(root, spec('here', 1, { scope: 'https://a.example#k1', setName: 'here.jsonl', createdAt: 3 }));
    ComparisonLog.create(root, spec('elsewhere', 1, { scope: 'https://b.example#k2', setName: 'elsewhere.jsonl', createdAt: 2 }));
    ComparisonLog.create(root, spec('unrecorded', 1, { setName: 'unrecorded.jsonl', createdAt: 1 }));
    const kept = new KeptComparisons(root);
    assert.deepEqual(
      kept.forModel(TUNED, 'https://a.example#k1').map((c) => c.setName),
      ['here.jsonl', 'unrecorded.jsonl'],
    );
    assert.deepEqual(
      kept.forModel(TUNED, undefined).map((c) => c.setName),
      ['unrecorded.jsonl'],
    );
  });

  it('shows at most the newest few', () => {
    for (let i = 0; i < REPORT_LIMITS.questionComparisons + 2; i++) ComparisonLog.create(root, spec(`n${i}`, 1, { createdAt: i }));
    const shown = new KeptComparisons(root).forModel(TUNED, undefined);
    assert.deepEqual(
      shown.map((c) => c.createdAt),
      Array.from({ length: REPORT_LIMITS.questionComparisons }, (_, i) => REPORT_LIMITS.questionComparisons + 1 - i),
    );
  });

  it('an absent folder is no comparison', () => {
    assert.deepEqual(new KeptComparisons(path.join(root, 'none')).forModel(TUNED, undefined), []);
  });
});
