// One playground run against the service emulator with the real client: chunks in order with one runId and joined
// equal to the answer in every framing, timings on `done`, stop closing the connection at once, the service's own
// words on errors, and a snapshot that always agrees with what was sent.
import { strict as assert } from 'node:assert';
import { InferenceRun, type InferenceClient } from '../../src/features/playground/host/inferenceRun';
import { OBSERVER_GLOBAL, type PlaygroundObserver } from '../../src/features/playground/latencyObserver';
import type { ChunkMessage, DoneMessage, ErrorMessage, HostToWebview, RunSettings } from '../../src/features/playground/protocol';
import { composeAnswer } from '../service/inference';
import { STREAM_ERROR_MARKER } from '../service/emulator';
import { clientFor, useEmulator } from './helpers';
import { seededRandom } from './seededRandom';

const MODEL = 'oss-reasoner-8b';
const settings: RunSettings = {
  modelName: MODEL,
  prompt: 'Explain caching in one paragraph.',
  temperature: 0.7,
  useRag: true,
  sequentialBudget: 4,
  parallelBudget: 2,
  stream: true,
};

function record(): { posted: HostToWebview[]; post: (m: HostToWebview) => void } {
  const posted: HostToWebview[] = [];
  return { posted, post: (m) => posted.push(m) };
}

function chunksOf(posted: HostToWebview[], runId: string): ChunkMessage[] {
  return posted.filter((m): m is ChunkMessage => m.type === 'chunk' && m.runId === runId);
}

function endOf(posted: HostToWebview[]): DoneMessage | ErrorMessage {
  const ends = posted.filter((m): m is DoneMessage | ErrorMessage => m.type === 'done' || m.type === 'error');
  assert.equal(ends.length, 1, `expected exactly one end message, got ${JSON.stringify(ends)}`);
  assert.equal(posted[posted.length - 1], ends[0], 'the end message is the last one');
  return ends[0]!;
}

function expectedAnswer(s: RunSettings): string {
  return composeAnswer({ ...s, queryOnly: s.queryOnly ?? s.prompt });
}

