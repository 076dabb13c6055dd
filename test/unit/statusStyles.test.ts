// Job statuses in the styles of well-known cloud APIs, read at the client (issue 27, the measured misses): Google
// Vertex AI tuning jobs (`state: JOB_STATE_RUNNING`, `tunedModel`), Google long-running operations (`{name, done,
// response}`), OpenAI fine-tuning jobs, and a service that says a `phase` word and a percent as a string. Each body is
// written as that service answers; what the job is doing must be read from it, with no state word needed when the
// answer says it ended otherwise (a flag, a result, a made model that is ready, counts reaching their total).
import { strict as assert } from 'node:assert';
import { decodeEvaluationStatus, decodeFinetuneStatus } from './readers';

const VERTEX_JOB = {
  name: 'projects/881203/locations/us-central1/tuningJobs/4491823702',
  tunedModelDisplayName: 'support-bot',
  baseModel: 'gemini-1.5-flash-002',
  supervisedTuningSpec: {
    trainingDatasetUri: 'gs://acme-tuning/support/train.jsonl',
    hyperParameters: { epochCount: '4', learningRateMultiplier: 1 },
  },
  createTime: '2026-11-27T02:10:00.123456Z',
  startTime: '2026-11-27T02:11:02.456789Z',
  updateTime: '2026-11-27T02:40:00.789012Z',
};

const GEMINI_OPERATION = {
  name: 'tunedModels/support-bot-x7k2m/operations/op-91f3c2a8',
  metadata: {
    '@type': 'type.googleapis.com/google.ai.generativelanguage.v1beta.CreateTunedModelMetadata',
    tunedModel: 'tunedModels/support-bot-x7k2m',
    totalSteps: 40,
    completedSteps: 40,
    completedPercent: 100,
  },
};

const OPENAI_JOB = {
  object: 'fine_tuning.job',
  id: 'ftjob-abc123XYZ',
  model: 'gpt-4o-mini-2024-07-18',
  created_at: 1_721_764_800,
  finished_at: null,
  fine_tuned_model: null,
  organization_id: 'org-7Hq2kLm9',
  result_files: [],
  status: 'running',
  validation_file: null,
  training_file: 'file-abc123',
  hyperparameters: { n_epochs: 3, batch_size: 1, learning_rate_multiplier: 1.8 },
  trained_tokens: null,
  error: null,
  seed: 42,
  estimated_finish: 1_721_766_000,
};

