// The started job's answer (§4.3, §4.5; issue 27): `job_id`, the name the spec documents, is read by its name first;
// what the spec leaves "not shown" is inferred by the words of its key, never by whole key names. The place the id was
// found is the profile's `startedJob` part: later answers are read by it, and one it no longer fits is inferred again,
// with the change said.
import { strict as assert } from 'node:assert';
import { ContractError } from '../../src/api/errors';
import { readStartedJob } from '../../src/api/startedJob';
import { checkServiceProfile } from '../../src/api/profileFormat';
import { partLines } from '../../src/api/profileWords';
import { decodeStartedJob } from './readers';

/** OpenAI's answer to POST /v1/fine_tuning/jobs (as documented in its API reference). */
const OPENAI_FINE_TUNING_JOB = {
  object: 'fine_tuning.job',
  id: 'ftjob-abc123',
  model: 'gpt-4o-mini-2024-07-18',
  created_at: 1721764800,
  fine_tuned_model: null,
  organization_id: 'org-123',
  result_files: [],
  status: 'queued',
  validation_file: null,
  training_file: 'file-abc123',
  method: {
    type: 'supervised',
    supervised: { hyperparameters: { batch_size: 'auto', learning_rate_multiplier: 'auto', n_epochs: 'auto' } },
  },
  metadata: null,
};

/** A Google long-running operation (Vertex AI tuning): the operation's name is what is polled. */
const GOOGLE_OPERATION = {
  name: 'projects/acme-ml-42/locations/us-central1/operations/8241177033124954112',
  metadata: {
    '@type': 'type.googleapis.com/google.cloud.aiplatform.v1.CreateTuningJobOperationMetadata',
    genericMetadata: { createTime: '2026-11-27T03:00:00.123Z', updateTime: '2026-11-27T03:00:00.123Z' },
  },
};

/** Hugging Face Jobs' answer to starting a job: the job's id beside its owner's id and its hardware flavour. */
const HUGGING_FACE_JOB = {
  id: '6745a1b2c3d4e5f6a7b8c9d0',
  owner: { id: '5f0c1a2b3c4d5e6f7a8b9c0d', name: 'acme', type: 'org' },
  flavor: 'a10g-small',
  dockerImage: 'ghcr.io/astral-sh/uv:python3.12-bookworm',
  status: { stage: 'RUNNING', message: null },
  createdAt: '2026-11-27T03:00:00.000Z',
};

describe('started job: the id the spec documents, else by the words of its key', () => {
  it('job_id is read by its name: {"job_id":"qa-gen-alpha","user":"u_123"} gives qa-gen-alpha, not u_123', () => {
    assert.equal(decodeStartedJob({ job_id: 'qa-gen-alpha', user: 'u_123' }).jobId, 'qa-gen-alpha');
    assert.equal(decodeStartedJob({ data: { job_id: 'qa-gen-alpha', user: 'u_123', node: 'n7' } }).jobId, 'qa-gen-alpha');
  });

  it("OpenAI's fine-tuning answer: `id` beside organization_id and training_file is the job's id", () => {
    const sent = ['my-model', 'gpt-4o-mini-2024-07-18', 'pretraining', '', '50', 'handbook.pdf'];
    assert.equal(decodeStartedJob(OPENAI_FINE_TUNING_JOB, { status: 200, sent }).jobId, 'ftjob-abc123');
    assert.equal(decodeStartedJob(OPENAI_FINE_TUNING_JOB).jobId, 'ftjob-abc123', 'even when the model is not known as sent');
  });

  it("Hugging Face's job: the job's id, not its owner's id nor its hardware flavour", () => {
    assert.equal(decodeStartedJob(HUGGING_FACE_JOB).jobId, '6745a1b2c3d4e5f6a7b8c9d0');
  });

  it("the answer's own id over a nested record's, an id without a digit included", () => {
    assert.equal(decodeStartedJob({ id: 'qa-gen-alpha', owner: { id: 'o_123', name: 'acme' } }).jobId, 'qa-gen-alpha');
    assert.equal(decodeStartedJob({ request_id: 'req_8f3a', data: { id: 'gen-beta' } }).jobId, 'gen-beta');
  });

  it("a Google operation: its name, not the metadata's type", () => {
    assert.equal(decodeStartedJob(GOOGLE_OPERATION).jobId, GOOGLE_OPERATION.name);
  });

  it("AWS: the job's ARN", () => {
    const arn = 'arn:aws:bedrock:us-east-1:123456789012:model-customization-job/amazon.titan-text-express-v1:0:8k/abc123xyz';
    assert.equal(decodeStartedJob({ jobArn: arn }).jobId, arn);
  });

  it("the emulator's own shapes: flat, nested two levels, and only a Location header", () => {
    assert.equal(decodeStartedJob({ job_id: 'f0e1d2c3', status: 'queued' }).jobId, 'f0e1d2c3');
    assert.equal(decodeStartedJob({ accepted: true, result: { job: { ref: 'gen-41', status: 'queued' } } }).jobId, 'gen-41');
    assert.equal(decodeStartedJob('', { status: 202, location: '/cr/generate_questions_status?job_id=gen-9' }).jobId, 'gen-9');
  });

  it('two ids the words of their keys do not tell apart are still refused', () => {
    assert.throws(() => decodeStartedJob({ a: 'x-1', b: 'y-2' }), ContractError);
    assert.throws(() => decodeStartedJob({ id: 'x-1', ref: 'y-2' }), ContractError);
  });
});

