// Issue 27: events that echo the request are not the answer, retrieval sources are not the answer, and whatever the
// framing, text shows as it arrives. Realistic bodies of the nested-phase service (a request echo, a token given
// twice, a RAG event of sources mid-stream) and of Gemini's streamGenerateContent (one JSON array sent over time).
import { strict as assert } from 'node:assert';
import { decodeInferenceResult, mergePieces, type InferencePiece } from '../../src/api/answerText';
import type { StreamProfile } from '../../src/api/profileFormat';
import { createDecoder, decodePieces } from '../../src/api/stream';
import { answer, reasoning } from './streamHelpers';
import { StreamReading } from '../../src/api/streamReading';

const PROMPT = 'What does a cache buy you? Café ☕';
const SOURCES = [
  {
    title: 'handbook.pdf',
    snippet: 'Returns are accepted within thirty days of purchase.',
    url: 'https://docs.example.com/handbook.pdf#page=7',
  },
  { title: 'notes.docx', snippet: 'Support is open on weekdays from nine to five.', url: 'https://docs.example.com/notes.docx' },
];
const ECHO = { prompt: PROMPT, query_only: PROMPT, model_name: 'oss-reasoner-8b', stream: true, use_rag: true, temperature: 0.5 };

/** The nested-phase stream: the request echoed, reasoning then answer tokens (each twice), sources a third of the way. */
function nestedEvents(): unknown[] {
  const thinking = ['The ', 'question ', 'is ', 'about ', 'caches.'];
  const answer = ['It ', 'depends ', 'on ', '**batching**', ' — ', 'mostly.'];
  let seq = 0;
  const out: unknown[] = [{ seq: seq++, type: 'request', request: ECHO }];
  for (const t of thinking) out.push({ seq: seq++, type: 'thinking', token: t, delta: { thinking: t } });
  answer.forEach((t, i) => {
    if (i === 3) out.push({ seq: seq++, type: 'retrieval', sources: SOURCES });
    out.push({ seq: seq++, type: 'token', token: t, delta: { text: t } });
  });
  out.push({ seq: seq++, type: 'end', finish: 'stop', tokens: String(answer.length) });
  return out;
}

const frame = {
  sse: (o: unknown) => `data: ${JSON.stringify(o)}\n\n`,
  ndjson: (o: unknown) => `${JSON.stringify(o)}\n`,
};
const TYPES = { sse: 'text/event-stream; charset=utf-8', ndjson: 'application/x-ndjson' };

/** The deltas of each event pushed alone, then of the end. */
function perEvent(chunks: string[], contentType: string, reading: StreamReading): InferencePiece[][] {
  const dec = createDecoder({ contentType, reading });
  return [...chunks.map((c) => dec.push(Buffer.from(c))), dec.end()];
}

describe('issue 27: request echoes and retrieval sources are not the answer', () => {
  for (const framing of ['sse', 'ndjson'] as const) {
    it(`nested-phase streamed (${framing}): the echo gives nothing, the sources are no answer, each token once as it arrives`, () => {
      const got = perEvent(nestedEvents().map(frame[framing]), TYPES[framing], new StreamReading(undefined, [PROMPT]));
      assert.deepEqual(got, [
        [],
        [reasoning('The ')],
        [reasoning('question ')],
        [reasoning('is ')],
        [reasoning('about ')],
        [reasoning('caches.')],
        [answer('It ')],
        [answer('depends ')],
        [answer('on ')],
        [],
        [answer('**batching**')],
        [answer(' — ')],
        [answer('mostly.')],
        [],
        [],
      ]);
    });
  }

  it('a profile kept with a path into sources (`sources[].snippet`) reads nothing from them', async () => {
    // What a run before citations were known kept for this service.
    const known: StreamProfile = {
      answer: ['token', 'sources[].snippet'],
      reasoning: ['delta.thinking'],
      flag: { from: 'type', map: { thinking: 'reasoning', token: 'answer', retrieval: 'answer' } },
      by: 'inferred',
    };
    const reading = new StreamReading(known, [PROMPT]);
    async function* source(): AsyncGenerator<Uint8Array> {
      for (const e of nestedEvents()) yield Buffer.from(frame.sse(e));
    }
    const pieces: InferencePiece[] = [];
    for await (const p of decodePieces(source(), { contentType: TYPES.sse, reading })) pieces.push(p);
    assert.deepEqual(mergePieces(pieces), [
      { kind: 'reasoning', text: 'The question is about caches.' },
      { kind: 'answer', text: 'It depends on **batching** — mostly.' },
    ]);
  });

  it('a citation list under an event that also carries the answer is not read into it', () => {
    const reading = new StreamReading();
    const dec = createDecoder({ contentType: 'application/x-ndjson', reading });
    const got = [
      { delta: { text: 'Returns take ' } },
      { delta: { text: 'thirty days.', annotations: SOURCES } },
      { delta: { text: ' [1]' } },
    ].map((e) => dec.push(Buffer.from(frame.ndjson(e))));
    assert.deepEqual([...got, dec.end()], [[answer('Returns take ')], [answer('thirty days.')], [answer(' [1]')], []]);
  });

  it('nested-phase non-streamed: the request echo beside the result is not the answer; reasoning apart, sources left out', () => {
    const body = {
      request: { ...ECHO, stream: false },
      result: {
        answer: { text: 'It depends on **batching**.\n\nSources: [1] handbook.pdf, [2] notes.docx' },
        thinking: { text: 'The question is about caches.' },
        sources: SOURCES,
      },
    };
    const reading = new StreamReading(undefined, [PROMPT, undefined], 'answer');
    assert.deepEqual(decodeInferenceResult(body, true, reading), [
      { kind: 'reasoning', text: 'The question is about caches.' },
      { kind: 'answer', text: 'It depends on **batching**.\n\nSources: [1] handbook.pdf, [2] notes.docx' },
    ]);
    // The echo's text (the prompt, query_only) is no path of the profile kept: the next answer is read by it alone.
    assert.deepEqual(reading.report()?.profile, { answer: ['result.answer.text'], reasoning: ['result.thinking.text'], by: 'inferred' });
  });

  it('a whole answer whose only text is one long token (opaque in a stream) is read, the echo left out as well', () => {
    const token = 'A1B2'.repeat(16);
    const body = { request: { ...ECHO, stream: false }, result: { answer: token } };
    const reading = new StreamReading(undefined, [PROMPT, undefined], 'answer');
    assert.deepEqual(decodeInferenceResult(body, true, reading), [{ kind: 'answer', text: token }]);
  });

  it('an echo in a list of messages takes the record that holds the list, not only the message', () => {
    const event = {
      request: {
        messages: [
          { role: 'system', content: 'You are a helpful assistant.' },
          { role: 'user', content: PROMPT },
        ],
      },
    };
    const dec = createDecoder({ contentType: 'application/x-ndjson', reading: new StreamReading(undefined, [PROMPT]) });
    const got = [event, { token: 'Hi ' }, { token: 'there.' }].map((e) => dec.push(Buffer.from(frame.ndjson(e))));
    assert.deepEqual([...got, dec.end()], [[], [answer('Hi ')], [answer('there.')], []]);
  });
});

