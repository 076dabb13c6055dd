// The byte lane of StreamDecoder (src/api/streamLane.ts) gives exactly what the general path gives: every body below
// is decoded with the lane and without it (`byteLane: false`), cut at every offset, and the results compared; the
// cases that matter are also written out.
import { strict as assert } from 'node:assert';
import { ContractError, ServerError } from '../../src/api/errors';
import { StreamDecoder, type Delta } from '../../src/api/stream';
import { bytes, decodeChunks, joinText } from './streamHelpers';

type Framing = 'sse' | 'ndjson';

interface Outcome {
  deltas: Delta[];
  error?: string;
}

function run(framing: Framing, chunks: Uint8Array[], options: { byteLane: boolean; coalesce?: boolean; maxEventBytes?: number }): Outcome {
  const { deltas, error } = decodeChunks(() => new StreamDecoder(framing, options), chunks);
  return error ? { deltas, error: `${error.name}: ${error.message}` } : { deltas };
}

function* cuts(body: Uint8Array): Generator<{ label: string; chunks: Uint8Array[] }> {
  yield { label: 'one chunk', chunks: [body] };
  for (let i = 1; i < body.length; i++) yield { label: `cut at ${i}`, chunks: [body.subarray(0, i), body.subarray(i)] };
  yield { label: 'single bytes', chunks: Array.from(body, (_b, i) => body.subarray(i, i + 1)) };
}

/** Lane and general path agree on every cut, one delta per event; coalesced, the same text and error. */
function sameAsGeneral(framing: Framing, body: Uint8Array, maxEventBytes?: number): Outcome {
  const want = run(framing, [body], { byteLane: false, maxEventBytes });
  for (const { label, chunks } of cuts(body)) {
    const general = run(framing, chunks, { byteLane: false, maxEventBytes });
    assert.deepEqual(general, want, `general path, ${label}`); // the reference itself does not depend on the cut
    assert.deepEqual(run(framing, chunks, { byteLane: true, maxEventBytes }), want, `lane, ${label}`);
    const joined = run(framing, chunks, { byteLane: true, coalesce: true, maxEventBytes });
    assert.equal(joinText(joined.deltas), joinText(want.deltas), `lane, coalesced, ${label}`);
    assert.equal(joined.error, want.error, `lane, coalesced, ${label}`);
    assert.ok(!joined.deltas.includes(''), `${label}: empty delta`);
  }
  return want;
}

const SERVER = (m: string) => `ServerError: ${m}`;
const NOT_JSON = 'ContractError: The stream sent a line that is not JSON.';

interface Case {
  name: string;
  framing: Framing;
  body: Uint8Array;
  deltas: string[];
  error?: string;
}

