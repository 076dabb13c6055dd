// A reasoning service thinks before it writes: runs against the emulator with the client's default limits, on a fake
// clock (@sinonjs/fake-timers: setTimeout and Date of this process, the emulator's and the client's alike; sockets
// stay real), so a minute of silence costs no minute of test. Reasoning in its three forms, on the real clock.
import { strict as assert } from 'node:assert';
import { setImmediate as turn } from 'node:timers/promises';
import * as FakeTimers from '@sinonjs/fake-timers';

type InstalledClock = ReturnType<typeof FakeTimers.install>;
import { collectInference, ServiceClient } from '../../src/api/client';
import { TimeoutError } from '../../src/api/errors';
import { InferenceRun } from '../../src/features/playground/host/inferenceRun';
import type { HostToWebview, RunSettings } from '../../src/features/playground/protocol';
import { composeAnswer, composeReasoning } from '../service/inference';
import { startEmulator, type Emulator, type Framing, type ReasoningForm } from '../service/emulator';
import { baseRequest, KEY } from './helpers';

const MODEL = 'oss-reasoner-8b';
const INFER = '/cr/provider_predict_platform_base_oss';
const request = { ...baseRequest, modelName: MODEL, prompt: 'Think hard about caching.' };

/** Waits on real turns of the event loop (sockets move) until `cond` holds. */
async function untilReal(cond: () => boolean, what: string, turns = 20_000): Promise<void> {
  for (let i = 0; i < turns; i++) {
    if (cond()) return;
    await turn();
  }
  throw new Error(`not seen: ${what}`);
}

/** Advances the fake clock by `ms` a second at a time, letting sockets move between steps. */
async function advance(clock: InstalledClock, ms: number): Promise<void> {
  for (let t = 0; t < ms; t += 1000) {
    await clock.tickAsync(Math.min(1000, ms - t));
    for (let i = 0; i < 5; i++) await turn();
  }
}

/** Settles `p` while the clock runs on in small steps (the answer after the silence is paced by timers too). */
async function settle<T>(clock: InstalledClock, p: Promise<T>): Promise<T> {
  let done = false;
  const watched = p.finally(() => (done = true));
  watched.catch(() => undefined);
  for (let i = 0; i < 20_000 && !done; i++) {
    await clock.tickAsync(5);
    await turn();
  }
  return watched;
}

describe('reasoning runs: silence is thinking (fake clock, default limits)', function () {
  this.timeout(60_000);
  let emu: Emulator;
  let clock: InstalledClock | undefined;

  beforeEach(async () => {
    emu = await startEmulator({ tokenIntervalMs: 0 });
  });
  afterEach(async () => {
    clock?.uninstall();
    clock = undefined;
    await emu.close();
  });

  /** The client with every default limit (30 s request, 30 s headers, 60 s idle, the default wait limit). */
  const defaultClient = () => new ServiceClient({ baseUrl: emu.url, apiKey: KEY });
  const fake = () => (clock = FakeTimers.install({ toFake: ['setTimeout', 'clearTimeout', 'Date'] }));
  const asked = () => emu.received.some((r) => r.path === INFER);

  it('a streamed run silent for 65 s before its first byte succeeds, reasoning then answer', async () => {
    emu.configure({ thinkMs: 65_000, reasoning: 'field' });
    const c = fake();
    const run = collectInference(defaultClient().infer(request));
    run.catch(() => undefined);
    await untilReal(asked, 'the request at the emulator');
    await advance(c, 65_000);
    const got = await settle(c, run);
    assert.equal(got.reasoning, composeReasoning(request));
    assert.equal(got.answer, composeAnswer(request));
  });

  it('a non-streamed run answered after 45 s succeeds (past the 30 s request limit of other calls)', async () => {
    emu.configure({ answerDelayMs: 45_000, reasoning: 'inline' });
    const c = fake();
    const run = collectInference(defaultClient().infer({ ...request, stream: false }));
    run.catch(() => undefined);
    await untilReal(asked, 'the request at the emulator');
    await advance(c, 45_000);
    const got = await settle(c, run);
    assert.equal(got.reasoning, composeReasoning(request));
    assert.equal(got.answer, composeAnswer(request));
  });

  it('the wait limit still ends a run that stays silent longer, and says it was the wait limit', async () => {
    emu.configure({ thinkMs: 10 * 60_000 });
    const c = fake();
    const client = new ServiceClient({ baseUrl: emu.url, apiKey: KEY, timeouts: { answerWaitMs: 2 * 60_000 } });
    const run = collectInference(client.infer(request));
    run.catch(() => undefined);
    await untilReal(asked, 'the request at the emulator');
    await advance(c, 2 * 60_000 + 1000);
    await assert.rejects(settle(c, run), (e: unknown) => e instanceof TimeoutError && /2 min, the wait limit/.test(e.message));
  });

  it('Stop during the silence ends the run at once (no time passes) and closes the connection', async () => {
    emu.configure({ thinkMs: 65_000 });
    fake();
    const posted: HostToWebview[] = [];
    const settings: RunSettings = { ...request, stream: true };
    const run = new InferenceRun('r1', settings, (m) => posted.push(m));
    const executed = run.execute(async () => defaultClient());
    await untilReal(asked, 'the request at the emulator');
    run.stop();
    // Not one tick of the fake clock: Stop alone ends it.
    await executed;
    assert.deepEqual(
      posted.map((m) => m.type),
      ['done'],
    );
    assert.equal(posted[0]?.type === 'done' && posted[0].stopped, true);
    await untilReal(() => emu.received.some((r) => r.path === INFER && r.aborted === true), 'the emulator seeing the request closed');
  });
});

describe('reasoning runs: the three forms of reasoning, each kept apart (emulator)', function () {
  this.timeout(30_000);
  let emu: Emulator;
  before(async () => {
    emu = await startEmulator({ tokenIntervalMs: 0 });
  });
  after(async () => {
    await emu.close();
  });

  const forms: ReasoningForm[] = ['inline', 'field', 'event'];
  const framings: Framing[] = ['sse', 'ndjson', 'text'];
  for (const form of forms) {
    for (const framing of framings) {
      it(`${form}, streamed as ${framing}`, async () => {
        emu.configure({ reasoning: form });
        emu.setKey(`k-${framing}`, { models: [MODEL], framing });
        const client = new ServiceClient({ baseUrl: emu.url, apiKey: `k-${framing}` });
        const kinds: string[] = [];
        let reasoning = '';
        let answer = '';
        for await (const p of client.infer(request)) {
          if (kinds[kinds.length - 1] !== p.kind) kinds.push(p.kind);
          if (p.kind === 'reasoning') reasoning += p.text;
          else answer += p.text;
        }
        assert.equal(reasoning, composeReasoning(request));
        assert.equal(answer, composeAnswer(request));
        assert.deepEqual(kinds, ['reasoning', 'answer'], 'all the reasoning before any of the answer');
      });
    }
    it(`${form}, not streamed`, async () => {
      emu.configure({ reasoning: form });
      const got = await collectInference(new ServiceClient({ baseUrl: emu.url, apiKey: KEY }).infer({ ...request, stream: false }));
      assert.deepEqual(got, { reasoning: composeReasoning(request), answer: composeAnswer(request) });
    });
  }
});
