// The service's word on when to come back, in each of the headers services use (Retry-After, X-RateLimit-Reset, the
// IETF RateLimit fields): read the same by the client's retries and by the job poller, and winning over backoff.
import { strict as assert } from 'node:assert';
import { HttpClient, parseRetryAfter } from '../../src/api/http';
import { markerFiles } from '../../src/jobs/notifyOnce';
import { JobPoller } from '../../src/jobs/jobPoller';
import { clientFor, tempDir, useEmulator } from './helpers';
import { FakeClock, FakeJobs, FakeSource, SCOPE } from './pollRig';

const MODELS = '/cr/get_allowed_models';
const NOW = Date.parse('2026-01-01T00:00:00Z');

describe('rate-limit headers: what each says', () => {
  it('X-RateLimit-Reset: epoch seconds, epoch milliseconds, a delta in seconds, a duration', () => {
    const epochSeconds = String(NOW / 1000 + 45);
    assert.equal(parseRetryAfter({ 'x-ratelimit-reset': epochSeconds }, NOW, 429), 45_000);
    assert.equal(parseRetryAfter({ 'x-ratelimit-reset': String(NOW + 7_500) }, NOW, 429), 7_500);
    assert.equal(parseRetryAfter({ 'x-ratelimit-reset': '12' }, NOW, 429), 12_000);
    assert.equal(parseRetryAfter({ 'x-ratelimit-reset': '1m30s' }, NOW, 429), 90_000);
    assert.equal(parseRetryAfter({ 'x-ratelimit-reset': '250ms' }, NOW, 429), 250);
    assert.equal(parseRetryAfter({ 'x-ratelimit-reset': 'soon' }, NOW, 429), undefined);
    assert.equal(parseRetryAfter({ 'x-ratelimit-reset': String(NOW / 1000 - 10) }, NOW, 429), 0, 'a reset already past: go now');
  });

  it("IETF RateLimit: the spent policy's t, the older reset= form, RateLimit-Reset, the policy window when nothing else says", () => {
    assert.equal(parseRetryAfter({ ratelimit: '"default";r=0;t=30' }, NOW, 429), 30_000);
    assert.equal(parseRetryAfter({ ratelimit: '"burst";r=5;t=2, "day";r=0;t=600' }, NOW, 429), 600_000, 'the spent one');
    assert.equal(parseRetryAfter({ ratelimit: 'limit=10, remaining=0, reset=5' }, NOW, 429), 5_000);
    assert.equal(parseRetryAfter({ 'ratelimit-reset': '8', 'ratelimit-remaining': '0' }, NOW, 429), 8_000);
    assert.equal(parseRetryAfter({ ratelimit: '"default";r=0', 'ratelimit-policy': '"default";q=100;w=60' }, NOW, 429), 60_000);
  });

  it('Retry-After wins; quota fields are read on a 429 only (elsewhere they describe a quota, not a refusal)', () => {
    assert.equal(parseRetryAfter({ 'retry-after': '3', 'x-ratelimit-reset': '40' }, NOW, 429), 3_000);
    assert.equal(parseRetryAfter({ 'x-ratelimit-reset': '40' }, NOW, 503), undefined);
    assert.equal(parseRetryAfter({ 'retry-after': '4' }, NOW, 503), 4_000);
  });
});

describe('rate-limit headers: the retries wait what the service said', function () {
  this.timeout(30_000);
  const ctx = useEmulator();
  beforeEach(() => ctx.emu.faults.clear());

  const cases: [string, Record<string, string>, number][] = [
    ['X-RateLimit-Reset as a delta', { 'X-RateLimit-Reset': '2' }, 2_000],
    ['IETF RateLimit', { RateLimit: '"default";r=0;t=3', 'RateLimit-Policy': '"default";q=10;w=60' }, 3_000],
    ['Retry-After', { 'Retry-After': '1' }, 1_000],
  ];
  for (const [name, headers, wait] of cases) {
    it(`${name}: one retry, after exactly ${wait} ms, whatever the backoff would have been`, async () => {
      ctx.emu.faults.add({ path: MODELS, kind: 'status', status: 429, headers, times: 1 });
      // A backoff of 8 s with jitter near its top: the service's reset must win over it, not add to it.
      const client = clientFor(ctx.emu, undefined, { random: () => 0.99, retry: { baseDelayMs: 8_000 } });
      assert.ok((await client.listModels()).length > 0);
      assert.deepEqual(client.delays, [wait]);
    });
  }

  it('X-RateLimit-Reset as epoch seconds: waits until then (whole seconds), not the backoff', async () => {
    ctx.emu.faults.add({
      path: MODELS,
      kind: 'status',
      status: 429,
      headers: { 'X-RateLimit-Reset': String(Math.ceil(Date.now() / 1000) + 20) },
      times: 1,
    });
    const client = clientFor(ctx.emu, undefined, { random: () => 0.5 });
    await client.listModels();
    assert.equal(client.delays.length, 1);
    assert.ok(client.delays[0]! > 15_000 && client.delays[0]! <= 21_000, `waited ${client.delays[0]} ms`);
  });
});

