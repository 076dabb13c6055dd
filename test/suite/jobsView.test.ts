// The Jobs view, the jobs status bar item and the end-of-job notifications, driven by real jobs on the emulator:
// a running job spins, a finished evaluation shows its score and judge, a failed one its error; the status bar counts
// running jobs and warns about a failure until the user looks; each ended job is announced once, with its next steps.
// Then the Jobs view's commands: remove (asking first when the job still runs), clear finished, refresh.
import * as assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { FinetuneAnswers } from '../../src/features/finetune/finetuneCommand';
import { ROW_NAME_CHARS, shortName } from '../../src/jobs/jobFormat';
import type { JobNode } from '../../src/features/jobs/jobsTree';
import { JUDGE_MODEL } from '../service/emulator';
import { scoreFor } from '../service/evaluation';
import { writePdf } from '../service/fixtures';
import { modelNode, recordingMessages, waitFor, type ShownMessage } from './helpers';
import { EMULATOR_SETTINGS, useRig } from './rig';
import { COMMANDS } from '../../src/contributions';

const rig = useRig();
const MODEL = 'oss-reasoner-8b';
const DATASET = 'demo-qa';
const MISSING_DATASET = 'no-such-dataset';
/** Long enough that a job is still running when a test is done with it (it is removed from the list afterwards). */
const LONG_EVALUATION_MS = 120_000;

interface Row {
  node: JobNode;
  item: vscode.TreeItem;
}

async function scope(): Promise<string> {
  const s = await rig.api.services.session.scope();
  assert.ok(s, 'no scope: is a key stored?');
  return s;
}

/** The job's row as the view renders it (undefined when the view does not list it). */
async function row(jobId: string): Promise<Row | undefined> {
  const node = (await rig.api.jobsView.getChildren()).find((n) => n.job.id === jobId);
  return node ? { node, item: rig.api.jobsView.getTreeItem(node) } : undefined;
}

function iconId(item: vscode.TreeItem): string | undefined {
  return item.iconPath instanceof vscode.ThemeIcon ? item.iconPath.id : undefined;
}

/** Waits until the job's row is in the given state (fails at once if it ends in another one). */
async function rowIn(jobId: string, state: string, timeoutMs = 10_000): Promise<Row> {
  let last: Row | undefined;
  return waitFor(
    `the row of job ${jobId} to show "${state}"`,
    async () => {
      last = await row(jobId);
      const now = last?.node.job.state;
      if (now !== state && ['completed', 'failed', 'cancelled'].includes(now ?? '')) throw new Error(`the job ended ${now}`);
      return now === state ? last : undefined;
    },
    { timeoutMs, intervalMs: 50, describe: () => last?.node.job },
  );
}

/** Starts an evaluation the way a script does; the command returns the job id. */
async function evaluate(datasetName: string, started: string[]): Promise<string> {
  const jobId = await rig.api.evaluate(MODEL, datasetName);
  assert.ok(jobId, `the evaluate command returned no job id (${MODEL} on ${datasetName})`);
  started.push(jobId);
  return jobId;
}

/** Waits until the poller no longer follows the job and nothing is in flight: an ended job has been announced by then. */
async function settledAfter(jobId: string): Promise<void> {
  await waitFor(`the poller to stop following ${jobId}`, () =>
    rig.api.poller.followed().some((k) => k.endsWith(jobId)) ? undefined : true,
  );
  await rig.api.poller.settled();
  // A duplicate announcement would come from a late round or a re-read of the list: give it the time to show.
  await new Promise((resolve) => setTimeout(resolve, 300));
}

function statusBarState() {
  const { item, isVisible } = rig.api.statusBar;
  return { isVisible, text: item.text, command: item.command, background: item.backgroundColor?.id };
}

/** Forgets the jobs a test started (running ones would otherwise be polled, and counted, for the rest of the run). */
async function forget(jobIds: string[]): Promise<void> {
  const s = await rig.api.services.session.scope();
  if (!s || jobIds.length === 0) return;
  const keys = (await rig.api.jobsView.getChildren()).filter((n) => jobIds.includes(n.job.id)).map((n) => n.key);
  await rig.api.services.jobs.remove(s, keys);
}

