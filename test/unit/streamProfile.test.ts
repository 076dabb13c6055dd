// The stream profile (issue 27): inferred from a run's first events, kept per service, read by in later runs without
// re-guessing and without holding an event back, inferred again (and said so) when a run no longer fits it.
import { strict as assert } from 'node:assert';
import { collectInference, ServiceClient } from '../../src/api/client';
import { mergePieces, type InferencePiece } from '../../src/api/answerText';
import { describeStreamProfile } from '../../src/api/profileWords';
import type { ProfileBook } from '../../src/api/profileBook';
import { checkPart, checkServiceProfile, type StreamProfile } from '../../src/api/profileFormat';
import { createDecoder, decodePieces } from '../../src/api/stream';
import { StreamReading, type StreamReport } from '../../src/api/streamReading';
import { composeAnswer, composeReasoning } from '../service/inference';
import { anthropicSse, gemini, ndjsonOf, ollama, openAiChat, openAiResponses, sseOf } from './capturedStreams';
import { baseRequest, emptyProfileBook, KEY, useEmulator } from './helpers';

const answer = (text: string): InferencePiece => ({ kind: 'answer', text });
const reasoning = (text: string): InferencePiece => ({ kind: 'reasoning', text });

async function run(body: string, contentType: string, known?: StreamProfile): Promise<{ pieces: InferencePiece[]; report?: StreamReport }> {
  const reading = new StreamReading(known);
  async function* source(): AsyncGenerator<Uint8Array> {
    yield Buffer.from(body);
  }
  const out: InferencePiece[] = [];
  for await (const p of decodePieces(source(), { contentType, reading })) out.push(p);
  return { pieces: mergePieces(out), report: reading.report() };
}

const CAPTURED: [string, string, string][] = [
  ['OpenAI Chat Completions', sseOf(openAiChat(), true), 'text/event-stream'],
  ['OpenAI Responses', sseOf(openAiResponses()), 'text/event-stream'],
  ['Anthropic Messages', anthropicSse(), 'text/event-stream'],
  ['Gemini', sseOf(gemini()), 'text/event-stream'],
  ['Ollama', ndjsonOf(ollama()), 'application/x-ndjson'],
];

describe('stream profile: inferred once, then read by', () => {
  for (const [name, body, type] of CAPTURED) {
    it(`${name}: the first run infers a profile the setting would accept; a second run reads by it alike, with no change`, async () => {
      const first = await run(body, type);
      assert.ok(first.report, 'the first run reports the profile it inferred');
      assert.match(first.report.change, /^Stream events: /);
      const checked = checkPart('stream', JSON.parse(JSON.stringify(first.report.profile)));
      assert.ok('value' in checked, JSON.stringify(checked));
      const second = await run(body, type, checked.value);
      assert.deepEqual(second.pieces, first.pieces);
      assert.equal(second.report, undefined, 'no re-guessing: the kept profile read every event');
    });
  }

  it('the profiles say where the text is, in words', async () => {
    const words = async (body: string, type: string) => describeStreamProfile((await run(body, type)).report!.profile);
    assert.equal(
      await words(sseOf(openAiChat()), 'text/event-stream'),
      'text at choices[].delta.content; reasoning at choices[].delta.reasoning_content',
    );
    assert.equal(
      await words(sseOf(gemini()), 'text/event-stream'),
      'text at candidates[].content.parts[].text; reasoning marked by thought: true → reasoning',
    );
    assert.equal(
      await words(sseOf(openAiResponses()), 'text/event-stream'),
      'text at delta; reasoning marked by type: response.reasoning_summary_text.delta → reasoning, response.output_text.delta → answer',
    );
  });

  it('with the kept profile, each event shows when it arrives (no event is held to decide)', () => {
    // Alone, a field named like nothing is read only once a second event shows it varies; by the profile, at once.
    const events = [{ zq: 'Hi' }, { zq: ' there' }].map((e) => Buffer.from(`data: ${JSON.stringify(e)}\n\n`));
    const perPush = (known?: StreamProfile): InferencePiece[][] => {
      const dec = createDecoder({ contentType: 'text/event-stream', reading: new StreamReading(known) });
      return [...events.map((e) => dec.push(e)), dec.end()];
    };
    assert.deepEqual(perPush(), [[], [answer('Hi'), answer(' there')], []]);
    assert.deepEqual(perPush({ answer: ['zq'], reasoning: [], by: 'inferred' }), [[answer('Hi')], [answer(' there')], []]);
  });

  it('reasoning shows as it arrives while an echo of the request is still undecided', () => {
    // One echo event (no second one to show it constant), then reasoning for a long while before any answer.
    const [created, , ...rest] = openAiResponses() as Record<string, unknown>[];
    const events = [created, ...rest.filter((e) => e.type === 'response.reasoning_summary_text.delta')];
    const dec = createDecoder({ contentType: 'text/event-stream', reading: new StreamReading() });
    const perPush = events.map((e) => dec.push(Buffer.from(`data: ${JSON.stringify(e)}\n\n`)));
    assert.deepEqual(perPush, [[], [reasoning('**Greeting** the user')], [reasoning(' warmly.')]]);
  });

  it('a run the profile no longer fits is inferred again, and the change says from what to what', async () => {
    const known: StreamProfile = { answer: ['token'], reasoning: [], by: 'inferred' };
    const got = await run(sseOf(openAiChat(), true), 'text/event-stream', known);
    assert.deepEqual(got.pieces, [reasoning('The user wants a greeting.'), answer('Hello there!')]);
    assert.equal(
      got.report?.change,
      "The stream's events no longer fit how they were read (text at token); now: text at token or choices[].delta.content; reasoning at choices[].delta.reasoning_content",
    );
  });

  it('a flag value the profile has not met is read by its words, and kept', async () => {
    const known: StreamProfile = {
      answer: ['delta'],
      reasoning: [],
      flag: { from: 'type', map: { 'response.output_text.delta': 'answer' } },
      by: 'inferred',
    };
    const body = sseOf([
      { type: 'response.reasoning_text.delta', delta: 'Plan' },
      { type: 'response.output_text.delta', delta: 'Hi' },
    ]);
    const got = await run(body, 'text/event-stream', known);
    assert.deepEqual(got.pieces, [reasoning('Plan'), answer('Hi')]);
    assert.deepEqual(got.report?.profile.flag?.map, {
      'response.output_text.delta': 'answer',
      'response.reasoning_text.delta': 'reasoning',
    });
  });

  it('the setting may hold a stream part, checked field by field', () => {
    const ok = checkServiceProfile(
      { stream: { answer: ['choices[0].delta.content'], reasoning: [], flag: { from: 'thought', map: { true: 'reasoning' } } } },
      'setting',
    );
    assert.ok('value' in ok && ok.value.stream?.by === 'setting');
    for (const bad of [
      { answer: [], reasoning: [] },
      { answer: ['a'], reasoning: [], extra: 1 },
      { answer: ['a..b'], reasoning: [] },
      { answer: 'a', reasoning: [] },
      { answer: ['a'], reasoning: [], flag: { from: 'type', map: { x: 'maybe' } } },
    ]) {
      assert.ok('problem' in checkPart('stream', bad), JSON.stringify(bad));
    }
  });
});

