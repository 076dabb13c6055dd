// Choose How to Read… for an inference answer and a download answer (issue 27, item 2): the client hands the body it
// could not read to its ProfileBook (a streamed run its first events), marks the error as one a person can choose for,
// and a choice made from that body (the kind's `choices`, answerKinds.ts) is a profile part that then reads it.
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import { ServiceClient, collectInference } from '../../src/api/client';
import { choicesOf, type ChoiceField } from '../../src/api/answerKinds';
import type { ProfileBook } from '../../src/api/profileBook';
import type { DownloadProfile, StreamProfile } from '../../src/api/profileFormat';
import { partLines } from '../../src/api/profileWords';
import { baseRequest, emptyProfileBook, KEY, tempDir, useEmulator } from './helpers';

const field = (path: string): ChoiceField => ({ path, samples: [], types: ['text'] });
/** The text fields Choose How to Read… offers for an inference answer's text (its kind's choices). */
const answerChoiceFields = (part: 'answer' | 'stream', body: unknown) => choicesOf(part).fields('answer', { body, allowHttp: false });
/** The part a person's picks make, nothing kept before: the answer's text, and the reasoning's or none. */
const chosenAnswerProfile = (answer: string, reasoning?: string): StreamProfile | undefined =>
  choicesOf('answer').make({ fields: { answer: field(answer), reasoning: reasoning === undefined ? null : field(reasoning) } }, undefined, {
    body: undefined,
    allowHttp: false,
  });
/** The URLs Choose How to Read… offers for a download answer (its kind's choices). */
const downloadUrlFields = (body: unknown, allowHttp: boolean) => choicesOf('download').fields('url', { body, allowHttp });
/** The download part a person's choice of URL makes; undefined when that place holds no URL the client may use. */
const chosenDownloadProfile = (body: unknown, url: string, allowHttp: boolean): DownloadProfile | undefined =>
  choicesOf('download').make({ fields: { url: field(url) } }, undefined, { body, allowHttp });

/** Two texts and nothing to tell which is the answer: no reader can decide, and none guesses. */
const TIED = { first: 'The cache keeps the hot keys in memory.', second: 'Nobody knows which of these is the answer.' };
const INFER_PATH = '/cr/provider_predict_platform_base_oss';

function clientWith(url: string, book: ProfileBook): ServiceClient {
  return new ServiceClient(
    {
      baseUrl: url,
      apiKey: KEY,
      sleep: async () => undefined,
      timeouts: { requestMs: 5_000, streamIdleMs: 2_000, connectMs: 5_000, uploadIdleMs: 10_000 },
    },
    book,
  );
}

