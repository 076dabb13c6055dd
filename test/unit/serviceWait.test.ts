// A wait the service asks for (Retry-After on a 429), as the client tells it: the caller's observer hears of each wait
// before it is slept, with the time it ends on the client's clock, so the playground and Chat can say it where the
// person looks. A call a person waits on (`interactive`) sleeps at most one such wait; a second refusal reaches the
// caller as a RateLimitError that says how long, for a Retry. Calls nobody watches keep the full retry policy.
import { strict as assert } from 'node:assert';
import { RateLimitError } from '../../src/api/errors';
import type { ServiceWait } from '../../src/api/http';
import { baseRequest, clientFor, collect, inferStream, useFaultEmulator } from './helpers';

const MODELS = '/cr/get_allowed_models';
const INFER = '/cr/provider_predict_platform_base_oss';
/** The client's clock, fixed: the time a wait ends is then exact. */
const NOW = Date.UTC(2025, 0, 15, 14, 1, 0);

describe('client: waits the service asks for', function () {
  this.timeout(30_000);
  const ctx = useFaultEmulator();
  const hits = ctx.hits;

  it('an interactive inference is told of the wait once, with its end, then answers', async () => {
    ctx.emu.faults.add({ path: INFER, kind: 'status', status: 429, retryAfter: '60', times: 1 });
    const client = clientFor(ctx.emu, undefined, { now: () => NOW });
    const waits: ServiceWait[] = [];
    const text = (
      await collect(
        inferStream(client, { ...baseRequest, modelName: ctx.model }, { interactive: true, onServiceWait: (w) => waits.push(w) }),
      )
    ).join('');
    assert.ok(text.length > 0);
    assert.deepEqual(waits, [{ waitMs: 60_000, until: NOW + 60_000 }]);
    assert.deepEqual(client.delays, [60_000]);
    assert.equal(hits(INFER), 2);
  });

  it('an interactive inference refused again after its one wait stops with a RateLimitError that says the wait', async () => {
    ctx.emu.faults.add({ path: INFER, kind: 'status', status: 429, retryAfter: '60', times: 5 });
    const client = clientFor(ctx.emu, undefined, { now: () => NOW });
    const waits: ServiceWait[] = [];
    await assert.rejects(
      collect(inferStream(client, { ...baseRequest, modelName: ctx.model }, { interactive: true, onServiceWait: (w) => waits.push(w) })),
      (e: unknown) => e instanceof RateLimitError && e.retryAfterMs === 60_000 && /Try again in 60 s/.test(e.message),
    );
    assert.deepEqual(waits, [{ waitMs: 60_000, until: NOW + 60_000 }], 'told once');
    assert.deepEqual(client.delays, [60_000], 'slept once');
    assert.equal(hits(INFER), 2);
  });

  it('a wait past the call’s maxServiceWaitMs is its RateLimitError at once, saying the wait; a shorter one is slept', async () => {
    ctx.emu.faults.add({ path: INFER, kind: 'status', status: 429, retryAfter: '30', times: 1 });
    const client = clientFor(ctx.emu, undefined, { now: () => NOW });
    const request = () => inferStream(client, { ...baseRequest, modelName: ctx.model }, { interactive: true, maxServiceWaitMs: 10_000 });
    await assert.rejects(
      collect(request()),
      (e: unknown) => e instanceof RateLimitError && e.retryAfterMs === 30_000 && /Try again in 30 s/.test(e.message),
    );
    assert.deepEqual(client.delays, [], 'nothing slept');
    assert.equal(hits(INFER), 1);
    ctx.emu.faults.add({ path: INFER, kind: 'status', status: 429, retryAfter: '2', times: 1 });
    assert.ok((await collect(request())).join('').length > 0);
    assert.deepEqual(client.delays, [2_000]);
  });

  it('a call nobody watches keeps the retry policy: every wait the service asks for, each told', async () => {
    ctx.emu.faults.add({ path: MODELS, kind: 'status', status: 429, retryAfter: '2', times: 3 });
    const client = clientFor(ctx.emu, undefined, { now: () => NOW });
    const waits: ServiceWait[] = [];
    assert.ok((await client.listModels({ onServiceWait: (w) => waits.push(w) })).length > 0);
    assert.deepEqual(client.delays, [2000, 2000, 2000]);
    assert.equal(waits.length, 3);
    assert.equal(hits(MODELS), 4);
  });

  it('a backoff of the client’s own (no word from the service) is not told as the service’s wait', async () => {
    ctx.emu.faults.add({ path: MODELS, kind: 'status', status: 503, times: 1 });
    const client = clientFor(ctx.emu, undefined, { now: () => NOW });
    const waits: ServiceWait[] = [];
    assert.ok((await client.listModels({ interactive: true, onServiceWait: (w) => waits.push(w) })).length > 0);
    assert.equal(client.delays.length, 1);
    assert.deepEqual(waits, []);
  });
});
