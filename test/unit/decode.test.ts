import { strict as assert } from 'node:assert';
import { formatAccuracy } from '../../src/jobs/jobFormat';
import { decodeErrorMessage } from '../../src/api/errorBody';
import { normaliseState } from '../../src/api/stateWords';
import { ContractError } from '../../src/api/errors';
import { decodeDownloadMetadata, decodeEvaluationStatus, decodeFinetuneStatus, decodeModelList, decodeStartedJob } from './readers';

describe('decode: model list shapes (4.1)', () => {
  const names = (body: unknown) => decodeModelList(body).map((m) => `${m.name}:${m.kind}`);

  it('reads a bare array of strings, kind unknown', () => {
    assert.deepEqual(names(['a', 'b']), ['a:unknown', 'b:unknown']);
  });

  for (const field of ['name', 'model_name', 'id', 'model']) {
    it(`reads objects named by ${field}`, () => {
      assert.deepEqual(
        names([
          { [field]: 'x', type: 'base' },
          { [field]: 'y', type: 'custom' },
        ]),
        ['x:base', 'y:custom'],
      );
    });
  }

  for (const wrapper of ['models', 'allowed_models', 'data']) {
    it(`reads a list wrapped in ${wrapper}`, () => {
      assert.deepEqual(names({ [wrapper]: ['m1', { model_name: 'm2', base_model: 'm1' }] }), ['m1:unknown', 'm2:custom']);
    });
  }

  it('reads base_models / custom_models splits and booleans', () => {
    assert.deepEqual(names({ base_models: ['b'], custom_models: [{ name: 'c' }] }), ['b:base', 'c:custom']);
    assert.deepEqual(
      names([
        { name: 'p', is_custom: false },
        { name: 'q', finetuned: true },
      ]),
      ['p:base', 'q:custom'],
    );
  });

  it('a name with a fine-tune prefix (ft:, custom:) is custom when the answer does not say; the answer wins', () => {
    assert.deepEqual(names(['ft:gpt-4o-mini:acme::abc123', 'CUSTOM:mine', 'llama-3', 'draft:ft:x']), [
      'ft:gpt-4o-mini:acme::abc123:custom',
      'CUSTOM:mine:custom',
      'llama-3:unknown',
      'draft:ft:x:unknown',
    ]);
    assert.deepEqual(names({ models: [{ id: 'ft:a' }, { id: 'ft:b', type: 'base' }, { id: 'custom:c', is_custom: false }] }), [
      'ft:a:custom',
      'ft:b:base',
      'custom:c:base',
    ]);
  });

  it('skips nameless entries, keeps the first of duplicates, keeps the raw record', () => {
    const models = decodeModelList({ models: [{ foo: 1 }, { name: 'a', type: 'base' }, { name: 'a', type: 'custom' }] });
    assert.equal(models.length, 1);
    assert.deepEqual(models[0]?.raw, { name: 'a', type: 'base' });
  });

  it('an empty list is an empty list, not an error', () => {
    assert.deepEqual(decodeModelList({ models: [] }), []);
  });

  it('refuses shapes it cannot read with a ContractError carrying an excerpt', () => {
    for (const body of [{ foo: 'bar' }, 42, null, 'hello', [{}, {}], { models: 'x' }]) {
      assert.throws(
        () => decodeModelList(body),
        (e: unknown) => e instanceof ContractError && typeof e.detail === 'string',
      );
    }
  });
});

describe('decode: job ids (4.3, 4.5)', () => {
  it('finds the id whatever it is called', () => {
    for (const body of [{ job_id: 'j' }, { jobId: 'j' }, { id: 'j' }, { task_id: 'j' }, { data: { job_id: 'j' } }, 'j']) {
      assert.equal(decodeStartedJob(body).jobId, 'j');
    }
  });
  it('no id is a ContractError', () => {
    for (const body of [{}, { status: 'queued' }, null, '', 'two words']) assert.throws(() => decodeStartedJob(body), ContractError);
  });
});

