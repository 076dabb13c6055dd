// Fault injection on both origins: latency, status (+Retry-After), reset, truncate, stall, raw body; rule matching
// (method, string/RegExp path, times) and how faulted requests are recorded.
import { strict as assert } from 'node:assert';
import { startEmulator, type Emulator } from '../service/emulator';
import { BASE, getJson, headers, KEY, rawRequest, readChunks, sleep, waitFor } from './emulator-helpers';

const MODELS = '/cr/get_allowed_models';
const PREDICT = '/cr/provider_predict_platform_base_oss';

describe('emulator: faults', function () {
  let em: Emulator;
  before(async () => {
    em = await startEmulator({ tokenIntervalMs: 2, artifactBytes: 512 * 1024 });
    await em.addCustomModel(KEY, 'fault-model');
  });
  afterEach(() => {
    em.faults.clear();
  });
  after(async () => {
    await em.close();
  });

  it('latency delays the answer, then the request proceeds normally', async () => {
    em.faults.add({ path: MODELS, kind: 'latency', ms: 200 });
    em.clearReceived();
    const start = Date.now();
    const { status } = await getJson(`${em.url}${MODELS}`);
    assert.equal(status, 200);
    assert.ok(Date.now() - start >= 190);
    assert.deepEqual(em.faults.list(), [], 'spent after one use');
    await getJson(`${em.url}${MODELS}`);
    assert.deepEqual(
      em.received.map((r) => r.fault),
      ['latency', undefined],
    );
  });

  it('status answers e.g. 429 with Retry-After and a JSON detail, `times` times', async () => {
    em.faults.add({ path: MODELS, kind: 'status', status: 429, retryAfter: '1', times: 2 });
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${em.url}${MODELS}`, { headers: headers() });
      assert.equal(res.status, 429);
      assert.equal(res.headers.get('retry-after'), '1');
      const body = (await res.json()) as { detail: string };
      assert.equal(typeof body.detail, 'string');
    }
    assert.equal((await getJson(`${em.url}${MODELS}`)).status, 200);
  });

  it('matches method and RegExp paths, ignores the query string, and defaults to the API origin', async () => {
    em.faults.add({ method: 'POST', path: MODELS, kind: 'status', status: 503 });
    assert.equal((await getJson(`${em.url}${MODELS}`)).status, 200, 'GET does not match a POST rule');
    em.faults.clear();
    em.faults.add({ path: /^\/cr\/generate_questions_status$/, kind: 'status', status: 503 });
    const res = await getJson(`${em.url}/cr/generate_questions_status?job_id=abc`);
    assert.equal(res.status, 503);
    assert.equal(em.faults.list().length, 0);
  });

  it('status faults come before auth (a gateway answers first)', async () => {
    em.faults.add({ path: MODELS, kind: 'status', status: 502 });
    const res = await fetch(`${em.url}${MODELS}`);
    assert.equal(res.status, 502);
    await res.arrayBuffer();
  });

  it('reset cuts the connection after afterBytes body bytes', async () => {
    em.faults.add({ path: MODELS, kind: 'reset', afterBytes: 10 });
    em.clearReceived();
    const result = await rawRequest(`${em.url}${MODELS}`, { headers: headers() });
    assert.ok(result.error, 'the client sees an error');
    assert.ok(!result.complete);
    assert.ok(result.body.length <= 10);
    await waitFor(() => em.received[0]?.status !== undefined, 15_000, 'recorded close');
    assert.equal(em.received[0]?.fault, 'reset');
    assert.notEqual(em.received[0]?.aborted, true, 'cut by the emulator, not aborted by the client');
    // fetch sees it too
    em.faults.add({ path: MODELS, kind: 'reset', afterBytes: 0 });
    await assert.rejects(async () => {
      const res = await fetch(`${em.url}${MODELS}`, { headers: headers() });
      await res.text();
    });
  });

  it('truncate with Content-Length: fewer bytes than declared, then EOF (premature close)', async () => {
    em.faults.add({ path: MODELS, kind: 'truncate', afterBytes: 20 });
    const result = await rawRequest(`${em.url}${MODELS}`, { headers: headers() });
    assert.equal(result.status, 200);
    assert.ok(Number(result.headers?.['content-length']) > 20);
    assert.equal(result.body.length, 20);
    assert.ok(!result.complete);
  });

  it('truncate on a chunked stream: a well-formed but short body', async () => {
    em.faults.add({ path: PREDICT, kind: 'truncate', afterBytes: 40 });
    const res = await fetch(`${em.url}${PREDICT}`, {
      method: 'POST',
      headers: headers(KEY, { 'X-Emulator-Framing': 'sse' }),
      body: JSON.stringify({ prompt: 'hello', model_name: BASE, stream: true }),
    });
    const text = Buffer.concat((await readChunks(res)).map((c) => c.bytes)).toString('utf8');
    assert.equal(Buffer.byteLength(text), 40);
    assert.ok(!text.includes('[DONE]'));
  });

  it('stall with ms: headers arrive, the body only after ms', async () => {
    // Leaving as soon as the headers arrive finds the response unfinished: they came before the held-back body.
    em.faults.add({ path: MODELS, kind: 'stall', ms: 60_000 });
    em.clearReceived();
    const controller = new AbortController();
    const early = await fetch(`${em.url}${MODELS}`, { headers: headers(), signal: controller.signal });
    assert.equal(early.status, 200);
    controller.abort();
    await waitFor(() => em.received[0]?.status !== undefined, 15_000, 'the stalled response to close');
    assert.equal(em.received[0]?.aborted, true);
    em.faults.clear();
    em.faults.add({ path: MODELS, kind: 'stall', ms: 600 });
    const start = Date.now();
    const res = await fetch(`${em.url}${MODELS}`, { headers: headers() });
    assert.equal(res.status, 200);
    const body = (await res.json()) as { models: unknown[] };
    assert.ok(Date.now() - start >= 590);
    assert.equal(body.models.length, 3);
  });

  it('stall without ms hangs after the headers until the client gives up (an idle watchdog is needed)', async () => {
    em.faults.add({ path: PREDICT, kind: 'stall' });
    em.clearReceived();
    const controller = new AbortController();
    const res = await fetch(`${em.url}${PREDICT}`, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify({ prompt: 'hello', model_name: BASE, stream: true }),
      signal: controller.signal,
    });
    assert.equal(res.status, 200);
    const reader = res.body?.getReader();
    assert.ok(reader);
    const first = reader.read();
    const winner = await Promise.race([first.then(() => 'data'), sleep(300).then(() => 'idle')]);
    assert.equal(winner, 'idle');
    controller.abort();
    await assert.rejects(first);
    await waitFor(() => em.received[0]?.aborted === true, 15_000, 'aborted flag');
    assert.equal(em.received[0]?.fault, 'stall');
  });

  it('body answers 200 with exactly the given raw body (malformed responses)', async () => {
    em.faults.add({ path: MODELS, kind: 'body', body: '{"models": [', contentType: 'application/json' });
    const res = await fetch(`${em.url}${MODELS}`, { headers: headers() });
    assert.equal(res.status, 200);
    assert.equal(await res.text(), '{"models": [');
    em.faults.add({ path: MODELS, kind: 'body', body: Buffer.from([0xff, 0xfe, 0x00]), contentType: 'text/html' });
    const bin = await fetch(`${em.url}${MODELS}`, { headers: headers() });
    assert.equal(bin.headers.get('content-type'), 'text/html');
    assert.deepEqual([...Buffer.from(await bin.arrayBuffer())], [0xff, 0xfe, 0x00]);
  });

  it('faults work on the storage origin too (503 on the signed URL, reset mid-download)', async () => {
    const meta = await getJson<{ url: string; size: number }>(`${em.url}/cr/finetune_model/download?model_name=fault-model&redirect=false`);
    em.faults.add({ origin: 'storage', path: /^\/artifacts\//, kind: 'status', status: 503, retryAfter: '2' });
    const failed = await fetch(meta.body.url);
    assert.equal(failed.status, 503);
    assert.equal(failed.headers.get('retry-after'), '2');
    await failed.arrayBuffer();
    em.faults.add({ origin: 'storage', path: /^\/artifacts\//, kind: 'reset', afterBytes: 100_000 });
    const cut = await rawRequest(meta.body.url);
    assert.ok(cut.error);
    assert.ok(cut.body.length <= 100_000);
    em.faults.add({ origin: 'storage', path: /^\/artifacts\//, kind: 'truncate', afterBytes: 1000 });
    const short = await rawRequest(meta.body.url);
    assert.equal(short.body.length, 1000);
    assert.equal(short.headers?.['content-length'], String(meta.body.size));
    const ok = await fetch(meta.body.url);
    assert.equal(Buffer.from(await ok.arrayBuffer()).length, meta.body.size, 'rules are spent');
  });

  it('an API fault does not touch the storage origin and vice versa', async () => {
    em.faults.add({ path: /.*/, kind: 'status', status: 500, times: 100 });
    const meta = await fetch(`${em.url}/_emulator/health`);
    assert.equal(meta.status, 200, 'control API exempt');
    await meta.arrayBuffer();
    em.faults.clear();
    const info = await getJson<{ url: string }>(`${em.url}/cr/finetune_model/download?model_name=fault-model&redirect=false`);
    em.faults.add({ path: /.*/, kind: 'status', status: 500, times: 100 });
    const file = await fetch(info.body.url);
    assert.equal(file.status, 200);
    await file.arrayBuffer();
  });

  it('rejects malformed rules', () => {
    assert.throws(() => em.faults.add({ path: MODELS, kind: 'explode' as 'status' }), /unknown fault kind/);
  });
});