describe('an inference answer nothing can read: handed over, chosen, then read', function () {
  this.timeout(30_000);
  const ctx = useEmulator({ tokenIntervalMs: 0 });
  beforeEach(() => ctx.emu.faults.clear());

  it('a non-streamed answer: its body goes to the book, the error says it can be chosen, the choice reads it', async () => {
    const handed: { part: string; body: unknown }[] = [];
    const kept: { profile?: StreamProfile } = {};
    const book = emptyProfileBook({ answer: () => kept.profile, unreadableAnswer: (part, body) => handed.push({ part, body }) });
    const client = clientWith(ctx.emu.url, book);
    ctx.emu.faults.add({ path: INFER_PATH, kind: 'body', status: 200, body: JSON.stringify(TIED), times: 2 });
    const request = { ...baseRequest, modelName: 'oss-reasoner-8b', stream: false };
    await assert.rejects(collectInference(client.infer(request)), (e: { kind?: string; choosable?: string }) => {
      assert.equal(e.kind, 'contract');
      assert.equal(e.choosable, 'answer');
      return true;
    });
    assert.deepEqual(handed, [{ part: 'answer', body: TIED }]);

    const fields = answerChoiceFields('answer', handed[0]!.body);
    assert.deepEqual(
      fields.map((f) => f.path),
      ['first', 'second'],
    );
    kept.profile = chosenAnswerProfile(fields[0]!.path);
    assert.deepEqual(kept.profile, { answer: ['first'], reasoning: [], by: 'chosen' });
    assert.deepEqual(await collectInference(client.infer(request)), { reasoning: '', answer: TIED.first });
  });

  it('a text-generation-inference answer (its text twice: whole, and as tokens) is a tie handed over once, then read by the choice kept', async () => {
    // The shape: `details.tokens` of `{text}` records, ending with the special end token: the two texts differ,
    // and nothing says which is the answer.
    const tgi = {
      generated_text: 'Caching keeps hot keys close.',
      details: {
        finish_reason: 'eos_token',
        generated_tokens: 6,
        tokens: ['Caching', ' keeps', ' hot', ' keys', ' close.', '</s>'].map((text) => ({
          text,
          logprob: -0.5,
          special: text === '</s>',
        })),
      },
    };
    const handed: { part: string; body: unknown }[] = [];
    const reports: string[] = [];
    const kept: { profile?: StreamProfile } = {};
    const book = emptyProfileBook({
      answer: () => kept.profile,
      readAnswer: (r) => reports.push(r.change),
      unreadableAnswer: (part, body) => handed.push({ part, body }),
    });
    const client = clientWith(ctx.emu.url, book);
    ctx.emu.faults.add({ path: INFER_PATH, kind: 'body', status: 200, body: JSON.stringify(tgi), times: 3 });
    const request = { ...baseRequest, modelName: 'oss-reasoner-8b', stream: false };
    await assert.rejects(collectInference(client.infer(request)), (e: { kind?: string; choosable?: string }) => {
      assert.equal(e.kind, 'contract');
      assert.equal(e.choosable, 'answer');
      return true;
    });
    assert.deepEqual(handed, [{ part: 'answer', body: tgi }]);
    assert.deepEqual(reports, [], 'nothing was read, so nothing is kept');
    const fields = answerChoiceFields('answer', tgi).map((f) => f.path);
    assert.ok(fields.includes('generated_text') && fields.includes('details.tokens[].text'), fields.join(', '));
    kept.profile = chosenAnswerProfile('generated_text');
    for (let i = 0; i < 2; i++) {
      assert.deepEqual(await collectInference(client.infer(request)), { reasoning: '', answer: tgi.generated_text });
    }
    assert.equal(handed.length, 1, 'the choice is kept: the answer is not handed over again');
    assert.deepEqual(reports, [], 'the chosen profile reads it as it is');
  });

  it('a streamed answer: its first events (bounded) go to the book; a chosen path, relative to an event, reads them', async () => {
    const handed: { part: string; body: unknown }[] = [];
    const kept: { profile?: StreamProfile } = {};
    const book = emptyProfileBook({ stream: () => kept.profile, unreadableAnswer: (part, body) => handed.push({ part, body }) });
    const client = clientWith(ctx.emu.url, book);
    const events = Array.from({ length: 40 }, (_, i) => ({ left: `Left words ${i} say this. `, right: `Right words ${i} say that. ` }));
    const sse = events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('') + 'data: [DONE]\n\n';
    ctx.emu.faults.add({ path: INFER_PATH, kind: 'body', status: 200, body: sse, contentType: 'text/event-stream', times: 2 });
    const request = { ...baseRequest, modelName: 'oss-reasoner-8b', stream: true };
    await assert.rejects(collectInference(client.infer(request)), (e: { kind?: string; choosable?: string }) => {
      assert.equal(e.kind, 'contract');
      assert.equal(e.choosable, 'stream');
      return true;
    });
    assert.equal(handed.length, 1);
    assert.equal(handed[0]!.part, 'stream');
    const first = handed[0]!.body as unknown[];
    assert.ok(Array.isArray(first) && first.length > 0 && first.length < events.length, `${first.length} events handed over`);
    assert.deepEqual(first[0], events[0]);

    const fields = answerChoiceFields('stream', first);
    assert.deepEqual(
      fields.map((f) => f.path),
      ['left', 'right'],
    );
    kept.profile = chosenAnswerProfile('right', 'left');
    const got = await collectInference(client.infer(request));
    assert.equal(got.answer, events.map((e) => e.right).join(''));
    assert.equal(got.reasoning, events.map((e) => e.left).join(''));
  });

  it('a stream read by a kept profile it no longer fits: handed over, and not told as read after (the book keeps it unreadable)', async () => {
    // The book as the extension's is: the last answer of a part is the last told, read or not (serviceProfiles.ts).
    const told: string[] = [];
    const book: ProfileBook = {
      profile: (part) => (part === 'stream' ? { answer: ['token'], reasoning: ['reasoning'], by: 'inferred' } : undefined) as never,
      learned: (part, reading) => void (reading.body !== undefined && told.push(`read ${part}`)),
      unreadable: (part) => void told.push(`unreadable ${part}`),
    };
    const client = clientWith(ctx.emu.url, book);
    const events = Array.from({ length: 6 }, (_, i) => ({ said: `Part ${i} of the answer. `, aside: `Aside ${i} nobody asked for. ` }));
    const sse = events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('') + 'data: [DONE]\n\n';
    ctx.emu.faults.add({ path: INFER_PATH, kind: 'body', status: 200, body: sse, contentType: 'text/event-stream', times: 1 });
    await assert.rejects(collectInference(client.infer({ ...baseRequest, modelName: 'oss-reasoner-8b', stream: true })), /./);
    assert.deepEqual(told, ['unreadable stream']);
  });

  it('the fields offered are only text, and a stream’s are relative to one event', () => {
    const body = { a: { text: 'Some words here' }, n: 3, ok: true, list: [{ t: 'x y' }] };
    assert.deepEqual(
      answerChoiceFields('answer', body).map((f) => f.path),
      ['a.text', 'list[].t'],
    );
    assert.deepEqual(
      answerChoiceFields('stream', [body, body]).map((f) => f.path),
      ['a.text', 'list[].t'],
    );
    assert.deepEqual(answerChoiceFields('stream', 'not events'), []);
  });
});

