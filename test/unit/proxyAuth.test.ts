// A proxy that asks for credentials (407) is the proxy's doing, not the key's or the service's: the client says so,
// names VS Code's proxy settings, and the fix offered is those settings. The 407 comes from the real `proxy` package
// (its authenticate hook), asked directly the way VS Code's proxy agent hands a refused CONNECT back as the response.
import { strict as assert } from 'node:assert';
import { ServiceClient } from '../../src/api/client';
import { ProxyAuthError, isApiError } from '../../src/api/errors';
import { HttpClient } from '../../src/api/http';
import { classifyError, FIXES } from '../../src/util/classifyError';
import { startForwardProxy, type ForwardProxy } from '../service/forwardProxy';
import { baseRequest, collect, inferStream, inferWhole } from './helpers';

function assertProxyAuth(error: unknown): void {
  assert.ok(isApiError(error), `not an ApiError: ${String(error)}`);
  assert.equal(error.kind, 'proxy', error.message);
  assert.equal(error.status, 407);
  assert.match(error.message, /proxy/i);
  assert.match(error.message, /http\.proxy\b/);
  assert.match(error.message, /http\.proxyAuthorization/);
  // Neither the key nor the service is blamed, and the proxy's own text is not quoted as the service's words.
  assert.doesNotMatch(error.message, /\bkey\b/i);
  assert.doesNotMatch(error.message, /service (refused|failed)/i);
  assert.doesNotMatch(error.message, /Proxy authorization required/);
  const info = classifyError(error);
  assert.equal(info.fix, FIXES.openProxySettings);
  assert.equal(info.fix.command, 'hostedReasoning.openProxySettings');
  assert.equal(info.retryable, false);
}

describe('a proxy asking for credentials (407)', () => {
  let proxy: ForwardProxy;
  let client: ServiceClient;
  before(async () => {
    proxy = await startForwardProxy();
    proxy.requireAuthorization('Basic dXNlcjpwYXNz');
    client = new ServiceClient({ baseUrl: proxy.url, apiKey: 'demo-key', retry: { retries: 0 } });
  });
  after(() => proxy.close());

  it('the key check (listing models) says the proxy wants credentials, in http.proxy', async () => {
    await assert.rejects(client.listModels({ interactive: true }), (e) => (assertProxyAuth(e), true));
    assert.ok(
      proxy.received.some((r) => r.refused),
      'the proxy did not refuse anything',
    );
  });

  it('a streamed run and a non-streamed run say the same', async () => {
    await assert.rejects(collect(inferStream(client, { ...baseRequest, modelName: 'm' })), (e) => (assertProxyAuth(e), true));
    await assert.rejects(inferWhole(client, { ...baseRequest, modelName: 'm' }), (e) => (assertProxyAuth(e), true));
  });

  it('an agent that throws on the refused tunnel instead (undici) is read the same', () => {
    const http = new HttpClient({ baseUrl: proxy.url, apiKey: 'demo-key' });
    const thrown = Object.assign(new Error('Proxy response (407) !== 200 when HTTP Tunneling'), { code: 'UND_ERR_ABORTED' });
    const error = http.mapThrown('Listing models', thrown, new AbortController().signal);
    assert.ok(error instanceof ProxyAuthError);
    assert.equal(error.kind, 'proxy');
    assert.match(error.message, /http\.proxy\b/);
  });

  it('a storage download answered 407 (status read by the same mapping) is the proxy too', () => {
    const http = new HttpClient({ baseUrl: proxy.url, apiKey: 'demo-key' });
    assertProxyAuth(http.statusError('Downloading the model', 407, {}, 'Proxy authorization required'));
  });
});
