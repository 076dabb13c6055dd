// The evaluate command's dataset choices: the recent datasets and those with results here, each with its last result.
import { strict as assert } from 'node:assert';
import {
  ago,
  datasetItems,
  MAX_RECENT_DATASETS,
  readRecentDatasets,
  recentDatasetsKey,
  withRecentDataset,
} from '../../src/features/evaluate/datasetItems';
import { JOBS_KEY_PREFIX, RECENT_DATASETS_KEY_PREFIX } from '../../src/storageKeys';
import type { JobRecord } from '../../src/jobs/jobRecord';
import { SCOPE } from './pollRig';

const HOUR = 3_600_000;
const NOW = 100 * HOUR;

let n = 0;
const evaluation = (dataset: string, model: string, correct: number, total: number, finishedAt: number, extra: Partial<JobRecord> = {}) =>
  ({
    id: `e${++n}`,
    kind: 'evaluation',
    scope: SCOPE,
    state: 'completed',
    createdAt: finishedAt - 1_000,
    updatedAt: finishedAt,
    finishedAt,
    modelName: model,
    datasetName: dataset,
    result: { datasetName: dataset, modelName: model, correct, total, accuracy: correct / total },
    ...extra,
  }) satisfies JobRecord;

describe('dataset choices of the evaluate command', () => {
  it('offers each dataset once with its last result beside it, recent ones first, then the others newest first', () => {
    const jobs: JobRecord[] = [
      evaluation('squad', 'oss-reasoner-8b', 42, 50, NOW - 2 * HOUR),
      evaluation('squad', 'old-model', 10, 50, NOW - 30 * HOUR),
      evaluation('trivia', 'tuned-1', 3, 4, NOW - 5 * 60_000),
      evaluation('medqa', 'tuned-1', 1, 2, NOW - 50 * HOUR),
    ];
    assert.deepEqual(datasetItems(jobs, ['squad', 'typed-once'], NOW), [
      { dataset: 'squad', label: 'squad', description: '84.0% (42/50) · oss-reasoner-8b · 2 h ago' },
      { dataset: 'typed-once', label: 'typed-once', description: 'recent' },
      { dataset: 'trivia', label: 'trivia', description: '75.0% (3/4) · tuned-1 · 5 min ago' },
      { dataset: 'medqa', label: 'medqa', description: '50.0% (1/2) · tuned-1 · 2 d ago' },
    ]);
  });

  it('takes results only from completed evaluations with a result, never from finetunes or running jobs', () => {
    const running = evaluation('running-ds', 'm', 1, 1, NOW, { state: 'running' });
    const failed = evaluation('failed-ds', 'm', 1, 1, NOW, { state: 'failed' });
    const noResult: JobRecord = { ...evaluation('empty-ds', 'm', 1, 1, NOW), result: undefined };
    const finetune: JobRecord = { ...evaluation('ft-ds', 'm', 1, 1, NOW), kind: 'finetune' };
    assert.deepEqual(datasetItems([running, failed, noResult, finetune], ['failed-ds'], NOW), [
      { dataset: 'failed-ds', label: 'failed-ds', description: 'recent' },
    ]);
  });

  it('keeps the dataset id to send apart from the shown label, which cannot become an icon or a link', () => {
    const name = '$(alert) [x](command:y)';
    const [item] = datasetItems([evaluation(name, 'm$(zap)', 1, 2, NOW)], [], NOW);
    assert.ok(item);
    assert.equal(item.dataset, name);
    assert.ok(!item.label.includes('$(') && !item.label.includes(']('), item.label);
    assert.ok(!item.description.includes('$('), item.description);
  });

  it('uses the result’s dataset name when the job has none, and lists nothing when nothing was used', () => {
    const job: JobRecord = { ...evaluation('from-result', 'm', 1, 1, NOW), datasetName: undefined };
    assert.deepEqual(
      datasetItems([job], [], NOW).map((i) => i.dataset),
      ['from-result'],
    );
    assert.deepEqual(datasetItems([], [], NOW), []);
  });

  it('keeps the recent datasets per scope: one key for each, none shared with another service or key', () => {
    const other = 'https://other.example/#k2';
    assert.equal(recentDatasetsKey(SCOPE), RECENT_DATASETS_KEY_PREFIX + SCOPE);
    assert.notEqual(recentDatasetsKey(SCOPE), recentDatasetsKey(other));
    assert.ok(!recentDatasetsKey(SCOPE).startsWith(JOBS_KEY_PREFIX), 'the entry module reads every key under the jobs prefix as jobs');
  });

  it('puts the dataset just chosen first, once, and remembers at most MAX_RECENT_DATASETS', () => {
    assert.deepEqual(withRecentDataset([], 'squad'), ['squad']);
    assert.deepEqual(withRecentDataset(['a', 'squad', 'b'], 'squad'), ['squad', 'a', 'b']);
    const full = Array.from({ length: MAX_RECENT_DATASETS }, (_, i) => `d${i}`);
    const next = withRecentDataset(full, 'new');
    assert.equal(next.length, MAX_RECENT_DATASETS);
    assert.deepEqual(next.slice(0, 2), ['new', 'd0']);
  });

  it('reads back only names from storage', () => {
    assert.deepEqual(readRecentDatasets(undefined), []);
    assert.deepEqual(readRecentDatasets('squad'), []);
    assert.deepEqual(readRecentDatasets({ 0: 'squad' }), []);
    assert.deepEqual(readRecentDatasets(['squad', 3, '', null, 'trivia']), ['squad', 'trivia']);
  });

  it('says how long ago in the largest unit that fits', () => {
    assert.deepEqual([0, 59_999, 60_000, 59 * 60_000, HOUR, 23 * HOUR + 59 * 60_000, 24 * HOUR, 75 * HOUR, -5].map(ago), [
      'just now',
      'just now',
      '1 min ago',
      '59 min ago',
      '1 h ago',
      '23 h ago',
      '1 d ago',
      '3 d ago',
      'just now',
    ]);
  });
});
