// The emulator's own tests: auth, model lists, inference (plain and streamed in every framing), evaluation,
// downloads through the signed-URL origin, and the control API. Faults and finetune jobs have their own files.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import http from 'node:http';
import { join, resolve, sep } from 'node:path';
import { MODEL_LIST_SHAPES, readGgufHeader, startEmulator, STREAM_ERROR_MARKER, type Emulator } from '../service/emulator';
import { tokensOf } from '../service/inference';
import { BASE, getJson, headers, KEY, postJson, readChunks, sha256File, sleep, waitFor } from './emulator-helpers';

const PREDICT = '/cr/provider_predict_platform_base_oss';

describe('emulator: auth, models, inference', function () {
  let em: Emulator;
  before(async () => {
    em = await startEmulator({ tokenIntervalMs: 2, evaluationDurationMs: 150 });
  });
  after(async () => {
    await em.close();
  });

  describe('auth', () => {
    it('answers 401 without X-API-Key and 403 for an unknown key, with JSON detail', async () => {
      const missing = await fetch(`${em.url}/cr/get_allowed_models`);
      assert.equal(missing.status, 401);
      assert.match(missing.headers.get('content-type') ?? '', /application\/json/);
      assert.deepEqual(await missing.json(), { detail: 'Missing API key' });
      const wrong = await fetch(`${em.url}/cr/get_allowed_models`, { headers: headers('nope') });
      assert.equal(wrong.status, 403);
      assert.deepEqual(await wrong.json(), { detail: 'Invalid API key' });
    });

    it('requires the key on every /cr/ route', async () => {
      const routes: [string, string][] = [
        ['GET', '/cr/get_allowed_models'],
        ['POST', PREDICT],
        ['POST', '/cr/generate_questions'],
        ['GET', '/cr/generate_questions_status?job_id=x'],
        ['POST', '/cr/finetune_model/evaluate_async'],
        ['GET', '/cr/finetune_model/evaluate_status?job_id=x'],
        ['GET', '/cr/finetune_model/download?model_name=x'],
      ];
      for (const [method, path] of routes) {
        const res = await fetch(`${em.url}${path}`, { method, body: method === 'POST' ? '{}' : undefined });
        assert.equal(res.status, 401, `${method} ${path}`);
        await res.arrayBuffer();
      }
    });

    it('answers 404 / 405 like FastAPI for unknown paths and methods', async () => {
      const unknown = await fetch(`${em.url}/cr/nope`, { headers: headers() });
      assert.equal(unknown.status, 404);
      assert.deepEqual(await unknown.json(), { detail: 'Not Found' });
      const wrongMethod = await fetch(`${em.url}/cr/get_allowed_models`, { method: 'DELETE', headers: headers() });
      assert.equal(wrongMethod.status, 405);
      assert.equal(wrongMethod.headers.get('allow'), 'GET');
      await wrongMethod.arrayBuffer();
    });
  });

  describe('GET /cr/get_allowed_models', () => {
    before(async () => {
      await em.addCustomModel(KEY, 'shape-custom', { artifactBytes: 4096 });
    });

    it('default shape: {"models": [{model_name, type, base_model?, created_at?}]} with base and custom models', async () => {
      const { status, body } = await getJson<{ models: Record<string, unknown>[] }>(`${em.url}/cr/get_allowed_models`);
      assert.equal(status, 200);
      assert.deepEqual(body.models.slice(0, 2), [
        { model_name: 'oss-reasoner-8b', type: 'base' },
        { model_name: 'oss-reasoner-70b', type: 'base' },
      ]);
      const custom = body.models.find((m) => m.model_name === 'shape-custom');
      assert.ok(custom);
      assert.equal(custom.type, 'custom');
      assert.equal(custom.base_model, BASE);
      assert.ok(!Number.isNaN(Date.parse(String(custom.created_at))));
    });

    it('the list is specific to the key', async () => {
      const { body } = await getJson<string[]>(`${em.url}/cr/get_allowed_models`, 'other-key');
      assert.deepEqual(body, ['oss-coder-14b']); // other-key uses the bare 'strings' shape
    });

    const nameField: Record<string, string> = {
      'objects-name': 'name',
      'objects-model_name': 'model_name',
      'objects-id': 'id',
      'objects-model': 'model',
    };
    for (const shape of MODEL_LIST_SHAPES) {
      it(`shape ${shape}`, async () => {
        const key = `shape-key-${shape}`;
        em.setKey(key, { models: ['m-one', 'm-two'], modelListShape: shape });
        await em.addCustomModel(key, `c-${shape}`, { artifactBytes: 2048 });
        const { status, body } = await getJson<unknown>(`${em.url}/cr/get_allowed_models`, key);
        assert.equal(status, 200);
        const names = ['m-one', 'm-two', `c-${shape}`];
        if (shape === 'strings') {
          assert.deepEqual(body, names);
          return;
        }
        let list: Record<string, unknown>[];
        let field: string;
        if (shape.startsWith('wrapped-')) {
          const prop = shape.slice('wrapped-'.length);
          assert.ok(body && typeof body === 'object' && !Array.isArray(body));
          const wrapped = (body as Record<string, Record<string, unknown>[] | undefined>)[prop];
          assert.ok(Array.isArray(wrapped), `no ${prop} list`);
          list = wrapped;
          field = prop === 'data' ? 'id' : 'model_name';
        } else {
          assert.ok(Array.isArray(body));
          list = body as Record<string, unknown>[];
          const named = nameField[shape];
          assert.ok(named, `no name field for ${shape}`);
          field = named;
        }
        assert.deepEqual(
          list.map((m) => m[field]),
          names,
        );
        assert.deepEqual(
          list.map((m) => m.type),
          ['base', 'base', 'custom'],
        );
        assert.equal(list[2]?.base_model, 'm-one');
      });
    }
  });

  describe(`POST ${PREDICT}`, () => {
    const request = {
      prompt: 'Explain caching',
      query_only: 'Explain caching',
      model_name: BASE,
      use_rag: false,
      sequential_budget: 4,
      parallel_budget: 2,
      temperature: 0.3,
    };

    it('non-streamed: {response, model_name, usage}, deterministic per prompt and model', async () => {
      const a = await postJson<{ response: string; model_name: string; usage: { prompt_tokens: number; completion_tokens: number } }>(
        `${em.url}${PREDICT}`,
        request,
      );
      assert.equal(a.status, 200);
      assert.equal(a.body.model_name, BASE);
      assert.match(a.body.response, /```ts\n[\s\S]*```/);
      assert.match(a.body.response, /café/);
      assert.match(a.body.response, /🚀/);
      assert.equal(a.body.usage.prompt_tokens, 2);
      assert.ok(a.body.usage.completion_tokens > 10);
      const b = await postJson<{ response: string }>(`${em.url}${PREDICT}`, request);
      assert.equal(b.body.response, a.body.response);
      const c = await postJson<{ response: string }>(`${em.url}${PREDICT}`, { ...request, prompt: 'Something else' });
      assert.notEqual(c.body.response, a.body.response);
      const rag = await postJson<{ response: string }>(`${em.url}${PREDICT}`, { ...request, use_rag: true });
      assert.match(rag.body.response, /\nSources: /);
    });

    it('validates like FastAPI: 422 list of {loc, msg, type}', async () => {
      const { status, body } = await postJson<{ detail: { loc: (string | number)[]; msg: string; type: string }[] }>(
        `${em.url}${PREDICT}`,
        {
          prompt: '',
          temperature: 2.5,
          sequential_budget: 0,
          parallel_budget: 65,
          use_rag: 'yes',
        },
      );
      assert.equal(status, 422);
      const locs = body.detail.map((d) => d.loc.join('.')).sort();
      assert.deepEqual(locs, [
        'body.model_name',
        'body.parallel_budget',
        'body.prompt',
        'body.sequential_budget',
        'body.temperature',
        'body.use_rag',
      ]);
      for (const d of body.detail) {
        assert.equal(typeof d.msg, 'string');
        assert.equal(typeof d.type, 'string');
      }
      const badJson = await fetch(`${em.url}${PREDICT}`, {
        method: 'POST',
        headers: headers(KEY, { 'Content-Type': 'application/json' }),
        body: '{"prompt": ',
      });
      assert.equal(badJson.status, 422);
      assert.equal(((await badJson.json()) as { detail: { type: string }[] }).detail[0]?.type, 'json_invalid');
    });

    it('answers 404 for a model the key may not use', async () => {
      const { status, body } = await postJson(`${em.url}${PREDICT}`, { ...request, model_name: 'oss-coder-14b' });
      assert.equal(status, 404);
      assert.match(String(body.detail), /oss-coder-14b/);
    });

    it('responseText is answered verbatim (hostile output tests)', async () => {
      const hostile = '<script>alert(1)</script> [x](javascript:alert(1)) <img src=x onerror=alert(1)>';
      em.configure({ responseText: hostile });
      try {
        const plain = await postJson<{ response: string }>(`${em.url}${PREDICT}`, request);
        assert.equal(plain.body.response, hostile);
        const res = await fetch(`${em.url}${PREDICT}`, {
          method: 'POST',
          headers: headers(KEY, { 'X-Emulator-Framing': 'text' }),
          body: JSON.stringify({ ...request, stream: true }),
        });
        assert.equal(await res.text(), hostile);
      } finally {
        em.configure({ responseText: undefined });
      }
      const back = await postJson<{ response: string }>(`${em.url}${PREDICT}`, request);
      assert.match(back.body.response, /^### Answer/);
    });

    it('responseTextByModel answers per model, over responseText; models not named answer as before', async () => {
      em.configure({ responseText: 'shared', responseTextByModel: { [request.model_name]: 'thirty days' } });
      try {
        const named = await postJson<{ response: string }>(`${em.url}${PREDICT}`, request);
        assert.equal(named.body.response, 'thirty days');
        em.configure({ responseTextByModel: { 'some-other-model': 'ninety days' } });
        const other = await postJson<{ response: string }>(`${em.url}${PREDICT}`, request);
        assert.equal(other.body.response, 'shared');
      } finally {
        em.configure({ responseText: undefined, responseTextByModel: undefined });
      }
      const back = await postJson<{ response: string }>(`${em.url}${PREDICT}`, request);
      assert.match(back.body.response, /^### Answer/);
    });

    /** The interval of the pacing tests: long enough that a stream sent unpaced (~2 ms a token here) falls short. */
    const PACED_MS = 10;

    /** `stream()` with tokens PACED_MS apart. */
    async function pacedStream(framing: string): ReturnType<typeof stream> {
      em.configure({ tokenIntervalMs: PACED_MS });
      try {
        return await stream(framing);
      } finally {
        em.configure({ tokenIntervalMs: 2 });
      }
    }

    /**
     * Paced, not sent at once: the last of `tokens` tokens cannot leave before its time, less a clock tick (a loaded
     * machine only makes it later). How many reads the body took is not a property of the emulator: a reader that
     * stalls on a loaded machine gets every token already due in one (a run under load read a whole NDJSON stream in
     * five chunks).
     */
    function assertPaced(tokens: number, elapsed: number): void {
      assert.ok(tokens > 5, `only ${tokens} tokens: too few to tell a paced stream`);
      assert.ok(elapsed >= tokens * PACED_MS * 0.9, `${tokens} tokens in ${elapsed} ms: ahead of the schedule`);
    }

    async function expected(): Promise<string> {
      return (await postJson<{ response: string }>(`${em.url}${PREDICT}`, request)).body.response;
    }

    async function stream(
      framing?: string,
      key = KEY,
      prompt = request.prompt,
    ): Promise<{ res: Response; text: string; chunks: number; elapsed: number }> {
      const start = Date.now();
      const res = await fetch(`${em.url}${PREDICT}`, {
        method: 'POST',
        headers: headers(
          key,
          framing ? { 'X-Emulator-Framing': framing, 'Content-Type': 'application/json' } : { 'Content-Type': 'application/json' },
        ),
        body: JSON.stringify({ ...request, prompt, model_name: key === KEY ? BASE : 'oss-coder-14b', stream: true }),
      });
      const chunks = await readChunks(res);
      // One streaming decoder over all chunks: individual chunks may end inside a multi-byte character.
      const text = Buffer.concat(chunks.map((c) => c.bytes)).toString('utf8');
      return { res, text, chunks: chunks.length, elapsed: Date.now() - start };
    }

    it('SSE: data: {"token"} events over time, keep-alive comments, [DONE]; tokens join to the plain answer', async () => {
      const { res, text, elapsed } = await pacedStream('sse');
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
      assert.equal(res.headers.get('transfer-encoding'), 'chunked');
      const events = text.split('\n\n').filter((e) => e !== '');
      assert.ok(events.includes(': keep-alive'));
      assert.equal(events[events.length - 1], 'data: [DONE]');
      const tokens = events.filter((e) => e.startsWith('data: {')).map((e) => (JSON.parse(e.slice(6)) as { token: string }).token);
      assert.equal(tokens.join(''), await expected());
      assertPaced(tokens.length, elapsed);
    });

    it('NDJSON: {"token"} lines then {"done": true}', async () => {
      const { res, text, elapsed } = await pacedStream('ndjson');
      assert.equal(res.headers.get('content-type'), 'application/x-ndjson');
      const lines = text
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as { token?: string; done?: boolean });
      assert.deepEqual(lines[lines.length - 1], { done: true });
      assert.equal(
        lines
          .slice(0, -1)
          .map((l) => l.token)
          .join(''),
        await expected(),
      );
      assertPaced(lines.length - 1, elapsed);
    });

    it('text: raw token text, text/plain; charset=utf-8', async () => {
      const { res, text, elapsed } = await pacedStream('text');
      assert.equal(res.headers.get('content-type'), 'text/plain; charset=utf-8');
      assert.equal(text, await expected());
      assertPaced(tokensOf(text).length, elapsed);
    });

    it("the key's framing applies without the override header", async () => {
      const { res, text } = await stream(undefined, 'other-key');
      assert.equal(res.headers.get('content-type'), 'application/x-ndjson');
      assert.match(text, /\{"done":true\}\n$/);
    });

    it('bench pacing: streamChunkBytes sends the paced bytes back to back in large writes; streamTokenChars slices tokens', async () => {
      const paced = await stream('sse');
      em.configure({ tokenIntervalMs: 0, streamChunkBytes: 64 * 1024 });
      try {
        const batched = await stream('sse');
        assert.equal(batched.text, paced.text, 'same bytes as the paced stream');
        assert.ok(batched.chunks * 4 < paced.chunks, `${batched.chunks} reads batched vs ${paced.chunks} paced`);
        assert.equal((await stream('sse')).text, paced.text, 'the cached body is the same');
        em.configure({ streamTokenChars: 5 });
        const { text } = await stream('ndjson');
        const tokens = text
          .split('\n')
          .filter((l) => l.startsWith('{"token"'))
          .map((l) => (JSON.parse(l) as { token: string }).token);
        assert.equal(tokens.join(''), await expected());
        // Five characters each, except where a surrogate pair is kept whole, and the last one.
        assert.ok(
          tokens.slice(0, -1).every((t) => t.length >= 4 && t.length <= 6),
          JSON.stringify(tokens.slice(0, 20)),
        );
        assert.ok(tokens.filter((t) => t.length === 5).length > tokens.length * 0.9);
      } finally {
        em.configure({ tokenIntervalMs: 2, streamChunkBytes: 0, streamTokenChars: 0 });
      }
    });

    it('a sub-millisecond interval keeps its rate: tokens due together share one write, each recorded', async () => {
      // Timers fire at most about once a millisecond: at 0.5 ms a tick finds two or more tokens due and writes them
      // together, instead of one token per tick (which would send 1,000 tokens/s at best).
      const count = 400;
      const text = Array.from({ length: count }, (_, i) => ` t${i}`).join('');
      em.configure({ tokenIntervalMs: 0.5, responseText: text, recordTokenWrites: true });
      em.tokenWrites.length = 0;
      try {
        const { text: body, elapsed } = await stream('ndjson');
        const tokens = body
          .split('\n')
          .filter((l) => l.startsWith('{"token"'))
          .map((l) => (JSON.parse(l) as { token: string }).token);
        assert.equal(tokens.join(''), text);
        assert.equal(em.tokenWrites.length, count, 'one write time per token');
        assert.ok(
          em.tokenWrites.every((t, i) => i === 0 || t >= (em.tokenWrites[i - 1] as number)),
          'write times in order',
        );
        const writes = new Set(em.tokenWrites).size;
        assert.ok(writes <= count * 0.75, `${count} tokens in ${writes} writes`);
        assert.ok(elapsed >= count * 0.5, `the schedule is never ahead: ${count} tokens in ${elapsed} ms`);
      } finally {
        em.configure({ tokenIntervalMs: 2, responseText: undefined, recordTokenWrites: false });
      }
    });

    it('multi-byte characters are split across chunks (clients must decode with state)', async () => {
      const res = await fetch(`${em.url}${PREDICT}`, {
        method: 'POST',
        headers: headers(KEY, { 'X-Emulator-Framing': 'text' }),
        body: JSON.stringify({ ...request, stream: true }),
      });
      const chunks = await readChunks(res);
      const broken = chunks.some((c) => c.bytes.toString('utf8').includes('\ufffd'));
      assert.ok(broken, 'expected at least one chunk ending inside a UTF-8 sequence');
      assert.ok(
        !Buffer.concat(chunks.map((c) => c.bytes))
          .toString('utf8')
          .includes('\ufffd'),
      );
    });

    it(`${STREAM_ERROR_MARKER} ends SSE with an error event, NDJSON with an error line, text with a dead socket`, async () => {
      const prompt = `fail please ${STREAM_ERROR_MARKER}`;
      const sse = await stream('sse', KEY, prompt);
      assert.match(sse.text, /event: error\ndata: \{"error":\{"message":"[^"]+"/);
      assert.ok(!sse.text.includes('[DONE]'));
      const nd = await stream('ndjson', KEY, prompt);
      const last = JSON.parse(nd.text.trim().split('\n').pop() ?? '{}') as { error?: { message: string } };
      assert.equal(typeof last.error?.message, 'string');
      await assert.rejects(stream('text', KEY, prompt));
      const plain = await postJson(`${em.url}${PREDICT}`, { ...request, prompt });
      assert.equal(plain.status, 502);
    });

    it('a client that disconnects stops the stream: connection closed, request recorded as aborted', async () => {
      em.configure({ tokenIntervalMs: 20 });
      try {
        await sleep(50);
        const baseline = em.activeConnections();
        em.clearReceived();
        await new Promise<void>((resolveDone, reject) => {
          const req = http.request(
            `${em.url}${PREDICT}`,
            { method: 'POST', agent: false, headers: headers(KEY, { 'Content-Type': 'application/json' }) },
            (res) => {
              res.once('data', () => {
                req.destroy();
                resolveDone();
              });
            },
          );
          req.on('error', (err) =>
            err.message.includes('abort') || (err as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(err),
          );
          req.end(JSON.stringify({ ...request, stream: true }));
        });
        await waitFor(() => em.received[0]?.aborted === true, 15_000, 'aborted flag');
        await waitFor(() => em.activeConnections() <= baseline, 15_000, 'connection to close');
        assert.equal(em.received.length, 1);
        assert.equal(em.received[0]?.path, PREDICT);
      } finally {
        em.configure({ tokenIntervalMs: 2 });
      }
    });
  });

  describe('evaluation (spec 4.5-4.6)', () => {
    async function evaluate(body: Record<string, unknown>, key = KEY): Promise<Record<string, unknown>> {
      const submit = await postJson<{ job_id: string; status: string }>(`${em.url}/cr/finetune_model/evaluate_async`, body, key);
      assert.equal(submit.status, 200);
      assert.equal(submit.body.status, 'queued');
      assert.equal(typeof submit.body.job_id, 'string');
      const seen: string[] = [];
      for (;;) {
        const poll = await getJson(`${em.url}/cr/finetune_model/evaluate_status?job_id=${encodeURIComponent(submit.body.job_id)}`, key);
        assert.equal(poll.status, 200);
        const status = String(poll.body.status);
        if (seen[seen.length - 1] !== status) {
          seen.push(status);
        }
        if (status === 'completed' || status === 'failed') {
          for (const s of seen) {
            assert.ok(['queued', 'running', 'completed', 'failed'].includes(s), s);
          }
          return poll.body;
        }
        await sleep(25);
      }
    }

    it('holdEvaluations: an evaluation answers running while held (four times its whole duration), and ends when let go', async () => {
      em.configure({ holdEvaluations: true });
      let held = true;
      try {
        const submit = await postJson<{ job_id: string }>(`${em.url}/cr/finetune_model/evaluate_async`, {
          dataset_name: 'demo-qa',
          model_name: BASE,
        });
        const url = `${em.url}/cr/finetune_model/evaluate_status?job_id=${encodeURIComponent(submit.body.job_id)}`;
        await sleep(600); // the whole evaluation takes 150 ms when not held
        const view = await getJson<{ status: string; result?: unknown }>(url, KEY);
        assert.equal(view.body.status, 'running', 'held running');
        assert.equal(view.body.result, undefined);
        em.configure({ holdEvaluations: false });
        held = false;
        assert.equal((await getJson<{ status: string }>(url, KEY)).body.status, 'completed', 'past its duration: ended once let go');
      } finally {
        if (held) em.configure({ holdEvaluations: false });
      }
    });

    it('completes with a result whose accuracy is correct/total, deterministic per model and dataset', async () => {
      const first = await evaluate({ dataset_name: 'demo-qa', model_name: BASE });
      assert.equal(first.status, 'completed');
      const result = first.result as Record<string, unknown>;
      assert.deepEqual(Object.keys(result).sort(), ['accuracy', 'correct', 'dataset_name', 'judge_model', 'model_name', 'split', 'total']);
      assert.equal(result.dataset_name, 'demo-qa');
      assert.equal(result.model_name, BASE);
      assert.equal(result.split, 'test');
      assert.equal(result.total, 50);
      assert.ok(Number.isInteger(result.correct));
      assert.equal(result.accuracy, (result.correct as number) / 50);
      assert.equal(result.judge_model, 'judge-large-v1');
      const again = await evaluate({ dataset_name: 'demo-qa', model_name: BASE });
      assert.deepEqual(again.result, result);
      await em.addCustomModel(KEY, 'eval-custom', { artifactBytes: 1024 });
      const custom = await evaluate({ dataset_name: 'demo-qa', model_name: 'eval-custom' });
      assert.ok((custom.result as { accuracy: number }).accuracy > result.accuracy, 'a finetuned model scores higher');
    });

    it('an unknown dataset is accepted, then fails with error "Dataset \'x\' not found"', async () => {
      const body = await evaluate({ dataset_name: 'no-such-set', model_name: BASE });
      assert.deepEqual(body, { job_id: body.job_id, status: 'failed', error: "Dataset 'no-such-set' not found" });
    });

    it('configured datasets with correctRatio give exact scores', async () => {
      em.configure({ datasets: { ...em.options.datasets, pinned: { total: 10, correctRatio: 0.3 } } });
      const body = await evaluate({ dataset_name: 'pinned', model_name: BASE });
      assert.equal((body.result as { correct: number }).correct, 3);
      assert.equal((body.result as { accuracy: number }).accuracy, 0.3);
    });

    it('per-model scores on a dataset make a tuned model beat its base on one dataset and lose on another', async () => {
      await em.addCustomModel(KEY, 'tuned-vs-base', { artifactBytes: 1024 });
      em.configure({
        datasets: {
          ...em.options.datasets,
          wins: { total: 80, correctRatio: 0.5, scores: { 'tuned-vs-base': 0.85, [BASE]: 0.6 } },
          loses: { total: 40, scores: { 'tuned-vs-base': 0.25, [BASE]: 0.75 } },
        },
      });
      const correct = async (dataset: string, model: string): Promise<number> =>
        ((await evaluate({ dataset_name: dataset, model_name: model })).result as { correct: number }).correct;
      assert.deepEqual(
        [
          await correct('wins', 'tuned-vs-base'),
          await correct('wins', BASE),
          await correct('loses', 'tuned-vs-base'),
          await correct('loses', BASE),
        ],
        [68, 48, 10, 30],
      );
      // A model the dataset does not name falls back to correctRatio, then to the hash.
      await em.addCustomModel(KEY, 'unnamed-tuned', { artifactBytes: 1024 });
      assert.equal(await correct('wins', 'unnamed-tuned'), 40);
      const hashed = await correct('loses', 'unnamed-tuned');
      assert.ok(hashed >= 28 && hashed <= 38, `custom range 70-95 % of 40, got ${hashed}`);
    });

    it('per-model scores can be set over the control API, and a ratio above 1 is refused', async () => {
      const configure = (datasets: unknown): Promise<Response> =>
        fetch(`${em.url}/_emulator/configure`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ datasets }),
        });
      const ok = await configure({ remote: { total: 10, scores: { [BASE]: 0.9 } } });
      assert.equal(ok.status, 200);
      assert.deepEqual(em.options.datasets.remote?.scores, { [BASE]: 0.9 });
      assert.equal(((await evaluate({ dataset_name: 'remote', model_name: BASE })).result as { correct: number }).correct, 9);
      const bad = await configure({ remote: { total: 10, scores: { [BASE]: 90 } } });
      assert.equal(bad.status, 400);
      const notObject = await configure({ remote: { total: 10, scores: [0.9] } });
      assert.equal(notObject.status, 400);
    });

    it("a dataset may name its own judge model (set directly or over the control API), so two datasets' judges differ", async () => {
      em.configure({
        datasets: { plain: { total: 10, correctRatio: 0.5 }, judged: { total: 10, correctRatio: 0.5, judgeModel: 'judge-small-v2' } },
      });
      const judgeOf = async (dataset: string): Promise<unknown> =>
        ((await evaluate({ dataset_name: dataset, model_name: BASE })).result as { judge_model: unknown }).judge_model;
      assert.equal(await judgeOf('judged'), 'judge-small-v2');
      assert.equal(await judgeOf('plain'), 'judge-large-v1');
      const configure = (datasets: unknown): Promise<Response> =>
        fetch(`${em.url}/_emulator/configure`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ datasets }),
        });
      assert.equal((await configure({ remote: { total: 10, judgeModel: 'judge-remote' } })).status, 200);
      assert.equal(await judgeOf('remote'), 'judge-remote');
      assert.equal((await configure({ remote: { total: 10, judgeModel: 7 } })).status, 400);
    });

    it('422 for missing fields, 404 for an unknown model or a job of another key', async () => {
      const missing = await postJson<{ detail: { loc: string[] }[] }>(`${em.url}/cr/finetune_model/evaluate_async`, { model_name: BASE });
      assert.equal(missing.status, 422);
      assert.deepEqual(missing.body.detail[0]?.loc, ['body', 'dataset_name']);
      const unknown = await postJson(`${em.url}/cr/finetune_model/evaluate_async`, { dataset_name: 'demo-qa', model_name: 'ghost' });
      assert.equal(unknown.status, 404);
      const submit = await postJson<{ job_id: string }>(`${em.url}/cr/finetune_model/evaluate_async`, {
        dataset_name: 'demo-qa',
        model_name: BASE,
      });
      const foreign = await getJson(`${em.url}/cr/finetune_model/evaluate_status?job_id=${submit.body.job_id}`, 'other-key');
      assert.equal(foreign.status, 404);
      const noId = await getJson(`${em.url}/cr/finetune_model/evaluate_status`);
      assert.equal(noId.status, 422);
    });
  });
});