describe('decode: finetune status (4.4)', () => {
  it('maps state words by the one rule', () => {
    assert.equal(normaliseState('Queued'), 'queued');
    assert.equal(normaliseState('in-progress'), 'running');
    assert.equal(normaliseState('IN PROGRESS'), 'running');
    assert.equal(normaliseState('generating_questions'), 'running');
    assert.equal(normaliseState('SUCCEEDED'), 'completed');
    assert.equal(normaliseState('errored'), 'failed');
    assert.equal(normaliseState('canceled'), 'cancelled');
    assert.equal(normaliseState('frobnicating'), 'unknown');
  });

  it('keeps progress, message, error and the raw record', () => {
    const s = decodeFinetuneStatus('j', { status: 'training', progress: 42, message: 'Epoch 2' });
    assert.deepEqual([s.state, s.rawState, s.progress, s.message], ['running', 'training', 42, 'Epoch 2']);
    assert.equal(decodeFinetuneStatus('j', { status: 'running', progress: 0.25 }).progress, 25);
    assert.equal(decodeFinetuneStatus('j', { state: 'running', percent: '70%' }).progress, 70);
    assert.equal(decodeFinetuneStatus('j', { status: 'running', progress: { current: 3, total: 4 } }).progress, 75);
    assert.equal(decodeFinetuneStatus('j', { status: 'done' }).progress, 100);
    const f = decodeFinetuneStatus('j', { status: 'failed', error: { message: 'bad pdf' } });
    assert.deepEqual([f.state, f.error], ['failed', 'bad pdf']);
    assert.equal(decodeFinetuneStatus('j', { status: 'weird', error: 'x' }).state, 'failed');
    const u = decodeFinetuneStatus('j', { status: 'frobnicating' });
    assert.deepEqual([u.state, u.rawState], ['unknown', 'frobnicating']);
  });

  it('reads the model the job made: fine_tuned_model first, never the base model, nothing unusable', () => {
    const made = (body: Record<string, unknown>) => decodeFinetuneStatus('j', { status: 'succeeded', ...body }).modelName;
    assert.equal(made({ model: 'gpt-4o-mini', fine_tuned_model: 'ft:gpt-4o-mini:acme::x1' }), 'ft:gpt-4o-mini:acme::x1');
    assert.equal(made({ model_name: 'asked', fine_tuned_model: 'ft:b:asked:1' }), 'ft:b:asked:1');
    assert.equal(made({ model_name: 'asked', base_model: 'b' }), 'asked');
    assert.equal(made({ model: 'b', base_model: 'b', fine_tuned_model: null }), undefined, 'OpenAI while running: model is the base');
    assert.equal(made({ fine_tuned_model: 'x'.repeat(257), model_name: 'asked' }), 'asked');
    assert.equal(made({ fine_tuned_model: 'a\u0007b' }), undefined);
  });

  it('no status at all is a ContractError', () => {
    assert.throws(() => decodeFinetuneStatus('j', { progress: 3 }), ContractError);
    assert.throws(() => decodeFinetuneStatus('j', 'nope'), ContractError);
  });
});

// An evaluation completed with a result it cannot read: was a ContractError, which the poller took for an unreadable
// answer and asked again forever (issue 27); the service says it ended, so it ends, failed, saying why.
const unreadable = (s: { state: string; error?: string }) => s.state === 'failed' && /result could not be read/.test(s.error ?? '');

describe('decode: evaluation status (4.6)', () => {
  const result = { dataset_name: 'd', model_name: 'm', split: 'test', correct: 3, total: 4, accuracy: 0.75, judge_model: 'j' };
  it('reads a completed result', () => {
    const s = decodeEvaluationStatus('e', { status: 'completed', result });
    assert.equal(s.state, 'completed');
    assert.deepEqual(s.result, { datasetName: 'd', modelName: 'm', split: 'test', correct: 3, total: 4, accuracy: 0.75, judgeModel: 'j' });
  });
  it('reads the error of a failed evaluation in any shape', () => {
    assert.equal(decodeEvaluationStatus('e', { status: 'failed', error: 'Dataset x not found' }).error, 'Dataset x not found');
    assert.equal(decodeEvaluationStatus('e', { status: 'failed', error: { detail: 'nope' } }).error, 'nope');
    assert.equal(decodeEvaluationStatus('e', { status: 'failed' }).error, 'The evaluation failed without a reason.');
  });
  it('completed without a result ends, failed with why; percentages are read as fractions', () => {
    assert.ok(unreadable(decodeEvaluationStatus('e', { status: 'completed' })));
    assert.equal(decodeEvaluationStatus('e', { status: 'completed', result: { ...result, accuracy: 75 } }).result?.accuracy, 0.75);
  });
});

