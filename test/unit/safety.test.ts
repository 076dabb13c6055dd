import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { artifactFileName, fileNameFromContentDisposition, insideFolder, safeFileName } from '../../src/api/fileName';
import { describeUrl, excerpt, redact, registerSecret } from '../../src/api/redact';
import { HttpClient, parseBaseUrl, parseRetryAfter } from '../../src/api/http';
import { ApiError, NetworkError, RateLimitError, RequestError, ServerError } from '../../src/api/errors';

describe('file names from the network stay inside the folder', () => {
  const hostile = [
    '../../etc/passwd',
    '..\\..\\windows\\system32',
    '/abs/path.gguf',
    'C:\\evil.gguf',
    'a/b',
    '..',
    '.',
    '',
    'nul\u0000byte.gguf',
    'CON',
    'lpt1.txt',
    'trailing. ',
    'x'.repeat(400) + '.gguf',
    '💥'.repeat(200),
    'http://evil/',
  ];
  for (const name of hostile) {
    it(`reduces ${JSON.stringify(name.slice(0, 30))} to a safe base name`, () => {
      const safe = safeFileName(name, 'fallback.gguf');
      assert.ok(safe.length > 0);
      assert.ok(!/[/\\]/.test(safe) && !safe.includes(String.fromCharCode(0)), safe);
      assert.notEqual(safe, '..');
      assert.ok(!/^(con|nul|lpt1)(\.|$)/i.test(safe), safe);
      assert.ok(Buffer.byteLength(safe) <= 200);
      const dir = path.resolve('/tmp/dl');
      assert.equal(path.dirname(insideFolder(dir, safe)), dir);
    });
  }
  it('keeps an ordinary name and adds .gguf to a model name', () => {
    assert.equal(safeFileName('my-model.gguf', 'x'), 'my-model.gguf');
    assert.equal(artifactFileName('team/model:v1'), 'model_v1.gguf');
    assert.equal(artifactFileName('../../evil'), 'evil.gguf');
  });
  it('reads Content-Disposition including filename* and malformed headers', () => {
    assert.equal(fileNameFromContentDisposition('attachment; filename="a.gguf"'), 'a.gguf');
    assert.equal(fileNameFromContentDisposition("attachment; filename*=UTF-8''caf%C3%A9.gguf"), 'café.gguf');
    assert.equal(fileNameFromContentDisposition('attachment; filename=../../x.gguf; junk=="'), '../../x.gguf');
    assert.equal(fileNameFromContentDisposition(undefined), undefined);
  });
  it('insideFolder refuses names that escape', () => {
    assert.throws(() => insideFolder('/tmp/dl', '../x'));
    assert.throws(() => insideFolder('/tmp/dl', 'a/b'));
  });
});

describe('redaction of a registered key', () => {
  it('masks it and signed URL queries, and leaves a message that only names the header', () => {
    registerSecret('sk-secret-123456');
    const text = redact('key sk-secret-123456 header X-API-Key: unrelated-value-999 url https://s.example/a.gguf?sig=abc&expires=1');
    assert.ok(!text.includes('sk-secret-123456'));
    assert.ok(text.includes('X-API-Key: unrelated-value-999'), 'a value that is not the key is not masked');
    assert.ok(!text.includes('sig=abc'));
    assert.ok(text.includes('https://s.example/a.gguf?[REDACTED]'));
    assert.equal(describeUrl('https://s.example/a?x=1#f'), 'https://s.example/a?[REDACTED]');
    assert.ok(!excerpt({ url: 'http://x/y?token=t' }).includes('token=t'));
  });
});

describe('http policy', () => {
  it('accepts https, and http only for loopback; strips query and adds a trailing slash', () => {
    assert.equal(parseBaseUrl('https://api.example.com/v1').href, 'https://api.example.com/v1/');
    assert.equal(parseBaseUrl('http://127.0.0.1:8080').href, 'http://127.0.0.1:8080/');
    assert.throws(() => parseBaseUrl('http://api.example.com'), RequestError);
    assert.throws(() => parseBaseUrl('ftp://x'), RequestError);
    assert.throws(() => parseBaseUrl('not a url'), RequestError);
    assert.throws(() => parseBaseUrl('https://user:pw@x.com'), RequestError);
  });

  it('builds URLs that cannot leave the base origin, whatever the model name', () => {
    const http = new HttpClient({ baseUrl: 'https://api.example.com/base', apiKey: 'k-test-1' });
    const u = new URL(http.url('/cr/finetune_model/download', { model_name: 'http://evil/../x?y#z' }));
    assert.equal(u.origin, 'https://api.example.com');
    assert.equal(u.pathname, '/base/cr/finetune_model/download');
    assert.equal(u.searchParams.get('model_name'), 'http://evil/../x?y#z');
  });

  it('parses Retry-After as seconds, HTTP date and retry-after-ms', () => {
    assert.equal(parseRetryAfter({ 'retry-after': '3' }), 3000);
    assert.equal(parseRetryAfter({ 'retry-after-ms': '250', 'retry-after': '3' }), 250);
    assert.equal(parseRetryAfter({ 'retry-after': new Date(10_000).toUTCString() }, 4_000), 6000);
    assert.equal(parseRetryAfter({ 'retry-after': 'soon' }), undefined);
  });

  it('retries GETs with capped exponential backoff and jitter; never repeats an ambiguous POST', () => {
    const http = new HttpClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'k-test-2', random: () => 1 });
    const server = new ServerError('x', { status: 503 });
    assert.deepEqual(
      [0, 1, 2, 3].map((n) => http.retryDelay(server, n, true)),
      [500, 1000, 2000, 4000],
    );
    assert.equal(http.retryDelay(server, 4, true), undefined, 'retries are bounded');
    assert.equal(http.retryDelay(server, 0, false), undefined, 'a POST that reached a failing server is not repeated');
    assert.equal(http.retryDelay(new NetworkError('reset ECONNRESET'), 0, false), undefined);
    assert.equal(http.retryDelay(new NetworkError('x: (ECONNREFUSED)'), 0, false), 500, 'nothing was sent: safe');
    assert.equal(http.retryDelay(new NetworkError('x: (ECONNREFUSED)'), 0, true, true), undefined, 'a person waits: fail at once');
    assert.equal(http.retryDelay(new NetworkError('reset ECONNRESET'), 0, true, true), 500, 'only a refusal skips the retries');
    assert.equal(http.retryDelay(new RateLimitError('x', { retryAfterMs: 3000 }), 0, false), 3000);
    assert.equal(http.retryDelay(new RateLimitError('x', { retryAfterMs: 600_000 }), 0, true), undefined, 'above the cap');
    assert.equal(http.retryDelay(new ApiError('request', 'x', { status: 400 }), 0, true), undefined);
    const low = new HttpClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'k-test-2', random: () => 0 });
    assert.equal(low.retryDelay(server, 5 - 2, true), 2000, 'jitter spans half to all of the backoff');
  });
});