describe('playground run (emulator)', function () {
  this.timeout(20_000);
  const h = useEmulator({ tokenIntervalMs: 1 });

  for (const framing of ['sse', 'ndjson', 'text'] as const) {
    it(`streams the whole answer in ordered chunks of one runId (${framing})`, async () => {
      const key = `run-${framing}`;
      h.emu.setKey(key, { models: [MODEL], framing });
      const { posted, post } = record();
      const run = new InferenceRun('r1', settings, post);
      await run.execute(async () => clientFor(h.emu, key));
      const chunks = chunksOf(posted, 'r1');
      assert.deepEqual(
        chunks.map((c) => c.seq),
        chunks.map((_, i) => i),
      );
      assert.equal(chunks.map((c) => c.text).join(''), expectedAnswer(settings));
      assert.equal(typeof chunks[0]?.ttfbMs, 'number');
      assert.equal(
        chunks.slice(1).some((c) => c.ttfbMs !== undefined),
        false,
      );
      const end = endOf(posted);
      assert.equal(end.type, 'done');
      assert.equal(end.type === 'done' && end.stopped, false);
      assert.equal(end.timing.chars, expectedAnswer(settings).length);
      assert.ok(
        end.timing.ttfbMs !== undefined && end.timing.ttfbMs >= 0 && end.timing.ttfbMs <= end.timing.totalMs,
        JSON.stringify(end.timing),
      );
      assert.deepEqual(run.snapshot(), { runId: 'r1', text: expectedAnswer(settings), reasoning: '', nextSeq: chunks.length, end });
    });
  }

  it('says the wait the service asked for (429, Retry-After: 60) once, with its end, and it is gone from the snapshot after', async () => {
    const key = 'run-rate-limited-once';
    h.emu.setKey(key, { models: [MODEL] });
    h.emu.faults.add({ path: '/cr/provider_predict_platform_base_oss', kind: 'status', status: 429, retryAfter: '60', times: 1 });
    const now = Date.UTC(2025, 0, 15, 14, 1, 0);
    const { posted, post } = record();
    const run = new InferenceRun('rw', settings, post);
    let snapshotWhileWaiting: unknown;
    const client = clientFor(h.emu, key, {
      now: () => now,
      // The wait itself is not slept: what the run holds during it is read instead.
      sleep: async () => void (snapshotWhileWaiting = run.snapshot().wait),
    });
    await run.execute(async () => client);
    assert.deepEqual(
      posted.filter((m) => m.type === 'wait'),
      [{ type: 'wait', runId: 'rw', waitMs: 60_000, until: now + 60_000 }],
    );
    assert.deepEqual(snapshotWhileWaiting, { waitMs: 60_000, until: now + 60_000 });
    assert.equal(endOf(posted).type, 'done');
    assert.equal(run.snapshot().wait, undefined);
  });

  it('refused again after its one wait, the run ends with a retryable rate-limit error that says the wait', async () => {
    const key = 'run-rate-limited-twice';
    h.emu.setKey(key, { models: [MODEL] });
    h.emu.faults.add({ path: '/cr/provider_predict_platform_base_oss', kind: 'status', status: 429, retryAfter: '60', times: 5 });
    const { posted, post } = record();
    const run = new InferenceRun('rx', settings, post);
    const client = clientFor(h.emu, key);
    await run.execute(async () => client);
    assert.equal(posted.filter((m) => m.type === 'wait').length, 1);
    assert.deepEqual(client.delays, [60_000]);
    const end = endOf(posted);
    assert.equal(end.type, 'error');
    assert.equal(end.type === 'error' && end.error.kind, 'rateLimit');
    assert.equal(end.type === 'error' && end.error.retryable, true);
    assert.match(end.type === 'error' ? end.error.message : '', /Try again in 60 s/);
    h.emu.faults.clear();
  });

  it('sends the request the spec documents (query part = prompt unless given)', async () => {
    h.emu.clearReceived();
    const seen: unknown[] = [];
    const client = clientFor(h.emu);
    const spy: InferenceClient = {
      infer: (req, opts) => {
        seen.push(req);
        return client.infer(req, opts);
      },
    };
    await new InferenceRun('r2', settings, () => undefined).execute(async () => spy);
    await new InferenceRun('r3', { ...settings, queryOnly: 'caching' }, () => undefined).execute(async () => spy);
    assert.deepEqual(seen, [
      {
        prompt: settings.prompt,
        queryOnly: settings.prompt,
        modelName: MODEL,
        stream: true,
        useRag: true,
        sequentialBudget: 4,
        parallelBudget: 2,
        temperature: 0.7,
      },
      {
        prompt: settings.prompt,
        queryOnly: 'caching',
        modelName: MODEL,
        stream: true,
        useRag: true,
        sequentialBudget: 4,
        parallelBudget: 2,
        temperature: 0.7,
      },
    ]);
  });

  it('runs a non-streamed request as one chunk and done', async () => {
    const { posted, post } = record();
    const s = { ...settings, stream: false };
    await new InferenceRun('r4', s, post).execute(async () => clientFor(h.emu));
    const chunks = chunksOf(posted, 'r4');
    assert.equal(chunks.length, 1);
    assert.equal(chunks[0]?.text, expectedAnswer(s));
    const end = endOf(posted);
    assert.equal(end.type, 'done');
    assert.equal(end.timing.chars, expectedAnswer(s).length);
  });

  it('stop ends the run at once and closes the HTTP connection', async () => {
    h.emu.configure({ tokenIntervalMs: 40 });
    try {
      h.emu.clearReceived();
      const { posted, post } = record();
      const run = new InferenceRun('r5', settings, post);
      const client = clientFor(h.emu);
      const done = run.execute(async () => client);
      while (chunksOf(posted, 'r5').length === 0) await new Promise((r) => setTimeout(r, 5));
      run.stop();
      await done;
      const end = endOf(posted);
      assert.equal(end.type, 'done');
      assert.equal(end.type === 'done' && end.stopped, true);
      assert.ok(end.timing.chars < expectedAnswer(settings).length);
      assert.equal(end.timing.chars, run.text.length);
      const deadline = Date.now() + 2_000;
      for (;;) {
        const request = h.emu.received.find((r) => r.method === 'POST' && r.path.startsWith('/cr/provider_predict_platform_base_oss'));
        if (request?.aborted) break;
        if (Date.now() > deadline) assert.fail(`the emulator did not see the request aborted: ${JSON.stringify(request)}`);
        await new Promise((r) => setTimeout(r, 10));
      }
      run.stop(); // a second stop is harmless
      assert.equal(posted.filter((m) => m.type === 'done').length, 1);
    } finally {
      h.emu.configure({ tokenIntervalMs: 1 });
    }
  });

  it('stop before the connection is made ends the run without a request', async () => {
    h.emu.clearReceived();
    const { posted, post } = record();
    const run = new InferenceRun('r6', settings, post);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const done = run.execute(async () => {
      await gate;
      return clientFor(h.emu);
    });
    run.stop();
    release();
    await done;
    assert.equal(endOf(posted).type, 'done');
    assert.equal(h.emu.received.filter((r) => r.method === 'POST').length, 0);
  });

  it('reports the service refusing a value with its own words (temperature 99)', async () => {
    const { posted, post } = record();
    await new InferenceRun('r7', { ...settings, temperature: 99 }, post).execute(async () => clientFor(h.emu));
    const end = endOf(posted);
    assert.equal(end.type, 'error');
    if (end.type !== 'error') return;
    assert.equal(end.error.kind, 'request');
    assert.equal(end.error.retryable, false);
    assert.match(end.error.message, /less than or equal to 2/);
    assert.match(end.error.message, /422/);
  });

  for (const framing of ['sse', 'ndjson'] as const) {
    it(`reports a mid-stream error after the text before it (${framing})`, async () => {
      const key = `err-${framing}`;
      h.emu.setKey(key, { models: [MODEL], framing });
      const { posted, post } = record();
      await new InferenceRun('r8', { ...settings, prompt: `fail ${STREAM_ERROR_MARKER}` }, post).execute(async () => clientFor(h.emu, key));
      assert.ok(chunksOf(posted, 'r8').length > 0, 'the text before the error arrived');
      const end = endOf(posted);
      assert.equal(end.type, 'error');
      if (end.type !== 'error') return;
      assert.equal(end.error.kind, 'server');
      assert.equal(end.error.retryable, true);
      assert.match(end.error.message, /mid-stream \(emulated\)/);
    });
  }

  it('a plain-text stream cut off mid-way is an error, not a clean end', async () => {
    h.emu.setKey('err-text', { models: [MODEL], framing: 'text' });
    const { posted, post } = record();
    await new InferenceRun('r9', { ...settings, prompt: `fail ${STREAM_ERROR_MARKER}` }, post).execute(async () =>
      clientFor(h.emu, 'err-text'),
    );
    assert.equal(endOf(posted).type, 'error');
  });

  it('reports a missing configuration with the fix to offer', async () => {
    const { posted, post } = record();
    const notConfigured = Object.assign(new Error('No API key is set.'), { name: 'NotConfiguredError', missing: 'apiKey' });
    await new InferenceRun('r10', settings, post).execute(async () => {
      throw notConfigured;
    });
    const end = endOf(posted);
    assert.deepEqual(end.type === 'error' && end.error, {
      message: 'No API key is set.',
      kind: 'notConfigured',
      retryable: false,
      fix: 'setApiKey',
    });
  });

  it('cuts a runaway answer and aborts its request', async () => {
    h.emu.clearReceived();
    const { posted, post } = record();
    await new InferenceRun('r11', settings, post, { maxOutputChars: 40 }).execute(async () => clientFor(h.emu));
    const end = endOf(posted);
    assert.equal(end.type === 'error' && end.error.kind, 'contract');
    assert.ok(end.timing.chars <= 40);
  });

  it('keeps its snapshot equal to what was sent while batching', async () => {
    const sent: string[] = [];
    const post = (m: HostToWebview) => {
      if (m.type !== 'chunk') return;
      sent.push(m.text);
      // At every chunk, the snapshot is exactly the text sent so far, and names the next seq.
      assert.equal(run.snapshot().text, sent.join(''));
      assert.equal(run.snapshot().nextSeq, m.seq + 1);
    };
    const deltas = Array.from({ length: 500 }, (_, i) => `d${i} `);
    const random = seededRandom(12);
    const fake: InferenceClient = {
      async *infer() {
        for (const d of deltas) {
          yield { kind: 'answer', text: d };
          if (random() < 0.1) await new Promise((r) => setTimeout(r, 1));
        }
      },
    };
    const run = new InferenceRun('r12', settings, post, { batcher: { intervalMs: 2 } });
    await run.execute(async () => fake);
    assert.equal(sent.join(''), deltas.join(''));
    assert.ok(sent.length < deltas.length, `batched into ${sent.length} chunks`);
  });

  it("tells the benchmark's observer of each delta read and each chunk just before its post, and the messages carry nothing of it", async () => {
    const events: string[] = [];
    const observer: PlaygroundObserver = {
      deltaRead: (runId) => events.push(`read ${runId}`),
      chunkPosted: (runId, seq) => events.push(`posting ${runId} ${seq}`),
    };
    const post = (m: HostToWebview) => {
      events.push(m.type === 'chunk' ? `posted ${m.runId} ${m.seq}` : m.type);
      if (m.type === 'chunk') {
        assert.deepEqual(
          Object.keys(m).filter((k) => !['type', 'runId', 'seq', 'text', 'ttfbMs'].includes(k)),
          [],
        );
      }
    };
    const fake: InferenceClient = {
      async *infer() {
        yield { kind: 'answer', text: 'ab' };
        yield { kind: 'answer', text: '' };
        yield { kind: 'answer', text: 'cd' };
      },
    };
    const global = globalThis as { [OBSERVER_GLOBAL]?: PlaygroundObserver };
    global[OBSERVER_GLOBAL] = observer;
    try {
      await new InferenceRun('r13', settings, post, { batcher: { maxChars: 1 } }).execute(async () => fake);
    } finally {
      delete global[OBSERVER_GLOBAL];
    }
    assert.deepEqual(events, ['read r13', 'posting r13 0', 'posted r13 0', 'read r13', 'posting r13 1', 'posted r13 1', 'done']);
  });
});
