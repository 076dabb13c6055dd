// The evaluation report's pure pieces: the view-model built from job records (base beside, added models, verdicts,
// judges, running jobs, dropped counts), its words, the page <-> host message guard, and the Markdown and CSV exports.
import { strict as assert } from 'node:assert';
import { evaluationRecord as evaluation, finetuneRecord as finetune, JUDGE, nextRecordId, T0 } from './builders/jobRecords';
import type { JobRecord } from '../../src/jobs/jobRecord';
import { compareProportions } from '../../src/features/evaluate/statistics';
import { buildReportView } from '../../src/features/evaluate/report/host/reportView';
import {
  csvCell,
  markdownCell,
  reportCsv,
  reportFileName,
  reportMarkdown,
  CSV_HEADER,
} from '../../src/features/evaluate/report/host/reportExport';
import { isReportMessage, isReportPanelState, reportMessageProblem } from '../../src/features/evaluate/report/protocol';
import { chartSummary, droppedNote, judgeWarning, verdictSentence } from '../../src/features/evaluate/report/page/reportText';
import type { ReportView } from '../../src/features/evaluate/report/protocol';

const TUNED = 'my-tuned';
const BASE = 'oss-reasoner-8b';
const OTHER = 'oss-reasoner-70b';

const HASH_A = 'a'.repeat(64);
const HASH_B = '0123456789abcdef'.repeat(4);

/** A finetune job with the lineage finetune.ts records when the service accepts it. */
function tunedWithLineage(modelName: string, extra: Partial<JobRecord> = {}): JobRecord {
  const id = nextRecordId('f');
  return {
    ...finetune(modelName, BASE),
    id,
    finishedAt: Date.UTC(2024, 4, 1, 10, 30),
    lineage: {
      baseModel: BASE,
      files: [
        { name: 'train|set\n<b>.jsonl', size: 2048, sha256: HASH_A },
        { name: 'notes.md', size: 10, sha256: HASH_B },
        { name: 'partial.txt', size: 5 },
      ],
      numQs: 25,
      mode: 'reasoning',
      useCase: 'support <tickets>',
      jobId: id,
      startedAt: Date.UTC(2024, 4, 1, 9, 5),
    },
    ...extra,
  };
}

function running(modelName: string, datasetName: string): JobRecord {
  return { id: nextRecordId('r'), kind: 'evaluation', scope: 's', state: 'running', createdAt: T0, updatedAt: T0, modelName, datasetName };
}

