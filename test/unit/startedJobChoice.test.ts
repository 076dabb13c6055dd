// A start answer whose job id cannot be read (issue 27, item 2): the client hands it to the book with its status,
// Location and what the request sent; the person's chosen place reads it again and is kept with by: 'chosen'; later
// answers that fit are read by it without a change, one that no longer fits is inferred again and says so.
import { strict as assert } from 'node:assert';
import { ServiceClient } from '../../src/api/client';
import { ContractError } from '../../src/api/errors';
import type { ProfileBook } from '../../src/api/profileBook';
import type { StartedJobProfile } from '../../src/api/profileFormat';
import { readStartedJob, type StartAnswer } from '../../src/api/startedJob';
import { choicesOf, startedJobAt as readByChosenPlace } from '../../src/api/answerKinds';
import { headers, postJson } from './emulator-helpers';
import { emptyProfileBook, KEY, useEmulator } from './helpers';

/** The fields the kind offers for the job's id (its choices, answerKinds.ts). */
const startedJobFields = (body: unknown, answer: StartAnswer) =>
  choicesOf('startedJob').fields('jobId', { body, context: { kind: 'evaluation', answer }, allowHttp: false });
/** The part a person's choice of `path` in `body` makes over `kept`; undefined when no job id is there. */
const withChosenPlace = (
  kept: StartedJobProfile | undefined,
  kind: 'finetune' | 'evaluation',
  path: string,
  body: unknown,
  answer: StartAnswer = {},
) =>
  choicesOf('startedJob').make({ fields: { jobId: { path, samples: [], types: ['text'] } } }, kept, {
    body,
    context: { kind, answer },
    allowHttp: false,
  });

describe('emulator: a start answered with two ids (answerShapes.start: two-ids)', function () {
  const ctx = useEmulator({ answerShapes: { start: 'two-ids' } });

  it('puts the job ref beside a batch ref at the same depth, and the job exists', async () => {
    const { status, body } = await postJson<{ result: { job: { ref: string }; batch: { ref: string } } }>(
      `${ctx.emu.url}/cr/finetune_model/evaluate_async`,
      { dataset_name: 'squad', model_name: 'oss-reasoner-8b' },
    );
    assert.equal(status, 200);
    assert.match(body.result.batch.ref, /^batch-\d+$/);
    assert.notEqual(body.result.job.ref, body.result.batch.ref);
    const polled = await fetch(`${ctx.emu.url}/cr/finetune_model/evaluate_status?job_id=${body.result.job.ref}`, {
      headers: headers(),
    });
    assert.equal(polled.status, 200);
  });
});

describe('client: an unreadable start answer is handed to the book', function () {
  this.timeout(20_000);
  const ctx = useEmulator({ answerShapes: { start: 'two-ids' } });
  beforeEach(() => ctx.emu.faults.clear());

  function client(book: ProfileBook): ServiceClient {
    return new ServiceClient(
      {
        baseUrl: ctx.emu.url,
        apiKey: KEY,
        sleep: async () => undefined,
        timeouts: { requestMs: 5_000, streamIdleMs: 2_000, connectMs: 5_000, uploadIdleMs: 10_000 },
      },
      book,
    );
  }

  it('an evaluation: the body, its status and what was sent reach unreadableStartedJob, and the error is a ContractError', async () => {
    const handed: { kind: string; body: unknown; answer: StartAnswer }[] = [];
    const book = emptyProfileBook({ unreadableStartedJob: (kind, body, answer) => handed.push({ kind, body, answer }) });
    await assert.rejects(client(book).startEvaluation('oss-reasoner-8b', 'squad'), ContractError);
    assert.equal(handed.length, 1);
    const [h] = handed;
    assert.equal(h!.kind, 'evaluation');
    assert.equal(h!.answer.status, 200);
    assert.deepEqual(h!.answer.sent, ['oss-reasoner-8b', 'squad']);
    const job = readByChosenPlace(h!.body, h!.answer, 'result.job.ref');
    assert.ok(job, 'the kept body read by the chosen place');
    const polled = await fetch(`${ctx.emu.url}/cr/finetune_model/evaluate_status?job_id=${job.jobId}`, {
      headers: headers(),
    });
    assert.equal(polled.status, 200, 'the id read names the job the emulator started');
  });

  it('the Location header goes with the body', async () => {
    ctx.emu.faults.add({
      path: '/cr/finetune_model/evaluate_async',
      kind: 'body',
      status: 202,
      body: JSON.stringify({ a: { ref: 'x-1' }, b: { ref: 'y-2' } }),
      headers: { Location: '/jobs/x-1' },
    });
    const handed: StartAnswer[] = [];
    const book = emptyProfileBook({ unreadableStartedJob: (_kind, _body, answer) => handed.push(answer) });
    await assert.rejects(client(book).startEvaluation('oss-reasoner-8b', 'squad'), ContractError);
    assert.equal(handed[0]?.status, 202);
    assert.equal(handed[0]?.location, '/jobs/x-1');
  });

  it('a readable start hands nothing over', async () => {
    ctx.emu.configure({ answerShapes: { start: 'flat' } });
    try {
      let handed = 0;
      const book = emptyProfileBook({ unreadableStartedJob: () => handed++ });
      await client(book).startEvaluation('oss-reasoner-8b', 'squad');
      assert.equal(handed, 0);
    } finally {
      ctx.emu.configure({ answerShapes: { start: 'two-ids' } });
    }
  });

  it('once chosen, the next start of that kind is read by the chosen place at once, with no change to keep', async () => {
    let part: StartedJobProfile | undefined = withChosenPlace(undefined, 'evaluation', 'result.job.ref', {
      result: { job: { ref: 'ev-1' }, batch: { ref: 'batch-1' } },
    });
    const reports: { from: string; change?: string }[] = [];
    const book = emptyProfileBook({
      startedJob: () => part,
      readStartedJob: ({ from, change }) => {
        reports.push({ from, change });
        if (change !== undefined) part = { ...part!, evaluation: from, by: 'inferred' };
      },
    });
    const started = await client(book).startEvaluation('oss-reasoner-8b', 'squad');
    assert.match(started.jobId, /\S/);
    assert.deepEqual(reports, [{ from: 'result.job.ref', change: undefined }]);
    assert.equal(part?.by, 'chosen');
  });
});

