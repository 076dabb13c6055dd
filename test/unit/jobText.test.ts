// What a job row, status bar and notification say, and what a status answer writes to a record.
import { strict as assert } from 'node:assert';
import type { JobRecord } from '../../src/jobs/jobRecord';
import {
  evaluationSummary,
  formatAccuracy,
  formatDuration,
  jobDescription,
  jobRowTitle,
  lastSegment,
  jobTitle,
  clockTime,
  oneLine,
  ROW_NAME_CHARS,
  shortName,
} from '../../src/jobs/jobFormat';
import { unreadableWords } from '../../src/jobs/unreadableWords';
import { changes, evaluationPatch, finetunePatch, gonePatch, GONE_ERROR } from '../../src/jobs/statusPatch';
import { evaluationRunningWord, evaluationStatusExtras } from '../service/styles';
import { decodeEvaluationStatus } from './readers';

const T0 = 1_700_000_000_000;
function job(extra: Partial<JobRecord> = {}): JobRecord {
  return { id: 'j', kind: 'finetune', scope: 's', state: 'running', createdAt: T0, updatedAt: T0, modelName: 'my-model', ...extra };
}
const result = { datasetName: 'squad', modelName: 'my-model', correct: 42, total: 50, accuracy: 0.84, judgeModel: 'judge-1' };

