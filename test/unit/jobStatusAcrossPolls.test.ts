// Job statuses read across polls (issue 36, item 8), as a new user saw them against a service built another way: the
// real client (its kept profile in a book) and the real poller, against a scripted service that answers each status
// request with the next answer of a script. Polls are driven by Refresh (pollNow): no timers, no waiting on clocks.
//  - Several progress readings in one answer: the one that moves across polls is the progress (was: a fixed percent
//    that came first, "running 46 %" while the steps went 100, 200, 300 of 300).
//  - A state word that only ever comes last (once progress reached its end, or once the made model is listed) is
//    learned as an end, into the profile's states, so the next job ends at once (was: "Deployed 46 %" with a spinner
//    until the model list was read again).
//  - Inferred once means once: a profile that reads the answers is not inferred again at every poll because the
//    answers have no progress.
//  - A reading that does not move for many polls while the answers change is said on the row.
import { strict as assert } from 'node:assert';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ServiceClient } from '../../src/api/client';
import * as inference from '../../src/api/jobStatusInference';
import { JobStatusMemory } from '../../src/api/jobStatusMemory';
import type { JobStatusPart, JobStatusProfile } from '../../src/api/profileFormat';
import { readJobStatus } from '../../src/api/jobStatusReading';
import { JobPoller } from '../../src/jobs/jobPoller';
import { jobDescription } from '../../src/jobs/jobFormat';
import { emptyProfileBook, KEY } from './helpers';
import { FakeClock, FakeJobs, SCOPE } from './pollRig';

