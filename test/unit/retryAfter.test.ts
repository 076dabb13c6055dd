// Retry-After is the server's word on any status that carries it (a 503 during maintenance as a 429): the client waits
// exactly that (no jitter on top), hands a wait above its cap to the caller, and says the wait in rounded words.
import { strict as assert } from 'node:assert';
import { RateLimitError, ServerError } from '../../src/api/errors';
import { waitText } from '../../src/api/waitText';
import { clientFor, useEmulator } from './helpers';

const MODELS = '/cr/get_allowed_models';

describe('client: Retry-After on any status', function () {
  this.timeout(30_000);
  const ctx = useEmulator();
  beforeEach(() => {
    ctx.emu.faults.clear();
    ctx.emu.clearReceived();
  });
  const hits = () => ctx.emu.received.filter((r) => r.origin === 'api' && r.path.split('?')[0] === MODELS).length;

  it('a 503 with Retry-After in seconds waits exactly that, then succeeds', async () => {
    ctx.emu.faults.add({ path: MODELS, kind: 'status', status: 503, retryAfter: 3, times: 1 });
    const client = clientFor(ctx.emu, undefined, { random: () => 0.5 });
    assert.ok((await client.listModels()).length > 0);
    assert.equal(hits(), 2);
    assert.deepEqual(client.delays, [3000]);
  });

  it('a 503 with Retry-After as an HTTP date waits until that date', async () => {
    // HTTP dates have whole seconds: 20 s ahead is read as a little over 19 s, whatever the emulator's rounding.
    ctx.emu.faults.add({ path: MODELS, kind: 'status', status: 503, retryAfter: new Date(Date.now() + 20_000), times: 1 });
    const client = clientFor(ctx.emu, undefined, { random: () => 0.5 });
    assert.ok((await client.listModels()).length > 0);
    assert.equal(client.delays.length, 1);
    assert.ok(client.delays[0]! > 15_000 && client.delays[0]! <= 20_000, `waited ${client.delays[0]} ms`);
  });

  it('no jitter is added to what the server said (429 and 503 alike)', async () => {
    for (const status of [429, 503]) {
      ctx.emu.faults.clear();
      ctx.emu.faults.add({ path: MODELS, kind: 'status', status, retryAfter: '1', times: 1 });
      // A backoff of 4 s with jitter would be 2..4 s: the server's 1 s must win.
      const client = clientFor(ctx.emu, undefined, { random: () => 0.99, retry: { baseDelayMs: 4_000 } });
      await client.listModels();
      assert.deepEqual(client.delays, [1000], `status ${status}`);
    }
  });

  it('a 503 whose Retry-After is above the cap reaches the caller with the wait, in rounded words', async () => {
    ctx.emu.faults.add({ path: MODELS, kind: 'status', status: 503, retryAfter: '3600', times: 5 });
    const client = clientFor(ctx.emu);
    await assert.rejects(client.listModels(), (e: unknown) => {
      assert.ok(e instanceof ServerError);
      assert.equal(e.retryAfterMs, 3_600_000);
      assert.match(e.message, /Try again in 60 min\./);
      return true;
    });
    assert.equal(hits(), 1, "not retried at once against the server's word");
    assert.deepEqual(client.delays, []);
  });

  it('an absurd Retry-After never prints Infinity or NaN and stays a finite wait', async () => {
    ctx.emu.faults.add({ path: MODELS, kind: 'status', status: 429, retryAfter: '9'.repeat(400), times: 1 });
    await assert.rejects(clientFor(ctx.emu).listModels(), (e: unknown) => {
      assert.ok(e instanceof RateLimitError);
      assert.ok(Number.isFinite(e.retryAfterMs), String(e.retryAfterMs));
      assert.doesNotMatch(e.message, /Infinity|NaN/);
      assert.match(e.message, /Try again in \d+ (s|min|h)\./);
      return true;
    });
  });
});

describe('wait texts', () => {
  it('round to seconds, minutes or hours', () => {
    assert.equal(waitText(12_000), '12 s');
    assert.equal(waitText(12_345), '12 s');
    assert.equal(waitText(400), '1 s');
    assert.equal(waitText(180_000), '3 min');
    assert.equal(waitText(3_600_000), '60 min');
    assert.equal(waitText(6 * 3_600_000), '6 h');
  });

  it('never say Infinity or NaN', () => {
    for (const ms of [Infinity, -Infinity, NaN, -5]) assert.doesNotMatch(waitText(ms), /Infinity|NaN|-/);
  });
});
