// Each injected fault ends in a retry or a clear typed error, as the policy in http.ts says.
import { strict as assert } from 'node:assert';
import * as net from 'node:net';
import {
  AuthError,
  CancelledError,
  ContractError,
  NetworkError,
  RateLimitError,
  RequestError,
  ServerError,
  TimeoutError,
} from '../../src/api/errors';
import { ServiceClient } from '../../src/api/client';
import { sleep } from '../../src/api/http';
import { deferred } from './pollRig';
import { KEY, baseRequest, clientFor, collect, useFaultEmulator, inferStream, inferWhole } from './helpers';

const MODELS = '/cr/get_allowed_models';
const INFER = '/cr/provider_predict_platform_base_oss';
const EVAL = '/cr/finetune_model/evaluate_async';

describe('client: injected faults', function () {
  this.timeout(30_000);
  const ctx = useFaultEmulator();
  const hits = ctx.hits;

  it('429 with Retry-After on a GET: waits what the server asked, then succeeds', async () => {
    ctx.emu.faults.add({ path: MODELS, kind: 'status', status: 429, retryAfter: '2', times: 1 });
    const client = clientFor(ctx.emu);
    assert.ok((await client.listModels()).length > 0);
    assert.equal(hits(MODELS), 2);
    assert.ok((client.delays[0] ?? 0) >= 2000, `waited ${client.delays[0]} ms`);
  });

  it('a 5xx burst on a GET is retried with growing delays', async () => {
    ctx.emu.faults.add({ path: MODELS, kind: 'status', status: 503, times: 3 });
    const client = clientFor(ctx.emu);
    assert.ok((await client.listModels()).length > 0);
    assert.equal(hits(MODELS), 4);
    assert.equal(client.delays.length, 3);
    assert.ok(client.delays[2]! > client.delays[0]! / 2);
  });

  it('a 5xx that never ends becomes a ServerError after the retries', async () => {
    ctx.emu.faults.add({ path: MODELS, kind: 'status', status: 500, times: 100 });
    await assert.rejects(clientFor(ctx.emu).listModels(), ServerError);
    assert.equal(hits(MODELS), 5);
  });

  it('a 503 on a POST is not repeated (the outcome is unknown)', async () => {
    ctx.emu.faults.add({ path: EVAL, kind: 'status', status: 503, times: 1 });
    await assert.rejects(clientFor(ctx.emu).startEvaluation(ctx.model, 'demo-qa'), ServerError);
    assert.equal(hits(EVAL), 1);
  });

  it('a 429 on a POST is retried (the server said it did nothing)', async () => {
    ctx.emu.faults.add({ path: EVAL, kind: 'status', status: 429, retryAfter: '1', times: 1 });
    const job = await clientFor(ctx.emu).startEvaluation(ctx.model, 'demo-qa');
    assert.ok(job.jobId);
    assert.equal(hits(EVAL), 2);
  });

  it('a Retry-After above the cap reaches the caller as a RateLimitError with the wait', async () => {
    ctx.emu.faults.add({ path: MODELS, kind: 'status', status: 429, retryAfter: '3600', times: 1 });
    await assert.rejects(clientFor(ctx.emu).listModels(), (e: unknown) => e instanceof RateLimitError && e.retryAfterMs === 3_600_000);
    assert.equal(hits(MODELS), 1);
  });

  it('a connection reset mid-body on a GET is retried', async () => {
    ctx.emu.faults.add({ path: MODELS, kind: 'reset', afterBytes: 5, times: 1 });
    assert.ok((await clientFor(ctx.emu).listModels()).length > 0);
    assert.equal(hits(MODELS), 2);
  });

  it('a reset mid-stream on inference is a NetworkError and the POST is not repeated', async () => {
    ctx.emu.faults.add({ path: INFER, kind: 'reset', afterBytes: 40, times: 1 });
    await assert.rejects(collect(inferStream(clientFor(ctx.emu), { ...baseRequest, modelName: ctx.model })), NetworkError);
    assert.equal(hits(INFER), 1);
  });

  it('an inference stream silent after its headers is thinking: the idle limit does not apply, the wait limit does', async () => {
    ctx.emu.faults.add({ path: INFER, kind: 'stall', times: 1 });
    const client = clientFor(ctx.emu, KEY, { timeouts: { streamIdleMs: 50, answerWaitMs: 600 } });
    await assert.rejects(
      collect(inferStream(client, { ...baseRequest, modelName: ctx.model })),
      (e: unknown) => e instanceof TimeoutError && /the wait limit/.test(e.message) && !/stalled/.test(e.message),
    );
  });

  it('latency beyond the request timeout is a TimeoutError after the retries', async () => {
    ctx.emu.faults.add({ path: MODELS, kind: 'latency', ms: 1500, times: 10 });
    const client = clientFor(ctx.emu, KEY, { timeouts: { requestMs: 200 }, retry: { retries: 1 } });
    await assert.rejects(client.listModels(), TimeoutError);
    assert.equal(client.delays.length, 1);
  });

  it('cancelling during the sleep between retries stops at once', async () => {
    ctx.emu.faults.add({ path: MODELS, kind: 'status', status: 503, times: 10 });
    const controller = new AbortController();
    // The real sleep, with a backoff longer than mocha's timeout: the test ends only if the abort cuts it short.
    const sleeping = deferred<void>();
    const client = new ServiceClient({
      baseUrl: ctx.emu.url,
      apiKey: KEY,
      retry: { baseDelayMs: 60_000, maxDelayMs: 60_000 },
      sleep: (ms, signal) => {
        sleeping.resolve();
        return sleep(ms, signal);
      },
    });
    ctx.emu.clearReceived();
    const listing = client.listModels({ signal: controller.signal });
    await sleeping.promise;
    controller.abort();
    await assert.rejects(listing, CancelledError);
    assert.equal(ctx.emu.received.filter((r) => r.path === MODELS).length, 1, 'no retry after the cancel');
  });

  it('a malformed 200 body is a ContractError with an excerpt, never a crash', async () => {
    ctx.emu.faults.add({ path: MODELS, kind: 'body', body: '{"models": [', contentType: 'application/json' });
    await assert.rejects(clientFor(ctx.emu).listModels(), (e: unknown) => e instanceof ContractError && /models/.test(e.detail ?? ''));
  });

  it('401/403 are AuthErrors, 404/422 RequestErrors with the server message', async () => {
    ctx.emu.faults.add({ path: MODELS, kind: 'status', status: 401, times: 1 });
    await assert.rejects(clientFor(ctx.emu).listModels(), AuthError);
    await assert.rejects(
      clientFor(ctx.emu).startEvaluation('no-such-model', 'demo-qa'),
      (e: unknown) => e instanceof RequestError && e.status === 404,
    );
    await assert.rejects(
      inferWhole(clientFor(ctx.emu), { ...baseRequest, modelName: ctx.model, stream: false, temperature: 99 }),
      (e: unknown) => e instanceof RequestError && /temperature/i.test(e.message),
    );
  });

  it('an error event inside a stream is a ServerError carrying its message', async () => {
    await assert.rejects(
      collect(inferStream(clientFor(ctx.emu), { ...baseRequest, modelName: ctx.model, prompt: 'fail [[emulator:stream-error]]' })),
      ServerError,
    );
  });
});

describe('client: a refused connection (nothing listening)', () => {
  // A port that was just free: nothing listens there, so every connection is refused.
  let url = '';
  before(async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/`;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const refusedClient = () => {
    const delays: number[] = [];
    const client = new ServiceClient({ baseUrl: url, apiKey: KEY, sleep: (ms) => Promise.resolve(void delays.push(ms)) });
    return { client, delays };
  };
  const refused = (e: unknown) => e instanceof NetworkError && /ECONNREFUSED/.test(e.message);

  it('an interactive GET or POST fails at once, without a retry', async () => {
    const { client, delays } = refusedClient();
    await assert.rejects(client.listModels({ interactive: true }), refused);
    await assert.rejects(client.startEvaluation('m', 'd', { interactive: true }), refused);
    assert.deepEqual(delays, []);
  });

  it('a background GET (the poller) keeps its backoff', async () => {
    const { client, delays } = refusedClient();
    await assert.rejects(client.getFinetuneStatus('job-1'), refused);
    assert.equal(delays.length, 4);
  });
});
