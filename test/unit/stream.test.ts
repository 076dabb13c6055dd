import { strict as assert } from 'node:assert';
import { ApiError, ContractError, ServerError } from '../../src/api/errors';
import {
  createDecoder,
  DEFAULT_MAX_EVENT_BYTES,
  decodeStream as decodeDeltas,
  framingFromContentType,
  type IncrementalDecoder,
  sniffFraming,
  StreamDecoder,
} from '../../src/api/stream';
import { answer, bytes, decodeChunks, joinText } from './streamHelpers';
import { MAX_JSON_BYTES } from '../../src/api/http';

// ------------------------------------------------------------------------------------------------ helpers

/** decodeStream's answer text (these bodies hold no reasoning: one would fail the test). */
async function* decodeStream(...args: Parameters<typeof decodeDeltas>): AsyncGenerator<string> {
  for await (const d of decodeDeltas(...args)) {
    if (d.kind !== 'answer') throw new Error(`unexpected reasoning: ${d.text}`);
    yield d.text;
  }
}

interface ErrorOutcome {
  type: typeof ServerError | typeof ContractError;
  message?: string;
}

const run = decodeChunks;

/** Every way to cut `body` into 2 chunks, into single bytes, and (small bodies) into 3 chunks. */
function* splits(body: Uint8Array, threeWay: boolean): Generator<{ label: string; chunks: Uint8Array[] }> {
  const n = body.length;
  for (let i = 1; i < n; i++) yield { label: `cut at ${i}`, chunks: [body.subarray(0, i), body.subarray(i)] };
  yield { label: 'single bytes', chunks: Array.from(body, (_b, i) => body.subarray(i, i + 1)) };
  if (threeWay && n < 200) {
    for (let i = 1; i < n - 1; i++) {
      for (let j = i + 1; j < n; j++) {
        yield { label: `cuts at ${i},${j}`, chunks: [body.subarray(0, i), body.subarray(i, j), body.subarray(j)] };
      }
    }
  }
}

function checkError(got: ApiError | undefined, want: ErrorOutcome | undefined, label: string): void {
  if (!want) {
    assert.equal(got, undefined, `${label}: unexpected error ${got?.message}`);
    return;
  }
  assert.ok(got instanceof want.type, `${label}: expected ${want.type.name}, got ${got?.name ?? 'no error'}`);
  if (want.message !== undefined) assert.equal(got.message, want.message, label);
}

interface Fixture {
  name: string;
  body: Uint8Array;
  /** Deltas of the body decoded as one chunk, written out. For plain text, chunking only moves boundaries. */
  deltas: string[];
  error?: ErrorOutcome;
  /** Decode with `new StreamDecoder(framing)`. */
  framing?: 'sse' | 'ndjson' | 'text';
  /** Decode with `createDecoder({ contentType })`. */
  contentType?: string;
  /** Also decode with no Content-Type (framing sniffed from the first bytes). */
  sniff?: boolean;
}

// -------------------------------------------------------------------------------------------------- fixtures

const sse = (name: string, body: Uint8Array, deltas: string[], error?: ErrorOutcome): Fixture => ({
  name: `sse: ${name}`,
  body,
  deltas,
  error,
  framing: 'sse',
  contentType: 'text/event-stream; charset=utf-8',
  sniff: true,
});

const ndjson = (name: string, body: Uint8Array, deltas: string[], error?: ErrorOutcome, sniff = true): Fixture => ({
  name: `ndjson: ${name}`,
  body,
  deltas,
  error,
  framing: 'ndjson',
  contentType: 'application/x-ndjson',
  sniff,
});