describe('stream profile: kept per service by the client', () => {
  const ctx = useEmulator({ tokenIntervalMs: 0 });

  it('the first streamed run reports its profile once; a run with it kept reports nothing', async () => {
    ctx.emu.configure({ reasoning: 'field' });
    let kept: StreamProfile | undefined;
    const reports: StreamReport[] = [];
    const book: ProfileBook = emptyProfileBook({
      stream: () => kept,
      readStream: (r) => {
        reports.push(r);
        kept = r.profile;
      },
      answer: () => undefined,
      readAnswer: () => undefined,
    });
    const client = new ServiceClient({ baseUrl: ctx.emu.url, apiKey: KEY }, book);
    const request = { ...baseRequest, modelName: 'oss-reasoner-8b', prompt: 'Think hard about caching.', stream: true };
    const want = { reasoning: composeReasoning(request), answer: composeAnswer(request) };
    assert.deepEqual(await collectInference(client.infer(request)), want);
    assert.equal(reports.length, 1);
    assert.equal(reports[0]!.change, 'Stream events: text at token; reasoning at reasoning');
    assert.deepEqual(await collectInference(client.infer(request)), want);
    assert.equal(reports.length, 1, 'the kept profile fits: nothing to report');
  });

  it('a non-streamed answer too: its profile is reported once, then read by', async () => {
    ctx.emu.configure({ reasoning: 'field' });
    let kept: StreamProfile | undefined;
    const reports: StreamReport[] = [];
    const book: ProfileBook = emptyProfileBook({
      stream: () => undefined,
      readStream: () => assert.fail('a non-streamed answer is no stream'),
      answer: () => kept,
      readAnswer: (r) => {
        reports.push(r);
        kept = r.profile;
      },
    });
    const client = new ServiceClient({ baseUrl: ctx.emu.url, apiKey: KEY }, book);
    const request = { ...baseRequest, modelName: 'oss-reasoner-8b', prompt: 'Think hard about caching.', stream: false };
    const want = { reasoning: composeReasoning(request), answer: composeAnswer(request) };
    assert.deepEqual(await collectInference(client.infer(request)), want);
    assert.equal(reports.length, 1);
    assert.match(reports[0]!.change, /^Answers \(not streamed\): /);
    assert.deepEqual(await collectInference(client.infer(request)), want);
    assert.equal(reports.length, 1, 'the kept profile fits: nothing to report');
  });
});
