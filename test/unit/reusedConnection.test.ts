// A kept-alive connection that the server closes just as the client uses it again: the request fails (ECONNRESET or
// "socket hang up") though the service never acted on it. The race is made certain here, with no timing: a tiny server
// closes a connection when the second request arrives on it, before its handler (the "service") runs. An idempotent
// call is sent again at once, once, outside its retry budget; a POST is not (the service may have received it) and
// says what happened instead of "cannot reach the service". A connection closed on its first request is not this case.
import { strict as assert } from 'node:assert';
import http from 'node:http';
import FormData from 'form-data';
import type { AddressInfo, Socket } from 'node:net';
import { HttpClient } from '../../src/api/http';
import { ApiError, UnansweredError } from '../../src/api/errors';
import { failureLines } from '../../src/mcp/mcpText';

type Close = 'reset' | 'hang up';

interface StaleServer {
  url: string;
  /** Requests the handler answered ("the service saw it"), as `METHOD /path`. */
  handled: string[];
  /** Requests that arrived on a connection the server then closed instead of answering. */
  closedAt: string[];
  close(): Promise<void>;
}

/**
 * Closes a connection when request number `closeOn` arrives on it (2: the first reuse), RST (`reset`) or FIN
 * (`hang up`); answers every other request with JSON. Keeps idle connections 120 s, so only the close above ends one.
 */
async function staleServer(how: Close, closeOn = 2): Promise<StaleServer> {
  const handled: string[] = [];
  const closedAt: string[] = [];
  const count = new WeakMap<Socket, number>();
  const server = http.createServer((req, res) => {
    const n = (count.get(req.socket) ?? 0) + 1;
    count.set(req.socket, n);
    const what = `${req.method ?? '?'} ${req.url ?? '?'}`;
    if (n === closeOn) {
      closedAt.push(what);
      if (how === 'reset') req.socket.resetAndDestroy();
      else req.socket.destroy();
      return;
    }
    req.resume();
    req.on('end', () => {
      handled.push(what);
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ ok: true }));
    });
  });
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    handled,
    closedAt,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

