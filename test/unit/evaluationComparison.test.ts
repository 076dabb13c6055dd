// The evaluation report's content, built from job records: grouping, order, the base model beside, verdicts, judges,
// and the bound on history.
import { strict as assert } from 'node:assert';
import { evaluationRecord as evaluation, finetuneRecord as finetune, JUDGE, T0 } from './builders/jobRecords';
import { buildComparison as build, MAX_EVALUATIONS_PER_MODEL, type ComparisonOptions } from '../../src/features/evaluate/comparison';
import { compareProportions } from '../../src/features/evaluate/statistics';

/** The comparison as the report makes it (reportView.ts): the newest result of each on every dataset both have. */
function buildComparison(records: Parameters<typeof build>[0], modelName: string, options: ComparisonOptions = {}) {
  const c = build(records, modelName, options);
  const comparisons = c.model.datasets.flatMap(({ datasetName, evaluations: [model] }) => {
    const base = c.base?.datasets.find((d) => d.datasetName === datasetName)?.evaluations[0];
    if (!model || !base) return [];
    const judgeUnknown = model.judgeModel === undefined || base.judgeModel === undefined;
    const difference = compareProportions(model, base);
    return [{ datasetName, model, base, difference, judgesDiffer: !judgeUnknown && model.judgeModel !== base.judgeModel, judgeUnknown }];
  });
  return { ...c, comparisons };
}
import type { JobRecord } from '../../src/jobs/jobRecord';

const TUNED = 'my-tuned';
const BASE = 'oss-reasoner-8b';