describe('job statuses in the styles of cloud APIs', () => {
  it('Vertex AI: JOB_STATE_RUNNING is running (a vendor prefix maps by its last word)', () => {
    const s = decodeFinetuneStatus('j', { ...VERTEX_JOB, state: 'JOB_STATE_RUNNING' });
    assert.equal(s.state, 'running');
    assert.equal(decodeFinetuneStatus('j', { ...VERTEX_JOB, state: 'JOB_STATE_QUEUED' }).state, 'queued');
    assert.equal(decodeFinetuneStatus('j', { ...VERTEX_JOB, state: 'STATE_SUCCEEDED' }).state, 'completed');
  });

  it('Vertex AI: a succeeded job whose tuned model is ACTIVE is completed, and names the model it made', () => {
    const s = decodeFinetuneStatus('j', {
      ...VERTEX_JOB,
      state: 'JOB_STATE_SUCCEEDED',
      endTime: '2026-11-27T03:02:11.000001Z',
      tunedModel: {
        model: 'projects/881203/locations/us-central1/models/7710234@1',
        endpoint: 'projects/881203/locations/us-central1/endpoints/552198',
        state: 'ACTIVE',
      },
    });
    assert.deepEqual([s.state, s.modelName], ['completed', 'projects/881203/locations/us-central1/models/7710234@1']);
  });

  it('Vertex AI: a failed job says why', () => {
    const s = decodeFinetuneStatus('j', {
      ...VERTEX_JOB,
      state: 'JOB_STATE_FAILED',
      error: { code: 3, message: 'Dataset has fewer than 16 examples.' },
    });
    assert.deepEqual([s.state, s.error], ['failed', 'Dataset has fewer than 16 examples.']);
  });

  it('Google long-running operation: finished only by done: true and a response, no state word', () => {
    const s = decodeFinetuneStatus('j', {
      ...GEMINI_OPERATION,
      done: true,
      response: {
        '@type': 'type.googleapis.com/google.ai.generativelanguage.v1beta.TunedModel',
        name: 'tunedModels/support-bot-x7k2m',
        baseModel: 'models/gemini-1.5-flash-001-tuning',
        createTime: '2026-11-27T02:10:00.123Z',
        updateTime: '2026-11-27T02:50:00.456Z',
      },
    });
    assert.deepEqual([s.state, s.modelName, s.progress], ['completed', 'tunedModels/support-bot-x7k2m', 100]);
  });

  it('Google long-running operation: the ACTIVE state of the model it made is not the job running', () => {
    const s = decodeFinetuneStatus('j', {
      ...GEMINI_OPERATION,
      done: true,
      response: {
        '@type': 'type.googleapis.com/google.ai.generativelanguage.v1beta.TunedModel',
        name: 'tunedModels/support-bot-x7k2m',
        baseModel: 'models/gemini-1.5-flash-001-tuning',
        state: 'ACTIVE',
      },
    });
    assert.deepEqual([s.state, s.modelName], ['completed', 'tunedModels/support-bot-x7k2m']);
  });

  it('Google long-running operation: done with an error is failed, with the service words', () => {
    const s = decodeFinetuneStatus('j', {
      name: 'tunedModels/support-bot-x7k2m/operations/op-91f3c2a8',
      done: true,
      error: { code: 3, message: 'Training data has fewer than 20 examples.' },
    });
    assert.deepEqual([s.state, s.error], ['failed', 'Training data has fewer than 20 examples.']);
  });

  it('Google long-running operation: a running one says how far by its step counts, no state word', () => {
    const s = decodeFinetuneStatus('j', {
      ...GEMINI_OPERATION,
      metadata: { ...GEMINI_OPERATION.metadata, completedSteps: 10, completedPercent: 25 },
    });
    assert.equal(s.state, 'running');
    assert.equal(s.progress, 25);
  });

  it('a model said "ready" in a record of its own is no running job; the job counts reaching their total end it', () => {
    const s = decodeFinetuneStatus('j', {
      job: { ref: 'tj-8812', steps_done: '120', steps_total: '120' },
      output_model: { id: 'acme/support-bot-v3', status: 'ready' },
    });
    assert.deepEqual([s.state, s.modelName, s.progress], ['completed', 'acme/support-bot-v3', 100]);
  });

  it('OpenAI fine-tuning job: running, then succeeded with fine_tuned_model; the base model is never the made one', () => {
    const running = decodeFinetuneStatus('j', OPENAI_JOB);
    assert.deepEqual([running.state, running.modelName], ['running', undefined]);
    const done = decodeFinetuneStatus('j', {
      ...OPENAI_JOB,
      status: 'succeeded',
      finished_at: 1_721_765_400,
      fine_tuned_model: 'ft:gpt-4o-mini-2024-07-18:acme::9xYzAbC1',
      trained_tokens: 5768,
      result_files: ['file-def456'],
    });
    assert.deepEqual([done.state, done.modelName], ['completed', 'ft:gpt-4o-mini-2024-07-18:acme::9xYzAbC1']);
    const failed = decodeFinetuneStatus('j', {
      ...OPENAI_JOB,
      status: 'failed',
      error: { code: 'invalid_training_file', message: 'The training file has no valid examples.', param: 'training_file' },
    });
    assert.deepEqual([failed.state, failed.error], ['failed', 'The training file has no valid examples.']);
  });

  it('a phase word and a percent as a string: read, the unknown word kept and shown humanised', () => {
    const tokenizing = decodeFinetuneStatus('j', { run: 'run_7f3a9c', phase: 'Tokenizing', percent_complete: '12.5' });
    assert.deepEqual([tokenizing.state, tokenizing.rawState, tokenizing.progress], ['unknown', 'Tokenizing', 12.5]);
    const training = decodeFinetuneStatus('j', { run: 'run_7f3a9c', phase: 'Training', percent_complete: '62.5' });
    assert.deepEqual([training.state, training.progress], ['running', 62.5]);
    const done = decodeFinetuneStatus('j', { run: 'run_7f3a9c', phase: 'Succeeded', percent_complete: '100' });
    assert.equal(done.state, 'completed');
  });

  it('an id or an opaque blob beside the state is never the message', () => {
    const s = decodeFinetuneStatus('j', {
      status: 'running',
      checkpoint: 'eyJhbGciOiJIUzI1NiJ9 eyJzdWIiOiIxMjM0NTY3ODkwIn0 SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV',
      note: 'Epoch 2 of 4, loss falling',
    });
    assert.equal(s.message, 'Epoch 2 of 4, loss falling');
  });
});

describe('an evaluation that says it ended, whatever its result', () => {
  it('completed with a result that cannot be read ends, failed, with the service words (was: polled forever)', () => {
    const s = decodeEvaluationStatus('e', { job_id: 'e-1', status: 'completed', result: { accuracy: 'n/a', note: 'judge timed out' } });
    assert.equal(s.state, 'failed');
    assert.match(s.error ?? '', /completed, but its result could not be read/);
    assert.match(s.error ?? '', /judge timed out/);
  });
});