describe("a call with retries: 0 (the poller's look at the model list)", function () {
  this.timeout(30_000);
  const ctx = useEmulator();
  beforeEach(() => ctx.emu.faults.clear());

  it('hands a 429 and a 503 to the caller at once: one request, no sleep, the wait the service asked kept on the error', async () => {
    const client = clientFor(ctx.emu, undefined, { random: () => 0.5 });
    ctx.emu.faults.add({ path: MODELS, kind: 'status', status: 429, headers: { 'Retry-After': '7' }, times: 1 });
    await assert.rejects(
      client.listModels({ retries: 0 }),
      (e: { kind?: string; retryAfterMs?: number }) => e.kind === 'rateLimit' && e.retryAfterMs === 7_000,
    );
    ctx.emu.faults.add({ path: MODELS, kind: 'status', status: 503, times: 1 });
    await assert.rejects(client.listModels({ retries: 0 }), (e: { status?: number }) => e.status === 503);
    assert.deepEqual(client.delays, []);
    assert.ok((await client.listModels({ retries: 0 })).length > 0, 'and the next call is answered');
  });
});

describe('rate-limit headers: the poller waits what the service said', () => {
  const tmp = tempDir('hr-ratelimit-');
  // The errors are the client's own, built from the headers the way every answer's are (HttpClient.statusError).
  const http = new HttpClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k' });
  const refusal = (headers: Record<string, string>, body: unknown = { detail: 'slow down' }) =>
    http.statusError('Checking the evaluation', 429, headers, body);

  const cases: [string, () => Record<string, string>, number, unknown?][] = [
    ['Retry-After', () => ({ 'retry-after': '45' }), 45_000],
    ['X-RateLimit-Reset (epoch seconds)', () => ({ 'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 45) }), 45_000],
    ['IETF RateLimit', () => ({ ratelimit: '"default";r=0;t=45' }), 45_000],
    // No header: the wait is stated only in the body (issue 36, item 7).
    [
      "the body's RetryInfo",
      () => ({}),
      45_000,
      { error: { code: 429, details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '45s' }] } },
    ],
    ["the body's words", () => ({}), 45_000, { error: { message: 'Rate limit reached. Please try again in 45s.' } }],
  ];
  for (const [name, headers, wait, body] of cases) {
    it(`${name}: no request before the reset, one right after it, none earlier through Refresh`, async () => {
      const clock = new FakeClock();
      const jobs = new FakeJobs(clock);
      const source = new FakeSource(clock);
      jobs.add('evaluation', 'e');
      let limited = true;
      source.answer = () => (limited ? refusal(headers(), body) : { state: 'running' });
      const logs: string[] = [];
      const p = new JobPoller({
        connect: async () => ({ scope: SCOPE, source: source.as('A') }),
        jobs,
        claimNotice: markerFiles(tmp.dir),
        intervalMs: () => 1_000,
        clock,
        random: () => 1,
        log: (_l, m) => logs.push(m),
      });
      try {
        const settle = () => p.settled();
        await p.sync();
        await clock.advance(0, settle);
        assert.equal(source.calls.length, 1);
        limited = false;
        await p.pollNow();
        assert.equal(source.calls.length, 1, 'Refresh waits for the reset too');
        // An epoch reset has whole seconds: it may come up to a second sooner than 45 s after the refusal.
        await clock.advance(wait - 1_001, settle);
        assert.equal(source.calls.length, 1, 'nothing before the reset');
        await clock.advance(1_001, settle);
        assert.equal(source.calls.length, 2, 'asked again once the reset has come');
        assert.ok(
          logs.some((l) => /Next attempt in 4\d s\./.test(l)),
          logs.join('\n'),
        );
      } finally {
        p.dispose();
      }
    });
  }
});
