import * as assert from 'node:assert/strict';
import { answerFields } from '../../src/api/answerFields';
import { parsePath } from '../../src/api/profilePath';

describe('answerFields (the choices of Choose How to Read…)', () => {
  it('gives each field holding a plain value once, with [] for list items, its first values and how often it was seen', () => {
    const body = {
      data: { jobs: [{ phase: 'TRAINING', done: false, pct: '40%' }, { phase: 'EXPORTING', done: false }, { phase: 'TRAINING' }] },
      empty: '',
      nothing: null,
      'odd.key': 3,
    };
    const fields = answerFields(body);
    assert.deepEqual(
      fields.map((f) => [f.path, f.samples, f.seen, f.types]),
      [
        ['["odd.key"]', ['3'], 1, ['number']],
        ['data.jobs[].phase', ['TRAINING', 'EXPORTING'], 3, ['text']],
        ['data.jobs[].done', ['false'], 2, ['boolean']],
        ['data.jobs[].pct', ['40%'], 1, ['text']],
      ],
    );
    // Each path is one a profile can keep and parse back to the same place.
    for (const f of fields) assert.deepEqual(parsePath(f.path), f.segments);
  });

  it('looks at the first items of a long list only, and cuts long values', () => {
    const records = Array.from({ length: 200_000 }, (_, i) => ({ id: `job-${i}`, note: 'x'.repeat(500) }));
    const [id, note] = answerFields({ records });
    assert.equal(id?.path, 'records[].id');
    assert.equal(id?.seen, 50);
    assert.deepEqual(id?.samples, ['job-0', 'job-1', 'job-2']);
    assert.equal(note?.samples[0]?.length, 60);
    assert.ok(note?.samples[0]?.endsWith('…'));
  });

  it('stops at `max` fields and at a bounded number of values however wide the answer', () => {
    const wide = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, i]));
    assert.equal(answerFields(wide, 10).length, 10);
    const fields = answerFields(wide, 100_000);
    assert.ok(fields.length <= 5_000, `${fields.length} fields`);
  });

  it('gives nothing for an answer with no plain value', () => {
    assert.deepEqual(answerFields({ a: [], b: {}, c: [null] }), []);
    assert.deepEqual(
      answerFields('just text').map((f) => f.path),
      [''],
    );
  });
});