describe('decode: an accuracy that is neither a fraction nor a percentage', () => {
  const result = { dataset_name: 'd', model_name: 'm', correct: 3, total: 4 };
  it('is never shown as Infinity% or 1e+310%: the counts give it, or the evaluation ends unread', () => {
    for (const accuracy of [1e308, 101, -0.5]) {
      const s = decodeEvaluationStatus('e', { status: 'completed', result: { ...result, accuracy } });
      assert.equal(s.result?.accuracy, 0.75, `accuracy ${accuracy}`);
      assert.equal(formatAccuracy(s.result), '75.0% (3/4)');
      assert.ok(unreadable(decodeEvaluationStatus('e', { status: 'completed', result: { dataset_name: 'd', accuracy } })));
    }
  });
  it('a result whose counts are not counts is not read as one either', () => {
    assert.ok(
      unreadable(decodeEvaluationStatus('e', { status: 'completed', result: { correct: 5, total: 4 } })),
      'more correct than asked',
    );
  });
});

describe('decode: download metadata (4.7)', () => {
  it('reads url fields, expiry forms, checksum and size', () => {
    const now = 1_000_000;
    assert.deepEqual(decodeDownloadMetadata({ url: 'https://s/x', expires_in: 60, sha256: 'A'.repeat(64), size: 5 }, now), {
      url: 'https://s/x',
      expiresAt: now + 60_000,
      size: 5,
      sha256: 'a'.repeat(64),
      fileName: undefined,
    });
    // The URL is the answer's absolute https URL (issue 27): these once said 'u', a relative URL no longer taken.
    const u = 'https://s/u';
    assert.equal(
      decodeDownloadMetadata({ signed_url: u, expires_at: '2030-01-01T00:00:00Z' }).expiresAt,
      Date.parse('2030-01-01T00:00:00Z'),
    );
    assert.equal(decodeDownloadMetadata({ download_url: u, expires: 1_900_000_000 }).expiresAt, 1_900_000_000_000);
    assert.equal(decodeDownloadMetadata({ data: { url: u, checksum: `sha256:${'b'.repeat(64)}` } }).sha256, 'b'.repeat(64));
    assert.equal(decodeDownloadMetadata({ url: u, checksum: 'md5:abc' }).sha256, undefined);
  });
  it('no URL is a ContractError', () => {
    assert.throws(() => decodeDownloadMetadata({ expires_in: 3 }), ContractError);
  });
});

describe('decode: error bodies (7)', () => {
  it('reads the usual shapes', () => {
    assert.equal(decodeErrorMessage({ detail: 'Invalid API key' }), 'Invalid API key');
    assert.equal(decodeErrorMessage({ detail: [{ loc: ['body', 'temperature'], msg: 'too high' }] }), 'temperature: too high');
    assert.equal(decodeErrorMessage({ error: { message: 'm' } }), 'm');
    assert.equal(
      decodeErrorMessage('<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>'),
      'Request has expired',
    );
    assert.equal(decodeErrorMessage('<html><body>502</body></html>'), undefined);
    assert.equal(decodeErrorMessage({}), undefined);
  });
});