describe('job text', () => {
  it('titles', () => {
    assert.equal(jobTitle(job()), 'Create my-model');
    assert.equal(jobTitle(job({ kind: 'evaluation', datasetName: 'squad' })), 'Evaluate my-model on squad');
  });

  it('a row title shortens long names in the middle, keeping both ends; short ones stay whole', () => {
    assert.equal(jobRowTitle(job()), 'Create my-model');
    // A tuned name as the service gives it stays whole.
    assert.equal(
      jobRowTitle(job({ modelName: 'ft:oss-reasoner-8b:quarterly-reports:3f9a1c2e' })),
      'Create ft:oss-reasoner-8b:quarterly-reports:3f9a1c2e',
    );
    const long = `org/oss-reasoner-8b-finetuned-${'q'.repeat(80)}-2026-11-25-v7`;
    const title = jobRowTitle(job({ modelName: long }));
    assert.equal(title.length, 'Create '.length + ROW_NAME_CHARS);
    assert.ok(title.startsWith('Create org/oss-reasoner-8b-'), title);
    assert.ok(title.endsWith('2026-11-25-v7'), title);
    assert.equal(jobTitle(job({ modelName: long })), `Create ${long}`, 'the full title (the tooltip’s) is untouched');
    const evaluation = jobRowTitle(job({ kind: 'evaluation', modelName: long, datasetName: 'd'.repeat(100) }));
    assert.ok(evaluation.length <= 'Evaluate  on '.length + 2 * ROW_NAME_CHARS, evaluation);
    // Characters, not UTF-16 units: an emoji is never cut in half.
    const emoji = shortName('🦙'.repeat(50), 10);
    assert.equal([...emoji].length, 10);
    assert.ok(!/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/.test(emoji), 'a lone surrogate');
  });

  it('a row shows a resource name by its id; the tooltip’s title keeps it whole', () => {
    assert.equal(lastSegment('models/oss-reasoner-8b'), 'oss-reasoner-8b');
    assert.equal(lastSegment('tunedModels/support-bot-x7k2m'), 'support-bot-x7k2m');
    assert.equal(lastSegment('projects/p-1/locations/us/models/m-9'), 'm-9');
    // Not a collection before it: an organisation, a path-like name, a trailing slash.
    assert.equal(lastSegment('meta-llama/Llama-3-8B'), 'meta-llama/Llama-3-8B');
    assert.equal(lastSegment('org/models'), 'org/models');
    assert.equal(lastSegment('models/'), 'models/');
    assert.equal(lastSegment('oss-reasoner-8b'), 'oss-reasoner-8b');
    const tuned = job({ kind: 'evaluation', modelName: 'tunedModels/support-bot-x7k2m', datasetName: 'demo-qa' });
    assert.equal(jobRowTitle(tuned), 'Evaluate support-bot-x7k2m on demo-qa');
    assert.equal(jobTitle(tuned), 'Evaluate tunedModels/support-bot-x7k2m on demo-qa');
  });

  it('durations', () => {
    assert.equal(formatDuration(0), '0s');
    assert.equal(formatDuration(45_900), '45s');
    assert.equal(formatDuration(130_000), '2m 10s');
    assert.equal(formatDuration(3_780_000), '1h 3m');
    assert.equal(formatDuration(90_000_000), '1d 1h');
    assert.equal(formatDuration(-5), '0s');
  });

  it('descriptions by state', () => {
    assert.equal(jobDescription(job({ progress: 40 }), T0 + 130_000), 'running 40% · 2m 10s');
    assert.equal(jobDescription(job({ state: 'queued' }), T0 + 12_000), 'queued · 12s');
    assert.equal(jobDescription(job({ state: 'unknown', rawState: 'frobnicating' }), T0 + 1000), 'Frobnicating · 1s');
    assert.equal(jobDescription(job({ state: 'completed', finishedAt: T0 + 302_000 }), T0 + 999_999), 'completed · 5m 2s');
    assert.equal(jobDescription(job({ kind: 'evaluation', state: 'completed', result }), T0), '84.0% (42/50) · judge judge-1');
    assert.equal(jobDescription(job({ state: 'failed', error: 'No text\nin PDF' }), T0), 'failed: No text in PDF');
    assert.equal(jobDescription(job({ state: 'cancelled', finishedAt: T0 + 1000 }), T0), 'cancelled · 1s');
  });

  it('a running job says its time left after two readings, and its elapsed time always; nothing without readings', () => {
    // 10 points a minute: 60 points left are 6 min.
    const readings = [
      { at: T0 + 70_000, progress: 30, stage: 'training' },
      { at: T0 + 130_000, progress: 40, stage: 'training' },
    ];
    assert.equal(jobDescription(job({ progress: 40, readings }), T0 + 130_000), 'running 40% · about 6 min left · 2m 10s');
    assert.equal(jobDescription(job({ progress: 40, readings: readings.slice(1) }), T0 + 130_000), 'running 40% · 2m 10s');
    assert.equal(jobDescription(job({ progress: 40 }), T0 + 130_000), 'running 40% · 2m 10s', 'progress unknown until now');
    // Not followed, unreadable, or finished: the readings say nothing of now.
    assert.equal(jobDescription(job({ progress: 40, readings, unfollowedAt: T0 + 130_000 }), T0 + 130_000), 'not followed · running 40%');
    assert.doesNotMatch(jobDescription(job({ progress: 40, readings, unreadableSince: T0 + 130_000 }), T0 + 130_000), /left/);
    assert.equal(jobDescription(job({ state: 'completed', readings, finishedAt: T0 + 130_000 }), T0 + 130_000), 'completed · 2m 10s');
  });

  it('a running job whose status is unreadable says since when, with the service words; a job let go says so', () => {
    const since = T0 + 60_000;
    const at = clockTime(since);
    assert.equal(
      jobDescription(job({ unreadableSince: since, unreadableWords: 'Validating files' }), T0 + 190_000),
      `status unreadable since ${at} (Validating files) · 3m 10s`,
    );
    assert.equal(jobDescription(job({ unreadableSince: since }), T0 + 190_000), `status unreadable since ${at} · 3m 10s`);
    assert.equal(
      jobDescription(job({ unreadableSince: since, unfollowedAt: T0 + 120_000 }), T0 + 190_000),
      `not followed · status unreadable since ${at}`,
    );
    assert.equal(jobDescription(job({ progress: 40, unfollowedAt: T0 + 120_000 }), T0 + 190_000), 'not followed · running 40%');
    // A finished job's row is about its end, whatever came before.
    assert.equal(
      jobDescription(job({ state: 'completed', unreadableSince: since, finishedAt: T0 + 5_000 }), T0 + 190_000),
      'completed · 5s',
    );
    assert.match(clockTime(since), /^\d{2}:\d{2}$/);
  });

  it('finds the words of an unreadable answer, humanised, and not its keys, ids or numbers', () => {
    assert.equal(
      unreadableWords('{"phase":"VALIDATING_FILES","pct":"40%","job":"3f9a1c2e-77aa-4b1c-9d0e-1234567890ab"}'),
      'Validating files',
    );
    assert.equal(
      unreadableWords('{"state":{"word":"JOB_STATE_RUNNING"},"note":"warming up","step":"12/40"}'),
      'Job state running, Warming up',
    );
    assert.equal(unreadableWords('{"a":"one","b":"two","c":"three","d":"four"}'), 'One, Two, Three');
    assert.equal(unreadableWords('[1,2,3]'), undefined);
    assert.equal(unreadableWords(undefined), undefined);
    assert.equal(unreadableWords('{"link":"[x](command:workbench.action.quit)"}'), undefined, 'markdown is not a word');
  });

  it('accuracy and evaluation summary', () => {
    assert.equal(formatAccuracy(result), '84.0% (42/50)');
    assert.equal(formatAccuracy({ ...result, total: 0, accuracy: 0.5 }), '50.0%');
    assert.equal(
      evaluationSummary(job({ kind: 'evaluation', datasetName: 'squad', state: 'completed', result })),
      'my-model on squad: 84.0% (42/50), judged by judge-1',
    );
  });

  it('flattens and bounds server text', () => {
    assert.equal(oneLine('a\n\n b\tc'), 'a b c');
    assert.equal(oneLine('x'.repeat(500), 10), `${'x'.repeat(9)}…`);
  });
});