const FIXTURES: Fixture[] = [
  sse(
    'JSON shapes, \\n',
    bytes(
      'data: {"token":"Hel"}\n\n',
      'data: {"text":"lo "}\n\n',
      'data: {"choices":[{"delta":{"content":"wor"}}]}\n\n',
      'data: {"delta":{"text":"ld"}}\n\n',
      'data: [DONE]\n\n',
    ),
    ['Hel', 'lo ', 'wor', 'ld'],
  ),
  sse(
    'multi-byte UTF-8, \\r\\n',
    bytes('data: {"token":"é"}\r\n\r\n', 'data: {"token":"中文"}\r\n\r\n', 'data: {"token":"😀"}\r\n\r\n', 'data: plain é中😀\r\n\r\n'),
    ['é', '中文', '😀', 'plain é中😀'],
  ),
  sse(
    'lone \\r, comments, event/id/retry fields',
    bytes(': hello\r\rretry: 3000\rid: 42\revent: message\rdata: a\rdata: b\r\r: keep-alive\rdata:c\r\r'),
    ['a\nb', 'c'],
  ),
  sse(
    'mixed line ends, multi-line data, one leading space removed',
    bytes('data: line1\r\ndata: line2\rdata:  two spaces\n\n', 'data: {"token":\ndata: "x"}\r\n\r\n', 'data\n\ndata:\n\n'),
    ['line1\nline2\n two spaces', 'x'],
  ),
  sse(
    '[DONE] followed by garbage',
    bytes(
      'data: {"token":"x"}\n\ndata: [DONE]\n\n',
      'data: {"token":"ignored"}\n\nevent: error\ndata: boom\n\n',
      [0xff, 0xfe, 0xe4],
      'garbage',
    ),
    ['x'],
  ),
  sse(
    'error event with a JSON message',
    bytes('data: {"token":"ok"}\n\n', 'event: error\ndata: {"error":{"message":"model overloaded"}}\n\n', 'data: {"token":"never"}\n\n'),
    ['ok'],
    { type: ServerError, message: 'model overloaded' },
  ),
  sse('error event with text data', bytes('event: error\ndata: rate limit exceeded\n\n'), [], {
    type: ServerError,
    message: 'rate limit exceeded',
  }),
  sse(
    'error field in an ordinary event',
    bytes('data: {"token":"a"}\n\ndata: {"error":"worker crashed","code":500}\n\ndata: {"token":"b"}\n\n'),
    ['a'],
    { type: ServerError, message: 'worker crashed' },
  ),
  sse('last event without the blank line', bytes('data: {"token":"a"}\n\ndata: {"token":"b"}'), ['a', 'b']),
  sse('last event with one \\r\\n only', bytes('event: message\ndata: {"token":"a"}\r\n'), ['a']),
  sse('last event ending in a lone \\r', bytes('data: 中\r\rdata: z\r'), ['中', 'z']),
  sse(
    'non-JSON data, JSON string, ignored records, events without data',
    bytes(
      'data: Hello\n\ndata:  world\n\ndata: {not json\n\ndata: "quoted"\n\n',
      'data: {"usage":{"total_tokens":3}}\n\ndata: {"token":""}\n\nevent: ping\n\nid: 5\n\n',
    ),
    ['Hello', ' world', '{not json', 'quoted'],
  ),
  sse(
    'BOM, 4-byte characters, done event',
    bytes('\uFEFFdata: {"token":"😀😀"}\n\nevent: done\ndata: {"token":"last"}\n\ndata: {"token":"after"}\n\n'),
    ['😀😀', 'last'],
  ),
  sse(
    'the event type is reset by every blank line, even without data',
    bytes('event: error\n\ndata: fine\n\nevent: done\r\n\r\ndata: still\n\n'),
    ['fine', 'still'],
  ),
  sse('{"done":true} ends the stream', bytes('data: {"token":"a"}\n\ndata: {"done":true}\n\ndata: {"token":"b"}\n\n'), ['a']),
  ndjson('\\n', bytes('{"token":"Hel"}\n{"token":"lo"}\n'), ['Hel', 'lo']),
  ndjson(
    'shapes, multi-byte, \\r\\n and lone \\r, blank lines, last line without a line end',
    bytes(
      '{"text":"é"}\r\n{"choices":[{"delta":{"content":"中文"}}]}\r{"delta":{"text":"😀"}}\n\n   \r\n',
      '{"usage":{"total_tokens":3}}\n{"response":"!"}',
    ),
    ['é', '中文', '😀', '!'],
  ),
  ndjson('done record followed by garbage', bytes('{"token":"a"}\n{"done":true}\nnot json at all\n', [0xff]), ['a']),
  ndjson('[DONE] line', bytes('{"token":"a"}\r\n[DONE]\r\n{"token":"b"}'), ['a']),
  ndjson('error record', bytes('{"token":"a"}\n{"error":{"message":"quota exceeded"}}\n{"token":"b"}\n'), ['a'], {
    type: ServerError,
    message: 'quota exceeded',
  }),
  ndjson('a line that is not JSON', bytes('{"token":"a"}\nhello\n{"token":"b"}\n'), ['a'], {
    type: ContractError,
    message: 'The stream sent a line that is not JSON.',
  }),
  {
    ...ndjson('BOM and json-seq record separators', bytes('\uFEFF\x1e{"token":"a"}\n\x1e{"token":"é"}\n'), ['a', 'é']),
    contentType: 'application/json-seq',
    sniff: false,
  },
  {
    name: 'text: multi-byte, line ends kept',
    body: bytes('Hello, wörld! 中文 😀\nline2\r\nline3\rend'),
    deltas: ['Hello, wörld! 中文 😀\nline2\r\nline3\rend'],
    framing: 'text',
    contentType: 'text/plain; charset=utf-8',
    sniff: true,
  },
  {
    name: 'text: BOM dropped, words like data: later in the body',
    body: bytes('\uFEFF  the data: field\n{not ndjson}'),
    deltas: ['  the data: field\n{not ndjson}'],
    framing: 'text',
    contentType: 'text/plain',
    sniff: true,
  },
  {
    name: 'json: one document',
    body: bytes('{"choices":[{"message":{"role":"assistant","content":"Hi 😀 中文"}}]}'),
    deltas: ['Hi 😀 中文'],
    contentType: 'application/json',
  },
  {
    name: 'json: pretty-printed document',
    body: bytes('{\n  "text": "multi\\nline",\n  "done": true\n}\n'),
    deltas: ['multi\nline'],
    contentType: 'application/json; charset=utf-8',
  },
  {
    name: 'json: one line and blank lines',
    body: bytes('\uFEFF  {"response":"x"}\r\n\r\n  \n'),
    deltas: ['x'],
    contentType: 'application/json',
  },
  {
    name: 'json: NDJSON sent as application/json',
    body: bytes('{"token":"a"}\n\n{"token":"b"}\r\n{"token":"c"}'),
    deltas: ['a', 'b', 'c'],
    contentType: 'application/json',
  },
  {
    name: 'json: NDJSON sent as application/json, then a bad line',
    body: bytes('{"token":"a"}\r{"token":"b"}\nbad\n'),
    deltas: ['a', 'b'],
    error: { type: ContractError, message: 'The stream sent a line that is not JSON.' },
    contentType: 'application/json',
  },
  {
    name: 'json: SSE sent as application/json',
    body: bytes('\n: hi\ndata: {"token":"a"}\n\ndata: [DONE]\n\n'),
    deltas: ['a'],
    contentType: 'application/json',
  },
  {
    name: 'text: invalid UTF-8 becomes U+FFFD wherever it is cut',
    body: bytes('ok ', [0xe4, 0xb8], ' end ', [0xff], '中', [0xf0, 0x9f, 0x98]),
    deltas: ['ok \uFFFD end \uFFFD中', '\uFFFD'], // the truncated last character is flushed by end()
    framing: 'text',
    contentType: 'text/plain',
    sniff: true,
  },
  {
    name: 'json: a document without text',
    body: bytes('{"id":"x","object":"thing"}'),
    deltas: [],
    error: { type: ContractError },
    contentType: 'application/json',
  },
];