describe('decode: by structure (issue 20)', () => {
  it('a model list grouped by kind under keys the decoder does not list', () => {
    const body = {
      available: { foundation_models: ['llama-8b', { slug: 'qwen-7b' }], yourModels: [{ slug: 'mine-1', derived_from: 'llama-8b' }] },
    };
    assert.deepEqual(
      decodeModelList(body).map((m) => [m.name, m.kind, m.baseModel]),
      [
        ['llama-8b', 'base', undefined],
        ['qwen-7b', 'base', undefined],
        ['mine-1', 'custom', 'llama-8b'],
      ],
    );
  });

  it('two lists that fit equally well are a ContractError naming both, never a silent pick', () => {
    const body = { left: { list: ['a-1', 'b-1'] }, right: { list: ['c-1', 'd-1'] } };
    assert.throws(
      () => decodeModelList(body),
      (e: unknown) =>
        e instanceof ContractError && / left\.list \(a-1, b-1\)/.test(e.message) && / right\.list \(c-1, d-1\)/.test(e.message),
    );
  });

  it('the body that "plainly listed two models" while the old decoder said "no entry has a name"', () => {
    const body = {
      catalogue: [
        { handle: 'acme-reasoner-8b', owner: 'acme' },
        { handle: 'acme-coder-14b', owner: 'acme' },
      ],
    };
    assert.deepEqual(
      decodeModelList(body).map((m) => m.name),
      ['acme-reasoner-8b', 'acme-coder-14b'],
    );
  });

  it('a job id nested deeper, past the request echoed back; two candidates refused by name', () => {
    assert.equal(decodeStartedJob({ result: { ticket: { ref: 'job-77' } }, model: 'm-1' }, { sent: ['m-1'] }).jobId, 'job-77');
    assert.throws(
      () => decodeStartedJob({ job: 'job-1', request: 'req-2' }),
      (e: unknown) => e instanceof ContractError && /"job-1" and "req-2"/.test(e.message),
    );
  });

  it('a 201/202 with only a Location header gives the job id; a 200 without an id is refused', () => {
    assert.equal(decodeStartedJob('', { status: 202, location: '/v1/jobs/ftjob-9' }).jobId, 'ftjob-9');
    assert.equal(decodeStartedJob({ status: 'accepted' }, { status: 201, location: 'https://svc/status?job_id=e-3' }).jobId, 'e-3');
    assert.throws(() => decodeStartedJob('', { status: 200, location: '/v1/jobs/ftjob-9' }), ContractError);
  });

  it('progress from counts: items done of total, step of max steps, epoch of epochs', () => {
    const p = (body: Record<string, unknown>) => decodeFinetuneStatus('j', { status: 'running', ...body }).progress;
    assert.equal(p({ items: { done: 30, total: 120 } }), 25);
    assert.equal(p({ step: 50, max_steps: 200, created: 1_700_000_000 }), 25);
    assert.equal(p({ epoch: 1, epochs: 4 }), 25);
    assert.equal(p({ questions_generated: 20, num_questions: 50 }), 40);
    assert.equal(p({ attempt: 2, priority: 5 }), undefined, 'two numbers that are not a done/total pair');
  });

  it('a phase word when there is no number; a list of errors joined', () => {
    const s = decodeFinetuneStatus('j', { status: 'running', stage: 'extracting_text' });
    assert.deepEqual([s.progress, s.message], [undefined, 'Extracting text']);
    const f = decodeFinetuneStatus('j', { status: 'failed', errors: [{ message: 'bad page 3' }, 'no text in file b'] });
    assert.equal(f.error, 'bad page 3; no text in file b');
  });

  it('a phase word beside the state word is the stage (a new one starts the time left again); a sentence is none', () => {
    const s = decodeFinetuneStatus('j', { status: 'running', stage: 'extracting_text', percent: 20 });
    assert.deepEqual([s.stage, s.message], ['extracting_text', 'Extracting text']);
    const prose = decodeFinetuneStatus('j', { status: 'running', message: 'Generated 3 of 10 questions', percent: 20 });
    assert.equal(prose.stage, undefined);
  });

  it('two states that disagree at the same rank are a ContractError', () => {
    assert.throws(() => decodeFinetuneStatus('j', { status: 'running', state: 'failed' }), ContractError);
    assert.equal(decodeFinetuneStatus('j', { status: 'running', health: 'ok' }).state, 'running', 'a status key says it first');
  });
});
