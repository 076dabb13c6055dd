// What the jobs status bar says: the least advanced running job's progress, not only a count; a failure until seen.
import { strict as assert } from 'node:assert';
import type { JobRecord } from '../../src/jobs/jobRecord';
import { leastProgress, statusBarText } from '../../src/features/jobs/statusBarText';

const T0 = 1_700_000_000_000;
let n = 0;
function job(extra: Partial<JobRecord> = {}): JobRecord {
  n++;
  return { id: `j${n}`, kind: 'finetune', scope: 's', state: 'running', createdAt: T0, updatedAt: T0, modelName: 'm', ...extra };
}

describe('jobs status bar text', () => {
  it('one running job shows its progress', () => {
    assert.deepEqual(statusBarText([job({ progress: 45.6 })]), {
      text: '$(sync~spin) 1 job · 45%',
      label: '1 job running, at 45%',
      warn: false,
    });
  });

  it('several running jobs show the least advanced one', () => {
    const words = statusBarText([job({ progress: 80 }), job({ progress: 12 }), job({ state: 'completed', progress: 100 })]);
    assert.equal(words?.text, '$(sync~spin) 2 jobs · 12%');
    assert.equal(words?.label, '2 jobs running, the least advanced at 12%');
  });

  it('a job the person stopped following is not counted as running: nothing updates it any more', () => {
    const unfollowed = job({ progress: 3, unfollowedAt: T0 + 1 });
    assert.equal(statusBarText([unfollowed]), undefined);
    assert.equal(statusBarText([unfollowed, job({ progress: 40 })])?.text, '$(sync~spin) 1 job · 40%');
  });

  it('a job without a figure (queued, or an evaluation) is left out; none has one: only the count', () => {
    assert.equal(leastProgress([job({ progress: 30 }), job({ state: 'queued' })]), 30);
    assert.equal(leastProgress([job({ progress: 30 }), job({ state: 'queued', progress: 2 })]), 2);
    assert.equal(leastProgress([job({ progress: 30 }), job({ kind: 'evaluation' })]), 30);
    assert.equal(statusBarText([job({ kind: 'evaluation', state: 'queued' })])?.text, '$(sync~spin) 1 job');
  });

  it('an unseen failure warns beside the running jobs, and stops once seen; nothing to say hides the item', () => {
    const failed = job({ state: 'failed', unseenFailure: true });
    assert.deepEqual(statusBarText([failed, job({ progress: 5 })]), {
      text: '$(warning) Job failed  $(sync~spin) 1 job · 5%',
      label: 'A job failed, 1 job running, at 5%',
      warn: true,
    });
    assert.equal(statusBarText([{ ...failed, unseenFailure: false }]), undefined);
    assert.equal(statusBarText([job({ state: 'completed' })]), undefined);
  });

  it('a running comparison counts as a job: its share done among the progress, and the longest time left said', () => {
    assert.deepEqual(statusBarText([], [{ done: 6, total: 40, leftMs: 5 * 60_000 }]), {
      text: '$(sync~spin) 1 job · 15% · about 5 min left',
      label: '1 job running, at 15%, about 5 min left',
      warn: false,
    });
    const words = statusBarText(
      [job({ progress: 80 })],
      [
        { done: 30, total: 40, leftMs: 30_000 },
        { done: 1, total: 2, leftMs: 3 * 60_000 },
      ],
    );
    assert.equal(words?.text, '$(sync~spin) 3 jobs · 50% · about 3 min left');
    // Before its first request ends, a comparison has no rate: no time left is said.
    assert.equal(statusBarText([], [{ done: 0, total: 40 }])?.text, '$(sync~spin) 1 job · 0%');
  });
});
