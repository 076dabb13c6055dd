// The job status profile (issue 27): inferred from the first status answers of a service, kept per origin (the client
// reports it through its ProfileBook), read by it after, grown while the first answers lack a part, inferred again when
// an answer no longer fits (the change said), and written by hand in the setting (then read as given).
import { strict as assert } from 'node:assert';
import { ServiceClient } from '../../src/api/client';
import type { JobStatusPart, JobStatusProfile } from '../../src/api/profileFormat';
import { readStatusByProfile } from '../../src/api/jobStatusReader';
import { readJobStatus } from '../../src/api/jobStatusReading';
import { describeJobStatusProfile, partLines } from '../../src/api/profileWords';
import type { ProfileBook } from '../../src/api/profileBook';
import { checkServiceProfile } from '../../src/api/profileFormat';
import { isTerminal } from '../../src/api/types';
import { emptyProfileBook, KEY, until, useEmulator } from './helpers';

/** A finetune's answers in the emulator's style (test/service/finetune.ts jobView), from queued to completed. */
const base = { job_id: 'ftq-1', model_name: 'handbook-v1', base_model: 'oss-reasoner-8b', mode: 'pretraining', num_questions: 50 };
const QUEUED = { ...base, status: 'queued', progress: 0, message: 'Waiting for a worker', questions_generated: 0 };
const GENERATING = { ...base, status: 'generating', progress: 30, message: 'Generated 20/50 questions', questions_generated: 20 };
const COMPLETED = {
  ...base,
  status: 'completed',
  progress: 100,
  message: "Generated 50/50 questions; model 'ft:oss-reasoner-8b:handbook-v1:ftq1' is ready",
  questions_generated: 50,
  fine_tuned_model: 'ft:oss-reasoner-8b:handbook-v1:ftq1',
};
const FAILED = { ...base, status: 'failed', progress: 12, message: 'Job failed', error: 'No text found in product-handbook.pdf' };

