import { strict as assert } from 'node:assert';
import { decodeInferenceResult, InlineReasoning, mergePieces, readEvent, type InferencePiece } from '../../src/api/answerText';
import { StreamReading } from '../../src/api/streamReading';
import type { StreamProfile } from '../../src/api/profileFormat';
import { ContractError, ServerError } from '../../src/api/errors';
import { decodePieces } from '../../src/api/stream';
import { seededRandom } from './seededRandom';

const answer = (text: string): InferencePiece => ({ kind: 'answer', text });
const reasoning = (text: string): InferencePiece => ({ kind: 'reasoning', text });

/** A non-streamed answer's reasoning and answer (inline tags left in), each joined; a part it lacks is absent. */
function findParts(body: unknown): { reasoning?: string; answer?: string } {
  const out: { reasoning?: string; answer?: string } = {};
  for (const p of decodeInferenceResult(body, false)) out[p.kind] = (out[p.kind] ?? '') + p.text;
  return out;
}

/** A non-streamed answer's answer text (findParts). */
const findText = (body: unknown): string | undefined => findParts(body).answer;

async function piecesOf(body: string | Uint8Array[], contentType?: string): Promise<InferencePiece[]> {
  const chunks = typeof body === 'string' ? [Buffer.from(body)] : body;
  async function* source(): AsyncGenerator<Uint8Array> {
    for (const c of chunks) yield c;
  }
  const out: InferencePiece[] = [];
  for await (const p of decodePieces(source(), { contentType })) out.push(p);
  return mergePieces(out);
}

describe('answer text: the answer by structure', () => {
  it('finds the text in common shapes', () => {
    assert.equal(findText({ response: 'r' }), 'r');
    assert.equal(findText({ text: 't' }), 't');
    assert.equal(findText({ output: { text: 'o' } }), 'o');
    assert.equal(findText({ choices: [{ message: { content: 'c' } }] }), 'c');
    assert.equal(
      findText({
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      }),
      'ab',
    );
    assert.equal(findText('plain'), 'plain');
    assert.equal(findText({ data: { generated_text: 'g' } }), 'g');
    assert.equal(findText([{ generated_text: 'hf' }]), 'hf');
  });

  it('reads a field by where it stands, not by its name: a lone string, prose beside labels', () => {
    assert.equal(findText({ zzq: 'Hello' }), 'Hello');
    assert.equal(findText({ model: 'm-1', id: 'x9', created_at: '2024-01-01T00:00:00Z', says: 'Two words.' }), 'Two words.');
    assert.equal(findText({ wrapper: { inner: { deep: 'Deep text here' } }, model_name: 'm' }), 'Deep text here');
  });

  it('labels, numbers and settings are never the answer', () => {
    assert.throws(() => findText({ type: 'ping' }), ContractError);
    assert.throws(() => findText({ usage: { prompt_tokens: 3 }, model: 'm' }), ContractError);
    assert.deepEqual(findParts({ answer: 'A', reasoning: { effort: 'high' } }), { answer: 'A' });
  });

  it('OpenAI, Ollama, Anthropic and TGI shapes, with the model named like a reasoner', () => {
    const openai = {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      model: 'deep-reasoner-thinking',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hi', reasoning_content: 'Let me see' }, finish_reason: 'stop' }],
    };
    assert.deepEqual(findParts(openai), { reasoning: 'Let me see', answer: 'Hi' });
    // n alternatives: the first only.
    const two = { choices: [0, 1].map((index) => ({ index, message: { role: 'assistant', content: `c${index}` } })) };
    assert.equal(findText(two), 'c0');
    const ollama = { model: 'qwen3', message: { role: 'assistant', content: 'Yes', thinking: 'Hmm' }, done: true };
    assert.deepEqual(findParts(ollama), { reasoning: 'Hmm', answer: 'Yes' });
    const anthropic = {
      content: [
        { type: 'thinking', thinking: 'First, ', signature: 'abc' },
        { type: 'text', text: 'Done.' },
      ],
    };
    assert.deepEqual(findParts(anthropic), { reasoning: 'First, ', answer: 'Done.' });
    const harmony = [
      { channel: 'analysis', content: 'think think' },
      { channel: 'final', content: 'Answer' },
    ];
    assert.deepEqual(findParts(harmony), { reasoning: 'think think', answer: 'Answer' });
  });

  it('two texts with nothing to tell them apart are refused, naming both, never guessed', () => {
    assert.throws(
      () => findText({ first: 'one two', second: 'three four' }),
      (e: unknown) => e instanceof ContractError && /first, second/.test(e.message),
    );
    assert.throws(() => decodeInferenceResult({ usage: { tokens: 3 } }), ContractError);
    assert.throws(() => decodeInferenceResult(17), ContractError);
  });
});

