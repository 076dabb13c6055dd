// Every endpoint's happy path, through the real client against the emulator.
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { promises as fsp } from 'node:fs';
import { AuthError, CancelledError, NetworkError, RequestError } from '../../src/api/errors';
import { ServiceClient } from '../../src/api/client';
import { isTerminal } from '../../src/api/types';
import { writeDocx, writePdf } from '../service/fixtures';
import { tokenize } from '../service/inference';
import { KEY, OTHER_KEY, baseRequest, clientFor, collect, tempDir, until, useEmulator, inferStream, inferWhole } from './helpers';

describe('client against the emulator: happy paths', function () {
  this.timeout(30_000);
  const ctx = useEmulator();
  const tmp = tempDir();

  it('4.1 lists each key its own models, base models marked', async () => {
    const a = await clientFor(ctx.emu, KEY).listModels();
    const b = await clientFor(ctx.emu, OTHER_KEY).listModels();
    assert.ok(a.length >= 2);
    assert.ok(
      a.every((m) => m.kind === 'base'),
      JSON.stringify(a),
    );
    assert.ok(b.length >= 1);
    assert.notDeepEqual(a.map((m) => m.name).sort(), b.map((m) => m.name).sort());
  });

  for (const shape of [
    'strings',
    'objects-name',
    'objects-model_name',
    'objects-id',
    'objects-model',
    'wrapped-models',
    'wrapped-allowed_models',
    'wrapped-data',
  ] as const) {
    it(`4.1 reads the model list shaped ${shape}`, async () => {
      ctx.emu.setKey('shape-key', { models: ['m-one', 'm-two'], modelListShape: shape });
      const models = await clientFor(ctx.emu, 'shape-key').listModels();
      assert.deepEqual(models.map((m) => m.name).sort(), ['m-one', 'm-two']);
    });
  }

  for (const shape of ['grouped-by-kind', 'nested-handles'] as const) {
    it(`4.1 reads by structure the model list shaped ${shape}: names, kinds and lineage`, async () => {
      ctx.emu.setKey('shape-key', { models: ['m-one', 'm-two'], modelListShape: shape });
      await ctx.emu.addCustomModel('shape-key', 'c-tuned', { baseModel: 'm-one' });
      const models = await clientFor(ctx.emu, 'shape-key').listModels();
      assert.deepEqual(
        models.map((m) => [m.name, m.kind, m.baseModel]),
        [
          ['m-one', 'base', undefined],
          ['m-two', 'base', undefined],
          ['c-tuned', 'custom', 'm-one'],
        ],
      );
    });
  }

  it('4.2 non-streamed inference returns the text', async () => {
    const [model] = await clientFor(ctx.emu).listModels();
    assert.ok(model);
    const res = await inferWhole(clientFor(ctx.emu), { ...baseRequest, modelName: model.name, stream: false });
    assert.ok(res.answer.length > 20);
    assert.equal(res.reasoning, '');
  });

  for (const framing of ['sse', 'ndjson', 'text'] as const) {
    it(`4.2 streamed inference in ${framing} yields deltas equal to the non-streamed text`, async () => {
      ctx.emu.setKey(`${framing}-key`, { models: ['m-stream'], framing });
      const client = clientFor(ctx.emu, `${framing}-key`);
      const request = { ...baseRequest, modelName: 'm-stream', prompt: 'Café ☕ and 😀 please' };
      const deltas = await collect(inferStream(client, request));
      const whole = await inferWhole(client, { ...request, stream: false });
      // How many pieces arrive is the network's doing (a loaded machine coalesces the emulator's writes into few reads),
      // so only their sum is checked here; that the first piece comes before the answer ends is shown by the
      // early-exit test below and by UI step 5 (the answer grows in visible steps).
      assert.ok(deltas.length >= 1);
      assert.equal(deltas.join(''), whole.answer);
    });
  }

  it('4.2 a streamed answer comes as a piece per event even when one read carries them all', async () => {
    // The whole answer in one write: a read holds every event; each must still come as its own piece.
    ctx.emu.configure({ tokenIntervalMs: 0, streamChunkBytes: 65_536 });
    try {
      const client = clientFor(ctx.emu);
      const [model] = await client.listModels();
      assert.ok(model);
      const request = { ...baseRequest, modelName: model.name };
      const whole = await inferWhole(client, { ...request, stream: false });
      const pieces = await collect(inferStream(client, request));
      assert.deepEqual(pieces, tokenize(whole.answer), 'not one piece per event (the emulator writes a token per event)');
    } finally {
      ctx.emu.configure({ tokenIntervalMs: 1, streamChunkBytes: 0 });
    }
  });

  it('4.2 leaving the loop early closes the connection', async () => {
    const client = clientFor(ctx.emu);
    ctx.emu.configure({ tokenIntervalMs: 20 });
    try {
      const [model] = await client.listModels();
      assert.ok(model);
      ctx.emu.clearReceived();
      let n = 0;
      for await (const _ of inferStream(client, { ...baseRequest, modelName: model.name })) {
        if (++n === 2) break;
      }
      await until(async () => (ctx.emu.received.some((r) => r.path.startsWith('/cr/provider') && r.aborted) ? true : undefined), 15_000);
    } finally {
      ctx.emu.configure({ tokenIntervalMs: 1 });
    }
  });

  it('4.2 an abort signal stops a stream with CancelledError', async () => {
    const client = clientFor(ctx.emu);
    ctx.emu.configure({ tokenIntervalMs: 20 });
    try {
      const [model] = await client.listModels();
      assert.ok(model);
      const controller = new AbortController();
      const got: string[] = [];
      await assert.rejects(async () => {
        for await (const d of inferStream(client, { ...baseRequest, modelName: model.name }, { signal: controller.signal })) {
          got.push(d);
          if (got.length === 2) controller.abort();
        }
      }, CancelledError);
      assert.equal(got.length, 2);
    } finally {
      ctx.emu.configure({ tokenIntervalMs: 1 });
    }
  });

  it('4.2 an abort stops a stream at once, even with more of it already received (two events in one write)', async () => {
    const client = clientFor(ctx.emu);
    // Every frame back to back, in writes of 64 KB: the whole answer reaches the client in one chunk.
    ctx.emu.configure({ tokenIntervalMs: 0, streamChunkBytes: 64 * 1024 });
    try {
      const [model] = await client.listModels();
      assert.ok(model);
      const controller = new AbortController();
      const got: string[] = [];
      await assert.rejects(async () => {
        for await (const d of inferStream(client, { ...baseRequest, modelName: model.name }, { signal: controller.signal })) {
          got.push(d);
          controller.abort();
        }
      }, CancelledError);
      assert.equal(got.length, 1, `pieces given after the abort: ${JSON.stringify(got.slice(1))}`);
    } finally {
      ctx.emu.configure({ tokenIntervalMs: 1, streamChunkBytes: 0 });
    }
  });

  it('4.3-4.4 a finetune from a PDF and a DOCX completes and the model joins the list', async () => {
    const client = clientFor(ctx.emu);
    const pdf = path.join(tmp.dir, 'handbook.pdf');
    const docx = path.join(tmp.dir, 'notes.docx');
    await writePdf(pdf, ['The warranty lasts two years.', 'Returns are accepted within 30 days.']);
    await writeDocx(docx, ['Support is open on weekdays.']);
    const [base] = await client.listModels();
    assert.ok(base);
    const progress: number[] = [];
    const modelName = `ft-${Date.now()}`;
    const job = await client.startFinetune(
      { files: [pdf, docx], numQs: 12, mode: 'pretraining', modelName, modelType: base.name, useCase: 'support bot' },
      { onProgress: (p) => progress.push(p.sent / p.total) },
    );
    assert.ok(job.jobId);
    assert.equal(progress.at(-1), 1, 'upload progress reaches 100%');
    const seen = new Set<string>();
    const final = await until(async () => {
      const s = await client.getFinetuneStatus(job.jobId);
      seen.add(s.state);
      return isTerminal(s.state) ? s : undefined;
    });
    assert.equal(final.state, 'completed', final.error);
    assert.ok(seen.has('running') || seen.has('queued'), [...seen].join());
    const models = await client.listModels();
    const custom = models.find((m) => m.name === modelName);
    assert.equal(custom?.kind, 'custom');
  });

  it('4.3 a renamed text file is refused with its name', async () => {
    const client = clientFor(ctx.emu);
    const fake = path.join(tmp.dir, 'report.pdf');
    await fsp.writeFile(fake, 'just text, not a PDF');
    const [base] = await client.listModels();
    assert.ok(base);
    await assert.rejects(
      client.startFinetune({ files: [fake], numQs: 5, mode: 'pretraining', modelName: 'nope', modelType: base.name, useCase: '' }),
      (e: unknown) => e instanceof RequestError && /report\.pdf/.test(e.message),
    );
  });

  it('4.5-4.6 an evaluation completes with accuracy, correct/total and judge; an unknown dataset fails', async () => {
    const client = clientFor(ctx.emu);
    const [model] = await client.listModels();
    assert.ok(model);
    const job = await client.startEvaluation(model.name, 'demo-qa');
    const done = await until(async () => {
      const s = await client.getEvaluationStatus(job.jobId);
      return isTerminal(s.state) ? s : undefined;
    });
    assert.equal(done.state, 'completed');
    const r = done.result!;
    assert.equal(r.modelName, model.name);
    assert.equal(r.datasetName, 'demo-qa');
    assert.ok(r.total > 0 && r.correct >= 0 && r.correct <= r.total);
    assert.ok(Math.abs(r.accuracy - r.correct / r.total) < 1e-9);
    assert.ok(r.judgeModel);

    const bad = await client.startEvaluation(model.name, 'no-such-dataset');
    const failed = await until(async () => {
      const s = await client.getEvaluationStatus(bad.jobId);
      return isTerminal(s.state) ? s : undefined;
    });
    assert.equal(failed.state, 'failed');
    assert.match(failed.error ?? '', /no-such-dataset/);
  });

  it('5 a wrong key is an AuthError whose message never shows the key', async () => {
    const key = 'sk-wrong-key-0123456789';
    await assert.rejects(
      clientFor(ctx.emu, key).listModels(),
      (e: unknown) => e instanceof AuthError && !e.message.includes(key) && !(e.detail ?? '').includes(key),
    );
  });

  it('an unreachable service is a NetworkError after the GET retries', async () => {
    const client = new ServiceClient({ baseUrl: 'http://127.0.0.1:9', apiKey: KEY, sleep: async () => undefined });
    await assert.rejects(client.listModels(), NetworkError);
  });
});