describe('a download answer with no URL the client can use: handed over, chosen, then downloaded', function () {
  this.timeout(30_000);
  const ctx = useEmulator();
  const tmp = tempDir('hr-download-choice-');
  beforeEach(() => ctx.emu.faults.clear());

  it('two URLs tie: the body and the model go to the book; the chosen URL is kept with the values beside it, and it downloads and verifies', async () => {
    await ctx.emu.addCustomModel(KEY, 'choice-model');
    const meta = (await (
      await fetch(`${ctx.emu.url}/cr/finetune_model/download?model_name=choice-model&redirect=false`, { headers: { 'x-api-key': KEY } })
    ).json()) as { url: string; sha256: string; size: number };
    const body = {
      links: { primary: meta.url, mirror: 'https://mirror.example/choice-model.gguf' },
      checksum: meta.sha256,
      size: meta.size,
    };
    ctx.emu.faults.add({ path: '/cr/finetune_model/download', kind: 'body', status: 200, body: JSON.stringify(body), times: 2 });
    const handed: { body: unknown; model: string }[] = [];
    const kept: { profile?: DownloadProfile } = {};
    const book = emptyProfileBook({
      download: () => kept.profile,
      unreadableDownload: (b, model) => handed.push({ body: b, model }),
    });
    const client = clientWith(ctx.emu.url, book);
    await assert.rejects(client.download('choice-model', { directory: tmp.dir }), (e: { kind?: string; choosable?: string }) => {
      assert.equal(e.kind, 'contract');
      assert.equal(e.choosable, 'download');
      return true;
    });
    assert.deepEqual(handed, [{ body, model: 'choice-model' }]);

    const fields = downloadUrlFields(handed[0]!.body, true);
    assert.deepEqual(
      fields.map((f) => f.path),
      ['links.primary', 'links.mirror'],
    );
    kept.profile = chosenDownloadProfile(handed[0]!.body, 'links.primary', true);
    assert.deepEqual(kept.profile, { url: 'links.primary', size: 'size', sha256: 'checksum', by: 'chosen' });
    const out = await client.download('choice-model', { directory: tmp.dir });
    assert.equal(out.verified, 'sha256');
    const source = ctx.emu.artifactPath('choice-model', KEY);
    assert.ok(source);
    assert.equal(
      out.sha256,
      createHash('sha256')
        .update(await fsp.readFile(source))
        .digest('hex'),
    );
  });

  it('offers only absolute https URLs (plain http only when the service itself is, on this machine)', () => {
    const body = {
      a: 'https://storage.example/a.gguf',
      b: 'http://storage.example/b.gguf',
      c: '/relative/c.gguf',
      d: 'not a url at all',
      e: 'ftp://storage.example/e.gguf',
    };
    assert.deepEqual(
      downloadUrlFields(body, false).map((f) => f.path),
      ['a'],
    );
    assert.deepEqual(
      downloadUrlFields(body, true).map((f) => f.path),
      ['a', 'b'],
    );
    assert.deepEqual(downloadUrlFields({ n: 1, s: 'x' }, false), []);
    // A place that holds no URL the client may use makes no part (the picker then says to choose another field).
    assert.equal(chosenDownloadProfile(body, 'c', false), undefined);
    assert.equal(chosenDownloadProfile(body, 'b', false), undefined);
    assert.equal(chosenDownloadProfile(body, 'a', false)?.url, 'a');
  });
});

describe('Show How the Service Is Read names chosen places', () => {
  it('a chosen answer, stream and download part each say "as you chose it"', () => {
    const chosen = chosenAnswerProfile('right', 'left');
    assert.ok(chosen);
    assert.deepEqual(partLines('stream', chosen), ['Streamed answers: text at right; reasoning at left', '  (as you chose it)']);
    assert.deepEqual(partLines('answer', chosen), ['Answers not streamed: text at right; reasoning at left', '  (as you chose it)']);
    const download = chosenDownloadProfile({ links: { a: 'https://s.example/a', b: 'https://s.example/b' } }, 'links.b', false);
    assert.ok(download);
    assert.deepEqual(partLines('download', download), ['Download answer: URL at links.b', '  (as you chose it)']);
  });
});