describe('emulator: downloads and the signed-URL origin', function () {
  let em: Emulator;
  const MODEL = 'dl-model';
  before(async () => {
    em = await startEmulator({ artifactBytes: 256 * 1024 + 7 });
    await em.addCustomModel(KEY, MODEL);
  });
  after(async () => {
    await em.close();
  });

  async function location(model = MODEL): Promise<string> {
    const res = await fetch(`${em.url}/cr/finetune_model/download?model_name=${encodeURIComponent(model)}`, {
      headers: headers(),
      redirect: 'manual',
    });
    assert.equal(res.status, em.options.redirectStatus);
    const loc = res.headers.get('location');
    assert.ok(loc);
    return loc;
  }

  it('redirect mode: 302 to the storage origin, which serves the exact artifact without needing (or seeing) the key', async () => {
    em.clearReceived();
    const loc = await location();
    const url = new URL(loc);
    assert.equal(url.origin, em.storageUrl);
    assert.match(url.pathname, /^\/artifacts\/dl-model\/dl-model\.gguf$/);
    assert.match(url.searchParams.get('sig') ?? '', /^[0-9a-f]{64}$/);
    assert.ok(Number(url.searchParams.get('expires')) > Date.now());
    const res = await fetch(loc);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/octet-stream');
    assert.equal(res.headers.get('content-disposition'), 'attachment; filename="dl-model.gguf"');
    assert.equal(res.headers.get('accept-ranges'), 'bytes');
    assert.ok(res.headers.get('etag'));
    const body = Buffer.from(await res.arrayBuffer());
    const path = em.artifactPath(MODEL);
    assert.ok(path);
    assert.equal(body.length, 256 * 1024 + 7);
    assert.equal(res.headers.get('content-length'), String(body.length));
    const { createHash } = await import('node:crypto');
    assert.equal(createHash('sha256').update(body).digest('hex'), await sha256File(path));
    const storageRequests = em.received.filter((r) => r.origin === 'storage');
    assert.equal(storageRequests.length, 1);
    assert.equal(storageRequests[0]!.headers['x-api-key'], undefined);
  });

  it('a fetch that follows the redirect with the key leaks it to storage: the recorder shows it (what clients must avoid)', async () => {
    em.clearReceived();
    const res = await fetch(`${em.url}/cr/finetune_model/download?model_name=${MODEL}`, { headers: headers() });
    assert.equal(res.status, 200);
    await res.arrayBuffer();
    const storage = em.received.find((r) => r.origin === 'storage');
    assert.equal(storage?.headers['x-api-key'], KEY);
  });

  it('honours redirectStatus', async () => {
    for (const status of [301, 303, 307, 308] as const) {
      em.configure({ redirectStatus: status });
      await location();
    }
    em.configure({ redirectStatus: 302 });
  });

  it('metadata mode: {url, expires_at, size, sha256, filename}; redirect=true|false overrides per request', async () => {
    em.configure({ downloadMode: 'metadata' });
    try {
      const { status, body } = await getJson<{ url: string; expires_at: string; size: number; sha256: string; filename: string }>(
        `${em.url}/cr/finetune_model/download?model_name=${MODEL}`,
      );
      assert.equal(status, 200);
      const info = em.artifactInfo(MODEL);
      assert.ok(info);
      assert.equal(body.size, info.size);
      assert.equal(body.sha256, info.sha256);
      assert.equal(body.filename, 'dl-model.gguf');
      assert.ok(Date.parse(body.expires_at) > Date.now());
      assert.ok(Date.parse(body.expires_at) <= Date.now() + em.options.signedUrlTtlMs + 1000);
      const file = await fetch(body.url);
      assert.equal(Buffer.from(await file.arrayBuffer()).length, info.size);
      const forced = await fetch(`${em.url}/cr/finetune_model/download?model_name=${MODEL}&redirect=true`, {
        headers: headers(),
        redirect: 'manual',
      });
      assert.equal(forced.status, 302);
    } finally {
      em.configure({ downloadMode: 'redirect' });
    }
    const meta = await getJson(`${em.url}/cr/finetune_model/download?model_name=${MODEL}&redirect=false`);
    assert.equal(typeof meta.body.url, 'string');
  });

  it('404 for base or unknown models, 422 without model_name', async () => {
    const base = await getJson(`${em.url}/cr/finetune_model/download?model_name=${BASE}`);
    assert.equal(base.status, 404);
    assert.match(String(base.body.detail), /base model/);
    const unknown = await getJson(`${em.url}/cr/finetune_model/download?model_name=ghost`);
    assert.equal(unknown.status, 404);
    const foreign = await getJson(`${em.url}/cr/finetune_model/download?model_name=${MODEL}`, 'other-key');
    assert.equal(foreign.status, 404);
    const none = await getJson(`${em.url}/cr/finetune_model/download`);
    assert.equal(none.status, 422);
  });

  it('a tampered signature is 403 SignatureDoesNotMatch; an expired URL is 403 "Request has expired" (S3-style XML)', async () => {
    const loc = new URL(await location());
    loc.searchParams.set('sig', '0'.repeat(64));
    const bad = await fetch(loc);
    assert.equal(bad.status, 403);
    assert.match(await bad.text(), /<Code>SignatureDoesNotMatch<\/Code>/);
    const loc2 = new URL(await location());
    loc2.searchParams.set('expires', String(Date.now() + 10_000_000));
    assert.equal((await fetch(loc2)).status, 403, 'changing expires breaks the signature');

    em.configure({ signedUrlTtlMs: 30 });
    try {
      const short = await location();
      await sleep(60);
      const expired = await fetch(short);
      assert.equal(expired.status, 403);
      assert.match(expired.headers.get('content-type') ?? '', /xml/);
      assert.equal(
        await expired.text(),
        '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>',
      );
    } finally {
      em.configure({ signedUrlTtlMs: 60_000 });
    }
  });

  it('Range requests: 206 with Content-Range for N-M, N- and -N; 416 when unsatisfiable; HEAD', async () => {
    const loc = await location();
    const path = em.artifactPath(MODEL);
    assert.ok(path);
    const { readFile } = await import('node:fs/promises');
    const whole = await readFile(path);
    const size = whole.length;
    const cases: [string, number, number][] = [
      ['bytes=10-19', 10, 19],
      [`bytes=${size - 100}-`, size - 100, size - 1],
      ['bytes=-32', size - 32, size - 1],
      [`bytes=5-${size + 1000}`, 5, size - 1],
    ];
    for (const [range, start, end] of cases) {
      const res = await fetch(loc, { headers: { Range: range } });
      assert.equal(res.status, 206, range);
      assert.equal(res.headers.get('content-range'), `bytes ${start}-${end}/${size}`);
      const body = Buffer.from(await res.arrayBuffer());
      assert.ok(body.equals(whole.subarray(start, end + 1)), range);
    }
    const unsatisfiable = await fetch(loc, { headers: { Range: `bytes=${size}-` } });
    assert.equal(unsatisfiable.status, 416);
    assert.equal(unsatisfiable.headers.get('content-range'), `bytes */${size}`);
    await unsatisfiable.arrayBuffer();
    const head = await fetch(loc, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('content-length'), String(size));
  });

  it('hostile model names keep working and their artifacts stay inside dataDir', async () => {
    const names = ['../../evil', 'a/b', 'CON', 'spaces and ü', '..'];
    for (const name of names) {
      await em.addCustomModel(KEY, name, { artifactBytes: 1000 });
      const path = em.artifactPath(name, KEY);
      assert.ok(path);
      assert.ok(resolve(path).startsWith(resolve(em.options.dataDir, 'artifacts') + sep), path);
      const header = await readGgufHeader(path);
      assert.equal(header.metadata['general.name'], name);
      const { body } = await getJson<{ url: string; filename: string }>(
        `${em.url}/cr/finetune_model/download?model_name=${encodeURIComponent(name)}&redirect=false`,
      );
      assert.match(body.filename, /^[A-Za-z0-9][A-Za-z0-9._-]*\.gguf$/, body.filename);
      assert.doesNotMatch(body.filename, /^(CON|con)\./);
      const url = new URL(body.url);
      assert.equal(url.origin, em.storageUrl);
      assert.equal(url.pathname.split('/').length, 4, url.pathname);
      const file = await fetch(body.url);
      assert.equal(file.status, 200, `${name}: ${url.pathname}`);
      assert.equal(Buffer.from(await file.arrayBuffer()).length, em.artifactInfo(name, KEY)?.size);
    }
    const { body } = await getJson<{ models: { model_name: string }[] }>(`${em.url}/cr/get_allowed_models`);
    for (const name of names) {
      assert.ok(
        body.models.some((m) => m.model_name === name),
        name,
      );
    }
  });

  it('GGUF artifact: magic, version 3, metadata, aligned tensors, exact size', async () => {
    await em.addCustomModel(KEY, 'gguf-check', { artifactBytes: 3 * 1024 * 1024 + 5 });
    const info = em.artifactInfo('gguf-check');
    assert.ok(info);
    assert.equal(info.size, 3 * 1024 * 1024 + 5);
    const header = await readGgufHeader(info.path);
    assert.equal(header.magic, 'GGUF');
    assert.equal(header.version, 3);
    assert.equal(header.metadata['general.architecture'], 'llama');
    assert.equal(header.metadata['general.name'], 'gguf-check');
    assert.equal(header.metadata['general.type'], 'model');
    assert.equal(header.metadata['general.base_model'], BASE);
    assert.ok(header.tensorCount >= 2n);
    assert.equal(header.dataOffset % 32, 0);
    for (const t of header.tensors) {
      assert.equal(t.offset % 32n, 0n);
    }
    const last = header.tensors.at(-1);
    assert.ok(last);
    const lastBytes = Number(last.dims.reduce((a, b) => a * b, 1n)) * 4;
    assert.ok(header.dataOffset + Number(last.offset) + lastBytes <= info.size);
    assert.equal(await sha256File(info.path), info.sha256);
  });
});