describe('answer text: reasoning in its three forms', () => {
  it('a field beside the answer (non-streamed)', () => {
    assert.deepEqual(decodeInferenceResult({ reasoning: 'Because.', answer: '42' }), [reasoning('Because.'), answer('42')]);
    assert.deepEqual(decodeInferenceResult({ thoughts: 'x y', response: 'z' }), [reasoning('x y'), answer('z')]);
  });

  it('inline tags opening the answer, closed or never closed', () => {
    for (const tag of ['think', 'thinking', 'reasoning', 'thought', 'THINK']) {
      assert.deepEqual(decodeInferenceResult({ response: `\n<${tag}>plan</${tag}>\n\nAnswer` }), [reasoning('plan'), answer('Answer')]);
    }
    assert.deepEqual(decodeInferenceResult('<think>still going'), [reasoning('still going')]);
    // Later in the answer, a tag is the answer's own text.
    assert.deepEqual(decodeInferenceResult('Use <think> tags'), [answer('Use <think> tags')]);
    assert.deepEqual(decodeInferenceResult('<thin'), [answer('<thin')]);
  });

  it('inline tags cut anywhere across chunks give the same pieces', () => {
    const text = '  <thinking>Step 1. Step 2.</thinking>\nThe answer is <b>4</b>.';
    for (let i = 0; i <= text.length; i++) {
      for (const j of [i, Math.min(text.length, i + 1), Math.min(text.length, i + 7)]) {
        const inline = new InlineReasoning();
        const got = mergePieces([
          ...inline.push(text.slice(0, i)),
          ...inline.push(text.slice(i, j)),
          ...inline.push(text.slice(j)),
          ...inline.end(),
        ]);
        assert.deepEqual(got, [reasoning('Step 1. Step 2.'), answer('The answer is <b>4</b>.')], `cuts at ${i}, ${j}`);
      }
    }
  });

  it('whitespace and partial tags at either end give the same pieces however they are cut', () => {
    const cases: [string, InferencePiece[]][] = [
      ['  <thinkx', [answer('  <thinkx')]],
      ['  <thi', [answer('  <thi')]],
      [' \t', [answer(' \t')]],
      // A block cut off inside its close tag: the block's leading whitespace is left out, as when it is closed.
      ['  <think>  </thi', [reasoning('</thi')]],
      ['<think>a  </thinkx  b', [reasoning('a  </thinkx  b')]],
      [' \n<think>\n a \n </think> \n b ', [reasoning('a'), answer('b ')]],
      ['<think> \n ', []],
    ];
    for (const [text, want] of cases) {
      for (let i = 0; i <= text.length; i++) {
        for (let j = i; j <= text.length; j++) {
          const inline = new InlineReasoning();
          const got = mergePieces([
            ...inline.push(text.slice(0, i)),
            ...inline.push(text.slice(i, j)),
            ...inline.push(text.slice(j)),
            ...inline.end(),
          ]);
          assert.deepEqual(got, want, `${JSON.stringify(text)} cut at ${i}, ${j}`);
        }
      }
    }
  });

  it('a separate SSE event type, a discriminator field, a separate field: each kept apart', async () => {
    const sse = [
      'event: thinking\ndata: Considering\n\n',
      'event: thinking\ndata: {"text":" options"}\n\n',
      'data: {"token":"Hello"}\n\n',
      'data: [DONE]\n\n',
    ].join('');
    assert.deepEqual(await piecesOf(sse, 'text/event-stream'), [reasoning('Considering options'), answer('Hello')]);
    const typed = [
      '{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Hmm, "}}',
      '{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Yes"}}',
      '',
    ].join('\n');
    assert.deepEqual(await piecesOf(typed, 'application/x-ndjson'), [reasoning('Hmm, '), answer('Yes')]);
    const field = [
      'data: {"choices":[{"index":0,"delta":{"role":"assistant","content":null,"reasoning_content":"Let me"}}]}\n\n',
      'data: {"choices":[{"index":0,"delta":{"content":"Sure","reasoning_content":null}}]}\n\n',
    ].join('');
    assert.deepEqual(await piecesOf(field, 'text/event-stream'), [reasoning('Let me'), answer('Sure')]);
  });

  it('inline tags in a stream, split across events and reads', async () => {
    const events = ['<thi', 'nk>a', ' b</th', 'ink>', '\n\nAn', 'swer'].map((t) => `data: ${JSON.stringify({ token: t })}\n\n`);
    const body = Buffer.from(events.join(''));
    for (let cut = 1; cut < body.length; cut += 5) {
      const got = await piecesOf([body.subarray(0, cut), body.subarray(cut)], 'text/event-stream');
      assert.deepEqual(got, [reasoning('a b'), answer('Answer')], `cut at ${cut}`);
    }
  });

  it('a stream that repeats its text in a closing event (OpenAI Responses) is not read twice', async () => {
    const events = [
      { type: 'response.reasoning_summary_text.delta', delta: 'Plan' },
      { type: 'response.output_text.delta', delta: 'Hi' },
      { type: 'response.output_text.done', text: 'Hi' },
      { type: 'response.completed', response: { output: [{ type: 'message', content: [{ type: 'output_text', text: 'Hi' }] }] } },
    ];
    const body = events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('');
    assert.deepEqual(await piecesOf(body, 'text/event-stream'), [reasoning('Plan'), answer('Hi')]);
  });

  it('the field that carried the answer wins a later tie (TGI: the last token beside the whole text)', async () => {
    const body = [
      { index: 1, token: { id: 1, text: 'Hel' }, generated_text: null },
      { index: 2, token: { id: 2, text: 'lo' }, generated_text: 'Hello' },
    ]
      .map((e) => `data: ${JSON.stringify(e)}\n\n`)
      .join('');
    assert.deepEqual(await piecesOf(body, 'text/event-stream'), [answer('Hello')]);
  });
});

