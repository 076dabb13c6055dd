// A local run goes through the same InferenceRun as a hosted one: ordered chunks whose text is what the runtime
// generated, one end message, Stop aborting the runtime's signal and ending with the partial text, and a runtime
// failure shown in words that name the file (never its folder).
import { strict as assert } from 'node:assert';
import { InferenceRun } from '../../src/features/playground/host/inferenceRun';
import { LOCAL_ANSWER_TOKENS, localInferenceClient, type DescribeFailure } from '../../src/features/playground/host/localInference';
import type { ChunkMessage, DoneMessage, ErrorMessage, HostToWebview, RunSettings } from '../../src/features/playground/protocol';
import { FakeLocalRuntime } from './fakeLocalRuntime';

const settings: RunSettings = {
  modelName: 'local:0123456789abcdef',
  prompt: 'Say hello.',
  temperature: 0.2,
  useRag: false,
  sequentialBudget: 1,
  parallelBudget: 1,
  stream: true,
};
const target = { path: '/models/deep/folder/tiny.gguf', fileName: 'tiny.gguf' };
const describe_: DescribeFailure = (kind, fileName, detail) => `${kind}: ${fileName}: ${detail}`;

function run(runtime: FakeLocalRuntime, s: RunSettings = settings) {
  const posted: HostToWebview[] = [];
  let chunked!: () => void;
  const firstChunk = new Promise<void>((resolve) => (chunked = resolve));
  const r = new InferenceRun('r1', s, (m) => {
    posted.push(m);
    if (m.type === 'chunk') chunked();
  });
  const done = r.execute(async () => localInferenceClient(runtime, target, describe_));
  return { posted, run: r, done, firstChunk };
}

const chunks = (posted: HostToWebview[]) => posted.filter((m): m is ChunkMessage => m.type === 'chunk');
const ends = (posted: HostToWebview[]) => posted.filter((m): m is DoneMessage | ErrorMessage => m.type === 'done' || m.type === 'error');

describe('local runs in the playground', () => {
  it('streams what the runtime generates, in order, and ends once with its timings', async () => {
    const runtime = new FakeLocalRuntime();
    const { posted, done } = run(runtime);
    await done;
    const got = chunks(posted);
    assert.equal(got.map((c) => c.text).join(''), 'Hello from this machine.');
    assert.deepEqual(
      got.map((c) => c.seq),
      got.map((_, i) => i),
    );
    assert.equal(ends(posted).length, 1);
    const end = ends(posted)[0]!;
    assert.equal(end.type, 'done');
    assert.equal(end.type === 'done' && end.stopped, false);
    assert.equal(end.timing.chars, 'Hello from this machine.'.length);
    assert.equal(typeof end.timing.ttfbMs, 'number');
    assert.deepEqual(runtime.requests, [
      { modelPath: target.path, prompt: 'Say hello.', temperature: 0.2, maxTokens: LOCAL_ANSWER_TOKENS },
    ]);
  });

  it('Stop aborts the runtime and ends with the partial text, marked stopped', async () => {
    const runtime = new FakeLocalRuntime({ chunks: ['one', ' two', ' three'], holdAfter: 1 });
    const { posted, run: r, done, firstChunk } = run(runtime);
    // Stop after the first text is on screen (a delta that arrives after Stop is dropped, as for a hosted run).
    await Promise.all([runtime.held, firstChunk]);
    r.stop();
    await done;
    assert.equal(runtime.aborted, 1, 'the runtime saw the abort');
    const end = ends(posted);
    assert.equal(end.length, 1);
    assert.equal(end[0]!.type, 'done');
    assert.equal(end[0]!.type === 'done' && end[0]!.stopped, true);
    assert.equal(r.text, 'one');
  });

  it('a run that is not streamed sends the whole answer at the end', async () => {
    const runtime = new FakeLocalRuntime({ chunks: ['a', 'b', 'c'] });
    const { posted, done } = run(runtime, { ...settings, stream: false });
    await done;
    assert.deepEqual(
      chunks(posted).map((c) => c.text),
      ['abc'],
    );
  });

  for (const kind of ['load-failed', 'load-timeout', 'memory-limit', 'crashed', 'unavailable'] as const) {
    it(`a runtime failure (${kind}) shows as an error naming the file, not its folder`, async () => {
      const runtime = new FakeLocalRuntime({ chunks: ['partial'], fail: { kind, message: 'the detail' } });
      const { posted, done } = run(runtime);
      await done;
      const end = ends(posted);
      assert.equal(end.length, 1);
      assert.equal(end[0]!.type, 'error');
      const error = end[0]!.type === 'error' ? end[0]!.error : undefined;
      assert.equal(error?.message, `${kind}: tiny.gguf: the detail`);
      assert.ok(!error?.message.includes('/models/deep'));
      assert.equal(error?.fix, 'showLog');
      assert.equal(error?.retryable, kind !== 'load-failed' && kind !== 'unavailable');
    });
  }

  it('a failure that is not the runtime own is reported as unexpected, as a hosted one would be', async () => {
    const runtime = new FakeLocalRuntime();
    runtime.generate = () => Promise.reject(new Error('boom'));
    const { posted, done } = run(runtime);
    await done;
    const end = ends(posted)[0]!;
    assert.equal(end.type === 'error' && end.error.kind, 'unexpected');
    assert.match(end.type === 'error' ? end.error.message : '', /boom/);
  });
});
