// What an error's body says that its status does not (issue 36, item 7): a 400 whose words or reason say the key is
// invalid is a key error, told as one; a wait the service states only in its body is honoured like a header's.
import { strict as assert } from 'node:assert';
import { AuthError, RateLimitError, RequestError, ServerError } from '../../src/api/errors';
import { HttpClient } from '../../src/api/http';
import { keyCheckRefusal } from '../../src/features/apiKey/keyCheckRefusal';
import { classifyError } from '../../src/util/classifyError';
import { clientFor, useEmulator } from './helpers';

const MODELS = '/cr/get_allowed_models';

/** Google's answer to a key it does not know (generativelanguage.googleapis.com, AI Studio keys). */
const GOOGLE_KEY_INVALID = {
  error: {
    code: 400,
    message: 'API key not valid. Please pass a valid API key.',
    status: 'INVALID_ARGUMENT',
    details: [
      {
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: 'API_KEY_INVALID',
        domain: 'googleapis.com',
        metadata: { service: 'generativelanguage.googleapis.com' },
      },
    ],
  },
};

/** Google's 429: the wait is in RetryInfo (and in the message's words), no Retry-After header. */
const googleExhausted = (delay: string) => ({
  error: {
    code: 429,
    message: `You exceeded your current quota. Please retry in ${delay}.`,
    status: 'RESOURCE_EXHAUSTED',
    details: [
      { '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [{ quotaMetric: 'requests', quotaId: 'PerMinute' }] },
      { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: delay },
    ],
  },
});

const http = new HttpClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k' });
const refused = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  http.statusError('Listing models', status, headers, body);

describe('a 400 whose words or reason say the key is invalid is a key error', () => {
  it("Google's API_KEY_INVALID: an AuthError, its fix is the key, and the key check says to correct the key", () => {
    const e = refused(400, GOOGLE_KEY_INVALID);
    assert.ok(e instanceof AuthError, `${e.name}: ${e.message}`);
    assert.equal(e.status, 400);
    assert.match(e.message, /API key not valid/);
    assert.equal(classifyError(e).kind, 'auth');
    assert.match(keyCheckRefusal(e), /Correct the key/);
  });

  it('by the reason alone, or by the words alone', () => {
    const byReason = { error: { code: 400, message: 'Request failed.', details: [{ reason: 'API_KEY_INVALID' }] } };
    const bodies: unknown[] = [
      byReason,
      { error: { message: 'Incorrect API key provided: sk-…abcd.', type: 'invalid_request_error', code: 'invalid_api_key' } },
      { error: 'Invalid API key' },
      { detail: 'The API key is invalid.' },
      { message: 'api_key not valid' },
      'API key expired. Please renew the API key.',
    ];
    for (const body of bodies) assert.ok(refused(400, body) instanceof AuthError, JSON.stringify(body));
  });

  it('a 400 that mentions a key but does not say the API key is invalid stays a refused request', () => {
    const bodies: unknown[] = [
      { detail: "Field 'key' is required." },
      { error: { message: "Invalid value for 'key' in metadata.", status: 'INVALID_ARGUMENT' } },
      { detail: [{ loc: ['body', 'api_key_name'], msg: 'field required' }] },
      { message: 'Invalid JSON: unexpected key "temprature".' },
      { error: { message: 'temperature must be between 0 and 2', details: [{ reason: 'KEY_TOO_LONG' }] } },
      { error: { message: 'Bad request', details: [{ reason: 'INVALID_ARGUMENT', field: 'api_key_rotation' }] } },
      GOOGLE_KEY_INVALID.error.status,
    ];
    for (const body of bodies) {
      const e = refused(400, body);
      assert.ok(e instanceof RequestError && !(e instanceof AuthError), `${JSON.stringify(body)}: ${e.name}`);
      assert.equal(e.kind, 'request');
    }
  });

  describe('against the emulator', function () {
    this.timeout(30_000);
    const ctx = useEmulator();
    beforeEach(() => {
      ctx.emu.faults.clear();
      ctx.emu.clearReceived();
    });

    it('listing models with a key the service calls not valid (400) fails as a wrong key, asked once', async () => {
      ctx.emu.faults.add({ path: MODELS, kind: 'status', status: 400, body: JSON.stringify(GOOGLE_KEY_INVALID), times: 3 });
      const client = clientFor(ctx.emu);
      await assert.rejects(client.listModels({ interactive: true }), (e: unknown) => {
        assert.ok(e instanceof AuthError, String(e));
        assert.match(keyCheckRefusal(e), /API key not valid.*Correct the key/s);
        return true;
      });
      assert.equal(ctx.emu.received.filter((r) => r.path.split('?')[0] === MODELS).length, 1);
    });
  });
});

describe('a wait the service states only in its body is honoured like a header', () => {
  it("Google's RetryInfo on a 429: the error carries the wait and says it", () => {
    const e = refused(429, googleExhausted('3s'));
    assert.ok(e instanceof RateLimitError);
    assert.equal(e.retryAfterMs, 3_000);
    assert.match(e.message, /Try again in 3 s\./);
  });

  it('a header wins over the body', () => {
    assert.equal(refused(429, googleExhausted('3s'), { 'retry-after': '5' }).retryAfterMs, 5_000);
    assert.equal(refused(503, { retry_after: 40 }, { 'retry-after-ms': '1500' }).retryAfterMs, 1_500);
  });

  it('retry_after, retry_after_ms and words, on a 429 or a 5xx', () => {
    const cases: [number, unknown, number][] = [
      [429, { error: { message: 'Rate limited.', retry_after: 20 } }, 20_000],
      [429, { retry_after_ms: 1_500 }, 1_500],
      [429, { retryAfter: '7' }, 7_000],
      [429, { error: { message: 'Rate limit reached for requests. Please try again in 20s.' } }, 20_000],
      [429, { error: { message: 'Rate limit reached. Please try again in 1m30s. Visit the docs.' } }, 90_000],
      [429, { message: 'Please retry in 1.5 seconds' }, 1_500],
      [503, { detail: 'Overloaded, try again in 2 minutes.' }, 120_000],
      [429, 'Too many requests: retry after 12 seconds', 12_000],
      [429, { error: { message: 'Please retry in 3.585020017s.' } }, 3_586],
    ];
    for (const [status, body, want] of cases) assert.equal(refused(status, body).retryAfterMs, want, JSON.stringify(body));
  });

  it('a body that states no wait gives none, and absurd values are capped as the header is', () => {
    assert.equal(refused(429, { detail: 'slow down' }).retryAfterMs, undefined);
    assert.equal(refused(429, { detail: 'try again later' }).retryAfterMs, undefined);
    const header = refused(429, {}, { 'retry-after': '9'.repeat(400) }).retryAfterMs;
    for (const body of [{ retry_after: 1e300 }, { retryDelay: `${'9'.repeat(400)}s` }, 'try again in 99999999999 hours']) {
      const e = refused(429, body);
      assert.equal(e.retryAfterMs, header, JSON.stringify(body));
      assert.doesNotMatch(e.message, /Infinity|NaN/);
    }
    assert.equal(refused(429, { retry_after: -5 }).retryAfterMs, 0, 'a wait already past: go now');
  });

  describe('against the emulator: the retries wait it', function () {
    this.timeout(30_000);
    const ctx = useEmulator();
    beforeEach(() => ctx.emu.faults.clear());

    it("a 429 with Google's RetryInfo and no header: one retry after exactly 3 s, not the backoff", async () => {
      ctx.emu.faults.add({ path: MODELS, kind: 'status', status: 429, body: JSON.stringify(googleExhausted('3s')), times: 1 });
      const client = clientFor(ctx.emu, undefined, { random: () => 0.99, retry: { baseDelayMs: 8_000 } });
      assert.ok((await client.listModels()).length > 0);
      assert.deepEqual(client.delays, [3_000]);
    });

    it('a 503 saying "try again in 2s": one retry after 2 s', async () => {
      ctx.emu.faults.add({ path: MODELS, kind: 'status', status: 503, body: '{"detail":"Busy: try again in 2s."}', times: 1 });
      const client = clientFor(ctx.emu, undefined, { random: () => 0.99, retry: { baseDelayMs: 8_000 } });
      assert.ok((await client.listModels()).length > 0);
      assert.deepEqual(client.delays, [2_000]);
    });

    it('a wait above the cap reaches the caller, not slept through', async () => {
      ctx.emu.faults.add({ path: MODELS, kind: 'status', status: 503, body: '{"retry_after": 3600}', times: 5 });
      const client = clientFor(ctx.emu);
      await assert.rejects(client.listModels(), (e: unknown) => e instanceof ServerError && e.retryAfterMs === 3_600_000);
      assert.deepEqual(client.delays, []);
    });
  });
});
