// Answers with more elements than a spread or `apply` takes (about 125,000 arguments: bodies of 0.6 to 4 MiB, far under
// the size caps) are read like any other, and whatever a reader meets that is not an ApiError reaches the caller as a
// ContractError: the poller shows the job's status as unreadable, and Chat shows "cannot read", not a stack overflow.
import { strict as assert } from 'node:assert';
import { decodeInferenceResult, mergePieces, readEvent, type InferencePiece } from '../../src/api/answerText';
import { StreamReading } from '../../src/api/streamReading';
import { ContractError } from '../../src/api/errors';
import { decodePieces } from '../../src/api/stream';
import { whileObjectWalksThrow } from './throwingBuiltin';
import { decodeEvaluationStatus, decodeFinetuneStatus, decodeModelList, decodeStartedJob } from './readers';

/**
 * Above the most arguments a spread takes here (about 125,000 with V8's default stack; the first test holds that true,
 * or the file would prove nothing), with a fifth to spare; 200,000 cost a third more time for no more proof.
 */
const MANY = 150_000;
const records = () => Array.from({ length: MANY }, (_, i) => ({ i }));
const letters = () => Array.from({ length: MANY }, () => 'a');

async function streamed(body: string, contentType: string): Promise<{ reasoning: string; answer: string }> {
  async function* source(): AsyncGenerator<Uint8Array> {
    yield Buffer.from(body);
  }
  let reasoning = '';
  let answer = '';
  for await (const p of decodePieces(source(), { contentType })) {
    if (p.kind === 'reasoning') reasoning += p.text;
    else answer += p.text;
  }
  return { reasoning, answer };
}

describe(`answers holding ${MANY} elements`, () => {
  it('is more elements than a spread takes here', () => {
    assert.throws(() => Math.max(...letters().map((x) => x.length)), RangeError);
  });

  it('a job status beside a list of that many records is read', () => {
    const body = { status: 'running', progress: 0.5, items: records() };
    assert.ok(JSON.stringify(body).length > 1_000_000, 'a body over 1 MB');
    assert.equal(decodeFinetuneStatus('j', body).state, 'running');
    assert.equal(decodeEvaluationStatus('e', { status: 'running', items: records() }).state, 'running');
    assert.throws(() => decodeFinetuneStatus('j', { items: records() }), ContractError, 'no status: refused as unreadable');
  });

  it('an answer in that many pieces is read, whole and streamed; its reasoning too', async () => {
    assert.deepEqual(decodeInferenceResult({ text: letters() }), [{ kind: 'answer', text: 'a'.repeat(MANY) }]);
    assert.deepEqual(decodeInferenceResult({ reasoning: letters(), text: ['b'] }), [
      { kind: 'reasoning', text: 'a'.repeat(MANY) },
      { kind: 'answer', text: 'b' },
    ]);
    assert.deepEqual(decodeInferenceResult({ choices: [{ message: { content: letters() } }] }), [
      { kind: 'answer', text: 'a'.repeat(MANY) },
    ]);
    const event = JSON.stringify({ text: letters() });
    const pieces: InferencePiece[] = [];
    assert.equal(readEvent({ event: '', data: event }, false, new StreamReading(), pieces), false);
    assert.deepEqual(mergePieces(pieces), [{ kind: 'answer', text: 'a'.repeat(MANY) }]);
    assert.deepEqual(await streamed(`${event}\n`, 'application/x-ndjson'), { reasoning: '', answer: 'a'.repeat(MANY) });
    assert.deepEqual(await streamed(`data: ${event}\n\n`, 'text/event-stream'), { reasoning: '', answer: 'a'.repeat(MANY) });
  });

  it('a record of that many prose fields is refused as ambiguous, not overflowed', () => {
    // Each text its own: fields carrying one same text are that one text (streamInference.ts rule 4), not a tie.
    const body = Object.fromEntries(Array.from({ length: MANY }, (_, i) => [`f${i}`, `two words ${i}`]));
    assert.throws(() => decodeInferenceResult(body), ContractError);
  });

  it('a model list and a started job beside that many records are read', () => {
    assert.deepEqual(
      decodeModelList({ models: ['m1', 'm2'], extra: records() }).map((m) => m.name),
      ['m1', 'm2'],
    );
    assert.equal(decodeStartedJob({ job_id: 'job-1', items: records() }).jobId, 'job-1');
  });
});

describe('an error of its own in a reader of answers', () => {
  // A builtin that throws a RangeError, as a spread did past about 125,000 arguments.
  const isUnreadable = (e: unknown) => e instanceof ContractError && e.kind === 'contract' && /cannot read/.test(e.message);

  it('is a ContractError from every decoder, never the RangeError itself', () => {
    // The error record is read by its values (errorBody.ts): a builtin every status reader meets, whatever else it walks.
    const body = { status: 'running', job_id: 'job-1', models: ['m'], text: 'a b', error: { message: 'out of memory' } };
    assert.throws(() => whileObjectWalksThrow(() => decodeFinetuneStatus('j', body)), isUnreadable);
    assert.throws(() => whileObjectWalksThrow(() => decodeEvaluationStatus('e', body)), isUnreadable);
    assert.throws(() => whileObjectWalksThrow(() => decodeModelList(body)), isUnreadable);
    assert.throws(() => whileObjectWalksThrow(() => decodeStartedJob(body)), isUnreadable);
    assert.throws(() => whileObjectWalksThrow(() => decodeInferenceResult(body)), isUnreadable);
  });

  it('is a ContractError from a stream', async () => {
    const event = JSON.stringify({ type: 'delta', text: 'a b' });
    for (const [body, type] of [
      [`${event}\n`, 'application/x-ndjson'],
      [`data: ${event}\n\n`, 'text/event-stream'],
      [event, 'application/json'],
    ]) {
      await assert.rejects(
        whileObjectWalksThrow(() => streamed(body!, type!)),
        isUnreadable,
        type,
      );
    }
  });
});