// ------------------------------------------------------------------------------------------ fixture tests

for (const f of FIXTURES) {
  describe(`stream fixture — ${f.name}`, () => {
    const isText = f.framing === 'text';
    const makers: { label: string; make: () => IncrementalDecoder; threeWay: boolean }[] = [];
    if (f.framing) {
      const framing = f.framing;
      makers.push({ label: `StreamDecoder('${framing}')`, make: () => new StreamDecoder(framing), threeWay: true });
    }
    if (f.contentType) {
      const contentType = f.contentType;
      makers.push({ label: `Content-Type ${contentType}`, make: () => createDecoder({ contentType }), threeWay: false });
    }
    if (f.sniff) makers.push({ label: 'sniffed', make: () => createDecoder(), threeWay: false });

    for (const { label, make, threeWay } of makers) {
      it(`${label}: one chunk gives the expected deltas`, () => {
        const got = run(make, [f.body]);
        assert.deepEqual(got.deltas, f.deltas.map(answer));
        checkError(got.error, f.error, 'one chunk');
      });

      it(`${label}: the same output however the body is cut`, () => {
        for (const { label: cut, chunks } of splits(f.body, threeWay)) {
          const got = run(make, chunks);
          if (isText) assert.equal(joinText(got.deltas), f.deltas.join(''), cut);
          else assert.deepEqual(got.deltas, f.deltas.map(answer), cut);
          assert.ok(!got.deltas.some((d) => d.text === ''), `${cut}: empty delta`);
          checkError(got.error, f.error, cut);
        }
      });
    }
  });
}