const CASES: Case[] = [
  {
    name: 'plain events, \\n and \\r\\n, with and without the space after data:',
    framing: 'sse',
    body: bytes('data: {"token":"Hel"}\n\ndata:{"token":"lo"}\r\n\r\ndata: {"token":" wörld 中 😀"}\n\n'),
    deltas: ['Hel', 'lo', ' wörld 中 😀'],
  },
  {
    name: 'escapes, decoded as JSON.parse does',
    framing: 'sse',
    body: bytes(
      'data: {"token":"a\\nb\\"c\\\\d\\/e\\tf\\b\\f\\r"}\n\n',
      'data: {"token":"\\u00e9\\u4E2D\\ud83d\\ude00\\u0000\\u001f"}\n\n',
    ),
    deltas: ['a\nb"c\\d/e\tf\b\f\r', 'é中😀\u0000\u001f'],
  },
  {
    name: 'an escaped lone surrogate is kept (general path)',
    framing: 'sse',
    body: bytes('data: {"token":"x\\ud83d"}\n\ndata: {"token":"\\ude00y"}\n\ndata: {"token":"\\ud83d\\u0041"}\n\n'),
    deltas: ['x\ud83d', '\ude00y', '\ud83dA'],
  },
  {
    name: 'not JSON strings: bad escape, raw control character, unescaped quote (the data itself)',
    framing: 'sse',
    body: bytes('data: {"token":"a\\x"}\n\ndata: {"token":"a\tb"}\n\ndata: {"token":"a"b"}\n\ndata: {"token":"\\u12"}\n\n'),
    deltas: ['{"token":"a\\x"}', '{"token":"a\tb"}', '{"token":"a"b"}', '{"token":"\\u12"}'],
  },
  {
    name: 'invalid UTF-8 in the text: replacement characters as before',
    framing: 'sse',
    body: bytes(
      'data: {"token":"a',
      [0xff],
      'b"}\n\ndata: {"token":"c',
      [0xe4, 0xb8],
      '"}\n\ndata: {"token":"',
      [0xed, 0xa0, 0x80],
      [0xc0, 0xaf],
      [0xf4, 0x90, 0x80, 0x80],
      '"}\n\ndata: {"token":"ok"}\n\n',
    ),
    deltas: ['a\uFFFDb', 'c\uFFFD', '\uFFFD'.repeat(9), 'ok'],
  },
  {
    name: 'other text fields, learnt and changed, and shapes the lane does not take',
    framing: 'sse',
    body: bytes(
      'data: {"text":"a"}\n\ndata: {"text":"b"}\n\ndata: {"token":"c"}\n\n',
      'data: {"choices":[{"delta":{"content":"d"}}]}\n\ndata: {"token": "e"}\n\ndata: {"token":"f"} \n\n',
      'data:  {"token":"g"}\n\ndata: {"token":"h","done":true}\n\ndata: {"usage":"i"}\n\ndata: {"generated_text":"j"}\n\n',
      'data: {"thisfieldnameislongerthanthirtytwobytes":"k"}\n\ndata: {"token":"l"}\n\n',
    ),
    // `usage` is a label, never text; a record's only string is its text whatever its name (`k`).
    deltas: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'j', 'k', 'l'],
  },
  {
    name: 'other fields and lines between and inside events',
    framing: 'sse',
    body: bytes(
      ': keep-alive\n\ndata: {"token":"a"}\n\nid: 7\nretry: 10\n\ndata: {"token":"b"}\n\n',
      'event: message\ndata: {"token":"c"}\n\ndata: {"token":"d"}\ndata: {"token":"e"}\n\n',
      ':\r\ndata: {"token":"f"}\r\r: x\rdata: {"token":"g"}\n\n\n\n\r\n\r\ndata: {"token":"h"}\n',
      '\uFEFFdata: {"token":"not a BOM here"}\n\ndata: {"token":"i"}\n\n',
    ),
    deltas: ['a', 'b', 'c', '{"token":"d"}\n{"token":"e"}', 'f', 'g', 'h', 'i'],
  },
  {
    name: 'mixed in one chunk: empty text, [DONE] ends it',
    framing: 'sse',
    body: bytes('data: {"token":""}\n\ndata: {"token":"a"}\n\ndata: [DONE]\n\ndata: {"token":"b"}\n\n'),
    deltas: ['a'],
  },
  {
    name: 'an error event after lane events',
    framing: 'sse',
    body: bytes('data: {"token":"a"}\n\ndata: {"token":"b"}\n\nevent: error\ndata: {"error":"boom"}\n\ndata: {"token":"c"}\n\n'),
    deltas: ['a', 'b'],
    error: SERVER('boom'),
  },
  {
    name: 'an error field after lane events',
    framing: 'sse',
    body: bytes('data: {"token":"a"}\n\ndata: {"error":"worker crashed"}\n\ndata: {"token":"c"}\n\n'),
    deltas: ['a'],
    error: SERVER('worker crashed'),
  },
  {
    name: 'last event without its blank line',
    framing: 'sse',
    body: bytes('data: {"token":"a"}\n\ndata: {"token":"b"}\n'),
    deltas: ['a', 'b'],
  },
  {
    name: 'texts around the length the lane leaves to the general path (256 bytes), multi-byte and escapes at the edge',
    framing: 'sse',
    body: bytes(
      `data: {"token":"${'a'.repeat(256)}"}\n\ndata: {"token":"${'b'.repeat(257)}"}\n\n`,
      `data: {"token":"${'c'.repeat(255)}é"}\n\ndata: {"token":"${'d'.repeat(253)}\\n"}\n\ndata: {"token":"e"}\n\n`,
    ),
    deltas: ['a'.repeat(256), 'b'.repeat(257), `${'c'.repeat(255)}é`, `${'d'.repeat(253)}\n`, 'e'],
  },
  {
    name: 'a BOM, then lane events',
    framing: 'sse',
    body: bytes('\uFEFFdata: {"token":"a"}\n\ndata: {"token":"b"}\n\n'),
    deltas: ['a', 'b'],
  },
  {
    name: 'NDJSON: lines, \\r\\n, blank lines, escapes, other shapes, a record separator',
    framing: 'ndjson',
    body: bytes(
      '{"token":"a"}\n{"token":"é\\n"}\r\n\n\r\n{"text":"b"}\n{"token":"c"}\r{"delta":{"text":"d"}}\n',
      '\x1e{"token":"e"}\n {"token":"f"}\n{"token":"g"} \n{"token":"h"}',
    ),
    deltas: ['a', 'é\n', 'b', 'c', 'd', 'e', 'f', 'g', 'h'],
  },
  {
    name: 'NDJSON: a done record stops it, later lines are ignored',
    framing: 'ndjson',
    body: bytes('{"token":"a"}\n{"done":true}\n{"token":"b"}\n'),
    deltas: ['a'],
  },
  {
    name: 'NDJSON: a line that is not JSON after lane lines',
    framing: 'ndjson',
    body: bytes('{"token":"a"}\n{"token":"b\\q"}\n{"token":"c"}\n'),
    deltas: ['a'],
    error: NOT_JSON,
  },
];