/** One event read alone, as the whole of a run (`event`: its SSE type): its pieces merged, and whether it ends the stream. */
function readAlone(data: string, json = false, event = '', known?: StreamProfile): { pieces: InferencePiece[]; ends: boolean } {
  const run = new StreamReading(known);
  const out: InferencePiece[] = [];
  const ends = readEvent({ event, data }, json, run, out);
  return { pieces: mergePieces(out.concat(run.end())), ends };
}

describe('answer text: stream events', () => {
  it('reads stream events', () => {
    const text = (...pieces: InferencePiece[]) => ({ pieces, ends: false });
    const ended = { pieces: [], ends: true };
    assert.deepEqual(readAlone('{"token":"a"}'), text(answer('a')));
    assert.deepEqual(readAlone('{"choices":[{"delta":{"content":"b"}}]}'), text(answer('b')));
    assert.deepEqual(readAlone('{"thinking":"t"}'), text(reasoning('t')));
    assert.deepEqual(readAlone('{"reasoning":"r","text":"a"}'), text(reasoning('r'), answer('a')));
    assert.deepEqual(readAlone('plain', false, 'thinking'), text(reasoning('plain')));
    assert.deepEqual(readAlone('[DONE]'), ended);
    assert.deepEqual(readAlone('{"done":true}'), ended);
    assert.deepEqual(readAlone('last', false, 'done'), { pieces: [answer('last')], ends: true });
    assert.throws(
      () => readAlone('{"error":{"message":"boom"}}'),
      (e: unknown) => e instanceof ServerError && e.message === 'boom',
    );
    assert.throws(
      () => readAlone('{"message":"down"}', false, 'error'),
      (e: unknown) => e instanceof ServerError && e.message === 'down',
    );
    assert.deepEqual(readAlone('not json'), text(answer('not json')));
    assert.deepEqual(readAlone('{"usage":{"n":1}}'), text());
    assert.deepEqual(readAlone('{"type":"ping"}'), text());
    assert.throws(() => readAlone('not json', true), ContractError);
  });

  it('the `{"token":"..."}` fast path answers exactly what the profile\'s general reading does', () => {
    // A run whose profile reads these names: an event exactly `{"<name>":"<string>"}` then takes the fast path.
    const known: StreamProfile = {
      answer: ['token', 'text', 'delta', 'data', 'zzq', 'error', 'type', ''],
      reasoning: ['thinking'],
      by: 'inferred',
    };
    const cases = [
      '{"token":"a"}',
      '{"token":""}',
      '{"token":"a\\nb"}',
      '{"token":"\\"q\\""}',
      '{"token":"a","token":"b"}',
      '{"token":"a\\"}',
      '{"token":"a\\\\"}',
      '{"token":"}',
      '{"token":"\u0001"}',
      '{"token":"\\x"}',
      '{"text":"x"}',
      '{"delta":"d"}',
      '{"data":"x"}',
      '{"error":"x"}',
      '{"thinking":"x"}',
      '{"type":"x"}',
      '{"zzq":"x"}',
      '{"tok\\"en":"x"}',
      '{"token":"é🚀"}',
      '{"token":"\\ud83d\\ude80"}',
      ' {"token":"a"} ',
      '{"token":"a"}x',
      '{"response":"r","done":true}',
      '{"token":1}',
      '{"token":"x\\u0041"}',
      '{"":"x"}',
    ];
    for (const data of cases) {
      // `{ ` instead of `{` takes the general path for the same JSON value.
      const t = data.trim();
      const outcome = (read: () => { pieces: InferencePiece[]; ends: boolean }) => {
        try {
          return read();
        } catch (e) {
          return e instanceof ContractError ? 'ContractError' : e instanceof ServerError ? 'ServerError' : e;
        }
      };
      const general = (jsonOnly: boolean) =>
        outcome(() => {
          const spaced = `{ ${t.slice(1)}`;
          const got = readAlone(spaced, jsonOnly, '', known);
          // Not JSON: the data itself is the text, as written.
          return got.pieces.length === 1 && got.pieces[0]!.text === spaced ? { pieces: [answer(data)], ends: got.ends } : got;
        });
      const fast = (jsonOnly: boolean) => outcome(() => readAlone(data, jsonOnly, '', known));
      assert.deepEqual(fast(false), general(false), data);
      assert.deepEqual(fast(true), general(true), data);
    }
  });
});