// ---------------------------------------------------------------------------------------- framing choice

describe('stream: framing from Content-Type', () => {
  const cases: [string | undefined, string | undefined][] = [
    ['text/event-stream', 'sse'],
    ['Text/Event-Stream; charset=UTF-8', 'sse'],
    ['application/x-ndjson', 'ndjson'],
    ['application/ndjson', 'ndjson'],
    ['application/jsonl', 'ndjson'],
    ['application/x-jsonlines', 'ndjson'],
    ['application/json-seq', 'ndjson'],
    ['application/stream+json', 'ndjson'],
    ['application/json', 'json'],
    ['application/json; charset=utf-8', 'json'],
    ['application/problem+json', 'json'],
    ['text/plain', 'text'],
    ['text/plain; charset=utf-8', 'text'],
    ['application/octet-stream', undefined],
    ['text/html', undefined],
    ['', undefined],
    [undefined, undefined],
  ];
  for (const [ct, want] of cases) {
    it(`${String(ct)} -> ${String(want)}`, () => assert.equal(framingFromContentType(ct), want));
  }
});

describe('stream: framing sniffed from the first bytes', () => {
  const cases: [Uint8Array, string][] = [
    [bytes('data: x'), 'sse'],
    [bytes('event: message\n'), 'sse'],
    [bytes('id: 1\n'), 'sse'],
    [bytes('retry: 10\n'), 'sse'],
    [bytes(': comment\n'), 'sse'],
    [bytes('\uFEFF\r\n  \n\tdata:x'), 'sse'],
    [bytes('{"token":"a"}'), 'ndjson'],
    [bytes('\uFEFF \n{'), 'ndjson'],
    [bytes('Hello'), 'text'],
    [bytes('dataset is ready'), 'text'],
    [bytes('identity'), 'text'],
    [bytes('[1,2]'), 'text'],
    [bytes('中文'), 'text'],
    [bytes('   \n'), 'text'],
    [bytes(''), 'text'],
    [bytes('dat'), 'text'], // the whole body: too short to be SSE
    [bytes([0xef, 0xbb, 0x41]), 'text'], // a broken BOM
  ];
  for (const [b, want] of cases) {
    it(`${JSON.stringify(new TextDecoder().decode(b))} -> ${want}`, () => assert.equal(sniffFraming(b), want));
  }

  it('waits for enough bytes when the first chunk is split inside the BOM, whitespace and field name', () => {
    const dec = createDecoder();
    assert.deepEqual(dec.push(Uint8Array.from([0xef])), []);
    assert.deepEqual(dec.push(Uint8Array.from([0xbb, 0xbf])), []);
    assert.deepEqual(dec.push(bytes('\r')), []);
    assert.deepEqual(dec.push(bytes('\n re')), []);
    assert.deepEqual(dec.push(bytes('try: 5\n')), []);
    assert.deepEqual(dec.push(bytes('data: {"token":"a"}\n\n')), [answer('a')]);
    assert.deepEqual(dec.end(), []);
  });

  it('decides as soon as the first significant byte rules SSE out', () => {
    const dec = createDecoder({ contentType: 'text/plain' });
    assert.deepEqual(dec.push(bytes('\nd')), []);
    assert.deepEqual(dec.push(bytes('o')), [answer('\ndo')]); // the held bytes and the new ones, as one delta
  });

  it('text/plain carrying SSE is decoded as SSE', () => {
    const got = run(() => createDecoder({ contentType: 'text/plain; charset=utf-8' }), [bytes('data: {"token":"a"}\n\ndata: [DONE]\n\n')]);
    assert.deepEqual(got, { deltas: [answer('a')] });
  });

  it('text/plain carrying NDJSON is decoded as NDJSON', () => {
    const got = run(() => createDecoder({ contentType: 'text/plain' }), [bytes('{"token":"a"}\n{"token":"b"}\n')]);
    assert.deepEqual(got, { deltas: [answer('a'), answer('b')] });
  });

  it('an unknown Content-Type is sniffed', () => {
    const got = run(() => createDecoder({ contentType: 'application/octet-stream' }), [bytes(': hi\ndata: a\n\n')]);
    assert.deepEqual(got, { deltas: [answer('a')] });
  });

  it('a specific Content-Type wins over the first bytes', () => {
    const got = run(() => createDecoder({ contentType: 'application/x-ndjson' }), [bytes('data: {"token":"a"}\n\n')]);
    assert.deepEqual(got.deltas, []);
    assert.ok(got.error instanceof ContractError);
  });
});