describe('evaluation report view', () => {
  it('puts the base model beside the tuned one on each dataset, with the verdict statistics.ts gives', () => {
    const records = [
      finetune(TUNED, BASE),
      evaluation(TUNED, 'wins', 68, 80, T0 + 3),
      evaluation(BASE, 'wins', 48, 80, T0 + 2),
      evaluation(TUNED, 'wins', 60, 80, T0 + 1),
      evaluation(TUNED, 'loses', 10, 40, T0 + 4),
      evaluation(BASE, 'loses', 30, 40, T0 + 5),
      evaluation(TUNED, 'only-tuned', 5, 10, T0 + 6),
      evaluation(BASE, 'only-base', 5, 10, T0 + 7),
    ];
    const view = buildReportView({ records, modelName: TUNED });
    assert.equal(view.baseModel, BASE);
    assert.deepEqual(
      view.datasets.map((d) => [d.id, d.datasetName]),
      [
        [0, 'only-tuned'],
        [1, 'loses'],
        [2, 'wins'],
      ],
    );
    const wins = view.datasets[2]!;
    assert.deepEqual(
      wins.columns.map((c) => [c.name, c.role, c.evaluations.map((e) => `${e.correct}/${e.total}`)]),
      [
        [TUNED, 'model', ['68/80', '60/80']],
        [BASE, 'base', ['48/80']],
      ],
    );
    const expected = compareProportions({ correct: 68, total: 80 }, { correct: 48, total: 80 })!;
    assert.deepEqual(wins.comparisons, [
      {
        otherModel: BASE,
        role: 'base',
        estimate: expected.estimate,
        lower: expected.interval.lower,
        upper: expected.interval.upper,
        verdict: 'better',
        judgesDiffer: false,
        judgeUnknown: false,
      },
    ]);
    assert.equal(view.datasets[1]!.comparisons[0]!.verdict, 'worse');
    assert.deepEqual(
      view.datasets.map((d) => d.canEvaluateBase),
      [true, false, false],
      'only where the base has no result',
    );
    assert.ok(!view.datasets.some((d) => d.datasetName === 'only-base'), "the base's other datasets are not the report's");
  });

  it('says which model is being evaluated, and stops offering the base evaluation while it runs', () => {
    const records = [finetune(TUNED, BASE), evaluation(TUNED, 'squad', 30, 50, T0), running(BASE, 'squad')];
    const [squad] = buildReportView({ records, modelName: TUNED }).datasets;
    assert.deepEqual(
      squad!.columns.map((c) => [c.name, c.running, c.evaluations.length]),
      [
        [TUNED, false, 1],
        [BASE, true, 0],
      ],
    );
    assert.equal(squad!.canEvaluateBase, false);
    assert.deepEqual(squad!.comparisons, []);
  });

  it('uses the base the service lists when no finetune here recorded one, and has none for a base model', () => {
    const records = [evaluation(TUNED, 'squad', 27, 50, T0), evaluation(BASE, 'squad', 23, 50, T0)];
    assert.equal(buildReportView({ records, modelName: TUNED }).baseModel, undefined);
    assert.equal(buildReportView({ records, modelName: TUNED }).datasets[0]!.canEvaluateBase, false);
    const listed = buildReportView({ records, modelName: TUNED, listedBase: BASE });
    assert.equal(listed.baseModel, BASE);
    assert.equal(listed.datasets[0]!.comparisons[0]!.verdict, 'no clear difference at this sample size');
  });

  it('adds the models the user added after the base, compared too, once each and never the model itself', () => {
    const records = [finetune(TUNED, BASE), evaluation(TUNED, 'squad', 45, 50, T0), evaluation(OTHER, 'squad', 20, 50, T0)];
    const view = buildReportView({ records, modelName: TUNED, addedModels: [OTHER, OTHER, TUNED, BASE] });
    assert.deepEqual(view.addedModels, [OTHER]);
    const [squad] = view.datasets;
    assert.deepEqual(
      squad!.columns.map((c) => [c.name, c.role]),
      [
        [TUNED, 'model'],
        [BASE, 'base'],
        [OTHER, 'added'],
      ],
    );
    assert.deepEqual(
      squad!.comparisons.map((c) => [c.otherModel, c.role, c.verdict]),
      [[OTHER, 'added', 'better']],
    );
  });

  it('flags differing judges, and an unknown judge apart', () => {
    const records = [
      finetune(TUNED, BASE),
      evaluation(TUNED, 'a', 30, 50, T0, {
        result: { datasetName: 'a', modelName: TUNED, correct: 30, total: 50, accuracy: 0.6, judgeModel: 'judge-small' },
      }),
      evaluation(BASE, 'a', 30, 50, T0),
      evaluation(TUNED, 'b', 30, 50, T0, { result: { datasetName: 'b', modelName: TUNED, correct: 30, total: 50, accuracy: 0.6 } }),
      evaluation(BASE, 'b', 30, 50, T0),
    ];
    const view = buildReportView({ records, modelName: TUNED });
    const byName = new Map(view.datasets.map((d) => [d.datasetName, d]));
    const a = byName.get('a')!;
    const b = byName.get('b')!;
    assert.deepEqual([a.comparisons[0]!.judgesDiffer, a.comparisons[0]!.judgeUnknown], [true, false]);
    assert.deepEqual([b.comparisons[0]!.judgesDiffer, b.comparisons[0]!.judgeUnknown], [false, true]);
    assert.equal(
      judgeWarning(a, a.comparisons[0]!),
      `Different judges (judge-small and ${JUDGE}): these accuracies were not measured the same way.`,
    );
    assert.match(judgeWarning(b, b.comparisons[0]!)!, /not known for both/);
  });

  it('counts the evaluations the history limit dropped for the models shown, plus those beyond the display limit', () => {
    const records = [finetune(TUNED, BASE), evaluation(TUNED, 'squad', 30, 50, T0)];
    const view = buildReportView({ records, modelName: TUNED, droppedByModel: { [TUNED]: 3, [BASE]: 2, unrelated: 9 } });
    assert.equal(view.dropped, 5);
    assert.equal(droppedNote(view.dropped), '5 older evaluations were dropped (only the newest are kept).');
    assert.equal(droppedNote(1), '1 older evaluation was dropped (only the newest are kept).');
    assert.equal(droppedNote(0), undefined);
    const many = Array.from({ length: 55 }, (_, i) => evaluation(TUNED, 'squad', 30, 50, T0 + i));
    assert.equal(buildReportView({ records: many, modelName: TUNED }).dropped, 5);
  });
});