describe('Choose How to Read… a started job: the fields, the chosen place and what it reads', () => {
  const TWO = { accepted: true, result: { job: { ref: 'ev-4f1a' }, batch: { ref: 'batch-77' } }, model: 'oss-8b', n: 3 };
  const sent: StartAnswer = { status: 200, sent: ['oss-8b', 'squad'] };
  it('offers text and number fields, id-like ones first, none of a list, nor true/false', () => {
    const body = { note: 'queued', ...TWO, items: [{ ref: 'i-1' }] };
    assert.deepEqual(
      startedJobFields(body, sent).map((f) => f.path),
      ['result.job.ref', 'result.batch.ref', 'n', 'note', 'model'],
    );
  });

  it('reads the kept body by the chosen place, and refuses a place that holds no id', () => {
    assert.throws(() => readStartedJob(TWO, sent), ContractError, 'the answer cannot be read alone');
    assert.equal(readByChosenPlace(TWO, sent, 'result.job.ref')?.jobId, 'ev-4f1a');
    assert.equal(readByChosenPlace(TWO, sent, 'result.batch.ref')?.jobId, 'batch-77');
    assert.equal(readByChosenPlace(TWO, sent, 'model'), undefined, 'a value the request sent is no id');
    assert.equal(readByChosenPlace(TWO, sent, 'accepted'), undefined);
    assert.equal(readByChosenPlace(TWO, sent, 'nowhere'), undefined);
  });

  it('a number at a chosen place is an id (the person said so)', () => {
    const body = { ticket: { number: 48213 }, position: 3 };
    assert.equal(readByChosenPlace(body, sent, 'ticket.number')?.jobId, '48213');
  });

  it('keeps the chosen place with by: chosen, the other endpoint’s place as it was', () => {
    assert.deepEqual(withChosenPlace({ finetune: 'job_id', by: 'inferred' }, 'evaluation', 'result.job.ref', TWO), {
      finetune: 'job_id',
      evaluation: 'result.job.ref',
      by: 'chosen',
    });
    assert.deepEqual(withChosenPlace(undefined, 'finetune', 'ticket.number', { ticket: { number: 48213 } }), {
      finetune: 'ticket.number',
      by: 'chosen',
    });
    // A place that holds no id makes no part: nothing is kept.
    assert.equal(withChosenPlace(undefined, 'evaluation', 'model', TWO, sent), undefined);
  });

  it('a chosen place survives a later answer that fits it; one that no longer fits is inferred again and says so', () => {
    const later = { accepted: true, result: { job: { ref: 'ev-9c2d' }, batch: { ref: 'batch-78' } } };
    assert.deepEqual(readStartedJob(later, sent, 'result.job.ref'), {
      job: { jobId: 'ev-9c2d', raw: later },
      from: 'result.job.ref',
    });
    const moved = { job_id: 'ev-0b7e', status: 'queued' };
    const reading = readStartedJob(moved, sent, 'result.job.ref');
    assert.equal(reading.job.jobId, 'ev-0b7e');
    assert.equal(reading.from, 'job_id');
    assert.match(reading.change ?? '', /no longer fits how it was read \(the id at result\.job\.ref\); now: the id at job_id/);
  });
});
