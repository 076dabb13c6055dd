// Service text as the extension keeps and shows it (issue 19, parts 4 and 5): a state word it does not know is shown
// as a person reads it, never raw in quotes; the text a finetune status carries (message, error, state word) is capped
// when decoded, when written to a job record and when read back from globalState; model names in the list too.
import { strict as assert } from 'node:assert';
import type { FinetuneStatus } from '../../src/api/types';
import { jobDescription, stateWord } from '../../src/jobs/jobFormat';
import type { JobRecord } from '../../src/jobs/jobRecord';
import { finetunePatch } from '../../src/jobs/statusPatch';
import { readStoredJobs } from '../../src/jobs/storedJobs';
import { decodeFinetuneStatus, decodeModelList } from './readers';

const T0 = 1_700_000_000_000;
const job = (extra: Partial<JobRecord> = {}): JobRecord => ({
  id: 'j',
  kind: 'finetune',
  scope: 's',
  state: 'running',
  createdAt: T0,
  updatedAt: T0,
  modelName: 'my-model',
  ...extra,
});
const MIB = 1024 * 1024;
/** What a record may keep of one service text: the job id's cap is 256; a message a few thousand characters. */
const KEPT = 4_000;

describe('service text: unknown state words humanised', () => {
  it('validating_files reads "Validating files", never the raw word in quotes', () => {
    const shown = stateWord(job({ state: 'unknown', rawState: 'validating_files' }));
    assert.equal(shown, 'Validating files');
    assert.doesNotMatch(jobDescription(job({ state: 'unknown', rawState: 'validating_files' }), T0), /"|validating_files/);
    assert.equal(stateWord(job({ state: 'unknown', rawState: 'awaitingGPU-slot' })), 'Awaiting gpu slot');
    assert.equal(stateWord(job({ state: 'unknown' })), 'unknown state');
  });

  it('the decoder keeps the unknown word and keeps polling (not terminal)', () => {
    const s = decodeFinetuneStatus('j', { status: 'validating_files', id: 'ftjob-1' });
    assert.deepEqual([s.state, s.rawState], ['unknown', 'validating_files']);
  });
});

describe('service text: capped where it is kept', () => {
  const huge = 'x '.repeat(4 * MIB); // 8 MiB of text

  it('decoding a status caps its message, error and state word', () => {
    const s = decodeFinetuneStatus('j', { status: 'failed', message: huge, error: { message: huge } });
    assert.ok(s.message !== undefined && s.message.length <= KEPT, `message kept ${s.message?.length} chars`);
    assert.ok(s.error !== undefined && s.error.length <= KEPT, `error kept ${s.error?.length} chars`);
    const u = decodeFinetuneStatus('j', { status: `w${'o'.repeat(MIB)}rd` });
    assert.ok(u.rawState !== undefined && u.rawState.length <= 256, `state word kept ${u.rawState?.length} chars`);
  });

  it('a status patch never writes more than the cap, whatever the status says', () => {
    const status: FinetuneStatus = { jobId: 'j', state: 'unknown', rawState: 'r'.repeat(MIB), message: huge, error: huge, raw: {} };
    const patch = finetunePatch(job(), status, T0);
    for (const field of ['message', 'error', 'rawState'] as const) {
      const kept = patch[field];
      assert.ok(kept !== undefined && kept.length <= KEPT, `${field}: ${kept?.length} chars`);
    }
    assert.ok(JSON.stringify(patch).length < 3 * KEPT);
  });

  it('a stored record written before the cap is cut on reading, the job kept', () => {
    const stored = [{ ...job({ message: huge, error: huge, rawState: 's'.repeat(MIB), state: 'unknown' }) }];
    const { jobs, dropped, repaired } = readStoredJobs(stored, 's');
    assert.equal(jobs.length, 1);
    assert.deepEqual(dropped, []);
    assert.equal(repaired, 1);
    assert.ok(jobs[0]!.message!.length <= KEPT && jobs[0]!.error!.length <= KEPT && jobs[0]!.rawState!.length <= 256);
    assert.ok(jobs[0]!.message!.startsWith('x x x'), 'the start of the text is what is kept');
  });

  it('model names in the list are at most 256 characters and hold no control characters', () => {
    const models = decodeModelList({ models: ['m'.repeat(300), 'bad\u0007name', 'good-one', { name: 'n'.repeat(257) }] });
    assert.deepEqual(
      models.map((m) => m.name),
      ['good-one'],
    );
  });
});