describe('issue 27: a stream sent as one JSON array is read element by element, as each arrives', () => {
  const piece = (parts: unknown[], finish?: string) => ({
    candidates: [{ content: { role: 'model', parts }, ...(finish ? { finishReason: finish } : {}), index: 0 }],
    usageMetadata: { promptTokenCount: 7 },
    modelVersion: 'models/oss-reasoner-8b',
    // A random id with no digit: it does not look opaque, its key says what it is.
    responseId: 'MEGewyttw-vI',
  });
  /** streamGenerateContent's default framing: `[`, elements pretty-printed and split by `,`, then `]`. */
  function arrayChunks(): string[] {
    const elements = [
      piece([{ text: 'Thinking about ', thought: true }]),
      piece([{ text: 'caches.', thought: true }]),
      piece([{ text: 'A cache ' }]),
      piece([{ text: 'buys "latency" {back}.' }]),
      piece([{ text: '' }], 'STOP'),
    ];
    return elements.map((e, i) => `${i === 0 ? '[' : '\n,\r\n'}${JSON.stringify(e, null, 2)}`).concat(['\n]']);
  }

  it('each element gives its text when it arrives, reasoning apart', () => {
    const got = perEvent(arrayChunks(), 'application/json; charset=UTF-8', new StreamReading());
    assert.deepEqual(got, [
      [reasoning('Thinking about ')],
      [reasoning('caches.')],
      [answer('A cache ')],
      [answer('buys "latency" {back}.')],
      [],
      [],
      [],
    ]);
  });

  it('elements cut anywhere across reads (in a string, an escape, a multi-byte character) read alike', async () => {
    const body = Buffer.from(arrayChunks().join('').replace('caches.', 'cachés \\u2014 ☕.'));
    async function* source(): AsyncGenerator<Uint8Array> {
      for (let at = 0; at < body.length; at += 7) yield body.subarray(at, at + 7);
    }
    const pieces: InferencePiece[] = [];
    for await (const p of decodePieces(source(), { contentType: 'application/json', reading: new StreamReading() })) pieces.push(p);
    assert.deepEqual(mergePieces(pieces), [
      { kind: 'reasoning', text: 'Thinking about cachés — ☕.' },
      { kind: 'answer', text: 'A cache buys "latency" {back}.' },
    ]);
  });

  it('an error element is the service’s error; text before it is kept', () => {
    const dec = createDecoder({ contentType: 'application/json', reading: new StreamReading() });
    assert.deepEqual(dec.push(Buffer.from(`[${JSON.stringify(piece([{ text: 'Hello' }]))}`)), [answer('Hello')]);
    assert.throws(
      () => dec.push(Buffer.from(`,${JSON.stringify({ error: { code: 500, message: 'model overloaded', status: 'INTERNAL' } })}]`)),
      /model overloaded/,
    );
  });

  it('an element over the limit fails while it is still incomplete; an unclosed array is refused at the end', () => {
    const big = createDecoder({ contentType: 'application/json', maxJsonBytes: 1000, reading: new StreamReading() });
    assert.deepEqual(big.push(Buffer.from(`[{"text":"${'a'.repeat(600)}`)), []);
    assert.throws(() => big.push(Buffer.from('a'.repeat(600))), /larger than the limit of 1000 bytes/);
    const open = createDecoder({ contentType: 'application/json', reading: new StreamReading() });
    assert.deepEqual(open.push(Buffer.from('[{"text":"Hi"},{"text":"')), [answer('Hi')]);
    assert.throws(() => open.end(), /JSON array/);
  });
});