describe('job status profile: inferred once, read by it', () => {
  it('reads every answer of a job by the profile of the first; a part the first did not show is added once, and said', () => {
    const first = readJobStatus('finetuneStatus', QUEUED);
    assert.match(
      first.change ?? '',
      /^Finetune status: state from status; progress from progress; counts from questions_generated of num_questions; message from message; model made from model_name$/,
    );
    assert.deepEqual([first.read.state, first.read.progress, first.read.madeModel], ['queued', 0, 'handbook-v1']);
    const running = readJobStatus('finetuneStatus', GENERATING, first.profile);
    assert.equal(running.change, undefined, 'read by the kept profile');
    assert.deepEqual([running.read.state, running.read.progress, running.read.message], ['running', 30, 'Generated 20/50 questions']);
    // The service renamed the model it made: the name it says it made comes before the spec's model_name.
    const done = readJobStatus('finetuneStatus', COMPLETED, running.profile);
    assert.match(done.change ?? '', /now also reads made model: .*model made from fine_tuned_model or model_name/);
    assert.deepEqual([done.read.state, done.read.madeModel], ['completed', 'ft:oss-reasoner-8b:handbook-v1:ftq1']);
    assert.equal(readJobStatus('finetuneStatus', COMPLETED, done.profile).change, undefined, 'grown once');
    const failed = readJobStatus('finetuneStatus', FAILED, done.profile);
    assert.match(failed.change ?? '', /now also reads error/);
    assert.deepEqual([failed.read.state, failed.read.error], ['failed', 'No text found in product-handbook.pdf']);
  });

  it('an answer the profile no longer fits is inferred again, and what changed is said', () => {
    const { profile } = readJobStatus('finetuneStatus', GENERATING);
    const moved = { job: { id: 'ftq-1', state: 'TRAINING', completion: { steps: 40, total_steps: 160 } } };
    assert.equal(readStatusByProfile(moved, profile), undefined, 'no longer fits');
    const again = readJobStatus('finetuneStatus', moved, profile);
    assert.match(
      again.change ?? '',
      /^The finetune status no longer fits how it was read \(state from status;.*\); now: state from job\.state/,
    );
    assert.deepEqual([again.read.state, again.read.progress], ['running', 25]);
  });

  it('an unknown word where the state is read stays unknown, kept and polled on; no new profile for it', () => {
    const { profile } = readJobStatus('finetuneStatus', GENERATING);
    const r = readJobStatus('finetuneStatus', { ...GENERATING, status: 'awaiting_gpu' }, profile);
    assert.deepEqual([r.read.state, r.read.rawState, r.change], ['unknown', 'awaiting_gpu', undefined]);
  });

  it('a word the table does not know, said when a flag says the job finished, is mapped; the next answer reads it so', () => {
    const first = readJobStatus('finetuneStatus', { run: { phase: 'EXPORTED', is_done: true, pct: 100 } });
    assert.deepEqual(first.profile.states, Object.assign(Object.create(null), { EXPORTED: 'completed' }));
    assert.match(first.change ?? '', /words EXPORTED → completed; finished when run\.is_done is true/);
    const later = readJobStatus('finetuneStatus', { run: { phase: 'EXPORTED', pct: 100 } }, first.profile);
    assert.deepEqual([later.read.state, later.change], ['completed', undefined]);
  });

  it("the setting's profile is checked, read as given (its words mapped), and never grown", () => {
    const written = { finetuneStatus: { state: 'job.phase', states: { EXPORTED: 'completed', PARKED: 'queued' }, percent: 'job.pct' } };
    const checked = checkServiceProfile(written, 'setting');
    assert.ok('value' in checked, JSON.stringify(checked));
    const profile = checked.value.finetuneStatus!;
    const r = readJobStatus('finetuneStatus', { job: { phase: 'EXPORTED', pct: '97', fine_tuned_model: 'm-1' } }, profile);
    assert.deepEqual([r.read.state, r.read.progress, r.read.madeModel, r.change], ['completed', 100, undefined, undefined]);
    assert.equal(readJobStatus('finetuneStatus', { job: { phase: 'PARKED' } }, profile).read.state, 'queued');
    for (const [bad, problem] of [
      [{ finetuneStatus: { state: 'a..b' } }, /finetuneStatus\.state is not a path/],
      [{ evaluationStatus: { state: 'status', states: { x: 'paused' } } }, /evaluationStatus\.states\["x"\] is not one of/],
      [{ finetuneStatus: { state: 'status', colour: 'red' } }, /unknown field "colour"/],
      [{ finetuneStatus: { message: 'm' } }, /says neither where the state is/],
      [{ finetuneStatus: { state: 's', done: 'd' } }, /one of done and total/],
    ] as const) {
      const c = checkServiceProfile(bad, 'setting');
      assert.ok('problem' in c && problem.test(c.problem), JSON.stringify(c));
    }
  });

  it('says how a status is read in words, for Show How the Service Is Read', () => {
    const { profile } = readJobStatus('finetuneStatus', {
      name: 'operations/op-1',
      done: true,
      metadata: { totalSteps: 40, completedSteps: 40, tunedModel: 'tunedModels/bot-1' },
    });
    assert.equal(
      describeJobStatusProfile(profile),
      'finished when done is true; counts from metadata.completedSteps of metadata.totalSteps; model made from metadata.tunedModel',
    );
    assert.deepEqual(partLines('finetuneStatus', profile).slice(1), ['  (inferred from the first answers)']);
  });
});

describe('job status profile: kept by the client through its ProfileBook', () => {
  const ctx = useEmulator();

  it('an evaluation: inferred at the first answer, read by the kept profile after, its result added when it comes', async () => {
    const kept = new Map<JobStatusPart, JobStatusProfile>();
    const changes: string[] = [];
    const book: ProfileBook = emptyProfileBook({
      jobStatus: (part) => kept.get(part),
      readJobStatus: (part, { profile, change }) => {
        kept.set(part, profile);
        changes.push(change);
      },
    });
    const client = new ServiceClient({ baseUrl: ctx.emu.url, apiKey: KEY, sleep: async () => undefined }, book);
    const [model] = await client.listModels();
    const job = await client.startEvaluation(model!.name, 'demo-qa');
    await client.getEvaluationStatus(job.jobId);
    assert.equal(changes.length, 1);
    assert.match(changes[0]!, /^Evaluation status: state from status/);
    const done = await until(async () => {
      const s = await client.getEvaluationStatus(job.jobId);
      return isTerminal(s.state) ? s : undefined;
    });
    assert.equal(done.state, 'completed');
    assert.equal(done.result?.datasetName, 'demo-qa');
    assert.ok(
      changes.every((c, i) => i === 0 || /now also reads/.test(c)),
      changes.join('\n'),
    );
    assert.equal(kept.get('evaluationStatus')?.result, 'result');
    assert.equal(kept.has('finetuneStatus'), false, 'one part per endpoint');
  });
});