describe('evaluation comparison', () => {
  it("groups a model's completed evaluations by dataset, newest first, with accuracy, counts, interval, judge and time", () => {
    const records = [
      evaluation(TUNED, 'squad', 30, 50, T0 + 1),
      evaluation(TUNED, 'math', 15, 20, T0 + 2),
      evaluation(TUNED, 'squad', 40, 50, T0 + 3),
      evaluation(TUNED, 'squad', 0, 0, T0 + 4, { state: 'failed', result: undefined, error: 'boom' }),
      evaluation(TUNED, 'squad', 0, 0, T0 + 5, { state: 'running', result: undefined }),
      evaluation('someone-else', 'squad', 50, 50, T0 + 6),
    ];
    const { model, base, comparisons } = buildComparison(records, TUNED);
    assert.equal(model.modelName, TUNED);
    assert.equal(model.dropped, 0);
    assert.deepEqual(
      model.datasets.map((d) => [d.datasetName, d.evaluations.map((e) => `${e.correct}/${e.total}`)]),
      [
        ['squad', ['40/50', '30/50']],
        ['math', ['15/20']],
      ],
    );
    const newest = model.datasets[0]?.evaluations[0];
    assert.ok(newest);
    assert.equal(newest.accuracy, 0.8);
    assert.equal(newest.judgeModel, JUDGE);
    assert.equal(newest.at, T0 + 3);
    assert.equal(newest.jobId, records[2]?.id);
    assert.ok(newest.interval && newest.interval.lower < 0.8 && newest.interval.upper > 0.8);
    // No base known: nothing to compare with.
    assert.equal(base, undefined);
    assert.deepEqual(comparisons, []);
  });

  it('puts the base model its finetune job recorded beside it, and compares the newest result of each per dataset', () => {
    const records = [
      finetune(TUNED, BASE),
      evaluation(BASE, 'squad', 10, 80, T0 + 1), // older base result: not the one compared
      evaluation(BASE, 'squad', 48, 80, T0 + 2),
      evaluation(TUNED, 'squad', 56, 70, T0 + 3),
      evaluation(TUNED, 'math', 15, 20, T0 + 4), // the base never ran math
      evaluation(BASE, 'trivia', 5, 10, T0 + 5), // the tuned model never ran trivia
    ];
    const { base, comparisons } = buildComparison(records, TUNED);
    assert.equal(base?.modelName, BASE);
    assert.deepEqual(
      base.datasets.map((d) => d.datasetName),
      ['trivia', 'squad'],
    );
    assert.equal(comparisons.length, 1);
    const [squad] = comparisons;
    assert.ok(squad);
    assert.equal(squad.datasetName, 'squad');
    assert.equal(`${squad.model.correct}/${squad.model.total}`, '56/70');
    assert.equal(`${squad.base.correct}/${squad.base.total}`, '48/80');
    // Newcombe 1998 (Statistics in Medicine 17:873-890) Table II, method 10: 56/70 − 48/80 is 0.0524 to 0.3339.
    assert.equal(squad.difference?.interval.lower.toFixed(4), '0.0524');
    assert.equal(squad.difference.interval.upper.toFixed(4), '0.3339');
    assert.equal(squad.difference.verdict, 'better');
    assert.equal(squad.judgesDiffer, false);
    assert.equal(squad.judgeUnknown, false);
  });

  it('says worse, or no clear difference, in the direction model minus base', () => {
    const records = [
      evaluation(TUNED, 'loses', 3, 10, T0 + 1),
      evaluation(BASE, 'loses', 9, 10, T0 + 2),
      evaluation(TUNED, 'small', 2, 3, T0 + 3),
      evaluation(BASE, 'small', 1, 3, T0 + 4),
    ];
    const { comparisons } = buildComparison(records, TUNED, { baseModel: BASE });
    assert.deepEqual(
      comparisons.map((c) => [c.datasetName, c.difference?.verdict]),
      [
        ['small', 'no clear difference at this sample size'],
        ['loses', 'worse'],
      ],
    );
  });

  it('an explicit base model wins over the recorded one; a model is never compared with itself', () => {
    const records = [finetune(TUNED, BASE), evaluation('other-base', 'squad', 5, 10, T0 + 1), evaluation(TUNED, 'squad', 6, 10, T0 + 2)];
    assert.equal(buildComparison(records, TUNED, { baseModel: 'other-base' }).comparisons[0]?.base.correct, 5);
    const self = buildComparison(records, TUNED, { baseModel: TUNED });
    assert.equal(self.base, undefined);
    assert.deepEqual(self.comparisons, []);
  });

  it('the newest finetune job of the model says which base it has', () => {
    const records = [finetune(TUNED, 'old-base', T0), finetune(TUNED, BASE, T0 + 10), finetune('another', 'third-base', T0 + 20)];
    assert.equal(buildComparison(records, TUNED).base?.modelName, BASE);
  });

  it('flags judges that differ, and results that do not name their judge', () => {
    const records = [
      evaluation(TUNED, 'a', 6, 10, T0 + 1, {
        result: { datasetName: 'a', modelName: TUNED, correct: 6, total: 10, accuracy: 0.6, judgeModel: 'judge-b' },
      }),
      evaluation(BASE, 'a', 5, 10, T0 + 2),
      evaluation(TUNED, 'b', 6, 10, T0 + 3, { result: { datasetName: 'b', modelName: TUNED, correct: 6, total: 10, accuracy: 0.6 } }),
      evaluation(BASE, 'b', 5, 10, T0 + 4),
    ];
    const byName = new Map(buildComparison(records, TUNED, { baseModel: BASE }).comparisons.map((c) => [c.datasetName, c]));
    assert.deepEqual([byName.get('a')?.judgesDiffer, byName.get('a')?.judgeUnknown], [true, false]);
    assert.deepEqual([byName.get('b')?.judgesDiffer, byName.get('b')?.judgeUnknown], [false, true]);
  });

  it('a result with no questions has no interval and no difference, never NaN', () => {
    const records = [evaluation(TUNED, 'empty', 0, 0, T0 + 1), evaluation(BASE, 'empty', 3, 10, T0 + 2)];
    const { model, comparisons } = buildComparison(records, TUNED, { baseModel: BASE });
    assert.equal(model.datasets[0]?.evaluations[0]?.interval, undefined);
    assert.equal(comparisons.length, 1);
    assert.equal(comparisons[0]?.difference, undefined);
  });

  it(`keeps at most ${MAX_EVALUATIONS_PER_MODEL} evaluations per model by default, the newest, and says how many it dropped`, () => {
    const records: JobRecord[] = [finetune(TUNED, BASE)];
    for (let i = 0; i < MAX_EVALUATIONS_PER_MODEL + 7; i++) {
      records.push(evaluation(TUNED, i < 7 ? 'oldest' : 'recent', i, 100, T0 + i));
    }
    for (let i = 0; i < 3; i++) {
      records.push(evaluation(BASE, 'recent', 50, 100, T0 + i));
    }
    const { model, base } = buildComparison(records, TUNED);
    assert.equal(model.dropped, 7);
    assert.deepEqual(
      model.datasets.map((d) => [d.datasetName, d.evaluations.length]),
      [['recent', MAX_EVALUATIONS_PER_MODEL]],
    );
    assert.equal(model.datasets[0]?.evaluations.at(-1)?.correct, 7);
    // The limit is per model: the base keeps its own.
    assert.equal(base?.dropped, 0);
    const small = buildComparison(records, TUNED, { maxPerModel: 2 });
    assert.equal(small.model.dropped, MAX_EVALUATIONS_PER_MODEL + 5);
    assert.equal(small.base?.dropped, 1);
    assert.deepEqual(
      small.model.datasets[0]?.evaluations.map((e) => e.correct),
      [MAX_EVALUATIONS_PER_MODEL + 6, MAX_EVALUATIONS_PER_MODEL + 5],
    );
  });

  it('the order does not depend on the order of the stored list: same time falls back to the job id', () => {
    const a = evaluation(TUNED, 'squad', 1, 10, T0, { id: 'a' });
    const b = evaluation(TUNED, 'squad', 2, 10, T0, { id: 'b' });
    const ids = (records: JobRecord[]): string[] =>
      buildComparison(records, TUNED).model.datasets[0]?.evaluations.map((e) => e.jobId) ?? [];
    assert.deepEqual(ids([a, b]), ids([b, a]));
  });

  it('an evaluation is dated by when it finished (a later update of the record does not move it), else its last update', () => {
    const finished = [evaluation(TUNED, 'squad', 1, 10, T0 + 5, { updatedAt: T0 + 9 })];
    assert.equal(buildComparison(finished, TUNED).model.datasets[0]?.evaluations[0]?.at, T0 + 5);
    const unfinished = [evaluation(TUNED, 'squad', 1, 10, T0 + 5, { finishedAt: undefined, updatedAt: T0 + 9 })];
    assert.equal(buildComparison(unfinished, TUNED).model.datasets[0]?.evaluations[0]?.at, T0 + 9);
  });
});