describe('evaluation report lineage', () => {
  it('carries the lineage of the finetune here that created the model, with its end', () => {
    const job = tunedWithLineage(TUNED);
    const view = buildReportView({ records: [job, evaluation(TUNED, 'wins', 1, 2, T0)], modelName: TUNED });
    assert.deepEqual(view.lineage, {
      baseModel: BASE,
      files: [
        { name: 'train|set\n<b>.jsonl', size: 2048, sha256: HASH_A },
        { name: 'notes.md', size: 10, sha256: HASH_B },
        { name: 'partial.txt', size: 5 },
      ],
      numQs: 25,
      mode: 'reasoning',
      useCase: 'support <tickets>',
      jobId: job.id,
      startedAt: Date.UTC(2024, 4, 1, 9, 5),
      finishedAt: Date.UTC(2024, 4, 1, 10, 30),
    });
    assert.notEqual(view.lineage?.files, job.lineage?.files, 'a copy, not the stored record');
  });

  it('takes the completed job when a failed one had the name first, and has none for a model not created here', () => {
    const failed = tunedWithLineage(TUNED, { state: 'failed' });
    const done = tunedWithLineage(TUNED);
    assert.equal(buildReportView({ records: [failed, done], modelName: TUNED }).lineage?.jobId, done.id);
    const view = buildReportView({ records: [finetune(TUNED, BASE), done], modelName: BASE });
    assert.equal(view.lineage, undefined);
    assert.ok(!('lineage' in view));
    assert.equal(buildReportView({ records: [finetune(TUNED, BASE)], modelName: TUNED }).lineage, undefined, 'a job without a lineage');
  });

  it('exports the lineage as Markdown: the files with their sizes and hashes, every recorded word escaped', () => {
    const view = buildReportView({ records: [tunedWithLineage(TUNED), evaluation(TUNED, 'wins', 1, 2, T0)], modelName: TUNED });
    const md = reportMarkdown(view, new Date(Date.UTC(2024, 4, 2)));
    assert.ok(md.includes('\n## Where it came from\n'), md);
    assert.ok(md.includes(`- Base model: ${BASE}\n`), md);
    assert.ok(md.includes('- Questions: 25 · mode reasoning\n'), md);
    assert.ok(md.includes('- Use case: support &lt;tickets&gt;\n'), md);
    assert.ok(md.includes('- Started: 2024-05-01 09:05 UTC\n- Ended: 2024-05-01 10:30 UTC\n'), md);
    assert.ok(md.includes('| Source file | Size (bytes) | SHA-256 |'), md);
    assert.ok(md.includes(`| train\\|set &lt;b&gt;.jsonl | 2048 | ${HASH_A} |\n`), md);
    assert.ok(md.includes(`| notes.md | 10 | ${HASH_B} |\n`), md);
    assert.ok(md.includes('| partial.txt | 5 | not recorded |\n'), md);
    assert.ok(md.indexOf('## Where it came from') < md.indexOf('## Evaluations'), 'near the header');
    delete view.lineage;
    assert.ok(!reportMarkdown(view).includes('Where it came from'));
  });
});

