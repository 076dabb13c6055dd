// What globalState holds under the jobs key is checked on the way in: corrupt records are dropped (and logged as counts
// and reasons, never values), wrong optional fields are removed, and what is left is safe for the views and the poller.
import { strict as assert } from 'node:assert';
import { evaluationSummary, jobDescription, jobTitle, stateWord } from '../../src/jobs/jobFormat';
import { isActive, type JobRecord } from '../../src/jobs/jobRecord';
import { readStoredJobs, StoredJobsReader } from '../../src/jobs/storedJobs';
import { SCOPE } from './pollRig';

const good = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  id: 'job-1',
  kind: 'finetune',
  scope: SCOPE,
  state: 'running',
  createdAt: 1_000,
  updatedAt: 2_000,
  modelName: 'm',
  ...extra,
});

/** What a view does with each record: none of it may throw. */
function render(jobs: JobRecord[]): void {
  for (const job of jobs) {
    jobTitle(job);
    stateWord(job);
    jobDescription(job, 10_000);
    evaluationSummary(job);
    isActive(job);
  }
}

describe('stored jobs: reading globalState back', () => {
  it('a list that is not a list (object, number, string, null) yields no job and says why', () => {
    for (const raw of [{ 'finetune:j': good() }, 42, 'jobs', null, true]) {
      const read = readStoredJobs(raw, SCOPE);
      assert.deepEqual(read.jobs, [], JSON.stringify(raw));
      assert.equal(read.dropped.length, 1);
      assert.match(read.dropped[0]!, /not a list/);
    }
    assert.deepEqual(readStoredJobs(undefined, SCOPE), { jobs: [], dropped: [], repaired: 0 }, 'nothing stored yet');
  });

  it('drops entries that cannot be jobs and keeps the good ones', () => {
    const raw = [
      null,
      'finetune:job-1',
      7,
      [good()],
      {},
      good({ id: undefined }),
      good({ id: 12 }),
      good({ id: 'x'.repeat(257) }),
      good({ id: 'bad\u0007id' }),
      good({ id: 'line\nbreak' }),
      good({ kind: 'training' }),
      good({ state: 'exploded' }),
      good({ state: 3 }),
      good({ createdAt: '2024-01-01' }),
      good({ updatedAt: NaN }),
      good({ modelName: null }),
      good({ scope: 'http://other#key' }),
      good({ id: 'keep-1' }),
      good({ id: 'keep-2', kind: 'evaluation', state: 'completed', datasetName: 'd' }),
      good({ id: 'keep-1', state: 'failed' }),
    ];
    const read = readStoredJobs(raw, SCOPE);
    assert.deepEqual(
      read.jobs.map((j) => j.id),
      ['keep-1', 'keep-2'],
    );
    assert.equal(read.jobs[0]!.state, 'running', 'the first record of a job wins');
    assert.equal(read.dropped.length, raw.length - 2);
    render(read.jobs);
  });

  it('drops a stored result whose accuracy is not a fraction (it would read as 1e+310% or Infinity%)', () => {
    const result = { datasetName: 'd', modelName: 'm', correct: 9, total: 10 };
    for (const accuracy of [1e308, 1.5, -0.1]) {
      const read = readStoredJobs([good({ id: 'e', kind: 'evaluation', state: 'completed', result: { ...result, accuracy } })], SCOPE);
      assert.equal(read.jobs.length, 1);
      assert.equal('result' in read.jobs[0]!, false, `accuracy ${accuracy} was kept`);
    }
    const fine = readStoredJobs([good({ id: 'e', kind: 'evaluation', state: 'completed', result: { ...result, accuracy: 0.9 } })], SCOPE);
    assert.equal(fine.jobs[0]!.result?.accuracy, 0.9);
  });

  it('keeps a job whose optional fields have the wrong type, without those fields', () => {
    const raw = [
      good({
        id: 'e',
        kind: 'evaluation',
        state: 'completed',
        progress: '50',
        message: { text: 'x' },
        error: 5,
        finishedAt: 'soon',
        files: ['a.pdf', 3],
        result: { datasetName: 'd', modelName: 'm', correct: 9, total: 10, accuracy: '0.9' },
        unseenFailure: 'yes',
        requestedName: 7,
      }),
      good({ id: 'ok', progress: 40, message: 'training', files: ['a.pdf'], requestedName: 'asked', extra: 'ignored' }),
    ];
    const read = readStoredJobs(raw, SCOPE);
    assert.equal(read.repaired, 1);
    assert.deepEqual(read.dropped, []);
    const [e, ok] = read.jobs;
    for (const field of ['progress', 'message', 'error', 'finishedAt', 'files', 'result', 'unseenFailure', 'requestedName']) {
      assert.equal(field in e!, false, field);
    }
    assert.equal(ok!.progress, 40);
    assert.deepEqual(ok!.files, ['a.pdf']);
    assert.equal(ok!.requestedName, 'asked', 'the name asked for survives a reload');
    assert.equal('extra' in ok!, false, 'only the fields of a job record are kept');
    render(read.jobs);
  });

  it('keeps the progress readings of a running job (its time left); readings of another shape are removed, the job kept', () => {
    const readings = [
      { at: 1_000, progress: 10, stage: 'training' },
      { at: 2_000, progress: 12, stage: 'training' },
    ];
    const read = readStoredJobs(
      [
        good({ id: 'a', readings }),
        good({ id: 'b', readings: [{ at: 1_000, progress: 'ten' }] }),
        good({ id: 'c', readings: { at: 1_000, progress: 10 } }),
        good({ id: 'd' }), // written by a version that kept no readings
      ],
      SCOPE,
    );
    assert.equal(read.repaired, 2);
    const byId = new Map(read.jobs.map((j) => [j.id, j]));
    assert.deepEqual(byId.get('a')?.readings, readings);
    for (const id of ['b', 'c', 'd']) assert.equal(byId.get(id)?.readings, undefined, id);
    render(read.jobs);
  });

  it('logs what was dropped once, as counts and reasons, without the values', () => {
    const logged: string[] = [];
    const reader = new StoredJobsReader((m) => logged.push(m));
    const secret = 'sk-live-0123456789';
    const raw = [
      null,
      null,
      good({ id: secret, kind: 'weird', message: secret }),
      good({ id: 'fine', progress: 'x' }),
      good({ id: 'kept' }),
    ];
    assert.deepEqual(
      reader.read(raw, SCOPE).map((j) => j.id),
      ['fine', 'kept'],
    );
    reader.read(raw, SCOPE);
    reader.read(raw, SCOPE);
    assert.equal(logged.length, 1, 'said once, not at every read');
    assert.match(logged[0]!, /ignored 3 unreadable job record\(s\)/);
    assert.match(logged[0]!, /2 × an entry that is not a record \(null\)/);
    assert.match(logged[0]!, /a record of no known kind/);
    assert.match(logged[0]!, /kept 1 job record\(s\) without fields of the wrong type/);
    assert.doesNotMatch(logged[0]!, new RegExp(secret));
    reader.read([good()], SCOPE);
    reader.read(42, SCOPE);
    assert.equal(logged.length, 2, 'a new corruption is reported');
    assert.deepEqual(reader.read([good()], SCOPE).length, 1);
  });
});
