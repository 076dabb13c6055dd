// An upload (a finetune's start) whose every byte went out and to which no answer came: the service may have read it
// all and started the paid job. The client must not call that "the service could not be reached", on whose word a
// pipeline would start it again (the command line's exit 4, the MCP server's "try again in a minute"). An upload cut
// before its last byte is still what it was: the service cannot have started anything from half a file.
import { strict as assert } from 'node:assert';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import FormData from 'form-data';
import { HttpClient } from '../../src/api/http';
import { ApiError, UnansweredError } from '../../src/api/errors';
import { EXIT, exitCodeFor } from '../../src/cli/exitCodes';
import { failureLines } from '../../src/mcp/mcpText';

/** What the server does with an upload: read it whole and say nothing, read it whole and reset, or never read it. */
type Behaviour = 'silent' | 'reset' | 'unread';

interface UploadServer {
  url: string;
  /** Bytes of each upload read to its end. */
  received: number[];
  close(): Promise<void>;
}

async function uploadServer(behaviour: Behaviour): Promise<UploadServer> {
  const received: number[] = [];
  const server = http.createServer((req) => {
    if (behaviour === 'unread') return; // the body waits in the socket's buffers; the client's writes stop
    let bytes = 0;
    req.on('data', (chunk: Buffer) => (bytes += chunk.length));
    req.on('end', () => {
      received.push(bytes);
      if (behaviour === 'reset') req.socket.resetAndDestroy();
      // 'silent': no answer, the connection left open
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** A form with a file of `bytes` as a stream of 64 KiB chunks, as the client sends a document (client.ts). */
function formOf(bytes: number): FormData {
  const form = new FormData();
  form.append('model_name', 'm');
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  const chunks = function* () {
    for (let left = bytes; left > 0; left -= chunk.length) yield left >= chunk.length ? chunk : chunk.subarray(0, left);
  };
  form.append('file', Readable.from(chunks()), { filename: 'handbook.pdf', knownLength: bytes });
  return form;
}

async function uploadFailure(server: UploadServer, bytes: number): Promise<ApiError> {
  // The idle limit is the wait for the answer once the last byte is out; short here, so the test does not wait long.
  const client = new HttpClient({
    baseUrl: server.url,
    apiKey: 'demo-key',
    timeouts: { uploadIdleMs: 1_500 },
    sleep: () => Promise.resolve(),
  });
  const form = formOf(bytes);
  const error = await client.upload('Starting the finetuning job', '/upload', form, form.getHeaders(), {}).then(
    () => assert.fail('the upload succeeded'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof ApiError, String(error));
  return error;
}

describe('an upload sent whole to which no answer came', function () {
  this.timeout(60_000);
  let server: UploadServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('no answer within the limit after the last byte: "may have received it", a failure, not "unreachable"', async () => {
    server = await uploadServer('silent');
    const error = await uploadFailure(server, 4_096);
    assert.equal(server.received.length, 1, 'the service read the whole upload');
    assert.ok(error instanceof UnansweredError, `${error.constructor.name}: ${error.message}`);
    assert.match(error.message, /^Starting the finetuning job: no answer within .+ of the upload's last byte\. /);
    assert.match(error.message, /the service may have received it\.$/);
    assert.doesNotMatch(error.message, /made no progress/);
    // The command line exits 1 (a pipeline does not start it again), the MCP server tells the agent not to.
    assert.equal(exitCodeFor(error), EXIT.failed);
    const told = failureLines('Starting the finetuning job', error).join('\n');
    assert.match(told, /do not start it again/i);
    assert.doesNotMatch(told, /try again/i);
  });

  it('the connection reset after the last byte: likewise', async () => {
    server = await uploadServer('reset');
    const error = await uploadFailure(server, 4_096);
    assert.equal(server.received.length, 1, 'the service read the whole upload');
    assert.ok(error instanceof UnansweredError, `${error.constructor.name}: ${error.message}`);
    assert.equal(error.kind, 'network');
    assert.match(error.message, /^Starting the finetuning job: the connection closed after the upload's last byte, before any answer/);
    assert.match(error.message, /The whole upload had been sent: the service may have received it\.$/);
    assert.doesNotMatch(error.message, /cannot reach/);
    assert.equal(exitCodeFor(error), EXIT.failed);
  });

  it('an upload that stopped before its last byte is a time out as before: the service cannot have started it', async () => {
    server = await uploadServer('unread');
    // Far more than the connection's buffers hold, so its end is never handed over.
    const error = await uploadFailure(server, 64 * 1024 * 1024);
    assert.deepEqual(server.received, []);
    assert.equal(error.kind, 'timeout');
    assert.ok(!(error instanceof UnansweredError), error.message);
    assert.match(error.message, /^Starting the finetuning job: the upload made no progress for /);
    assert.equal(exitCodeFor(error), EXIT.unreachable);
  });
});
