// One answer no longer decides how every later one is read (issue 35, info): a place inferred from an answer is kept
// only once a second answer agrees (until then each answer is read by inference), a kept inferred place is inferred
// again when an answer has a stronger field than it by the inference's own ranking (never a place the person chose),
// and a service whose answers change shape at every call costs a bounded number of writes. The book here keeps what
// InferredKeeping lets it keep, as ServiceProfiles does (ServiceProfiles itself needs `vscode`: its writes are counted
// in test/suite/inferredKeeping.test.ts); the client, its readers and the emulator are the real ones.
import { strict as assert } from 'node:assert';
import { collectInference, ServiceClient } from '../../src/api/client';
import { readJobStatus } from '../../src/api/jobStatusReading';
import type { ProfileBook } from '../../src/api/profileBook';
import type { StartedJobProfile, StreamProfile } from '../../src/api/profileFormat';
import { InferredKeeping, MAX_KEEPS_PER_PART } from '../../src/connection/inferredKeeping';
import { baseRequest, emptyProfileBook, KEY, useEmulator } from './helpers';
import type { Emulator } from '../service/emulator';
import { readDownloadAnswer } from './readers';

const INFER = '/cr/provider_predict_platform_base_oss';
const EVALUATE = '/cr/finetune_model/evaluate_async';

/** A book keeping the answer, stream and started job parts as ServiceProfiles does, counting its writes. */
function keepingBook(initial: { answer?: StreamProfile; stream?: StreamProfile; startedJob?: StartedJobProfile } = {}) {
  const keeping = new InferredKeeping();
  const kept = { ...initial };
  const writes = { answer: 0, stream: 0, startedJob: 0 };
  const book: ProfileBook = emptyProfileBook({
    answer: () => kept.answer,
    readAnswer: ({ profile }) => {
      if (keeping.offer('answer', profile) !== 'keep') return;
      kept.answer = profile;
      writes.answer++;
    },
    stream: () => kept.stream,
    readStream: ({ profile }) => {
      if (keeping.offer('stream', profile) !== 'keep') return;
      kept.stream = profile;
      writes.stream++;
    },
    startedJob: () => kept.startedJob,
    readStartedJob: ({ kind, from, change }) => {
      if (change === undefined || keeping.offer(`startedJob ${kind}`, from) !== 'keep') return;
      kept.startedJob = { ...(kept.startedJob ?? { by: 'inferred' }), [kind]: from, by: 'inferred' };
      writes.startedJob++;
    },
  });
  return { book, kept, writes };
}

function clientWith(emu: Emulator, book: ProfileBook): ServiceClient {
  return new ServiceClient({ baseUrl: emu.url, apiKey: KEY, sleep: async () => undefined }, book);
}