// ------------------------------------------------------------------------------------------- the decoder

describe('stream: StreamDecoder', () => {
  it('is finished after [DONE] and ignores later bytes', () => {
    const dec = new StreamDecoder('sse');
    assert.deepEqual(dec.push(bytes('data: a\n\ndata: [DONE]\n\ndata: b\n\n')), [answer('a')]);
    assert.equal(dec.finished, true);
    assert.deepEqual(dec.push(bytes('data: c\n\n')), []);
    assert.deepEqual(dec.end(), []);
  });

  it('reads id and retry lines as no text (a run never reconnects)', () => {
    const dec = new StreamDecoder('sse');
    assert.deepEqual(dec.push(bytes('id: 7\nretry: 1500\nretry: soon\ndata: a\n\nid: bad\0id\n\n')), [answer('a')]);
  });

  it('returns the deltas before an error of the same chunk, then throws it', () => {
    const dec = new StreamDecoder('sse');
    assert.deepEqual(dec.push(bytes('data: a\n\nevent: error\ndata: boom\n\ndata: b\n\n')), [answer('a')]);
    assert.ok(dec.error instanceof ServerError);
    assert.throws(
      () => dec.push(bytes('data: c\n\n')),
      (e) => e === dec.error,
    );
    assert.throws(
      () => dec.end(),
      (e) => e === dec.error,
    );
  });

  it('throws at once when the error comes first in the chunk', () => {
    const dec = new StreamDecoder('ndjson');
    assert.throws(() => dec.push(bytes('oops\n{"token":"a"}\n')), ContractError);
  });

  it('plain text: every decoded chunk is a delta, a split character waits for its last byte', () => {
    const dec = new StreamDecoder('text');
    const e = bytes('é');
    assert.deepEqual(dec.push(bytes('a', [e[0]!])), [answer('a')]);
    assert.deepEqual(dec.push(e.subarray(1)), [answer('é')]);
    assert.deepEqual(dec.push(new Uint8Array(0)), []);
    assert.deepEqual(dec.end(), []);
  });

  it('a truncated character at the end of the body becomes U+FFFD', () => {
    const dec = new StreamDecoder('sse');
    assert.deepEqual(dec.push(bytes('data: x', [0xe4, 0xb8])), []);
    assert.deepEqual(dec.end(), [answer('x\uFFFD')]);
  });
});

// ---------------------------------------------------------------------------------------------------- cap

