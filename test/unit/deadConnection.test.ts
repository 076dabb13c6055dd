// A run waits for a thinking model as long as its connection stays open: when the connection goes during the silence
// (the service, a gateway or a proxy closed it), the run ends then, with a message that says so, not at the wait
// limit (15 min) nor as "cannot reach the service". On the real clock: the emulator's side of the socket is destroyed,
// so the client sees the close at once; a peer that vanished without a close is found by TCP keep-alive, which the
// inference socket has on (checked here; probing itself is the kernel's and is not waited for).
import { strict as assert } from 'node:assert';
import * as diagnostics from 'node:diagnostics_channel';
import { Socket } from 'node:net';
import { setImmediate as turn } from 'node:timers/promises';
import { collectInference, ServiceClient } from '../../src/api/client';
import { ApiError } from '../../src/api/errors';
import { InferenceRun } from '../../src/features/playground/host/inferenceRun';
import type { HostToWebview, RunSettings } from '../../src/features/playground/protocol';
import { startEmulator, type Emulator } from '../service/emulator';
import { baseRequest, KEY } from './helpers';

const MODEL = 'oss-reasoner-8b';
const INFER = '/cr/provider_predict_platform_base_oss';
const request = { ...baseRequest, modelName: MODEL, prompt: 'Think for a long time.' };
const TEN_MINUTES = 10 * 60_000;

/** Real turns of the event loop until `cond` holds (sockets move between them); no timer, no fixed sleep. */
async function until(cond: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200_000; i++) {
    if (cond()) return;
    await turn();
  }
  throw new Error(`not seen: ${what}`);
}

describe('a dead connection during a long silence ends the run at once, with a clear message', function () {
  // Generous for a cold machine; a run that waited for its wait limit (10 min here) would take far longer.
  this.timeout(20_000);
  let emu: Emulator;
  beforeEach(async () => {
    emu = await startEmulator({ tokenIntervalMs: 0 });
  });
  afterEach(async () => {
    await emu.close();
  });

  const client = () => new ServiceClient({ baseUrl: emu.url, apiKey: KEY, timeouts: { answerWaitMs: 2 * TEN_MINUTES } });
  const asked = () => emu.received.some((r) => r.path === INFER);
  /** The request is at the emulator and its answer has not begun (headers included, when `headersSent` is false). */
  const waitingAtEmulator = () => until(() => asked() && emu.activeConnections() > 0, 'the request waiting at the emulator');

  /** The run's error once the emulator's side of the connection was destroyed during the silence. */
  async function dropDuringSilence(run: Promise<unknown>, afterHeaders = false): Promise<ApiError> {
    run.catch(() => undefined);
    await waitingAtEmulator();
    if (afterHeaders) await until(() => headersAt !== undefined, 'the response headers at the client');
    assert.ok(emu.dropConnections() > 0, 'no connection to drop');
    const error = await run.then(
      () => assert.fail('the run succeeded'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof ApiError, String(error));
    return error;
  }
  let headersAt: number | undefined;

  const CLEAR = /the connection to the service closed before the answer was complete, \d+ s after the request \(ECONNRESET\)/;

  it('streamed, silent before the headers: the run ends with "the connection … closed", a network error one can retry', async () => {
    emu.configure({ thinkMs: TEN_MINUTES });
    const error = await dropDuringSilence(collectInference(client().infer(request)));
    assert.match(error.message, CLEAR);
    assert.doesNotMatch(error.message, /cannot reach/);
    assert.equal(error.kind, 'network');
  });

  it('streamed, headers sent, then silent: the same', async () => {
    emu.configure({ tokenIntervalMs: TEN_MINUTES });
    headersAt = undefined;
    // Node publishes here once a response's headers are parsed.
    const onHeaders = () => (headersAt = Date.now());
    diagnostics.subscribe('http.client.response.finish', onHeaders);
    try {
      const error = await dropDuringSilence(collectInference(client().infer(request)), true);
      assert.match(error.message, CLEAR);
      assert.equal(error.kind, 'network');
    } finally {
      diagnostics.unsubscribe('http.client.response.finish', onHeaders);
    }
  });

  it('not streamed, the answer awaited: the same', async () => {
    emu.configure({ answerDelayMs: TEN_MINUTES });
    const error = await dropDuringSilence(collectInference(client().infer({ ...request, stream: false })));
    assert.match(error.message, CLEAR);
    assert.equal(error.kind, 'network');
  });

  it('the playground run ends with that message, offered again (retryable)', async () => {
    emu.configure({ thinkMs: TEN_MINUTES });
    const posted: HostToWebview[] = [];
    const settings: RunSettings = { ...request, stream: true };
    const run = new InferenceRun('dropped', settings, (m) => posted.push(m));
    const executed = run.execute(async () => client());
    await waitingAtEmulator();
    emu.dropConnections();
    await executed;
    const end = posted[posted.length - 1];
    assert.equal(end?.type, 'error', JSON.stringify(posted));
    if (end?.type !== 'error') return;
    assert.match(end.error.message, CLEAR);
    assert.equal(end.error.retryable, true);
  });

  it('the inference socket has TCP keep-alive on, probing within a minute of silence', async () => {
    emu.configure({ thinkMs: TEN_MINUTES });
    const calls: { socket: Socket; enable: boolean | undefined; delay: number | undefined }[] = [];
    const prototype = Socket.prototype;
    const original = Object.getOwnPropertyDescriptor(prototype, 'setKeepAlive')?.value as Socket['setKeepAlive'];
    prototype.setKeepAlive = function (this: Socket, enable?: boolean, delay?: number) {
      calls.push({ socket: this, enable, delay });
      return original.call(this, enable, delay);
    };
    try {
      const run = collectInference(client().infer(request));
      run.catch(() => undefined);
      await waitingAtEmulator();
      const port = Number(new URL(emu.url).port);
      const onInference = calls.filter((c) => c.socket.remotePort === port);
      assert.ok(onInference.length > 0, `setKeepAlive was not called on the inference socket (${calls.length} calls elsewhere)`);
      const last = onInference[onInference.length - 1]!;
      assert.equal(last.enable, true);
      assert.ok(last.delay !== undefined && last.delay > 0 && last.delay <= 60_000, `initial delay ${last.delay} ms`);
      emu.dropConnections();
      await run.catch(() => undefined);
    } finally {
      prototype.setKeepAlive = original;
    }
  });
});