describe('evaluation report words', () => {
  it('says each verdict plainly with the difference and its interval in points', () => {
    const base = { otherModel: BASE, role: 'base' as const, judgesDiffer: false, judgeUnknown: false };
    assert.equal(
      verdictSentence(TUNED, { ...base, estimate: 0.25, lower: 0.061, upper: 0.393, verdict: 'better' }),
      `${TUNED} is better than ${BASE} (its base): +25.0 pts, 95 % interval +6.1 to +39.3 pts.`,
    );
    assert.equal(
      verdictSentence(TUNED, { ...base, estimate: -0.5, lower: -0.68, upper: -0.27, verdict: 'worse' }),
      `${TUNED} is worse than ${BASE} (its base): −50.0 pts, 95 % interval −68.0 to −27.0 pts.`,
    );
    assert.equal(
      verdictSentence(TUNED, { ...base, estimate: 0.02, lower: -0.1, upper: 0.14, verdict: 'no clear difference at this sample size' }),
      `${TUNED} against ${BASE} (its base): no clear difference at this sample size (+2.0 pts, 95 % interval −10.0 to +14.0 pts).`,
    );
    assert.match(verdictSentence(TUNED, base), /cannot be compared/);
  });

  it("summarises every bar's number for screen readers", () => {
    const records = [finetune(TUNED, BASE), evaluation(TUNED, 'squad', 1, 2, T0), evaluation(BASE, 'squad', 0, 2, T0)];
    const summary = chartSummary(buildReportView({ records, modelName: TUNED }));
    assert.match(
      summary,
      /^Accuracy by dataset\. squad: my-tuned 50\.0% \(95 % interval 9\.5% to 90\.5%\), oss-reasoner-8b 0\.0% \(95 % interval 0\.0% to 65\.8%\)\.$/,
    );
  });
});

describe('evaluation report protocol', () => {
  it('accepts exactly the four messages the page sends', () => {
    for (const ok of [
      { type: 'ready' },
      { type: 'addModel' },
      { type: 'evaluateBase', datasetId: 0 },
      { type: 'export', format: 'markdown' },
      { type: 'export', format: 'csv' },
    ]) {
      assert.equal(reportMessageProblem(ok), undefined, JSON.stringify(ok));
    }
  });

  it('refuses names, paths and anything else in place of a row index or a format', () => {
    const bad: unknown[] = [
      null,
      'ready',
      [],
      { type: 'run' },
      { type: 'ready', extra: 1 },
      { type: 'evaluateBase' },
      { type: 'evaluateBase', datasetId: -1 },
      { type: 'evaluateBase', datasetId: 1.5 },
      { type: 'evaluateBase', datasetId: '0' },
      { type: 'evaluateBase', datasetId: 0, datasetName: 'squad' },
      { type: 'addModel', modelName: 'x' },
      { type: 'export', format: 'pdf' },
      { type: 'export', format: 'csv', path: '/etc/passwd' },
      JSON.parse('{"type":"ready","__proto__":{"x":1}}'),
    ];
    for (const message of bad) assert.equal(isReportMessage(message), false, JSON.stringify(message));
  });

  it('restores a panel only from a state naming a model', () => {
    assert.equal(isReportPanelState({ modelName: TUNED, addedModels: [OTHER] }), true);
    for (const bad of [
      undefined,
      {},
      { modelName: '' },
      { modelName: TUNED },
      { modelName: TUNED, addedModels: [1] },
      { modelName: 'x'.repeat(300), addedModels: [] },
    ]) {
      assert.equal(isReportPanelState(bad), false, JSON.stringify(bad));
    }
  });
});

