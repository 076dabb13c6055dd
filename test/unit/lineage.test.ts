// A custom model's lineage: built from what the finetune command knows when the job starts, stored with the job,
// checked whole on the way back from globalState, and shown as plain tooltip lines.
import { strict as assert } from 'node:assert';
import type { JobRecord } from '../../src/jobs/jobRecord';
import { buildLineage, isModelLineage, lineageLines, lineageOrigins, type ModelLineage } from '../../src/jobs/lineage';
import { readStoredJobs } from '../../src/jobs/storedJobs';
import { SCOPE } from './pollRig';

const SHA_A = 'a'.repeat(64);
const SHA_B = '0123456789abcdef'.repeat(4);

const lineage = (extra: Partial<ModelLineage> = {}): ModelLineage => ({
  baseModel: 'oss-reasoner-8b',
  files: [
    { name: 'handbook.pdf', size: 2048, sha256: SHA_A },
    { name: 'policies.docx', size: 10, sha256: SHA_B },
  ],
  numQs: 50,
  mode: 'pretraining',
  useCase: 'HR questions',
  jobId: 'ft-1',
  startedAt: Date.UTC(2026, 0, 2, 3, 4),
  ...extra,
});

const stored = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  id: 'ft-1',
  kind: 'finetune',
  scope: SCOPE,
  state: 'completed',
  createdAt: 1_000,
  updatedAt: 2_000,
  modelName: 'my-model',
  ...extra,
});

const job = (extra: Partial<JobRecord>): JobRecord => ({
  id: 'j',
  kind: 'finetune',
  scope: SCOPE,
  state: 'completed',
  createdAt: 1,
  updatedAt: 1,
  modelName: 'my-model',
  ...extra,
});

describe('model lineage', () => {
  it('is built from the answers, the files (base names, sizes) and the hash the client gave for each index', () => {
    const built = buildLineage({
      jobId: 'ft-9',
      startedAt: 123,
      baseModel: 'base-1',
      numQs: 5,
      mode: 'instruct',
      useCase: '',
      files: [
        { label: 'docs/handbook.pdf', size: 2048 },
        { label: 'policies.docx', size: 10 },
      ],
      sha256: [SHA_A, undefined],
    });
    assert.deepEqual(built, {
      baseModel: 'base-1',
      files: [
        { name: 'handbook.pdf', size: 2048, sha256: SHA_A },
        { name: 'policies.docx', size: 10 },
      ],
      numQs: 5,
      mode: 'instruct',
      useCase: '',
      jobId: 'ft-9',
      startedAt: 123,
    });
    assert.ok(isModelLineage(built), 'what is built is what is read back');
  });

  it('is kept with its job when read back from globalState', () => {
    const read = readStoredJobs([stored({ lineage: lineage() })], SCOPE);
    assert.equal(read.repaired, 0);
    assert.deepEqual(read.jobs[0]?.lineage, lineage());
  });

  it('a lineage with any part wrong is left out whole, and the job kept', () => {
    const [first, second] = lineage().files;
    assert.ok(first && second);
    const broken: unknown[] = [
      'a text',
      [lineage()],
      { ...lineage(), baseModel: 7 },
      { ...lineage(), files: 'handbook.pdf' },
      { ...lineage(), files: [first, { ...second, sha256: 'not-a-hash' }] },
      { ...lineage(), files: [first, { ...second, sha256: SHA_A.toUpperCase() }] },
      { ...lineage(), files: [{ ...first, size: -1 }] },
      { ...lineage(), files: [{ ...first, size: 1.5 }] },
      { ...lineage(), files: [{ ...first, name: undefined }] },
      { ...lineage(), numQs: '50' },
      { ...lineage(), mode: null },
      { ...lineage(), useCase: undefined },
      { ...lineage(), jobId: 1 },
      { ...lineage(), startedAt: Number.NaN },
    ];
    for (const bad of broken) {
      const read = readStoredJobs([stored({ lineage: bad })], SCOPE);
      assert.equal(read.jobs.length, 1, JSON.stringify(bad));
      assert.equal(read.jobs[0]?.lineage, undefined, JSON.stringify(bad));
      assert.equal(read.repaired, 1, JSON.stringify(bad));
    }
  });

  it('is shown as lines with the base model, the answers, each file with its size and hash, and both times', () => {
    const lines = lineageLines(lineage(), Date.UTC(2026, 0, 2, 5, 6));
    assert.deepEqual(lines, [
      'Base model: oss-reasoner-8b',
      'Questions: 50 · mode pretraining',
      'Use case: HR questions',
      'Finetune job: ft-1',
      'Started: 2026-01-02 03:04 UTC',
      'Ended: 2026-01-02 05:06 UTC',
      'Source files (2):',
      `• handbook.pdf · 2 KB · SHA-256 ${SHA_A}`,
      `• policies.docx · 10 B · SHA-256 ${SHA_B}`,
    ]);
  });

  it('its lines are inert: a name or a use case cannot become an icon or a link, and a missing hash is said', () => {
    const lines = lineageLines(
      lineage({ useCase: 'see [docs](command:x)', files: [{ name: '$(alert) x.pdf', size: 1 }], baseModel: 'b\nEnded: never' }),
      undefined,
    );
    assert.ok(!lines.some((l) => l.includes('$(') || l.includes('](')), lines.join('\n'));
    assert.ok(lines.includes('Base model: b Ended: never'), 'a line break in a name does not forge a line');
    assert.ok(!lines.some((l) => l.startsWith('Ended:')), 'no end before the job ended');
    assert.ok(lines.some((l) => l.endsWith('SHA-256 not recorded')));
  });

  it('long file lists are cut and counted', () => {
    const files = Array.from({ length: 13 }, (_, i) => ({ name: `f${i}.pdf`, size: 1, sha256: SHA_A }));
    const lines = lineageLines(lineage({ files }), undefined);
    assert.equal(lines.filter((l) => l.startsWith('• ')).length, 10);
    assert.equal(lines.at(-1), '…and 3 more');
  });

  it('each model takes the lineage of its completed finetune job, else of its newest one', () => {
    const origins = lineageOrigins([
      job({ id: 'new-failed', state: 'failed', lineage: lineage({ jobId: 'new-failed' }) }),
      job({ id: 'old-done', lineage: lineage({ jobId: 'old-done' }) }),
      job({ id: 'older-done', lineage: lineage({ jobId: 'older-done' }) }),
      job({ id: 'other-running', modelName: 'other', state: 'running', lineage: lineage({ jobId: 'other-running' }) }),
      job({ id: 'other-older', modelName: 'other', state: 'failed', lineage: lineage({ jobId: 'other-older' }) }),
      job({ id: 'no-lineage', modelName: 'plain' }),
      job({ id: 'eval', kind: 'evaluation', modelName: 'evaluated', lineage: lineage() }),
    ]);
    assert.deepEqual(
      [...origins].map(([name, j]) => [name, j.id]),
      [
        ['my-model', 'old-done'],
        ['other', 'other-running'],
      ],
    );
  });
});
