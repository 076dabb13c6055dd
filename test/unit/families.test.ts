// API families as data (src/api/families.ts): every family reading is a profile part the format accepts, and the
// emulator's answers in each family's style (test/service/styles.ts) are read by the family's reading, not by what
// the inference makes of them. Where the inference alone reads an answer otherwise, that difference is asserted too
// (the family removed for the comparison, then put back).
import { strict as assert } from 'node:assert';
import { FAMILY_DATA, FAMILY_READINGS, familyFor, familyProblem } from '../../src/api/families';
import { readJobStatus } from '../../src/api/jobStatusReading';
import { checkPart, type PartName } from '../../src/api/profileFormat';
import { readStartedJob } from '../../src/api/startedJob';
import { decodeInferenceResult } from '../../src/api/answerText';
import { StreamReading } from '../../src/api/streamReading';
import {
  madeModelName,
  styledAnswer,
  styledStream,
  newFinetuneJobId,
  styledDownload,
  styledFinetuneStart,
  styledFinetuneStatus,
  styledModelList,
  type ServiceShape,
  type StyledJob,
} from '../service/styles';
import { readDownloadAnswer, readModelList } from './readers';

const NOW = Date.parse('2026-11-28T12:00:00Z');

/** The profile a family's reading of `part` is, as read (the family's name and reading looked up in the data). */
function familyProfile(family: string, part: PartName, nth = 0): unknown {
  const row = FAMILY_DATA.filter((r) => r.family === family && r.part === part)[nth];
  assert.ok(row, `${family} has a reading of ${part}`);
  const checked = checkPart(part, structuredClone(row.reading), 'inferred');
  assert.ok('value' in checked);
  return checked.value;
}

/** `read` with the reading of a family's part changed in the data (then put back). */
function withReading<T>(family: string, part: PartName, reading: object, read: () => T): T {
  const row = FAMILY_READINGS.find((r) => r.family === family && r.part === part)!;
  const index = FAMILY_READINGS.indexOf(row);
  FAMILY_READINGS[index] = { ...row, reading };
  try {
    return read();
  } finally {
    FAMILY_READINGS[index] = row;
  }
}

/** `read` with no family known: what the inference alone makes of the answer. */
function inferenceAlone<T>(read: () => T): T {
  const saved = FAMILY_READINGS.splice(0);
  try {
    return read();
  } finally {
    FAMILY_READINGS.push(...saved);
  }
}

function job(shape: ServiceShape, status: StyledJob['status'], ranMs = 60_000): StyledJob {
  const id = newFinetuneJobId(shape, '123e4567-e89b-12d3-a456-426614174000');
  const made = madeModelName(shape, { id, modelName: 'mine', baseModel: 'oss-reasoner-8b' }) ?? 'mine';
  return {
    id,
    modelName: 'mine',
    baseModel: 'oss-reasoner-8b',
    numQs: 4,
    status,
    createdAt: NOW - ranMs,
    updatedAt: NOW,
    exporting: false,
    error: status === 'failed' ? 'bad file' : undefined,
    files: [],
    madeName: made,
  };
}

const ARTIFACT = {
  model: 'mine',
  url: 'https://storage.example.com/a/mine.gguf?sig=1',
  expiresAt: NOW + 3_600_000,
  size: 1234,
  sha256: 'a'.repeat(64),
  filename: 'mine.gguf',
  md5Base64: '1B2M2Y8AsgTpgAmY7PhCfg==',
  crc32cBase64: 'AAAAAA==',
};

const REQUEST = {
  prompt: 'What does a cache buy you?',
  modelName: 'm',
  stream: false,
  useRag: false,
  sequentialBudget: 1,
  parallelBudget: 1,
  temperature: 0.5,
};

/** A non-streamed answer in the style read with nothing known: its pieces and the profile the run reports. */
function answerRead(shape: ServiceShape) {
  const body = styledAnswer(shape, REQUEST, 'The answer.', 'Some reasoning.', { prompt: 3, completion: 5 });
  const run = new StreamReading(undefined, [REQUEST.prompt], 'answer');
  return { pieces: decodeInferenceResult(body, true, run), profile: run.report()?.profile };
}