/** The view's premise for exact status bar expectations: nothing else runs or has failed unseen in this scope. */
async function assertQuietScope(): Promise<void> {
  const jobs = rig.api.services.jobs.list(await scope());
  const busy = jobs.filter((j) => j.state === 'queued' || j.state === 'running' || j.unseenFailure);
  assert.deepEqual(
    busy.map((j) => `${j.kind} ${j.id} ${j.state}`),
    [],
    'another test left running or unseen failed jobs',
  );
}

/** What @hosted /jobs says, as plain text: it writes markdown literals (every ASCII punctuation escaped). */
async function jobsText(): Promise<string> {
  const said: string[] = [];
  const stream = {
    markdown: (m: string | vscode.MarkdownString) => said.push(typeof m === 'string' ? m : m.value),
    button: () => undefined,
  };
  const cancel = new vscode.CancellationTokenSource();
  try {
    await rig.api.chat.participant(
      { prompt: '', command: 'jobs', references: [], toolReferences: [] } as unknown as vscode.ChatRequest,
      { history: [] },
      stream as unknown as vscode.ChatResponseStream,
      cancel.token,
    );
  } finally {
    cancel.dispose();
  }
  return said.join('').replace(/\\([!-/:-@[-`{-~])/g, '$1');
}

describe('jobs view and status bar', () => {
  const started: string[] = [];

  afterEach(async () => {
    await forget(started.splice(0));
    rig.emu.configure({
      evaluationDurationMs: EMULATOR_SETTINGS.evaluationDurationMs,
      finetuneDurationMs: EMULATOR_SETTINGS.finetuneDurationMs,
      holdEvaluations: false,
    });
    await rig.clearKey();
  });

  it('a running finetune’s row, the status bar tooltip and /jobs say its time left once its progress moved, and its elapsed time always', async function () {
    this.timeout(120_000);
    // A finetune of 80 s on the emulator: a stage of several polls, its progress moving a point or so a second.
    rig.emu.configure({ finetuneDurationMs: 80_000 });
    const workspace = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(workspace, 'no workspace folder');
    const folder = await fsp.mkdtemp(path.join(workspace, 'suite-time-left-'));
    try {
      const pdf = path.join(folder, 'notes.pdf');
      await writePdf(pdf, ['Invoices are sent on the first working day of the month.']);
      await rig.useKey('demo-key');
      await assertQuietScope();
      const modelName = `suite-left-${Date.now().toString(36)}`;
      const answers: FinetuneAnswers = { baseModel: MODEL, modelName, numQs: 3, mode: 'pretraining', useCase: '' };
      const outcome = await rig.api.finetune({ files: [pdf], answers });
      assert.ok(outcome?.status === 'started', `outcome: ${JSON.stringify(outcome)}`);
      started.push(outcome.job.id);

      // Before two readings of one stage: the state and the elapsed time, no estimate.
      const first = await row(outcome.job.id);
      assert.match(String(first?.item.description), /^(queued|running)( \d+%)? · \d+s$/);
      const LEFT = '(about \\d+ min|\\d+-\\d+ min|under (a minute|\\d+ min)) left';
      const ELAPSED = '(\\d+s|\\d+m \\d+s)';
      const description = new RegExp(`^running \\d+% · ${LEFT} · ${ELAPSED}$`);
      let last: Row | undefined;
      const estimated = await waitFor(
        'the row to say the time left',
        async () => {
          last = await row(outcome.job.id);
          return String(last?.item.description).includes(' left · ') ? last : undefined;
        },
        { timeoutMs: 90_000, intervalMs: 200, describe: () => ({ description: last?.item.description, job: last?.node.job }) },
      );
      assert.match(String(estimated.item.description), description);
      assert.match(estimated.item.tooltip as string, new RegExp(`^Estimate: ${LEFT}$`, 'm'));

      // The status bar renders on each change of the list, and a new stage starts the rate again: each is read until it
      // says it (the wait's last reading is in its failure).
      const bar = new RegExp(`^• Create ${modelName}: running \\d+% · ${LEFT} · ${ELAPSED}$`, 'm');
      await waitFor(
        'the status bar tooltip to say the time left',
        () => (bar.test(rig.api.statusBar.item.tooltip as string) ? true : undefined),
        {
          timeoutMs: 60_000,
          describe: () => rig.api.statusBar.item.tooltip,
        },
      );

      const jobs = new RegExp(`^- Create ${modelName}: running \\d+% · ${LEFT} · ${ELAPSED}$`, 'm');
      let text = '';
      await waitFor(
        '/jobs to say the time left',
        async () => {
          text = await jobsText();
          return jobs.test(text) ? true : undefined;
        },
        { timeoutMs: 60_000, intervalMs: 500, describe: () => text },
      );
    } finally {
      await fsp.rm(folder, { recursive: true, force: true });
    }
  });

  it('lists a running evaluation with a spinner, then its accuracy and judge; the status bar counts it, then hides', async function () {
    this.timeout(20_000);
    await rig.useKey('demo-key');
    await assertQuietScope();
    const dataset = rig.emu.options.datasets[DATASET];
    assert.ok(dataset, `the emulator has no dataset ${DATASET}`);
    const correct = scoreFor(MODEL, false, DATASET, dataset);
    const score = `${((correct / dataset.total) * 100).toFixed(1)}% (${correct}/${dataset.total})`;

    await recordingMessages(async (shown) => {
      // Held running until the test has seen it run: on a loaded machine the emulator's 500 ms can be over before the
      // first look (CI's failure; a look delayed 1.5 s found the row already passed), as the poller asks at once.
      rig.emu.configure({ holdEvaluations: true });
      const jobId = await evaluate(DATASET, started);

      // Stored before the command returned: the row is there at once, spinning.
      const running = await row(jobId);
      assert.ok(running, 'the Jobs view does not list the new evaluation');
      assert.equal(running.item.label, `Evaluate ${MODEL} on ${DATASET}`);
      assert.equal(iconId(running.item), 'loading~spin');
      // followed: polled, so the row offers Stop Following.
      assert.match(String(running.item.contextValue), /^job evaluation (queued|running) followed$/);
      assert.match(String(running.item.description), /^(queued|running)( \d+%)? · \d+s$/);

      const bar = await waitFor(
        'the status bar to show one running job',
        () => {
          const s = statusBarState();
          return s.isVisible && s.text.includes('1 job') ? s : undefined;
        },
        { describe: statusBarState },
      );
      assert.equal(bar.text, '$(sync~spin) 1 job');
      assert.equal(bar.command, COMMANDS.showJobs);
      assert.equal(bar.background, undefined, 'a warning background while nothing failed');

      rig.emu.configure({ holdEvaluations: false });
      const done = await rowIn(jobId, 'completed');
      assert.equal(done.item.description, `${score} · judge ${JUDGE_MODEL}`);
      assert.equal(iconId(done.item), 'pass');
      assert.equal(done.item.contextValue, 'job evaluation completed');
      await waitFor('the status bar to hide', () => (statusBarState().isVisible ? undefined : true), { describe: statusBarState });

      await settledAfter(jobId);
      const info = shown.filter((m) => m.severity === 'information');
      assert.deepEqual(info, [
        {
          severity: 'information',
          text: `${MODEL} on ${DATASET}: ${score}, judged by ${JUDGE_MODEL}`,
          actions: ['Open Report', 'Show in Jobs'],
          modal: false,
        },
      ]);
      assert.deepEqual(
        shown.filter((m) => m.severity !== 'information'),
        [],
        'an error or warning was shown',
      );
    });
  });

  it('shows a failed evaluation’s error; the status bar warns until Show Jobs runs', async function () {
    this.timeout(20_000);
    await rig.useKey('demo-key');
    await assertQuietScope();

    await recordingMessages(async (shown) => {
      // The emulator accepts an unknown dataset and fails the job later, in the poll.
      const jobId = await evaluate(MISSING_DATASET, started);
      const failed = await rowIn(jobId, 'failed');
      assert.equal(failed.item.description, `failed: Dataset '${MISSING_DATASET}' not found`);
      assert.equal(iconId(failed.item), 'error');
      assert.equal(failed.item.contextValue, 'job evaluation failed unseen');

      const bar = await waitFor(
        'the status bar to warn about the failure',
        () => {
          const s = statusBarState();
          return s.isVisible && s.text.includes('failed') ? s : undefined;
        },
        { describe: statusBarState },
      );
      assert.equal(bar.text, '$(warning) Job failed');
      assert.equal(bar.background, 'statusBarItem.warningBackground');
      assert.equal(bar.command, COMMANDS.showJobs);

      await settledAfter(jobId);
      assert.deepEqual(shown, [
        {
          severity: 'error',
          text: `Evaluating ${MODEL} on ${MISSING_DATASET} failed: Dataset '${MISSING_DATASET}' not found`,
          actions: ['Show Log', 'Show Jobs'],
          modal: false,
        },
      ]);
      // Nobody looked yet: the warning stays.
      assert.deepEqual(statusBarState(), bar);

      await vscode.commands.executeCommand(COMMANDS.showJobs);
      await waitFor('the status bar to hide after Show Jobs', () => (statusBarState().isVisible ? undefined : true), {
        describe: statusBarState,
      });
      assert.equal((await row(jobId))?.item.contextValue, 'job evaluation failed', 'after Show Jobs the failure counts as seen');
    });
  });

  it('announces a finished finetune once, offering its next steps; Run Locally downloads it and opens it locally', async function () {
    this.timeout(60_000);
    const workspace = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(workspace, 'no workspace folder');
    const folder = await fsp.mkdtemp(path.join(workspace, 'suite-jobs-'));
    const downloads = await fsp.mkdtemp(path.join(os.tmpdir(), 'hr-suite-ready-'));
    await rig.setSetting('downloadFolder', downloads);
    await rig.setSetting('local.threads', 1);
    try {
      const pdf = path.join(folder, 'notes.pdf');
      await writePdf(pdf, ['Support tickets are answered within one working day.']);
      await rig.useKey('demo-key');
      const baseModel = rig.emu.options.keys['demo-key']?.models[0];
      assert.ok(baseModel);
      const answers: FinetuneAnswers = {
        baseModel,
        modelName: `suite-jobs-${Date.now().toString(36)}`,
        numQs: 3,
        mode: 'pretraining',
        useCase: '',
      };

      const answerReady = (m: ShownMessage) => (m.text === `Model ${answers.modelName} is ready.` ? 'Run Locally' : undefined);
      await recordingMessages(
        async (shown) => {
          const outcome = await rig.api.finetune({ files: [pdf], answers });
          assert.equal(outcome?.status, 'started', `outcome: ${JSON.stringify(outcome)}`);
          assert.ok(outcome.status === 'started');
          started.push(outcome.job.id);

          const done = await rowIn(outcome.job.id, 'completed', 20_000);
          assert.equal(iconId(done.item), 'pass');
          assert.equal(done.item.contextValue, 'job finetune completed');
          await settledAfter(outcome.job.id);

          const ready = shown.filter((m) => m.text === `Model ${answers.modelName} is ready.`);
          assert.deepEqual(ready, [
            {
              severity: 'information',
              text: `Model ${answers.modelName} is ready.`,
              actions: ['Evaluate', 'Try in Playground', 'Download', 'Run Locally'],
              modal: false,
            },
          ]);
          // Run Locally: the model is downloaded (to the folder set), then opened in a playground as a local model.
          const panel = await waitFor(
            'a playground on the local model',
            () => rig.api.playground.panels.find((p) => p.panel.title === `Playground · Local · ${answers.modelName}`),
            { timeoutMs: 30_000 },
          );
          panel.dispose();
          assert.deepEqual(await fsp.readdir(downloads), [`${answers.modelName}.gguf`]);
          // Besides it, only the "started" message of the command itself and the download's.
          const others = shown.filter((m) => !ready.includes(m));
          assert.deepEqual(
            others.map((m) => [m.severity, m.text.replace(/:.*/, '').replace(/ \(.*\)\.$/, '')]),
            [
              ['information', 'Finetuning started'],
              ['information', `Downloaded ${answers.modelName}.gguf`],
            ],
          );
        },
        { answer: answerReady },
      );
    } finally {
      await fsp.rm(folder, { recursive: true, force: true });
      await fsp.rm(downloads, { recursive: true, force: true });
      await rig.setSetting('downloadFolder', '');
      await vscode.workspace.getConfiguration('hostedReasoning').update('local.threads', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('a model the service renamed (fine_tuned_model) has that one name in the Jobs view, the notification and the Models view', async function () {
    this.timeout(30_000);
    const workspace = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(workspace, 'no workspace folder');
    const folder = await fsp.mkdtemp(path.join(workspace, 'suite-jobs-'));
    rig.emu.configure({ renameTunedModels: true });
    try {
      const pdf = path.join(folder, 'notes.pdf');
      await writePdf(pdf, ['Support tickets are answered within one working day.']);
      await rig.useKey('demo-key');
      const baseModel = rig.emu.options.keys['demo-key']?.models[0];
      assert.ok(baseModel);
      const asked = `suite-renamed-${Date.now().toString(36)}`;
      const answers: FinetuneAnswers = { baseModel, modelName: asked, numQs: 3, mode: 'pretraining', useCase: '' };

      await recordingMessages(async (shown) => {
        const outcome = await rig.api.finetune({ files: [pdf], answers });
        assert.ok(outcome?.status === 'started', `outcome: ${JSON.stringify(outcome)}`);
        started.push(outcome.job.id);
        const made = `ft:${baseModel}:${asked}:${outcome.job.id.slice(0, 8)}`;

        const done = await rowIn(outcome.job.id, 'completed', 20_000);
        // The row shows the name (shortened if long: jobRowTitle), its tooltip and accessible label the whole of it.
        assert.equal(done.item.label, `Create ${shortName(made)}`);
        assert.equal((done.item.tooltip as string).split('\n')[0], `Create ${made}`);
        assert.ok(done.item.accessibilityInformation?.label.startsWith(`Create ${made},`));
        assert.equal(done.node.job.modelName, made);
        assert.equal(done.node.job.requestedName, asked);
        await settledAfter(outcome.job.id);
        assert.deepEqual(
          shown.filter((m) => m.text.startsWith('Model ')).map((m) => m.text),
          [`Model ${made} is ready.`],
        );

        await vscode.commands.executeCommand(COMMANDS.refreshModels);
        const node = await waitFor('the renamed model in the Models view', () => modelNode(rig.api, made));
        assert.equal(node.kind, 'custom');
        assert.equal(await modelNode(rig.api, asked), undefined, 'the name asked for is listed too');
      });
    } finally {
      rig.emu.configure({ renameTunedModels: false });
      await fsp.rm(folder, { recursive: true, force: true });
    }
  });
});

describe('jobs view commands', () => {
  const started: string[] = [];

  afterEach(async () => {
    await forget(started.splice(0));
    rig.emu.configure({ evaluationDurationMs: EMULATOR_SETTINGS.evaluationDurationMs });
    await rig.setSetting('pollIntervalSeconds', 1);
    await rig.clearKey();
  });

  /** Starts an evaluation that keeps running for the rest of the test. */
  async function longEvaluation(): Promise<Row> {
    rig.emu.configure({ evaluationDurationMs: LONG_EVALUATION_MS });
    try {
      const jobId = await evaluate(DATASET, started);
      const r = await row(jobId);
      assert.ok(r, 'the view does not list the new evaluation');
      return r;
    } finally {
      rig.emu.configure({ evaluationDurationMs: EMULATOR_SETTINGS.evaluationDurationMs });
    }
  }

  it('removes a finished job at once, and a running one only after a modal confirmation, without cancelling it', async function () {
    this.timeout(20_000);
    await rig.useKey('demo-key');
    const finished = await rowIn(await evaluate(DATASET, started), 'completed');
    const running = await longEvaluation();
    await waitFor('the poller to follow the running job', () => (rig.api.poller.followed().includes(running.node.key) ? true : undefined));

    await recordingMessages(async (shown) => {
      assert.equal(await vscode.commands.executeCommand(COMMANDS.removeJob, finished.node), true);
      assert.equal(await row(finished.node.job.id), undefined, 'the finished job is still listed');
      assert.equal(rig.api.services.jobs.get(await scope(), finished.node.key), undefined, 'the finished job is still stored');
      assert.deepEqual(shown, [], 'removing a finished job asked something');

      // Dismissing the question keeps the job.
      assert.equal(await vscode.commands.executeCommand(COMMANDS.removeJob, running.node), false);
      assert.ok(await row(running.node.job.id), 'the running job was removed although the user dismissed the question');
      assert.deepEqual(shown, [
        { severity: 'warning', text: `Remove "Evaluate ${MODEL} on ${DATASET}" from the list?`, actions: ['Remove'], modal: true },
      ]);
    });

    const since = rig.emu.received.length;
    await recordingMessages(
      async (shown) => {
        assert.equal(await vscode.commands.executeCommand(COMMANDS.removeJob, running.node), true);
        assert.equal(shown.length, 1, `expected one question, got ${JSON.stringify(shown)}`);
      },
      { answer: (m) => (m.modal ? 'Remove' : undefined) },
    );
    assert.equal(await row(running.node.job.id), undefined, 'the confirmed running job is still listed');
    await waitFor(
      'the poller to stop following the removed job',
      () => (rig.api.poller.followed().includes(running.node.key) ? undefined : true),
      {
        describe: () => rig.api.poller.followed(),
      },
    );

    // Nothing but polling reached the service, and the job still runs there.
    const sent = rig.emu.received.slice(since).filter((r) => r.origin === 'api' && !(r.method === 'GET' && r.path.includes('_status')));
    assert.deepEqual(
      sent.map((r) => `${r.method} ${r.path}`),
      [],
      'removing the job sent a request to the service',
    );
    const response = await fetch(`${rig.emu.url}/cr/finetune_model/evaluate_status?job_id=${encodeURIComponent(running.node.job.id)}`, {
      headers: { 'x-api-key': 'demo-key' },
    });
    assert.equal(response.status, 200);
    const status = ((await response.json()) as { status?: string }).status;
    assert.ok(status === 'queued' || status === 'running', `the service's job is ${status}`);
  });

  it('clears finished jobs and keeps the running ones', async function () {
    this.timeout(20_000);
    await rig.useKey('demo-key');
    const finished = await rowIn(await evaluate(MISSING_DATASET, started), 'failed');
    const running = await longEvaluation();

    const cleared = await vscode.commands.executeCommand<number>(COMMANDS.clearFinishedJobs);
    const left = (await rig.api.jobsView.getChildren()).map((n) => n.job);
    assert.equal(typeof cleared, 'number');
    assert.ok(cleared >= 1, `cleared ${cleared}`);
    assert.ok(!left.some((j) => j.id === finished.node.job.id), 'the failed job is still listed');
    assert.deepEqual(
      left.filter((j) => j.state !== 'queued' && j.state !== 'running').map((j) => j.id),
      [],
      'finished jobs are left',
    );
    assert.ok(
      left.some((j) => j.id === running.node.job.id),
      'the running job was cleared',
    );
    assert.ok(rig.api.poller.followed().includes(running.node.key), 'the poller stopped following the running job');
  });

  it('shortens a long tuned-model name in its row, and shows it whole in the tooltip', async function () {
    await rig.useKey('demo-key');
    const s = await scope();
    const modelName = `org-with-a-long-name/oss-reasoner-8b-finetuned-on-the-quarterly-reports-${'x'.repeat(60)}-2026-11-25-v7`;
    const now = Date.now();
    const id = `long-name-${now}`;
    started.push(id);
    await rig.api.services.jobs.put({
      id,
      kind: 'finetune',
      scope: s,
      state: 'completed',
      createdAt: now,
      updatedAt: now,
      finishedAt: now,
      modelName,
    });
    const { item } = await waitFor('the row of the job with a long name', () => row(id));
    const label = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
    assert.ok(label.length <= 'Create '.length + ROW_NAME_CHARS, `the row is crowded: ${label}`);
    assert.ok(label.startsWith('Create org-with-a-long-name/'), label);
    assert.ok(label.endsWith('-v7'), `the name's end (what tells tuned models apart) is kept: ${label}`);
    assert.ok(label.includes('…'), label);
    assert.equal(typeof item.tooltip, 'string');
    assert.ok((item.tooltip as string).split('\n')[0] === `Create ${modelName}`, 'the tooltip does not start with the whole title');
    assert.match(item.accessibilityInformation?.label ?? '', new RegExp(`^Create ${modelName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')},`));
  });

  it('refreshJobs polls the running jobs now', async function () {
    this.timeout(20_000);
    await rig.useKey('demo-key');
    // A long interval: a status request right after the command comes from the command, not from the timer.
    await rig.setSetting('pollIntervalSeconds', 300);
    const running = await longEvaluation();
    const statusRequests = (since: number) =>
      rig.emu.received
        .slice(since)
        .filter(
          (r) => r.origin === 'api' && r.path.includes('evaluate_status') && r.path.includes(encodeURIComponent(running.node.job.id)),
        );
    await waitFor('the first poll of the new job', () => (statusRequests(0).length > 0 ? true : undefined));
    await rig.api.poller.settled();

    const since = rig.emu.received.length;
    const round = await vscode.commands.executeCommand<{ requests: number; answered: number } | undefined>(COMMANDS.refreshJobs);
    assert.ok(round, 'refreshJobs returned no poll round');
    assert.ok(round.requests >= 1 && round.answered >= 1, `round: ${JSON.stringify(round)}`);
    assert.equal(statusRequests(since).length, 1, 'refreshJobs did not ask the service for the running job');
  });
});