describe('a kept-alive connection closed by the server as it is used again', function () {
  this.timeout(60_000);
  // The client uses Node's global agent (keep-alive, idle sockets kept 5 s). One keeping them 120 s makes the reuse
  // certain however loaded the machine: the second request always goes on the first one's connection.
  // (Node's http module has a setter for it; the types say read-only.)
  const settable = http as { globalAgent: http.Agent };
  const globalAgent = http.globalAgent;
  before(() => {
    settable.globalAgent = new http.Agent({ keepAlive: true, timeout: 120_000 });
  });
  after(() => {
    http.globalAgent.destroy();
    settable.globalAgent = globalAgent;
  });

  let server: StaleServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  function clientOf(s: StaleServer) {
    const slept: number[] = [];
    const lines: string[] = [];
    const client = new HttpClient({
      baseUrl: s.url,
      apiKey: 'demo-key',
      log: (_level, message) => lines.push(message),
      sleep: (ms) => Promise.resolve(void slept.push(ms)),
      random: () => 0.5,
    });
    return { client, slept, lines };
  }

  async function failure(call: Promise<unknown>): Promise<ApiError> {
    const error = await call.then(
      () => assert.fail('the call succeeded'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof ApiError, String(error));
    return error;
  }

  for (const how of ['reset', 'hang up'] as const) {
    it(`a GET (${how}) is sent again at once on a new connection, outside the retry budget (retries: 0)`, async () => {
      server = await staleServer(how);
      const { client, slept, lines } = clientOf(server);
      await client.getJson('Warming up', '/warm', undefined);
      const answer = await client.getJson('Listing models', '/list', undefined, { retries: 0 });
      assert.deepEqual(answer, { ok: true });
      // It arrived once on the closed connection, unanswered, and was answered once on a new one.
      assert.deepEqual(server.closedAt, ['GET /list']);
      assert.deepEqual(server.handled, ['GET /warm', 'GET /list']);
      assert.deepEqual(slept, [], 'no backoff: the service did not fail');
      assert.ok(
        lines.some((l) => /^Listing models: .*closed.*sending it again/i.test(l)),
        `the log says it was sent again:\n${lines.join('\n')}`,
      );
    });
  }

  it('a streamed GET (a download) likewise', async () => {
    server = await staleServer('reset');
    const { client, slept } = clientOf(server);
    await client.getJson('Warming up', '/warm', undefined);
    const res = await client.stream('Downloading', { method: 'GET', url: client.url('/file') }, { idempotent: true, retries: 0 });
    let text = '';
    for await (const chunk of res.body) text += chunk.toString('utf8');
    assert.deepEqual(JSON.parse(text), { ok: true });
    assert.deepEqual(server.closedAt, ['GET /file']);
    assert.deepEqual(server.handled, ['GET /warm', 'GET /file']);
    assert.deepEqual(slept, []);
  });

  it('a POST is not sent again: it fails saying the connection closed before any answer, not "cannot reach"', async () => {
    server = await staleServer('reset');
    const { client, slept } = clientOf(server);
    await client.getJson('Warming up', '/warm', undefined);
    // The default policy (4 retries): still not sent again.
    const error = await failure(client.postJson('Starting the evaluation', '/start', { model_name: 'm' }));
    assert.equal(error.kind, 'network');
    assert.ok(error instanceof UnansweredError, 'told apart from a service that cannot be reached');
    assert.match(error.message, /^Starting the evaluation: the connection closed before any answer \(ECONNRESET\)/);
    assert.match(error.message, /not sent again/);
    assert.doesNotMatch(error.message, /cannot reach/);
    assert.deepEqual(server.closedAt, ['POST /start']);
    assert.deepEqual(server.handled, ['GET /warm']);
    assert.deepEqual(slept, []);
    // An agent on the MCP server is told not to start it again (a paid start the service may have received), where a
    // service that cannot be reached is "try again in a minute".
    const told = failureLines('Starting the evaluation', error).join('\n');
    assert.match(told, /do not start it again/i);
    assert.doesNotMatch(told, /try again/i);
  });

  it('an upload (a finetune start) likewise is not sent again, and says so', async () => {
    server = await staleServer('reset');
    const { client } = clientOf(server);
    await client.getJson('Warming up', '/warm', undefined);
    const form = new FormData();
    form.append('model_name', 'm');
    form.append('file', Buffer.from('{"q":"a"}\n'), { filename: 'train.jsonl' });
    const error = await failure(client.upload('Starting the finetuning job', '/upload', form, form.getHeaders(), {}));
    assert.equal(error.kind, 'network');
    assert.match(
      error.message,
      /^Starting the finetuning job: the connection closed before any answer \((ECONNRESET|EPIPE)\).*not sent again/,
    );
    assert.deepEqual(server.closedAt, ['POST /upload']);
    assert.deepEqual(server.handled, ['GET /warm']);
  });

  it('a connection closed on its first request is not this case: the policy decides (retries: 0, not sent again)', async () => {
    server = await staleServer('reset', 1);
    const { client, slept } = clientOf(server);
    const error = await failure(client.getJson('Listing models', '/list', undefined, { retries: 0 }));
    assert.equal(error.kind, 'network');
    assert.deepEqual(server.closedAt, ['GET /list']);
    assert.deepEqual(server.handled, []);
    assert.deepEqual(slept, []);
  });

  it('sent again once only: a second stale connection is the retry policy’s (its budget, its backoff)', async () => {
    server = await staleServer('reset');
    // Two connections kept alive: two calls at once open two.
    const warm = clientOf(server).client;
    await Promise.all([warm.getJson('Warming up', '/warm', undefined), warm.getJson('Warming up', '/warm', undefined)]);

    const none = clientOf(server);
    const error = await failure(none.client.getJson('Listing models', '/list', undefined, { retries: 0 }));
    assert.equal(error.kind, 'network');
    assert.deepEqual(server.closedAt, ['GET /list', 'GET /list'], 'the first attempt and its one free replay');
    assert.deepEqual(none.slept, []);

    const s = server;
    await Promise.all([warm.getJson('Warming up', '/warm', undefined), warm.getJson('Warming up', '/warm', undefined)]);
    s.closedAt.length = 0;
    s.handled.length = 0;
    const one = clientOf(s);
    assert.deepEqual(await one.client.getJson('Listing models', '/list', undefined, { retries: 1 }), { ok: true });
    assert.deepEqual(s.closedAt, ['GET /list', 'GET /list']);
    assert.deepEqual(s.handled, ['GET /list']);
    assert.equal(one.slept.length, 1, 'the policy’s one retry, after its backoff');
  });
});