describe('stream lane: same results as the general path', () => {
  for (const c of CASES) {
    it(`${c.framing}: ${c.name}`, () => {
      const got = sameAsGeneral(c.framing, c.body);
      assert.deepEqual(got.deltas, c.deltas);
      assert.equal(got.error, c.error);
    });
  }

  it('the size cap: an event at the cap passes, one byte more fails, as before', () => {
    const line = `data: {"token":"${'a'.repeat(100)}"}`; // 118 bytes
    const at = sameAsGeneral('sse', bytes(`${line}\n\n`), line.length);
    assert.deepEqual(at.deltas, ['a'.repeat(100)]);
    const over = sameAsGeneral('sse', bytes(`data: {"token":"x"}\n\n${line}\n\n`), line.length - 1);
    assert.deepEqual(over.deltas, ['x']);
    assert.match(over.error ?? '', /^ContractError: .*larger than the limit/);
    const comment = sameAsGeneral('sse', bytes(`: ${'c'.repeat(50)}\n\ndata: {"token":"x"}\n\n`), 40);
    assert.match(comment.error ?? '', /^ContractError/);
    const ndjson = sameAsGeneral('ndjson', bytes(`{"token":"a"}\n{"token":"${'é'.repeat(20)}"}\n`), 50);
    assert.deepEqual(ndjson.deltas, ['a']);
    assert.match(ndjson.error ?? '', /^ContractError/);
  });

  it('random bodies of lane and other events, cut at random, give the same results', () => {
    let seed = 7;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const texts = [
      'a',
      ' word',
      'é',
      '中文',
      '😀',
      '\\n',
      '\\"',
      '\\u00e9',
      '\\ud83d\\ude00',
      '\\ud83d',
      '',
      'x y',
      `${'x'.repeat(250)}中\\n`,
    ];
    const sseEvents = [
      (t: string) => `data: {"token":"${t}"}\n\n`,
      (t: string) => `data:{"text":"${t}"}\r\n\r\n`,
      (t: string) => `data: {"choices":[{"delta":{"content":"${t}"}}]}\n\n`,
      () => ': keep-alive\n\n',
      (t: string) => `id: 1\ndata: {"token":"${t}"}\n\n`,
      (t: string) => `data: {"token":"${t}"}\rdata: more\r\r`,
      (t: string) => `data: plain ${t}\n\n`,
    ];
    const ndjsonLines = [
      (t: string) => `{"token":"${t}"}\n`,
      (t: string) => `{"response":"${t}"}\r\n`,
      (t: string) => `{"delta":{"text":"${t}"}}\n`,
      () => '\n',
    ];
    for (let round = 0; round < 300; round++) {
      const framing: Framing = round % 2 === 0 ? 'sse' : 'ndjson';
      const kinds = framing === 'sse' ? sseEvents : ndjsonLines;
      const parts: (string | number[])[] = [];
      for (let e = 0; e < 12; e++) {
        parts.push(kinds[rnd(kinds.length)]!(texts[rnd(texts.length)]!));
        if (rnd(20) === 0) parts.push([0xe4]); // a stray byte: invalid UTF-8 somewhere
      }
      const body = bytes(...parts);
      const want = run(framing, [body], { byteLane: false });
      for (let k = 0; k < 5; k++) {
        const chunks: Uint8Array[] = [];
        for (let at = 0; at < body.length;) {
          const size = 1 + rnd(40);
          chunks.push(body.subarray(at, at + size));
          at += size;
        }
        const label = `round ${round}, cut ${k}: ${JSON.stringify(Buffer.from(body).toString('latin1'))}`;
        assert.deepEqual(run(framing, chunks, { byteLane: false }), want, label);
        assert.deepEqual(run(framing, chunks, { byteLane: true }), want, label);
        const joined = run(framing, chunks, { byteLane: true, coalesce: true });
        assert.equal(joinText(joined.deltas), joinText(want.deltas), label);
        assert.equal(joined.error, want.error, label);
      }
    }
  });
});

describe('stream lane: coalesced text', () => {
  it('the events of one chunk taken by the lane come as one delta', () => {
    const dec = new StreamDecoder('sse', { coalesce: true });
    assert.deepEqual(dec.push(bytes('data: {"token":"a"}\n\n: ping\n\ndata: {"token":"b"}\n\ndata: {"token":"c')), ['ab']);
    assert.deepEqual(dec.push(bytes('"}\n\ndata: {"token":"d"}\n\n')), ['c', 'd']); // c finishes in the general path
  });

  it('general-path deltas keep their place between lane texts', () => {
    const dec = new StreamDecoder('ndjson', { coalesce: true });
    assert.deepEqual(dec.push(bytes('{"token":"a"}\n{"token":"b"}\n{"delta":{"text":"c"}}\n{"token":"d"}\n')), ['ab', 'c', 'd']);
  });

  it('deltas taken before an error are returned, then the error is thrown', () => {
    const dec = new StreamDecoder('sse', { coalesce: true });
    assert.deepEqual(dec.push(bytes('data: {"token":"a"}\n\ndata: {"token":"b"}\n\nevent: error\ndata: oops\n\n')), ['ab']);
    assert.ok(dec.error instanceof ServerError);
    assert.throws(() => dec.end(), ServerError);
    const nd = new StreamDecoder('ndjson', { coalesce: true });
    assert.deepEqual(nd.push(bytes('{"token":"a"}\nnope\n')), ['a']);
    assert.ok(nd.error instanceof ContractError);
  });
});