describe('started job: the profile part', () => {
  it('says where the id was found, and reads a later answer by it alone', () => {
    const first = readStartedJob({ accepted: true, result: { job: { ref: 'gen-41', status: 'queued' } } }, {}, undefined);
    assert.deepEqual([first.job.jobId, first.from], ['gen-41', 'result.job.ref']);
    assert.match(first.change ?? '', /result\.job\.ref/);
    // A later answer, with an id the inference would not pick (no digit, beside another): read by the profile.
    const later = readStartedJob({ accepted: true, result: { job: { ref: 'alpha', status: 'queued' } }, node: 'n-7' }, {}, first.from);
    assert.deepEqual([later.job.jobId, later.from, later.change], ['alpha', 'result.job.ref', undefined]);
  });

  it('an answer the profile no longer fits is inferred again, and the change is said', () => {
    const moved = readStartedJob({ data: { jobId: 'j-2' } }, {}, 'result.job.ref');
    assert.deepEqual([moved.job.jobId, moved.from], ['j-2', 'data.jobId']);
    assert.match(moved.change ?? '', /no longer fits.*result\.job\.ref.*data\.jobId/);
    // A value at the kept place that is no id (a state word, a value the request sent) does not fit either.
    assert.equal(readStartedJob({ ref: 'queued', jobId: 'j-3' }, {}, 'ref').job.jobId, 'j-3');
    assert.equal(readStartedJob({ ref: 'my-model', jobId: 'j-4' }, { sent: ['my-model'] }, 'ref').job.jobId, 'j-4');
  });

  it('the Location header is a place too', () => {
    const first = readStartedJob('', { status: 202, location: '/v2/evaluations/eval-4411' }, undefined);
    assert.deepEqual([first.job.jobId, first.from], ['eval-4411', 'Location header']);
    const later = readStartedJob('', { status: 202, location: '/v2/evaluations/eval-4412' }, first.from);
    assert.deepEqual([later.job.jobId, later.change], ['eval-4412', undefined]);
  });

  it('is checked when stored or written in the setting, and said in words', () => {
    const ok = checkServiceProfile({ startedJob: { finetune: 'result.job.ref', evaluation: 'Location header' } }, 'setting');
    assert.ok('value' in ok, JSON.stringify(ok));
    assert.deepEqual(ok.value.startedJob, { finetune: 'result.job.ref', evaluation: 'Location header', by: 'setting' });
    for (const bad of [{ finetune: 'a..b' }, { finetune: 3 }, { other: 'x' }, 'result.job.ref']) {
      assert.ok('problem' in checkServiceProfile({ startedJob: bad }), JSON.stringify(bad));
    }
    const lines = partLines('startedJob', ok.value.startedJob).join('\n');
    assert.match(lines, /finetuning job.*result\.job\.ref/);
    assert.match(lines, /evaluation.*Location header/);
  });
});
