// The bound on stored evaluations: the oldest finished ones beyond the limit go, counted per model; active jobs and
// finetunes are never dropped by it, and the counts survive whatever else is in storage.
import { strict as assert } from 'node:assert';
import { addDropped, boundEvaluations, readDropped } from '../../src/jobs/evaluationHistory';
import type { JobRecord } from '../../src/jobs/jobRecord';

function job(id: string, createdAt: number, extra: Partial<JobRecord> = {}): JobRecord {
  return { id, kind: 'evaluation', scope: 's', state: 'completed', createdAt, updatedAt: createdAt, modelName: 'm', ...extra };
}

describe('evaluation history bound', () => {
  it('drops the oldest finished evaluations beyond the limit and counts them per model', () => {
    const jobs = [
      job('new', 50),
      job('old-a', 10, { modelName: 'a' }),
      job('running', 1, { state: 'running' }),
      job('ft', 2, { kind: 'finetune' }),
      job('old-b', 20, { modelName: 'b', state: 'failed' }),
      job('mid', 30),
    ];
    const { kept, droppedByModel } = boundEvaluations(jobs, 2);
    assert.deepEqual(
      kept.map((j) => j.id),
      ['new', 'running', 'ft', 'mid'],
    );
    assert.deepEqual(droppedByModel, { a: 1, b: 1 });
  });

  it('keeps everything within the limit', () => {
    const jobs = [job('a', 1), job('b', 2)];
    assert.deepEqual(boundEvaluations(jobs, 2), { kept: jobs, droppedByModel: {} });
  });

  it('adds to the stored counts, ignoring what is not a count', () => {
    assert.deepEqual(addDropped({ a: 2, b: 'x', c: -1, d: 1.5 }, { a: 1, e: 3 }), { a: 3, e: 3 });
    assert.deepEqual(addDropped(undefined, { a: 1 }), { a: 1 });
    assert.deepEqual(readDropped(['a']), {});
    const proto = addDropped(JSON.parse('{"__proto__": 2}'), JSON.parse('{"__proto__": 1}') as Record<string, number>);
    assert.equal(Object.getPrototypeOf(proto), Object.prototype, 'a model named __proto__ does not change the object');
    assert.equal(Object.getOwnPropertyDescriptor(proto, '__proto__')?.value, 3);
  });
});