describe('answer text: generated answers (seeded)', () => {
  // Names the reader does not list: it must find the text by where it stands.
  const SYLLABLES = ['zo', 'ka', 'mi', 'ru', 'te', 'ne', 'vo', 'li', 'sa', 'qu'];
  const REASONING_KEYS = ['reasoning', 'thinking', 'thoughts', 'reasoning_content', 'thinkingText', 'model_reasoning'];
  const LABELS: [string, () => string][] = [
    ['model', () => 'm-7b-thinking'],
    ['id', () => 'req_12ab'],
    ['object', () => 'completion.chunk'],
    ['created_at', () => '2024-05-01T12:00:00Z'],
    ['finish_reason', () => 'stop'],
  ];

  function name(random: () => number): string {
    const n = 2 + Math.floor(random() * 3);
    return Array.from({ length: n }, () => SYLLABLES[Math.floor(random() * SYLLABLES.length)]).join('');
  }

  function wrap(value: unknown, random: () => number): unknown {
    let v = value;
    const depth = Math.floor(random() * 4);
    for (let d = 0; d < depth; d++) v = random() < 0.2 ? [v] : { [name(random)]: v };
    return v;
  }

  for (let seed = 1; seed <= 300; seed++) {
    it(`seed ${seed}: the answer, the reasoning apart, labels and numbers left out`, () => {
      const random = seededRandom(seed);
      const answerText = `Answer ${seed} is here.`;
      const reasoningText = `Thinking about ${seed} first.`;
      const withReasoning = random() < 0.6;
      const record: Record<string, unknown> = {};
      const fields: [string, unknown][] = [[name(random), answerText]];
      if (withReasoning) fields.push([REASONING_KEYS[Math.floor(random() * REASONING_KEYS.length)]!, reasoningText]);
      for (const [k, v] of LABELS) if (random() < 0.5) fields.push([k, v()]);
      if (random() < 0.5) fields.push([name(random) + '_count', Math.floor(random() * 100)]);
      if (random() < 0.3) fields.push(['usage', { tokens: 12 }]);
      fields.sort(() => random() - 0.5);
      for (const [k, v] of fields) record[k] = v;
      const body = wrap(record, random);
      try {
        assert.deepEqual(findParts(body), withReasoning ? { reasoning: reasoningText, answer: answerText } : { answer: answerText });
      } catch (e) {
        throw new Error(`seed ${seed}, body ${JSON.stringify(body)}: ${String(e)}`, { cause: e });
      }
    });
  }

  it('refuses rather than invents: bodies with no text hold no answer', () => {
    for (let seed = 1; seed <= 100; seed++) {
      const random = seededRandom(seed);
      const record: Record<string, unknown> = {};
      for (const [k, v] of LABELS) if (random() < 0.7) record[k] = v();
      record[name(random)] = Math.floor(random() * 1000);
      record[name(random)] = random() < 0.5;
      const body = wrap(record, random);
      assert.throws(() => decodeInferenceResult(body), ContractError, `seed ${seed}, body ${JSON.stringify(body)}`);
    }
  });
});
