// The client keeps the started job's and the download answer's places through its ProfileBook (issue 27): the first
// answer's places are reported with the change to log, later answers are read by what the book holds and report no
// change, and an answer that moved its id is inferred again. Against the emulator, its answers shaped as a service's.
import { strict as assert } from 'node:assert';
import type { ProfileBook } from '../../src/api/profileBook';
import type { DownloadProfile, StartedJobProfile } from '../../src/api/profileFormat';
import { ServiceClient } from '../../src/api/client';
import { emptyProfileBook, KEY, tempDir, useEmulator } from './helpers';
import type { Emulator } from '../service/emulator';

/** A book that keeps what it is told, as ServiceProfiles does, and records each report. */
function recordingBook() {
  const reports: { kind: string; from?: string; change?: string }[] = [];
  let startedJob: StartedJobProfile | undefined;
  let download: DownloadProfile | undefined;
  const book: ProfileBook = emptyProfileBook({
    startedJob: () => startedJob,
    readStartedJob: ({ kind, from, change }) => {
      reports.push({ kind, from, change });
      if (change !== undefined) startedJob = { ...(startedJob ?? { by: 'inferred' }), [kind]: from };
    },
    download: () => download,
    readDownload: ({ profile, change }) => {
      reports.push({ kind: 'download', from: profile.url, change });
      if (change !== undefined) download = profile;
    },
  });
  return { book, reports, kept: () => ({ startedJob, download }) };
}

function clientWith(emu: Emulator, book: ProfileBook): ServiceClient {
  return new ServiceClient(
    {
      baseUrl: emu.url,
      apiKey: KEY,
      sleep: async () => undefined,
      timeouts: { requestMs: 5_000, streamIdleMs: 2_000, connectMs: 5_000, uploadIdleMs: 10_000 },
    },
    book,
  );
}

describe('client: the started job and download places kept through the ProfileBook', function () {
  this.timeout(30_000);
  const ctx = useEmulator({ answerShapes: { start: 'nested' } });
  const tmp = tempDir('hr-profiles-');
  beforeEach(() => ctx.emu.faults.clear());

  it('an evaluation start: inferred and kept once, read by the place kept after, inferred again when it moves', async () => {
    const { book, reports, kept } = recordingBook();
    const client = clientWith(ctx.emu, book);
    const first = await client.startEvaluation('oss-reasoner-8b', 'squad');
    assert.match(first.jobId, /\S/);
    assert.equal(kept().startedJob?.evaluation, 'result.job.ref');
    assert.match(reports[0]?.change ?? '', /Started job: the id at result\.job\.ref/);
    await client.startEvaluation('oss-reasoner-8b', 'squad');
    assert.deepEqual(reports[1], { kind: 'evaluation', from: 'result.job.ref', change: undefined });
    ctx.emu.faults.add({
      path: '/cr/finetune_model/evaluate_async',
      kind: 'body',
      status: 200,
      body: JSON.stringify({ job_id: 'eval-77', user: 'u_123', status: 'queued' }),
    });
    assert.equal((await client.startEvaluation('oss-reasoner-8b', 'squad')).jobId, 'eval-77');
    assert.match(reports[2]?.change ?? '', /no longer fits.*result\.job\.ref.*job_id/);
    assert.equal(kept().startedJob?.evaluation, 'job_id');
  });

  it('a download answered as signed-URL metadata: its places kept, the second download read by them', async () => {
    ctx.emu.configure({ downloadMode: 'metadata' });
    await ctx.emu.addCustomModel(KEY, 'kept-places');
    const { book, reports, kept } = recordingBook();
    const client = clientWith(ctx.emu, book);
    await client.download('kept-places', { directory: tmp.dir });
    assert.deepEqual(kept().download, {
      url: 'url',
      expires: 'expires_at',
      size: 'size',
      sha256: 'sha256',
      fileName: 'filename',
      by: 'inferred',
    });
    const out = await client.download('kept-places', { directory: tmp.dir, overwrite: true });
    assert.equal(out.verified, 'sha256');
    assert.deepEqual(
      reports.map((r) => r.change === undefined),
      [false, true],
    );
  });
});
