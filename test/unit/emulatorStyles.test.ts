// The emulator's whole-service styles (option `shape`): each answers every "not shown" body in its own shapes, keeps
// what the spec documents by name (evaluation job_id/status/result, the finetune status record's job_id), keeps the
// routes and statuses, and walks the same state machine as the default. Read with plain fetch (styleBodies.ts knows
// each style), never the project's client.
/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment --
   stream events and bodies are untyped JSON, read by hand */
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type Emulator } from '../service/emulator';
import { writeBrokenPdf, writeDocx, writePdf } from '../service/fixtures';
import { composeAnswer, composeReasoning, type InferenceRequest } from '../service/inference';
import { NESTED_SOURCES } from '../service/styles';
import { BASE, headers, KEY, sleep } from './emulator-helpers';
import { STYLED_SHAPES, STYLES, streamEvents, type StyledShape } from './styleBodies';

const INFER = '/cr/provider_predict_platform_base_oss';

for (const shape of STYLED_SHAPES) {
  describe(`emulator style ${shape}`, function () {
    this.timeout(20_000);
    const style = STYLES[shape];
    let em: Emulator;
    let dir: string;

    before(async () => {
      dir = await mkdtemp(join(tmpdir(), 'emulator-style-'));
      em = await startEmulator({ shape, tokenIntervalMs: 0, finetuneDurationMs: 500, evaluationDurationMs: 200, artifactBytes: 64 * 1024 });
      await writePdf(join(dir, 'a.pdf'), ['The warranty lasts two years.']);
      await writeDocx(join(dir, 'b.docx'), ['Support is open on weekdays.']);
      await writeBrokenPdf(join(dir, 'broken.pdf'));
    });
    after(async () => {
      await em.close();
      await rm(dir, { recursive: true, force: true });
    });

    const get = async (path: string, key = KEY) => {
      const res = await fetch(em.url + path, { headers: headers(key) });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const post = async (path: string, body: unknown, extra: Record<string, string> = {}) => {
      const res = await fetch(em.url + path, {
        method: 'POST',
        headers: headers(KEY, { 'Content-Type': 'application/json', ...extra }),
        body: JSON.stringify(body),
      });
      return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
    };
    const startFinetune = async (files: string[], modelName: string, modelType = style.baseName(BASE)) => {
      const fd = new FormData();
      for (const f of files) fd.append('files', new Blob([await readFile(join(dir, f))]), f);
      for (const [k, v] of Object.entries({ numQs: '4', mode: 'pretraining', modelName, modelType, use_case: 'tests' })) fd.append(k, v);
      const res = await fetch(`${em.url}/cr/generate_questions`, { method: 'POST', headers: headers(), body: fd });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    /** The job's status records until it ends, or the first `readings` of them. */
    const poll = async (id: string, readings = Infinity) => {
      const seen: Record<string, unknown>[] = [];
      for (const end = Date.now() + 10_000; Date.now() < end;) {
        const { status, body } = await get(`/cr/generate_questions_status?job_id=${encodeURIComponent(id)}`);
        assert.equal(status, 200, JSON.stringify(body));
        seen.push(body);
        if (style.rank(body) >= 3 || seen.length >= readings) return seen;
        await sleep(25);
      }
      throw new Error(`job ${id} did not end: ${JSON.stringify(seen.at(-1))}`);
    };

    it('lists models in its own shape, base models then the key’s tuned ones', async () => {
      const { status, body } = await get('/cr/get_allowed_models');
      assert.equal(status, 200);
      assert.deepEqual(style.models(body), [
        { name: style.baseName('oss-reasoner-8b'), kind: 'base' },
        { name: style.baseName('oss-reasoner-70b'), kind: 'base' },
      ]);
      assert.ok(!('models' in body && shape !== 'google-like'), 'the default’s {models: [...]} wrapper');
    });

    it('answers errors in its own body on the default’s statuses', async () => {
      const missing = await fetch(`${em.url}/cr/get_allowed_models`);
      assert.equal(missing.status, 401);
      assert.equal(style.errorMessage(await missing.json()), 'Missing API key');
      const unknown = await get('/cr/finetune_model/download?model_name=nope');
      assert.equal(unknown.status, 404);
      assert.equal(style.errorMessage(unknown.body), "Model 'nope' not found");
      assert.ok(!('detail' in unknown.body), JSON.stringify(unknown.body));
      const invalid = await post(INFER, { prompt: '' });
      assert.equal(invalid.status, 422);
      assert.match(style.errorMessage(JSON.parse(invalid.text)), /prompt: String should have at least 1 character/);
    });

    const request = (stream: boolean, useRag = false): InferenceRequest => ({
      prompt: 'Why cache? Café ☕',
      modelName: style.baseName(BASE),
      stream,
      useRag,
      sequentialBudget: 2,
      parallelBudget: 1,
      temperature: 0.5,
    });
    const body = (r: InferenceRequest) => ({
      prompt: r.prompt,
      model_name: r.modelName,
      stream: r.stream,
      use_rag: r.useRag,
      sequential_budget: r.sequentialBudget,
      parallel_budget: r.parallelBudget,
      temperature: r.temperature,
    });

    for (const reasoning of ['none', 'field', 'inline'] as const) {
      it(`answers a non-streamed run in its own body, reasoning ${reasoning}`, async () => {
        em.configure({ reasoning });
        try {
          const r = request(false, true);
          const res = await post(INFER, body(r));
          assert.equal(res.status, 200, res.text);
          const got = style.answer(JSON.parse(res.text));
          const thinking = composeReasoning(r);
          const answer = composeAnswer(r);
          if (reasoning === 'inline') assert.deepEqual(got, { answer: `<think>\n${thinking}\n</think>\n\n${answer}`, reasoning: '' });
          else assert.deepEqual(got, { answer, reasoning: reasoning === 'none' ? '' : thinking });
        } finally {
          em.configure({ reasoning: 'none' });
        }
      });
    }

    for (const { key, wire } of style.framings) {
      it(`streams in its own events (${key} key -> ${wire}), answer and reasoning apart`, async () => {
        em.configure({ reasoning: 'field' });
        try {
          const r = request(true, true);
          const res = await post(INFER, body(r), { 'X-Emulator-Framing': key });
          assert.equal(res.status, 200, res.text);
          const events = streamEvents(wire, res.text);
          const pieces = events.map((e) => style.piece(e)).filter((p) => p !== undefined);
          const join = (kind: string) =>
            pieces
              .filter((p) => p.kind === kind)
              .map((p) => p.text)
              .join('');
          assert.equal(join('answer'), composeAnswer(r));
          assert.equal(join('reasoning'), composeReasoning(r));
          assert.ok(pieces.length > 20, 'a piece per token');
          if (shape === 'openai-like') {
            assert.ok(res.text.endsWith('data: [DONE]\n\n'));
            const ids = new Set(events.map((e) => `${e.id}|${e.created}|${e.model}`));
            assert.equal(ids.size, 1, 'id, created and model repeated in every chunk');
            assert.deepEqual(events.at(-1).choices, [], 'a last usage chunk without choices');
          }
          if (shape === 'google-like' && wire === 'json-array') {
            assert.match(res.type, /^application\/json/);
            assert.match(res.text, /^\[\{\n {2}"candidates"/, 'pretty-printed elements');
          }
          if (shape === 'google-like' && wire === 'sse') assert.match(res.text, /\r\n\r\n$/);
          if (shape === 'nested-phase') {
            assert.equal(events[0].type, 'request');
            assert.equal(events[0].request.prompt, r.prompt, 'the first event echoes the request');
            const tokens = events.filter((e) => e.type === 'token');
            assert.ok(
              tokens.every((e) => e.token === e.delta.text),
              'each token in two fields',
            );
            const rag = events.findIndex((e) => e.type === 'retrieval');
            assert.ok(rag > events.findIndex((e) => e.type === 'token') && rag < events.length - 2, `retrieval event at ${rag}`);
            assert.deepEqual(events[rag].sources, NESTED_SOURCES);
          }
        } finally {
          em.configure({ reasoning: 'none' });
        }
      });
    }

    it('ends a stream that fails midway with an error in its own shape after three tokens', async () => {
      const r = { ...request(true), prompt: 'fail [[emulator:stream-error]] now' };
      const { key, wire } = style.framings[0]!;
      const res = await post(INFER, body(r), { 'X-Emulator-Framing': key });
      const events = streamEvents(wire, res.text);
      assert.equal(events.map((e) => style.piece(e)).filter((p) => p !== undefined).length, 3);
      assert.match(JSON.stringify(events.at(-1)), /Model backend failed mid-stream/);
    });

    it('walks the default’s finetune state machine in its own words and publishes the made model under its own name', async () => {
      const modelName = `style-${shape}`;
      // Held in its first state until the conflict below is seen, and each state then long enough for polls every
      // 20 ms on a loaded machine (at 500 ms in all, a run beside the other lanes of npm test saw no queued state).
      em.configure({ holdFinetunes: true, finetuneDurationMs: 2_000 });
      let views: Record<string, unknown>[];
      let id: string;
      try {
        const started = await startFinetune(['a.pdf', 'b.docx'], modelName);
        assert.equal(started.status, 200, JSON.stringify(started.body));
        assert.ok(!('job_id' in started.body), 'the start answer is the style’s own');
        id = style.startedId(started.body);
        // The same name again while its job runs: the default's conflict, in the style's error.
        const again = await startFinetune(['a.pdf'], modelName);
        assert.equal(again.status, 409);
        assert.match(style.errorMessage(again.body), /already running/);
        const first = await poll(id, 1);
        em.configure({ holdFinetunes: false });
        views = [...first, ...(await poll(id))];
      } finally {
        em.configure({ holdFinetunes: false, finetuneDurationMs: 500 });
      }
      const rankSeq = views.map((v) => style.rank(v));
      assert.deepEqual(
        rankSeq,
        [...rankSeq].sort((a, b) => a - b),
        `states go forward only: ${rankSeq.join()}`,
      );
      assert.equal(rankSeq[0], 0, 'queued first');
      assert.ok(new Set(rankSeq).size >= 3, `too few states seen: ${rankSeq.join()}`);
      const last = views.at(-1)!;
      assert.equal(style.rank(last), 3);
      assert.ok(
        views.every((v) => v.job_id === id),
        'each status record carries job_id, the id its start gave',
      );
      const progress = views.map((v) => style.progress(v)).filter((p) => p !== undefined);
      assert.deepEqual(
        progress,
        [...progress].sort((a, b) => a - b),
        'progress never goes back',
      );
      const made = style.made(last);
      assert.ok(made && made !== modelName, `made model ${made}`);
      assert.equal(em.madeModel(id), made);
      const list = style.models((await get('/cr/get_allowed_models')).body);
      const listed = list.find((m) => m.name === made);
      assert.equal(listed?.kind, 'custom', JSON.stringify(list));
      assert.equal(listed?.baseModel, style.baseName(BASE));
    });

    it('fails a job over an unreadable file with the file named in its own error', async () => {
      const started = await startFinetune(['broken.pdf'], `broken-${shape}`);
      const views = await poll(style.startedId(started.body));
      assert.equal(style.rank(views.at(-1)), 4);
      assert.match(style.failure(views.at(-1)) ?? '', /^broken\.pdf: /);
    });

    it('evaluates with the spec’s job_id, status words and result fields; a failure’s error in its own shape', async () => {
      // Each status word lasts long enough to be seen by polls every 20 ms on a loaded machine (the queued one 0.5 s;
      // at 200 ms in all, a run beside the other lanes of npm test missed it).
      em.configure({ evaluationDurationMs: 2_000 });
      let started: { status: string; job_id: unknown };
      const words: string[] = [];
      let done: Record<string, unknown> | undefined;
      try {
        const start = await post('/cr/finetune_model/evaluate_async', { dataset_name: 'demo-qa', model_name: style.baseName(BASE) });
        started = JSON.parse(start.text);
        assert.equal(start.status, 200);
        assert.equal(started.status, 'queued');
        assert.equal(typeof started.job_id, 'string');
        for (const end = Date.now() + 15_000; !done && Date.now() < end; await sleep(20)) {
          const { body: b } = await get(`/cr/finetune_model/evaluate_status?job_id=${String(started.job_id)}`);
          if (words.at(-1) !== b.status) words.push(String(b.status));
          if (b.status === 'completed' || b.status === 'failed') done = b;
        }
      } finally {
        em.configure({ evaluationDurationMs: 200 });
      }
      assert.deepEqual(words, ['queued', style.evaluationRunning, 'completed']);
      const result = done!.result as Record<string, unknown>;
      assert.deepEqual(Object.keys(result).sort(), ['accuracy', 'correct', 'dataset_name', 'judge_model', 'model_name', 'split', 'total']);
      assert.equal(result.model_name, style.baseName(BASE), 'the model as submitted');

      const bad = JSON.parse(
        (await post('/cr/finetune_model/evaluate_async', { dataset_name: 'nope', model_name: style.baseName(BASE) })).text,
      );
      await sleep(250);
      const failed = (await get(`/cr/finetune_model/evaluate_status?job_id=${bad.job_id}`)).body;
      assert.equal(failed.status, 'failed');
      assert.equal(typeof failed.error, 'object', 'the error in the style’s shape');
      assert.equal(style.evaluationError(failed), "Dataset 'nope' not found");
    });

    it('answers a download with JSON of its own whose signed URL gives the artifact', async () => {
      await em.addCustomModel(KEY, `dl-${shape}`);
      const res = await get(`/cr/finetune_model/download?model_name=dl-${shape}`);
      assert.equal(res.status, 200);
      const url = style.downloadUrl(res.body);
      assert.ok(url.startsWith(em.storageUrl), url);
      const bytes = Buffer.from(await (await fetch(url)).arrayBuffer());
      assert.equal(createHash('sha256').update(bytes).digest('hex'), em.artifactInfo(`dl-${shape}`, KEY)?.sha256);
      // Asked for a redirect, it still redirects (the spec's other form).
      const redirected = await fetch(`${em.url}/cr/finetune_model/download?model_name=dl-${shape}&redirect=true`, {
        headers: headers(),
        redirect: 'manual',
      });
      assert.equal(redirected.status, 302);
    });
  });
}

describe('emulator style: choosing it', () => {
  it('is set at start, by configure and by the control API; an unknown style is refused', async () => {
    const em = await startEmulator({ shape: 'openai-like' as StyledShape });
    try {
      const list = async () =>
        (await (await fetch(`${em.url}/cr/get_allowed_models`, { headers: headers() })).json()) as Record<string, unknown>;
      assert.ok('data' in (await list()));
      em.configure({ shape: 'google-like' });
      assert.ok('models' in (await list()) && !('data' in (await list())));
      const ok = await fetch(`${em.url}/_emulator/configure`, { method: 'POST', body: JSON.stringify({ shape: 'default' }) });
      assert.equal(ok.status, 200);
      assert.deepEqual(await list(), {
        models: [
          { model_name: 'oss-reasoner-8b', type: 'base' },
          { model_name: 'oss-reasoner-70b', type: 'base' },
        ],
      });
      const bad = await fetch(`${em.url}/_emulator/configure`, { method: 'POST', body: JSON.stringify({ shape: 'aws-like' }) });
      assert.equal(bad.status, 400);
    } finally {
      await em.close();
    }
  });
});