describe('stream: size cap', () => {
  it('an SSE event over the cap is a ContractError, counted in bytes (é is 2)', () => {
    const dec = new StreamDecoder('sse', { maxEventBytes: 1000 });
    assert.deepEqual(dec.push(bytes(`data: ${'a'.repeat(990)}\n\n`)), [answer('a'.repeat(990))]);
    assert.throws(() => dec.push(bytes(`data: ${'é'.repeat(500)}\n\n`)), ContractError);
  });

  it('the data lines of one SSE event add up', () => {
    const dec = new StreamDecoder('sse', { maxEventBytes: 1000 });
    const line = `data: ${'a'.repeat(194)}\n`; // 200 bytes without the line end
    assert.deepEqual(dec.push(bytes(line.repeat(5), '\n')).length, 1); // exactly 1000: accepted
    assert.throws(() => dec.push(bytes(line.repeat(6), '\n')), ContractError);
  });

  it('the data lines of one SSE event add up, in bytes, however they are cut', () => {
    const make = () => new StreamDecoder('sse', { maxEventBytes: 1000 });
    const line = `data: ${'é'.repeat(97)}\n`; // 200 bytes without the line end
    const ok = bytes(line.repeat(5), '\n'); // exactly 1000: accepted
    const over = bytes(line.repeat(6), '\n');
    for (let cut = 1; cut < over.length; cut += 37) {
      const accepted = run(make, [ok.subarray(0, Math.min(cut, ok.length - 1)), ok.subarray(Math.min(cut, ok.length - 1))]);
      assert.deepEqual(accepted, { deltas: [answer(Array(5).fill('é'.repeat(97)).join('\n'))] }, `cut at ${cut}`);
      const refused = run(make, [over.subarray(0, cut), over.subarray(cut)]);
      assert.ok(refused.error instanceof ContractError, `cut at ${cut}`);
    }
  });

  it('an NDJSON line over the cap fails while it is still incomplete', () => {
    const dec = new StreamDecoder('ndjson', { maxEventBytes: 1000 });
    assert.deepEqual(dec.push(bytes('{"token":"', 'a'.repeat(500))), []);
    assert.throws(() => dec.push(bytes('a'.repeat(500))), ContractError);
  });

  const MiB = 1024 * 1024;
  const cases: { name: string; contentType?: string; prefix: string }[] = [
    { name: 'SSE', contentType: 'text/event-stream', prefix: 'data: ' },
    { name: 'NDJSON', contentType: 'application/x-ndjson', prefix: '{"token":"' },
    { name: 'JSON document', contentType: 'application/json', prefix: '{"text":"' },
    { name: 'sniffed SSE', prefix: '\n\ndata: ' },
  ];
  for (const c of cases) {
    it(`${c.name}: a 100 MiB body without a line end fails early, without holding it`, async () => {
      const block = Buffer.alloc(MiB, 'a');
      let pulled = 0;
      let closed = false;
      let peak = 0;
      const before = process.memoryUsage().heapUsed;
      async function* source(): AsyncGenerator<Uint8Array> {
        try {
          yield bytes(c.prefix);
          for (let i = 0; i < 100; i++) {
            peak = Math.max(peak, process.memoryUsage().heapUsed - before);
            pulled++;
            yield block;
          }
        } finally {
          closed = true;
        }
      }
      const out: string[] = [];
      await assert.rejects(async () => {
        for await (const d of decodeStream(source(), { contentType: c.contentType, maxEventBytes: 256 * 1024, maxJsonBytes: 256 * 1024 })) {
          out.push(d);
        }
      }, ContractError);
      assert.deepEqual(out, []);
      assert.ok(pulled <= 2, `pulled ${pulled} MiB`);
      assert.ok(closed, 'source not closed');
      assert.ok(peak < 30 * MiB, `heap grew by ${Math.round(peak / MiB)} MiB`);
    });
  }

  it('one JSON document answering a streamed request has the JSON limit, as a non-streamed answer does', async () => {
    // Over the per-event limit (8 MiB) but under the JSON limit: the framing decides the limit, not `stream`.
    const text = 'x'.repeat(DEFAULT_MAX_EVENT_BYTES + MiB);
    const body = Buffer.from(JSON.stringify({ response: text }));
    async function* source(): AsyncGenerator<Uint8Array> {
      for (let at = 0; at < body.length; at += MiB) yield body.subarray(at, at + MiB);
    }
    let got = '';
    for await (const d of decodeStream(source(), { contentType: 'application/json' })) got += d;
    assert.equal(got.length, text.length);
    async function* over(): AsyncGenerator<Uint8Array> {
      yield bytes('{"response":"');
      for (let i = 0; i <= MAX_JSON_BYTES / MiB; i++) yield Buffer.alloc(MiB, 'y');
    }
    await assert.rejects(async () => {
      for await (const _ of decodeStream(over(), { contentType: 'application/json' })) void _;
    }, /larger than the limit of 33554432 bytes/);
  });

  it('plain text has no cap: it is passed on chunk by chunk', async () => {
    async function* source(): AsyncGenerator<Uint8Array> {
      for (let i = 0; i < 4; i++) yield Buffer.alloc(1000, 'x');
    }
    let total = 0;
    for await (const d of decodeStream(source(), { contentType: 'text/plain', maxEventBytes: 100 })) total += d.length;
    assert.equal(total, 4000);
  });
});

// ------------------------------------------------------------------------------------------ decodeStream

async function collect(it: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const d of it) out.push(d);
  return out;
}