describe('inferred places: kept once two answers agree, inferred again on a stronger field, writes bounded', function () {
  this.timeout(60_000);
  const ctx = useEmulator();
  beforeEach(() => ctx.emu.faults.clear());

  /** The service's next non-streamed answer (or stream, with its content type) is `body`. */
  const answerWith = (body: string, contentType = 'application/json') =>
    ctx.emu.faults.add({ path: INFER, kind: 'body', status: 200, times: 1, body, contentType });
  const ask = (client: ServiceClient, stream = false) =>
    collectInference(client.infer({ ...baseRequest, modelName: 'oss-reasoner-8b', stream }));

  it('a first answer with only a note does not decide how the three later ones are read', async () => {
    const { book, kept } = keepingBook();
    const client = clientWith(ctx.emu, book);
    answerWith(JSON.stringify({ note: '…', meta: { id: 'x' } }));
    assert.equal((await ask(client)).answer, '…', 'the first answer has nothing else');
    for (let i = 0; i < 3; i++) {
      answerWith(JSON.stringify({ text: 'real answer', note: '…' }));
      assert.equal((await ask(client)).answer, 'real answer', `later answer ${i + 1}`);
    }
    assert.deepEqual(kept.answer?.answer, ['text']);
  });

  it('a place two answers agree on is kept, with one write; later answers are read by it and write nothing', async () => {
    const { book, kept, writes } = keepingBook();
    const client = clientWith(ctx.emu, book);
    answerWith(JSON.stringify({ output: 'first answer', meta: { id: 'a' } }));
    await ask(client);
    assert.equal(kept.answer, undefined, 'one answer keeps nothing');
    for (let i = 0; i < 4; i++) {
      answerWith(JSON.stringify({ output: `answer ${i}`, meta: { id: `b${i}` } }));
      assert.equal((await ask(client)).answer, `answer ${i}`);
    }
    assert.deepEqual(kept.answer, { answer: ['output'], reasoning: [], by: 'inferred' });
    assert.equal(writes.answer, 1);
  });

  it('a kept inferred place is inferred again when an answer has a stronger field; a chosen one is not', async () => {
    const weak: StreamProfile = { answer: ['note'], reasoning: [], by: 'inferred' };
    const body = JSON.stringify({ text: 'real answer', note: '…' });
    const inferred = keepingBook({ answer: weak });
    answerWith(body);
    assert.equal((await ask(clientWith(ctx.emu, inferred.book))).answer, 'real answer');
    answerWith(body);
    assert.equal((await ask(clientWith(ctx.emu, inferred.book))).answer, 'real answer');
    assert.deepEqual(inferred.kept.answer?.answer, ['text'], 'kept once a second answer agreed');

    const chosen = keepingBook({ answer: { ...weak, by: 'chosen' } });
    answerWith(body);
    assert.equal((await ask(clientWith(ctx.emu, chosen.book))).answer, '…', "the person's choice is read as chosen");
    assert.equal(chosen.writes.answer, 0);
  });

  it("a stream read by a kept inferred place is inferred again on a stronger field (not the person's choice)", async () => {
    const weak: StreamProfile = { answer: ['note'], reasoning: [], by: 'inferred' };
    const events = [
      { text: 'real ', note: '…' },
      { text: 'answer', note: '…' },
    ]
      .map((e) => JSON.stringify(e))
      .join('\n');
    const inferred = keepingBook({ stream: weak });
    answerWith(events, 'application/x-ndjson');
    assert.equal((await ask(clientWith(ctx.emu, inferred.book), true)).answer, 'real answer');
    const chosen = keepingBook({ stream: { ...weak, by: 'chosen' } });
    answerWith(events, 'application/x-ndjson');
    assert.equal((await ask(clientWith(ctx.emu, chosen.book), true)).answer, '……');
  });

  it("a started job's kept inferred place gives way to the spec's job_id; a chosen place does not", async () => {
    const body = JSON.stringify({ job_id: 'eval-9', run: 'r-1', status: 'queued' });
    const startWith = () => ctx.emu.faults.add({ path: EVALUATE, kind: 'body', status: 200, times: 1, body });
    const inferred = keepingBook({ startedJob: { evaluation: 'run', by: 'inferred' } });
    startWith();
    assert.equal((await clientWith(ctx.emu, inferred.book).startEvaluation('oss-reasoner-8b', 'squad')).jobId, 'eval-9');
    const chosen = keepingBook({ startedJob: { evaluation: 'run', by: 'chosen' } });
    startWith();
    assert.equal((await clientWith(ctx.emu, chosen.book).startEvaluation('oss-reasoner-8b', 'squad')).jobId, 'r-1');
  });

  it("a download's kept inferred URL place gives way to one whose key says download; a chosen place does not", () => {
    const body = { download_url: 'https://files.example/m.gguf', repo_url: 'https://code.example/m' };
    const read = (by: 'inferred' | 'chosen') => readDownloadAnswer(body, { known: { url: 'repo_url', by } });
    const inferred = read('inferred');
    assert.equal(inferred.target.url, 'https://files.example/m.gguf');
    assert.equal(inferred.profile.url, 'download_url');
    assert.match(inferred.change ?? '', /better place/);
    assert.equal(read('chosen').target.url, 'https://code.example/m');
  });

  it("a job status's kept inferred state place gives way to one whose key says status; a chosen place does not", () => {
    const body = { status: 'failed', phase: 'cleanup' };
    const read = (by: 'inferred' | 'chosen') => readJobStatus('finetuneStatus', body, { state: 'phase', by });
    const inferred = read('inferred');
    assert.equal(inferred.read.state, 'failed');
    assert.equal(inferred.profile.state, 'status');
    assert.notEqual(read('chosen').read.state, 'failed');
  });

  it('100 answers of a service that changes shape at every call: every one read, no write', async () => {
    const { book, writes } = keepingBook();
    const client = clientWith(ctx.emu, book);
    for (let i = 0; i < 100; i++) {
      answerWith(JSON.stringify({ [`field${i}`]: `answer ${i}` }));
      assert.equal((await ask(client)).answer, `answer ${i}`);
    }
    assert.equal(writes.answer, 0);
  });

  it('100 answers of a service that changes shape at every second call: every one read, writes bounded', async () => {
    const { book, writes } = keepingBook();
    const client = clientWith(ctx.emu, book);
    for (let i = 0; i < 100; i++) {
      const field = `field${Math.floor(i / 2)}`;
      answerWith(JSON.stringify({ [field]: `answer ${i}` }));
      assert.equal((await ask(client)).answer, `answer ${i}`);
    }
    assert.ok(writes.answer <= MAX_KEEPS_PER_PART, `${writes.answer} writes`);
    assert.ok(writes.answer > 0, 'a shape two answers agree on is kept');
  });
});