describe('status patch', () => {
  it('writes state, progress and message of a finetune answer, keeping the last progress when none is given', () => {
    const p = finetunePatch(job({ progress: 30 }), { jobId: 'j', state: 'running', message: 'training', raw: {} }, T0);
    assert.equal(p.state, 'running');
    assert.equal(p.message, 'training');
    assert.equal('progress' in p, false);
    assert.equal(changes(job({ progress: 30 }), p), true);
    assert.equal(changes(job({ progress: 30, message: 'training' }), p), false);
  });

  it('records a reading when the progress or the stage changed, and drops the readings when the job ends', () => {
    const running = (progress: number | undefined, rawState = 'training', message?: string) =>
      ({ jobId: 'j', state: 'running', rawState, progress, message, raw: {} }) as const;
    const first = finetunePatch(job(), running(30), T0);
    assert.deepEqual(first.readings, [{ at: T0, progress: 30, stage: 'training' }]);
    const current = job({ ...first });
    assert.equal(finetunePatch(current, running(30), T0 + 5_000).readings, current.readings, 'the same reading: kept as it was');
    assert.equal('readings' in finetunePatch(current, running(undefined), T0 + 5_000), false, 'no progress said: no reading');
    const next = finetunePatch(current, running(31), T0 + 5_000);
    assert.deepEqual(next.readings?.at(-1), { at: T0 + 5_000, progress: 31, stage: 'training' });
    // A phase word beside the state word is the stage; a sentence is not.
    const phased = finetunePatch(current, { ...running(31, 'running'), stage: 'tokenizing' }, T0 + 5_000);
    assert.equal(phased.readings?.at(-1)?.stage, 'tokenizing');
    const done = finetunePatch(job({ ...next }), { jobId: 'j', state: 'completed', raw: {} }, T0 + 9_000);
    assert.equal(done.readings, undefined);
    assert.equal('readings' in done, true, 'a finished job forgets its readings');
  });

  it('ends a job once: finish time, 100%, unseen failure only on the transition', () => {
    const done = finetunePatch(job(), { jobId: 'j', state: 'completed', raw: {} }, T0 + 5);
    assert.equal(done.progress, 100);
    assert.equal(done.finishedAt, T0 + 5);
    const failed = finetunePatch(job(), { jobId: 'j', state: 'failed', raw: {} }, T0);
    assert.equal(failed.unseenFailure, true);
    assert.equal(failed.error, 'The job failed without a reason.');
    const again = finetunePatch(
      job({ state: 'failed', finishedAt: T0, unseenFailure: false }),
      { jobId: 'j', state: 'failed', error: 'x', raw: {} },
      T0 + 9,
    );
    assert.equal(again.unseenFailure, undefined, 'a failure already seen stays seen');
    assert.equal(again.finishedAt, undefined);
  });

  it('adopts the name the finished job gave its model, once; never the base model, never before it finished', () => {
    const status = (state: 'running' | 'completed', modelName?: string) => ({ jobId: 'j', state, modelName, raw: {} });
    const mine = job({ baseModel: 'base-8b' });
    const renamed = finetunePatch(mine, status('completed', 'ft:base-8b:my-model:abc'), T0);
    assert.deepEqual([renamed.modelName, renamed.requestedName], ['ft:base-8b:my-model:abc', 'my-model']);
    assert.equal(changes({ ...mine, state: 'completed', progress: 100, finishedAt: T0 }, renamed), true, 'a new name is written');
    const adopted = { ...mine, ...renamed };
    assert.equal(jobTitle(adopted), 'Create ft:base-8b:my-model:abc');
    const again = finetunePatch(adopted, status('completed', 'ft:base-8b:my-model:abc'), T0 + 1);
    assert.equal('modelName' in again, false, 'the same name again is no change');
    for (const p of [
      finetunePatch(mine, status('completed', 'my-model'), T0),
      finetunePatch(mine, status('completed', 'base-8b'), T0),
      finetunePatch(mine, status('running', 'ft:early'), T0),
      finetunePatch(mine, status('completed'), T0),
    ]) {
      assert.deepEqual([p.modelName, p.requestedName], [undefined, undefined]);
    }
  });

  it('an evaluation whose service reports progress keeps its readings and says its time left as a finetune does', () => {
    // The emulator's styles that report an evaluation's progress (the spec's 4.6 shows none): a phase word and a percent
    // as a string, and a Google long-running operation's completedPercent.
    for (const shape of ['nested-phase', 'google-like'] as const) {
      const answer = (percent: number) => ({
        job_id: 'e-1',
        status: evaluationRunningWord(shape),
        ...evaluationStatusExtras(shape, 'e-1', 'running', percent),
      });
      const evaluation = job({ kind: 'evaluation', datasetName: 'demo-qa' });
      const first = evaluationPatch(evaluation, decodeEvaluationStatus('e-1', answer(30)), T0 + 70_000);
      assert.equal(first.progress, 30, shape);
      assert.equal(first.readings?.length, 1, shape);
      const current = { ...evaluation, ...first };
      const second = evaluationPatch(current, decodeEvaluationStatus('e-1', answer(40)), T0 + 130_000);
      const running = { ...current, ...second };
      // The state word is the service's ("Scoring" for a word of its own); the time left is the finetune's figure.
      assert.match(jobDescription(running, T0 + 130_000), /^\S+ 40% · about 6 min left · 2m 10s$/, shape);
      const done = evaluationPatch(running, { jobId: 'e-1', state: 'completed', result, raw: {} }, T0 + 140_000);
      assert.equal(done.readings, undefined, `${shape}: a finished evaluation forgets its readings`);
    }
    // The spec's answer says no progress: nothing is recorded, nothing estimated.
    const plain = evaluationPatch(job({ kind: 'evaluation' }), decodeEvaluationStatus('e-1', { job_id: 'e-1', status: 'running' }), T0);
    assert.equal('readings' in plain, false);
    assert.equal('progress' in plain, false);
  });

  it('stores an evaluation result, and marks a forgotten job failed', () => {
    const p = evaluationPatch(job({ kind: 'evaluation' }), { jobId: 'j', state: 'completed', result, raw: {} }, T0);
    assert.deepEqual(p.result, result);
    const gone = gonePatch(job(), T0);
    assert.equal(gone.state, 'failed');
    assert.equal(gone.error, GONE_ERROR);
    assert.equal(gone.unseenFailure, true);
  });
});