describe('stream: decodeStream', () => {
  it('decodes byte and string chunks', async () => {
    async function* source(): AsyncGenerator<Uint8Array | string> {
      yield 'data: {"token":"中';
      yield bytes('文"}\n');
      yield '\ndata: [DONE]\n\n';
    }
    assert.deepEqual(await collect(decodeStream(source(), { contentType: 'text/event-stream' })), ['中文']);
  });

  it('a consumer that stops early closes the source', async () => {
    let closed = false;
    async function* source(): AsyncGenerator<Uint8Array> {
      try {
        for (let i = 0; ; i++) yield bytes(`data: ${i}\n\n`);
      } finally {
        closed = true;
      }
    }
    const out: string[] = [];
    for await (const d of decodeStream(source())) {
      out.push(d);
      if (out.length === 3) break;
    }
    assert.deepEqual(out, ['0', '1', '2']);
    assert.ok(closed);
  });

  it('return() on the generator closes the source', async () => {
    let closed = false;
    async function* source(): AsyncGenerator<Uint8Array> {
      try {
        yield bytes('data: a\n\ndata: b\n\n');
        await new Promise(() => undefined); // a server that never sends more
      } finally {
        closed = true;
      }
    }
    const gen = decodeStream(source(), { contentType: 'text/event-stream' });
    assert.deepEqual(await gen.next(), { value: 'a', done: false });
    await gen.return(undefined);
    assert.ok(closed);
  });

  it("the source's errors propagate as thrown", async () => {
    const reset = new Error('socket hang up');
    async function* source(): AsyncGenerator<Uint8Array> {
      yield bytes('{"token":"a"}\n');
      throw reset;
    }
    const out: string[] = [];
    await assert.rejects(
      async () => {
        for await (const d of decodeStream(source(), { contentType: 'application/x-ndjson' })) out.push(d);
      },
      (e) => e === reset,
    );
    assert.deepEqual(out, ['a']);
  });

  it('stops reading after [DONE] and closes the source', async () => {
    let closed = false;
    async function* source(): AsyncGenerator<Uint8Array> {
      try {
        yield bytes('data: a\n\ndata: [DONE]\n\n');
        await new Promise(() => undefined); // a server that keeps the connection open
      } finally {
        closed = true;
      }
    }
    assert.deepEqual(await collect(decodeStream(source())), ['a']);
    assert.ok(closed);
  });

  it('an error event: the deltas before it, then ServerError, without waiting for more bytes', async () => {
    let closed = false;
    async function* source(): AsyncGenerator<Uint8Array> {
      try {
        yield bytes('data: a\n\nevent: error\ndata: {"message":"GPU lost"}\n\n');
        await new Promise(() => undefined);
      } finally {
        closed = true;
      }
    }
    const out: string[] = [];
    await assert.rejects(
      async () => {
        for await (const d of decodeStream(source(), { contentType: 'text/event-stream' })) out.push(d);
      },
      (e) => e instanceof ServerError && e.message === 'GPU lost',
    );
    assert.deepEqual(out, ['a']);
    assert.ok(closed);
  });

  it('application/json: the single document is yielded once at the end', async () => {
    async function* source(): AsyncGenerator<Uint8Array> {
      yield bytes('{"choices":[{"message":{"content":"He');
      yield bytes('llo"}}]}');
    }
    assert.deepEqual(await collect(decodeStream(source(), { contentType: 'application/json' })), ['Hello']);
  });

  it('a delta per event, never the text of several events of one read joined', async () => {
    async function* source(): AsyncGenerator<Uint8Array> {
      yield bytes('data: a\n\ndata: b\n\ndata: c');
      yield bytes('\n\ndata: d\n\ndata: e');
    }
    assert.deepEqual(await collect(decodeStream(source(), { contentType: 'text/event-stream' })), ['a', 'b', 'c', 'd', 'e']);
    async function* lines(): AsyncGenerator<Uint8Array> {
      yield bytes('{"token":"a"}\n{"token":"b"}\n{"tok');
      yield bytes('en":"c"}\n{"token":"d"}');
    }
    assert.deepEqual(await collect(decodeStream(lines(), { contentType: 'application/x-ndjson' })), ['a', 'b', 'c', 'd']);
  });

  it('an empty body yields nothing', async () => {
    async function* source(): AsyncGenerator<Uint8Array> {}
    assert.deepEqual(await collect(decodeStream(source())), []);
    assert.deepEqual(await collect(decodeStream(source(), { contentType: 'text/event-stream' })), []);
  });
});
