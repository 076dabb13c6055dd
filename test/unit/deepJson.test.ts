// JSON nested far deeper than any answer (100,000 levels) is refused with a ContractError wherever the service sends
// it, never a RangeError from a reader that walks it; in an error body it leaves the status's own error intact.
import { strict as assert } from 'node:assert';
import { ContractError, ServerError } from '../../src/api/errors';
import { MAX_JSON_DEPTH, nestingExceeds, parseJson } from '../../src/api/safeJson';
import { deepJson } from '../service/faults';
import { clientFor, collect, baseRequest, useEmulator, inferStream } from './helpers';

const DEEP = 100_000;
const MODELS = '/cr/get_allowed_models';
const FINETUNE_STATUS = '/cr/generate_questions_status';
const EVAL_START = '/cr/finetune_model/evaluate_async';
const INFER = '/cr/provider_predict_platform_base_oss';

const isContract = (e: unknown) => {
  assert.ok(e instanceof ContractError, `expected a ContractError, got ${String(e)}`);
  return true;
};

describe('client: deeply nested JSON', function () {
  this.timeout(30_000);
  const ctx = useEmulator();
  beforeEach(() => ctx.emu.faults.clear());
  const answer = (path: string, body: string, contentType = 'application/json') =>
    ctx.emu.faults.add({ path, kind: 'body', body, contentType, times: 1 });

  it('a model list nested 100,000 deep (array or object) is a ContractError', async () => {
    const client = clientFor(ctx.emu, undefined, { retry: { retries: 0 } });
    answer(MODELS, `{"models":${deepJson(DEEP)}}`);
    await assert.rejects(client.listModels(), isContract);
    answer(MODELS, deepJson(DEEP, 'object').replaceAll('"a"', '"data"'));
    await assert.rejects(client.listModels(), isContract);
  });

  it('a finetune status whose error is nested 100,000 deep is a ContractError', async () => {
    answer(FINETUNE_STATUS, `{"status":"failed","error":${deepJson(DEEP)}}`);
    await assert.rejects(clientFor(ctx.emu, undefined, { retry: { retries: 0 } }).getFinetuneStatus('j'), isContract);
  });

  it('an SSE error event nested 100,000 deep is a ContractError', async () => {
    answer(INFER, `data: {"token":"a"}\n\nevent: error\ndata: {"error":${deepJson(DEEP)}}\n\n`, 'text/event-stream');
    await assert.rejects(collect(inferStream(clientFor(ctx.emu), { ...baseRequest, modelName: 'm' })), isContract);
  });

  it('an NDJSON line nested 100,000 deep is a ContractError', async () => {
    answer(INFER, `{"token":"a"}\n{"error":${deepJson(DEEP)}}\n`, 'application/x-ndjson');
    await assert.rejects(collect(inferStream(clientFor(ctx.emu), { ...baseRequest, modelName: 'm' })), isContract);
  });

  it('a 500 whose body is nested 100,000 deep stays a ServerError (not a retried network error)', async () => {
    ctx.emu.faults.add({ path: MODELS, kind: 'status', status: 500, body: `{"detail":${deepJson(DEEP)}}`, times: 1 });
    await assert.rejects(clientFor(ctx.emu, undefined, { retry: { retries: 0 } }).listModels(), (e: unknown) => {
      assert.ok(e instanceof ServerError, `expected a ServerError, got ${String(e)}`);
      assert.equal(e.status, 500);
      return true;
    });
  });

  it('a start answer with an overlong id, or one with control characters, is a ContractError', async () => {
    const client = clientFor(ctx.emu);
    answer(EVAL_START, JSON.stringify({ job_id: 'j'.repeat(257) }));
    await assert.rejects(client.startEvaluation('m', 'd'), isContract);
    answer(EVAL_START, JSON.stringify({ job_id: 'job\u001b[31m' }));
    await assert.rejects(client.startEvaluation('m', 'd'), isContract);
    answer(EVAL_START, JSON.stringify({ job_id: 'j'.repeat(256) }));
    assert.equal((await client.startEvaluation('m', 'd')).jobId, 'j'.repeat(256));
  });
});

describe('safe JSON parser', () => {
  it('accepts MAX_JSON_DEPTH levels and refuses one more', () => {
    assert.deepEqual(nestingExceeds(deepJson(MAX_JSON_DEPTH)), false);
    assert.deepEqual(nestingExceeds(deepJson(MAX_JSON_DEPTH + 1)), true);
    assert.ok(Array.isArray(parseJson(deepJson(MAX_JSON_DEPTH))));
    assert.throws(() => parseJson(deepJson(MAX_JSON_DEPTH + 1, 'object')), ContractError);
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    const text = JSON.stringify({ a: '['.repeat(1000), b: `\\"${'{'.repeat(1000)}`, c: [[1]] });
    assert.equal(nestingExceeds(text), false);
    assert.deepEqual((parseJson(text) as { c: unknown }).c, [[1]]);
  });

  it('text that is not JSON is a ContractError, not a SyntaxError', () => {
    assert.throws(() => parseJson('{"a":'), ContractError);
  });
});