describe('emulator: control API and CLI', function () {
  let em: Emulator;
  before(async () => {
    em = await startEmulator({ tokenIntervalMs: 1 });
  });
  after(async () => {
    await em.close();
  });

  async function control(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: Record<string, unknown> & unknown[] }> {
    const res = await fetch(`${em.url}/_emulator/${path}`, {
      method,
      headers: { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> & unknown[] };
  }

  it('configure, keys, faults, received, custom models, artifact info', async () => {
    em.clearReceived();
    const configured = await control('POST', 'configure', { tokenIntervalMs: 3, downloadMode: 'metadata', finetuneDurationMs: 700 });
    assert.equal(configured.status, 200);
    assert.equal(em.options.tokenIntervalMs, 3);
    assert.equal(em.options.downloadMode, 'metadata');
    assert.equal((await control('POST', 'configure', { port: 1 })).status, 400, 'fixed options are refused');
    assert.equal((await control('POST', 'configure', { downloadMode: 'ftp' })).status, 400);

    assert.equal(
      (await control('POST', 'keys', { key: 'ctl-key', config: { models: ['x-base'], modelListShape: 'objects-id', framing: 'text' } }))
        .status,
      200,
    );
    const models = await getJson<{ id: string }[]>(`${em.url}/cr/get_allowed_models`, 'ctl-key');
    assert.deepEqual(models.body, [{ id: 'x-base', type: 'base' }]);

    const created = await control('POST', 'custom-models', { key: 'ctl-key', modelName: 'ctl-model', artifactBytes: 5000 });
    assert.equal(created.status, 200);
    const info = await control('GET', 'artifact-info?model_name=ctl-model');
    assert.equal(info.status, 200);
    assert.equal(info.body.size, 5000);
    assert.equal(info.body.sha256, await sha256File(String(info.body.path)));
    assert.equal((await control('GET', 'artifact-info?model_name=ghost')).status, 404);

    assert.equal((await control('POST', 'faults', { pathRegex: '^/cr/get_allowed', kind: 'status', status: 503, times: 2 })).status, 200);
    assert.equal((await control('GET', 'faults')).body.length, 1);
    assert.equal((await getJson(`${em.url}/cr/get_allowed_models`, 'ctl-key')).status, 503);
    assert.equal((await control('GET', 'health')).status, 200, 'control routes are never faulted');
    assert.equal((await control('DELETE', 'faults')).status, 200);
    assert.equal((await getJson(`${em.url}/cr/get_allowed_models`, 'ctl-key')).status, 200);

    const received = await control('GET', 'received');
    assert.ok(Array.isArray(received.body));
    const paths = (received.body as { path: string; origin: string }[]).map((r) => r.path);
    assert.ok(
      paths.every((p) => p.startsWith('/cr/')),
      'control requests are not recorded',
    );
    assert.equal(paths.length, 3);
    await control('DELETE', 'received');
    assert.equal(em.received.length, 0);
    assert.equal((await control('GET', 'nope')).status, 404);
  });

  it('CLI prints its URLs and stops cleanly on SIGTERM', async () => {
    const script = join(__dirname, '..', 'service', 'main.js');
    const child = spawn(process.execPath, [script, '--port', '0', '--token-interval-ms', '1', '--download-mode', 'metadata'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    const exit = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    try {
      // The banner and the key lines may arrive in separate chunks.
      await waitFor(() => /Emulator listening on[\s\S]*other-key/.test(out), 30_000, 'CLI banner');
      const m = /^Emulator listening on (http:\/\/127\.0\.0\.1:\d+) \(storage (http:\/\/127\.0\.0\.1:\d+)\)$/m.exec(out);
      assert.ok(m, out);
      assert.match(out, /demo-key/);
      const res = await fetch(`${m[1]}/_emulator/state`);
      const state = (await res.json()) as { options: { downloadMode: string } };
      assert.equal(state.options.downloadMode, 'metadata');
      child.kill('SIGTERM');
      assert.equal(await exit, 0);
    } finally {
      // Never leave the child running (it would also keep mocha alive).
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
      }
    }
  });
});