/** A stream in the style (SSE), a reasoning token then two answer tokens, read event by event with nothing known. */
function streamRead(shape: ServiceShape) {
  const framer = styledStream(shape, 'sse', { ...REQUEST, stream: true })!;
  const frames = [
    ...framer.open(),
    ...framer.token('Think', 0, 3, true),
    ...framer.token('Hello', 1, 3, false),
    ...framer.token(' world', 2, 3, false),
    ...framer.close(),
  ];
  const run = new StreamReading(undefined, [REQUEST.prompt]);
  const pieces = [];
  for (const line of frames.join('').split(/\r?\n/)) {
    const data = line.startsWith('data:') ? line.slice(5).trim() : '';
    if (data === '' || data === '[DONE]') continue;
    pieces.push(...run.read(JSON.parse(data), false, data.length));
  }
  pieces.push(...run.end());
  return { pieces, profile: run.report()?.profile };
}

const READ = [
  { kind: 'reasoning', text: 'Think' },
  { kind: 'answer', text: 'Hello' },
  { kind: 'answer', text: ' world' },
];

describe('API families as data', () => {
  it('every family reading is a part the profile format accepts, with marks that are paths', () => {
    assert.ok(FAMILY_DATA.length > 0);
    for (const row of FAMILY_DATA) assert.equal(familyProblem(row), undefined, `${row.family} ${row.part}`);
    assert.equal(FAMILY_READINGS.length, FAMILY_DATA.length);
  });

  it('a family reading the format refuses is said why (and left out at load)', () => {
    const row = FAMILY_DATA[0]!;
    assert.match(familyProblem({ ...row, reading: { finetune: 'a..b' } }) ?? '', /startedJob\.finetune is not a path/);
    assert.match(familyProblem({ ...row, marks: { 'a..b': 'x' } }) ?? '', /not a path/);
    assert.match(familyProblem({ ...row, marks: {} }) ?? '', /has no mark/);
    assert.match(familyProblem({ ...row, colour: 'red' }) ?? '', /unknown field "colour"/);
  });

  it('an answer without the marks of a family is left to the inference', () => {
    assert.equal(
      familyFor('finetuneStatus', { status: 'running' }, () => true),
      undefined,
    );
    const list = { object: 'list', data: [{ id: 'a-1', object: 'model' }] };
    assert.equal(
      familyFor('modelList', list, () => true),
      undefined,
    );
  });

  describe('OpenAI', () => {
    it('a fine_tuning.job start answer: the id is read where the family says', () => {
      const body = styledFinetuneStart('openai-like', job('openai-like', 'queued'), 'org-1');
      assert.equal(familyFor('startedJob', body, () => true)?.family, 'OpenAI');
      const r = readStartedJob(body, { status: 200, sent: ['mine', 'oss-reasoner-8b'] });
      assert.deepEqual(
        [r.from, r.job.jobId],
        [(familyProfile('OpenAI', 'startedJob') as { finetune: string }).finetune, job('openai-like', 'queued').id],
      );
    });

    it('a fine_tuning.job status, every state: read by the family', () => {
      const family = familyProfile('OpenAI', 'finetuneStatus');
      for (const status of ['queued', 'extracting', 'training', 'completed', 'failed'] as const) {
        const body = styledFinetuneStatus('openai-like', job('openai-like', status), 50, 'org-1');
        const r = readJobStatus('finetuneStatus', body);
        assert.deepEqual(r.profile, family, status);
      }
      // The data, not the inference, reads it: a reading changed in the data shows through as it is.
      const body = styledFinetuneStatus('openai-like', job('openai-like', 'training'), 50, 'org-1');
      const changed = withReading('OpenAI', 'finetuneStatus', { state: 'status', message: 'method.type' }, () =>
        readJobStatus('finetuneStatus', body),
      );
      assert.deepEqual(changed.profile, { state: 'status', message: 'method.type', by: 'inferred' });
      assert.equal(changed.read.message, 'Supervised');
    });

    it('a download answer: read where the family says', () => {
      const body = styledDownload('openai-like', ARTIFACT, 3_600_000);
      const r = readDownloadAnswer(body, { now: NOW });
      assert.deepEqual(r.profile, familyProfile('OpenAI', 'download'));
      assert.equal(familyFor('download', body, () => true)?.family, 'OpenAI');
      assert.equal(r.target.url, ARTIFACT.url);
    });

    it('a chat.completion and its chunks: read by the family, the data showing through when changed', () => {
      const answer = answerRead('openai-like');
      assert.deepEqual(answer.profile, familyProfile('OpenAI', 'answer'));
      assert.deepEqual(answer.pieces, [
        { kind: 'reasoning', text: 'Some reasoning.' },
        { kind: 'answer', text: 'The answer.' },
      ]);
      const stream = streamRead('openai-like');
      assert.deepEqual([stream.profile, stream.pieces], [familyProfile('OpenAI', 'stream'), READ]);
      // Paths written with an index, as the inference never writes them: the data, not the inference, reads the run.
      const indexed = { answer: ['choices[0].delta.content'], reasoning: ['choices[0].delta.reasoning_content'] };
      const changed = withReading('OpenAI', 'stream', indexed, () => streamRead('openai-like'));
      assert.deepEqual([changed.profile, changed.pieces], [{ ...indexed, by: 'inferred' }, READ]);
      const message = { answer: ['choices[0].message.content'], reasoning: ['choices[0].message.reasoning_content'] };
      assert.deepEqual(withReading('OpenAI', 'answer', message, () => answerRead('openai-like')).profile, { ...message, by: 'inferred' });
    });

    it('the model list is left to the inference: its owned_by names the organization', () => {
      const body = styledModelList('openai-like', [{ model_name: 'oss-reasoner-8b', type: 'base' }] as never, 'org-1');
      assert.equal(
        familyFor('modelList', body, () => true),
        undefined,
      );
    });
  });

  describe('Google', () => {
    const models = [
      { model_name: 'oss-reasoner-8b', type: 'base', created_at: '2026-11-01T00:00:00Z' },
      { model_name: 'tunedModels/mine-12345', type: 'custom', base_model: 'oss-reasoner-8b', created_at: '2026-11-02T00:00:00Z' },
    ];

    it('a list of models and tuned models, and one of models alone: each read by the family reading that fits it', () => {
      const both = styledModelList('google-like', models as never, 'org-1');
      assert.deepEqual(readModelList(both).profile, familyProfile('Google', 'modelList', 0));
      const baseOnly = styledModelList('google-like', models.slice(0, 1) as never, 'org-1');
      assert.deepEqual(readModelList(baseOnly).profile, familyProfile('Google', 'modelList', 1));
      assert.deepEqual(
        readModelList(both).models.map((m) => `${m.name}:${m.kind}:${m.baseModel ?? ''}`),
        ['models/oss-reasoner-8b:base:', 'tunedModels/mine-12345:custom:models/oss-reasoner-8b'],
      );
    });

    it('a createTunedModel operation: its name is the id', () => {
      const body = styledFinetuneStart('google-like', job('google-like', 'queued'), 'org-1');
      assert.equal(familyFor('startedJob', body, () => true)?.family, 'Google');
      assert.equal(readStartedJob(body, { status: 200 }).job.jobId, `operations/${job('google-like', 'queued').id}`);
    });

    it('the operation, every state: read by the family from the first, queued answer on (the inference alone read only its state and model)', () => {
      const family = familyProfile('Google', 'finetuneStatus');
      for (const status of ['queued', 'training', 'completed', 'failed'] as const) {
        const body = styledFinetuneStatus('google-like', job('google-like', status), status === 'queued' ? 0 : 70, 'org-1');
        assert.deepEqual(readJobStatus('finetuneStatus', body).profile, family, status);
      }
      const queued = styledFinetuneStatus('google-like', job('google-like', 'queued'), 0, 'org-1');
      assert.notDeepEqual(inferenceAlone(() => readJobStatus('finetuneStatus', queued)).profile, family);
      const failed = readJobStatus('finetuneStatus', styledFinetuneStatus('google-like', job('google-like', 'failed'), 50, 'org-1'));
      assert.deepEqual([failed.read.state, failed.read.error], ['failed', 'bad file']);
    });

    it('generateContent and its stream: parts read by the family, thought parts as reasoning', () => {
      const answer = answerRead('google-like');
      assert.deepEqual(answer.profile, familyProfile('Google', 'answer'));
      assert.deepEqual(answer.pieces, [
        { kind: 'reasoning', text: 'Some reasoning.' },
        { kind: 'answer', text: 'The answer.' },
      ]);
      const stream = streamRead('google-like');
      assert.deepEqual([stream.profile, stream.pieces], [familyProfile('Google', 'stream'), READ]);
    });

    it('a Cloud Storage object: read where the family says', () => {
      const body = styledDownload('google-like', ARTIFACT, 3_600_000);
      const r = readDownloadAnswer(body, { now: NOW });
      assert.deepEqual(r.profile, familyProfile('Google', 'download'));
      assert.deepEqual([r.target.url, r.target.size], [ARTIFACT.url, ARTIFACT.size]);
    });
  });
});
