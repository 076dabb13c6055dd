// What a person may choose in each kind of answer (issue 36, items 3 and 8): every kind's description carries its
// choices (answerKinds.ts), which the one Choose How to Read… command drives. Here: the roles and fields each kind
// offers, where a profile reads each role now (what the picker shows beside the fields, so a misread is one pick from
// right), and the part a person's picks make over the part read by now (the rest kept as it was).
import { strict as assert } from 'node:assert';
import { choicesOf, type ChoiceField } from '../../src/api/answerKinds';
import { checkServiceProfile, PROFILE_PARTS, type JobStatusProfile } from '../../src/api/profileFormat';

const at = (path: string, samples: string[] = [], types: ChoiceField['types'] = ['text']): ChoiceField => ({ path, samples, types });
const paths = (fields: readonly ChoiceField[]) => fields.map((f) => f.path);

describe('the choices of each kind of answer', () => {
  it('every part of the profile has choices, with at least one role asked when nothing could read the answer', () => {
    for (const part of PROFILE_PARTS) {
      const { roles } = choicesOf(part);
      assert.ok(
        roles.some((r) => r.asked && !r.optional),
        `${part}: no role is asked`,
      );
    }
  });

  describe('a job status: state, progress, made model, error', () => {
    const choices = choicesOf('finetuneStatus');
    // A service counting steps: read (by inference) as 46 % from `pct`, which never moves while `step` does.
    const body = { status: 'RUNNING', pct: 46, metrics: { step: 200, total_steps: 300 }, output: { model: 'ft-m-1' }, note: 'warming up' };
    const now: JobStatusProfile = { state: 'status', percent: 'pct', by: 'inferred' };
    const input = { body, allowHttp: false };

    it('offers its roles, and says where the profile reads each now', () => {
      assert.deepEqual(
        choices.roles.map((r) => r.role),
        ['state', 'progress', 'total', 'madeModel', 'error'],
      );
      assert.deepEqual(
        choices.roles.map((r) => choices.readAt(r.role, now, input)),
        ['status', 'pct', undefined, undefined, undefined],
      );
      assert.deepEqual(paths(choices.fields('progress', input)), ['pct', 'metrics.step', 'metrics.total_steps']);
      assert.deepEqual(paths(choices.fields('madeModel', input)), ['status', 'note', 'output.model']);
    });

    it('a count picked as the progress asks its total; a percentage or a fraction does not', () => {
      assert.equal(choices.then?.('progress', at('metrics.step', ['200'], ['number'])), 'total');
      assert.equal(
        choices.then?.('progress', at('pct', ['46'], ['number'])),
        'total',
        'a bare number may be a count: the total is asked, with "none"',
      );
      assert.ok(choices.roles.find((r) => r.role === 'total')?.optional, 'the total may be left out (a percentage)');
      assert.equal(choices.then?.('progress', at('done', ['40%'])), undefined);
      assert.equal(choices.then?.('progress', at('f', ['0.25', '0.5'], ['number'])), undefined);
      assert.equal(choices.then?.('state', at('status', ['RUNNING'])), undefined);
    });

    it('the progress chosen replaces the one read, the rest of the reading kept; the part is one the book can keep', () => {
      const made = choices.make(
        { fields: { progress: at('metrics.step', ['200'], ['number']), total: at('metrics.total_steps', ['300'], ['number']) } },
        now,
        input,
      );
      assert.deepEqual(made, { state: 'status', done: 'metrics.step', total: 'metrics.total_steps', by: 'chosen' });
      assert.ok('value' in checkServiceProfile({ finetuneStatus: made }));
      // No total: a percentage (a "%" text, or a number above 1), a fraction of 1 otherwise.
      assert.deepEqual(choices.make({ fields: { progress: at('pct', ['46'], ['number']), total: null } }, now, input), {
        state: 'status',
        percent: 'pct',
        by: 'chosen',
      });
      assert.deepEqual(choices.make({ fields: { progress: at('f', ['0.25'], ['number']) } }, now, input), {
        state: 'status',
        fraction: 'f',
        by: 'chosen',
      });
    });

    it('the made model leads the places tried; the error and the state are set where picked', () => {
      const base: JobStatusProfile = { ...now, madeModel: ['model', 'output.model'] };
      assert.deepEqual(choices.make({ fields: { madeModel: at('output.model') } }, base, input)?.madeModel, ['output.model', 'model']);
      assert.equal(choices.make({ fields: { error: at('note') } }, base, input)?.error, 'note');
      assert.deepEqual(choices.make({ fields: { state: at('done', ['false'], ['boolean']) } }, undefined, input), {
        finished: 'done',
        by: 'chosen',
      });
    });

    it('a state word no table reads is offered for a meaning, kept with the words already given', () => {
      assert.equal(choices.unknownWord?.('state', at('detail', ['CHURNING'])), 'CHURNING');
      assert.equal(choices.unknownWord?.('state', at('status', ['RUNNING'])), undefined);
      const made = choices.make(
        { fields: { state: at('detail', ['CHURNING']) }, meanings: { CHURNING: 'running' } },
        {
          state: 'status',
          states: { EXPORTED: 'completed' },
          by: 'chosen',
        },
        input,
      );
      assert.deepEqual(made, { state: 'detail', states: { EXPORTED: 'completed', CHURNING: 'running' }, by: 'chosen' });
    });
  });

  describe('an inference answer: its text and its reasoning', () => {
    const choices = choicesOf('stream');
    const events = [{ said: 'Part one. ', aside: 'Aside. ' }];

    it('correcting the reasoning alone keeps the text read now', () => {
      const now = { answer: ['said'], reasoning: [], by: 'inferred' as const };
      assert.deepEqual(
        choices.roles.map((r) => choices.readAt(r.role, now, { body: events, allowHttp: false })),
        ['said', undefined],
      );
      assert.deepEqual(choices.make({ fields: { reasoning: at('aside') } }, now, { body: events, allowHttp: false }), {
        answer: ['said'],
        reasoning: ['aside'],
        by: 'chosen',
      });
    });
  });

  describe('a download: URL, size, SHA-256, expiry', () => {
    const choices = choicesOf('download');
    const body = { links: { primary: 'https://s.example/a.gguf' }, bytes: 1234, digest: 'a'.repeat(64), until: '2030-01-01T00:00:00Z' };
    const input = { body, allowHttp: false };

    it('a value picked is set over the part read now, its URL kept', () => {
      const now = { url: 'links.primary', by: 'inferred' as const };
      assert.deepEqual(paths(choices.fields('size', input)), ['bytes']);
      assert.deepEqual(paths(choices.fields('sha256', input)), ['digest']);
      assert.deepEqual(choices.make({ fields: { size: at('bytes'), sha256: at('digest'), expires: at('until') } }, now, input), {
        url: 'links.primary',
        size: 'bytes',
        sha256: 'digest',
        expires: 'until',
        by: 'chosen',
      });
      assert.equal(choices.make({ fields: { size: at('bytes') } }, undefined, input), undefined, 'no URL: no part');
    });
  });

  describe('the model list: the way to read it', () => {
    const choices = choicesOf('modelList');
    const body = { available: { items: [{ ref: 'kappa-base' }, { ref: 'lambda-base' }] }, featured: { items: [{ ref: 'kappa-base' }] } };

    it('offers each way with its models, says the way read now, and makes the way picked', () => {
      const fields = choices.fields('list', { body, allowHttp: false });
      assert.deepEqual(paths(fields), ['available.items[].ref', 'featured.items[].ref']);
      assert.equal(fields[0]!.count, 2);
      assert.deepEqual(fields[0]!.samples, ['kappa-base', 'lambda-base']);
      const made = choices.make({ fields: { list: fields[1]! } }, undefined, { body, allowHttp: false });
      assert.ok(made);
      assert.equal(choices.readAt('list', made, { body, allowHttp: false }), 'featured.items[].ref');
      assert.equal(choices.make({ fields: { list: at('nowhere[]') } }, undefined, { body, allowHttp: false }), undefined);
    });
  });
});