describe('evaluation report export', () => {
  const view = (): ReportView =>
    buildReportView({
      records: [
        finetune(TUNED, BASE),
        evaluation(TUNED, 'wins', 68, 80, Date.UTC(2024, 4, 1, 12)),
        evaluation(BASE, 'wins', 48, 80, Date.UTC(2024, 4, 1, 11)),
      ],
      modelName: TUNED,
    });

  it('escapes pipes, line breaks and HTML in Markdown cells', () => {
    assert.equal(markdownCell('a|b\nc\r\nd<img>'), 'a\\|b c d&lt;img&gt;');
  });

  it('quotes CSV fields per RFC 4180 and disarms text cells that a spreadsheet would run as a formula', () => {
    assert.equal(csvCell('plain'), 'plain');
    assert.equal(csvCell('a,b'), '"a,b"');
    assert.equal(csvCell('say "hi"'), '"say ""hi"""');
    assert.equal(csvCell('two\nlines'), '"two\nlines"');
    assert.equal(csvCell('=HYPERLINK("http://x")'), `"'=HYPERLINK(""http://x"")"`);
    for (const lead of ['+', '-', '@', '\t', '\r']) assert.equal(csvCell(`${lead}1`).replace(/^"/, '')[0], "'", JSON.stringify(lead));
    assert.equal(csvCell(-0.125), '-0.125', 'numbers are ours and stay numbers');
    assert.equal(csvCell(undefined), '');
    assert.equal(csvCell(Number.NaN), '');
  });

  it('writes one CSV row per evaluation, the compared one with its difference and verdict', () => {
    const v = view();
    const lines = reportCsv(v).split('\r\n');
    assert.equal(lines[0], CSV_HEADER.join(','));
    assert.equal(lines.at(-1), '', 'ends with CRLF');
    const c = v.datasets[0]!.comparisons[0]!;
    assert.equal(
      lines[1],
      `wins,${TUNED},model,0.85,${v.datasets[0]!.columns[0]!.evaluations[0]!.lower},${v.datasets[0]!.columns[0]!.evaluations[0]!.upper},68,80,${JUDGE},2024-05-01T12:00:00.000Z,,,,,`,
    );
    assert.equal(lines[2]!.split(',').slice(10).join(','), `${c.estimate},${c.lower},${c.upper},better,false`);
    assert.equal(lines.length, 4);
  });

  it('writes the evaluations and the comparisons as Markdown tables, the service text escaped', () => {
    const v = view();
    v.datasets[0]!.datasetName = 'wins|evil\nrow';
    const md = reportMarkdown(v, new Date(Date.UTC(2024, 4, 2)));
    assert.match(md, /^# Evaluation report: my-tuned\n\nBase model: oss-reasoner-8b\n/);
    assert.ok(md.includes(`| wins\\|evil row | ${TUNED} | model | 85.0% | `), md);
    assert.ok(md.includes(`| wins\\|evil row | ${BASE} (base) | +25.0 pts | `), md);
    assert.ok(md.includes(' | better | same |'), md);
    assert.ok(!md.includes('dropped'));
    v.dropped = 2;
    assert.ok(reportMarkdown(v).includes('2 older evaluations were dropped.'));
  });

  it('names the file after the model with only safe characters', () => {
    const at = new Date(2024, 4, 1, 14, 12);
    assert.equal(reportFileName('ft:base/../x', 'csv', at), 'evaluation-report-ft-base-x-2024-05-01-1412.csv');
    assert.equal(reportFileName('..', 'markdown', at), 'evaluation-report-model-2024-05-01-1412.md');
  });
});