/** A service that answers the status of each job with the next answer of its script (the last one once spent). */
class ScriptedService {
  private server: Server | undefined;
  readonly scripts = new Map<string, unknown[]>();
  models: string[] = ['oss-reasoner-8b'];
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      let body: unknown = { error: 'not found' };
      let code = 404;
      if (url.pathname === '/cr/generate_questions_status') {
        const script = this.scripts.get(url.searchParams.get('job_id') ?? '') ?? [];
        body = script.length > 1 ? script.shift() : script[0];
        code = body === undefined ? 404 : 200;
      } else if (url.pathname === '/cr/get_allowed_models') {
        body = { models: this.models.map((name) => ({ name })) };
        code = 200;
      }
      res.writeHead(code, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}

/** The reported service's answers: a fixed "data ready" percent first, then the training steps, then DEPLOYED. */
const answer = (id: string, state: string, step: number, extra: Record<string, unknown> = {}) => ({
  id,
  state,
  completion_percent: 46,
  metrics: { step, total_steps: 300, loss: 1 / (1 + step) },
  ...extra,
});

describe('job statuses across polls (issue 36 item 8)', () => {
  const service = new ScriptedService();
  let clock: FakeClock;
  let jobs: FakeJobs;
  let kept: Map<JobStatusPart, JobStatusProfile>;
  let changes: string[];
  let logs: string[];
  let poller: JobPoller;
  let client: ServiceClient;

  before(() => service.start());
  after(() => service.stop());

  beforeEach(() => {
    clock = new FakeClock();
    jobs = new FakeJobs(clock);
    kept = new Map();
    changes = [];
    logs = [];
    service.scripts.clear();
    service.models = ['oss-reasoner-8b'];
    const book = emptyProfileBook({
      jobStatus: (part) => kept.get(part),
      readJobStatus: (part, { profile, change }) => {
        kept.set(part, profile);
        changes.push(change);
      },
    });
    client = new ServiceClient({ baseUrl: service.url, apiKey: KEY, sleep: async () => undefined }, book);
    poller = new JobPoller({
      connect: async () => ({ scope: SCOPE, source: client }),
      jobs,
      claimNotice: async () => true,
      intervalMs: () => 5_000,
      listModels: (opts) => client.listModels(opts),
      clock,
      random: () => 0.5,
      log: (_level, message) => logs.push(message),
    });
  });

  afterEach(() => poller.dispose());

  /** One Refresh, a poll interval after the last. */
  async function poll(): Promise<void> {
    clock.pass(5_000);
    await poller.pollNow();
  }

  async function follow(id: string, script: unknown[], modelName = 'support-bot'): Promise<void> {
    service.scripts.set(id, script);
    jobs.add('finetune', id, { state: 'running', modelName, requestedName: modelName });
    await poller.sync();
  }

  it('reads the progress that moves (the steps), not a fixed percent that came first', async () => {
    await follow('ft-1', [
      answer('ft-1', 'RUNNING', 100),
      answer('ft-1', 'RUNNING', 200),
      answer('ft-1', 'RUNNING', 250),
      answer('ft-1', 'RUNNING', 250),
    ]);
    await poll();
    await poll();
    assert.equal(Math.round(jobs.byId('ft-1').progress ?? -1), 67, `row: ${jobDescription(jobs.byId('ft-1'), clock.now())}`);
    assert.equal(kept.get('finetuneStatus')?.done, 'metrics.step', 'learned into the profile');
    assert.equal(kept.get('finetuneStatus')?.percent, undefined, 'the fixed percent is no longer the progress');
    await poll();
    assert.equal(Math.round(jobs.byId('ft-1').progress ?? -1), 83);
    await poll();
    assert.equal(Math.round(jobs.byId('ft-1').progress ?? -1), 83, 'an answer that did not move changes nothing');
    assert.equal(kept.get('finetuneStatus')?.done, 'metrics.step');
  });

  it('learns a word said only once progress reached its end as an end: that job and the next end at once', async () => {
    await follow('ft-2', [
      answer('ft-2', 'RUNNING', 100),
      answer('ft-2', 'RUNNING', 200),
      answer('ft-2', 'RUNNING', 300),
      answer('ft-2', 'DEPLOYED', 300),
    ]);
    for (let i = 0; i < 4; i++) await poll();
    const job = jobs.byId('ft-2');
    assert.equal(job.state, 'completed', `row: ${jobDescription(job, clock.now())}`);
    assert.equal(kept.get('finetuneStatus')?.states?.DEPLOYED, 'completed');
    // The next job: its first DEPLOYED answer ends it, whatever its progress says.
    await follow('ft-3', [answer('ft-3', 'DEPLOYED', 0)]);
    await poll();
    assert.equal(jobs.byId('ft-3').state, 'completed');
  });

  it('learns the word said when the made model was listed as an end: the next job ends at its first answer', async () => {
    const plain = (state: string) => ({ id: 'x', state, note: 'no progress said' });
    await follow('ft-4', [plain('RUNNING'), plain('RUNNING'), plain('DEPLOYED')]);
    await poll();
    await poll();
    await poll();
    assert.equal(jobs.byId('ft-4').state, 'unknown', 'DEPLOYED alone says nothing yet');
    service.models = ['oss-reasoner-8b', 'support-bot'];
    await poll();
    assert.equal(jobs.byId('ft-4').state, 'completed', 'ended by the model list');
    assert.equal(kept.get('finetuneStatus')?.states?.DEPLOYED, 'completed', changes.join('\n'));
    await follow('ft-5', [plain('DEPLOYED')], 'support-bot-2');
    await poll();
    assert.equal(jobs.byId('ft-5').state, 'completed');
  });

  it('infers a profile that reads the answers once, not at every poll because they say no progress', async () => {
    const original = inference.inferJobStatusProfile;
    let inferred = 0;
    const spy: typeof original = (body, what) => {
      inferred++;
      return original(body, what);
    };
    (inference as { inferJobStatusProfile: typeof original }).inferJobStatusProfile = spy;
    try {
      const running = { id: 'ft-6', state: 'RUNNING', message: 'Training the adapter' };
      await follow('ft-6', [running]);
      for (let i = 0; i < 30; i++) await poll();
      assert.equal(jobs.byId('ft-6').state, 'running');
      assert.ok(inferred <= 2, `inferred ${inferred} times over 30 polls`);
    } finally {
      (inference as { inferJobStatusProfile: typeof original }).inferJobStatusProfile = original;
    }
  });

  it('says on the row when the answers change but the reading does not, and clears it when the reading moves', async () => {
    // The service counts something else (a heartbeat) at every answer; the state and progress read never move.
    const script = Array.from({ length: 40 }, (_, i) => ({ id: 'ft-7', state: 'RUNNING', heartbeat: `beat-${i}`, pct: '12%' }));
    script.push({ id: 'ft-7', state: 'RUNNING', heartbeat: 'beat-last', pct: '13%' });
    await follow('ft-7', script);
    for (let i = 0; i < 10; i++) await poll();
    assert.equal(jobs.byId('ft-7').unmovedSince, undefined, 'ten polls are not many');
    for (let i = 0; i < 30; i++) await poll();
    const stuck = jobs.byId('ft-7');
    assert.notEqual(stuck.unmovedSince, undefined);
    assert.match(jobDescription(stuck, clock.now()), /the service's answers change but this reading does not/);
    await poll();
    assert.equal(jobs.byId('ft-7').unmovedSince, undefined, 'a reading that moves clears it');
  });

  it('says nothing of a job whose answers do not change (a long queue is silence, not a misread)', async () => {
    await follow('ft-8', [{ id: 'ft-8', state: 'queued', pct: '0%' }]);
    for (let i = 0; i < 40; i++) await poll();
    assert.equal(jobs.byId('ft-8').unmovedSince, undefined);
  });
});

describe('job statuses across polls: what is not learned', () => {
  /** Reads `answers` of one job in turn with one memory, each by the profile the last one left. */
  function readAll(answers: unknown[], first?: JobStatusProfile) {
    const memory = new JobStatusMemory();
    let profile = first;
    const changes: string[] = [];
    const reads = answers.map((body) => {
      const r = readJobStatus('finetuneStatus', body, profile, { jobId: 'j', memory });
      profile = r.profile;
      if (r.change !== undefined) changes.push(r.change);
      return r.read;
    });
    return { reads, profile: profile!, changes };
  }

  it('a word said before progress reached its end is no end, though it is said at the end too', () => {
    const { reads, profile } = readAll([answer('j', 'BAKING', 100), answer('j', 'BAKING', 200), answer('j', 'BAKING', 300)]);
    assert.deepEqual(
      reads.map((r) => [r.state, Math.round(r.progress ?? -1)]),
      [
        ['unknown', 46],
        ['unknown', 67],
        ['unknown', 100],
      ],
    );
    assert.equal(profile.states, undefined);
  });

  it("a setting's profile is read as given: its fixed percent stays the progress, and no word is learned", () => {
    const setting: JobStatusProfile = { by: 'setting', state: 'state', percent: 'completion_percent' };
    const { reads, profile, changes } = readAll(
      [answer('j', 'RUNNING', 100), answer('j', 'RUNNING', 200), answer('j', 'DONE_DEPLOYING', 300)],
      setting,
    );
    assert.deepEqual(
      reads.map((r) => [r.state, r.progress]),
      [
        ['running', 46],
        ['running', 46],
        ['unknown', 46],
      ],
    );
    assert.equal(profile, setting);
    assert.deepEqual(changes, []);
  });

  it('two readings that both move keep the one read first', () => {
    const both = (n: number) => ({ state: 'RUNNING', pct: n, metrics: { step: n * 3, total_steps: 300 } });
    const { reads, profile } = readAll([both(10), both(20), both(30)]);
    assert.deepEqual(
      reads.map((r) => r.progress),
      [10, 20, 30],
    );
    assert.equal(profile.percent, 'pct');
  });
});

describe('job statuses across polls: the row of a reading that does not move', () => {
  it("offers Choose How to Read… on a followed row marked unmoved (package.json's menus of the Jobs view)", async () => {
    const { readFile } = await import('node:fs/promises');
    const pkg = JSON.parse(await readFile(new URL('../../../package.json', `file://${__dirname}/`), 'utf8')) as {
      contributes: { menus: Record<string, { command?: string; when?: string; group?: string }[]> };
    };
    const entries = (pkg.contributes.menus['view/item/context'] ?? []).filter(
      (m) => m.command === 'hostedReasoning.chooseHowToRead' && m.when?.includes('view == hostedReasoning.jobs'),
    );
    assert.ok(entries.length > 0, 'no Choose How to Read… on the Jobs view rows');
    // The row's contextValue as jobsTree.ts writes it for a followed running finetune whose reading does not move.
    const row = 'job finetune running followed unmoved';
    const takes = (when: string, on = row) => [...when.matchAll(/viewItem =~ \/(.+?)\/(?=\s|$)/g)].every((m) => new RegExp(m[1]!).test(on));
    assert.ok(
      entries.some((m) => m.group?.startsWith('inline') && takes(m.when!)),
      'not inline on the row',
    );
    assert.ok(
      entries.some((m) => !m.group?.startsWith('inline') && takes(m.when!)),
      "not in the row's menu",
    );
    // Every job row's menu offers it (a misread is corrected as an unreadable answer is); inline only where it is needed.
    for (const other of ['job evaluation running followed', 'job finetune completed', 'job evaluation running followed unreadable']) {
      assert.ok(
        entries.some((m) => !m.group?.startsWith('inline') && takes(m.when!, other)),
        `not in the menu of the row "${other}"`,
      );
    }
    assert.ok(
      !entries.some((m) => m.group?.startsWith('inline') && takes(m.when!, 'job finetune running followed')),
      'inline on a row read well',
    );
  });
});
