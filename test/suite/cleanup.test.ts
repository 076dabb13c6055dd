// The cleanup commands of the palette: Forget API Keys… (every stored key, or one), Discard Partial Downloads… (what
// a cancelled download left), Clear Stored Records… (jobs and evaluations, datasets, the playground's history and
// presets, local models, last folders, kept comparisons). Each asks in a modal dialog first; a dismissed dialog changes nothing.
import * as assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { comparisonsRoot } from '../../src/features/evaluate/compare/compareCommand';
import { ComparisonLog } from '../../src/features/evaluate/compare/comparisonLog';
import { partFilePath } from '../../src/api/partFile';
import { lockPartFile } from '../../src/api/partLock';
import { COMMANDS } from '../../src/contributions';
import { PENDING_DOWNLOADS_KEY, RECENT_DATASETS_KEY_PREFIX } from '../../src/storageKeys';
import type { HostToWebview } from '../../src/features/playground/protocol';
import { recordingMessages, waitFor, whenPanelReady, type ShownMessage } from './helpers';
import { useRig } from './rig';

const rig = useRig();
const OTHER_ORIGIN = 'https://other.example.com';
const MODEL = 'cleanup-model';

type Item = vscode.QuickPickItem;

/**
 * Runs `body` while showQuickPick answers as a user who picks what `choose` returns from the items offered (undefined:
 * Escape); the items offered are recorded.
 */
async function answeringQuickPick<T>(
  choose: (items: Item[]) => Item | Item[] | undefined,
  body: (offered: Item[][]) => Promise<T>,
): Promise<T> {
  const window = vscode.window as unknown as { showQuickPick: unknown };
  const original = window.showQuickPick;
  const offered: Item[][] = [];
  window.showQuickPick = async (items: Item[] | Thenable<Item[]>) => {
    const list = await items;
    offered.push(list);
    return choose(list);
  };
  try {
    return await body(offered);
  } finally {
    window.showQuickPick = original;
  }
}

/** Answers the modal dialog with `button`; dismisses every other message. */
const confirmWith = (button: string | undefined) => (m: ShownMessage) => (m.modal ? button : undefined);

async function storedOrigins(): Promise<string[]> {
  const { origin } = await rig.api.services.session.current();
  return rig.api.services.session.keys.storedOrigins([origin!, OTHER_ORIGIN]);
}

describe('cleanup commands', function () {
  this.timeout(40_000);
  let directory: string | undefined;

  afterEach(async () => {
    rig.emu.faults.clear();
    for (const panel of rig.api.playground.panels) panel.dispose();
    await rig.api.services.session.keys.clear(OTHER_ORIGIN);
    await rig.clearKey();
    await rig.setSetting('downloadFolder', '');
    if (directory) await fsp.rm(directory, { recursive: true, force: true });
    directory = undefined;
  });

  it('Forget API Keys… forgets every stored key after a modal confirmation, and nothing when dismissed', async () => {
    await rig.useKey('demo-key');
    const { origin } = await rig.api.services.session.current();
    await rig.api.services.session.keys.set(OTHER_ORIGIN, 'other-key');
    assert.deepEqual(await storedOrigins(), [origin, OTHER_ORIGIN].sort());

    const every = (items: Item[]) => items.find((i) => /^Every stored key/.test(i.label));
    const dismissed = await recordingMessages(
      () => answeringQuickPick(every, async () => vscode.commands.executeCommand<string[]>(COMMANDS.forgetApiKeys)),
      { answer: confirmWith(undefined) },
    );
    assert.deepEqual(dismissed, []);
    assert.deepEqual(await storedOrigins(), [origin, OTHER_ORIGIN].sort(), 'a dismissed dialog forgot a key');

    const { forgotten, shown, offered } = await recordingMessages(
      async (shown) =>
        answeringQuickPick(every, async (offered) => ({
          forgotten: await vscode.commands.executeCommand<string[]>(COMMANDS.forgetApiKeys),
          shown,
          offered,
        })),
      { answer: confirmWith('Forget') },
    );
    // The picker offers every key and each service's alone (by host), the configured one marked.
    assert.deepEqual(
      offered[0]?.map((i) => i.label),
      ['Every stored key (2 services)', ...[origin!, OTHER_ORIGIN].sort().map((o) => new URL(o).host)],
    );
    assert.deepEqual(forgotten, [origin, OTHER_ORIGIN].sort());
    const modal = shown.find((m) => m.modal);
    assert.equal(modal?.text, 'Forget the API keys stored for 2 services?');
    assert.deepEqual(modal?.actions, ['Forget']);
    assert.deepEqual(await storedOrigins(), []);
    assert.equal((await rig.api.services.session.current()).key, undefined);
  });

  it('Forget API Keys… forgets one service’s key and keeps the others', async () => {
    await rig.useKey('demo-key');
    const { origin } = await rig.api.services.session.current();
    await rig.api.services.session.keys.set(OTHER_ORIGIN, 'other-key');
    const forgotten = await recordingMessages(
      () =>
        answeringQuickPick(
          (items) => items.find((i) => i.label === 'other.example.com'),
          async () => vscode.commands.executeCommand<string[]>(COMMANDS.forgetApiKeys),
        ),
      { answer: confirmWith('Forget') },
    );
    assert.deepEqual(forgotten, [OTHER_ORIGIN]);
    assert.deepEqual(await storedOrigins(), [origin]);
    assert.equal((await rig.api.services.session.current()).key?.key, 'demo-key');
  });

  /**
   * Starts a download of a large artifact and cancels it, as the Cancel button of its notification does, once bytes
   * have arrived: the first answer is cut after 256 KB and the resume that follows is held, so the cancel always
   * lands mid-way. `answer` answers the "paused" notification. Returns the part file the download wrote.
   */
  async function cancelledDownload(answer: (m: ShownMessage) => string | undefined): Promise<{ part: string; shown: ShownMessage[] }> {
    await rig.useKey('demo-key');
    if (!rig.emu.artifactPath(MODEL, 'demo-key')) await rig.emu.addCustomModel('demo-key', MODEL, { artifactBytes: 4 * 1024 * 1024 });
    directory = await fsp.mkdtemp(path.join(os.tmpdir(), 'hr-suite-cleanup-'));
    await rig.setSetting('downloadFolder', directory);
    rig.emu.faults.add({ origin: 'storage', path: /./, kind: 'truncate', afterBytes: 256 * 1024, times: 1 });
    rig.emu.faults.add({ origin: 'storage', path: /./, kind: 'stall', times: 1 });
    const window = vscode.window as unknown as { withProgress: unknown };
    const original = window.withProgress;
    const cancel = new vscode.CancellationTokenSource();
    window.withProgress = (_options: unknown, task: (p: vscode.Progress<{ message?: string }>, t: vscode.CancellationToken) => unknown) =>
      Promise.resolve(task({ report: () => cancel.cancel() }, cancel.token));
    try {
      const shown = await recordingMessages(
        async (shown) => {
          const result = await vscode.commands.executeCommand(COMMANDS.download, { modelName: MODEL });
          assert.equal(result, undefined, 'the download finished although it was cancelled');
          await waitFor('the paused notification', () => shown.find((m) => /paused/.test(m.text)));
          return shown;
        },
        { answer },
      );
      const { client } = await rig.api.services.session.connect();
      return { part: partFilePath(directory, MODEL, undefined, client.baseUrl), shown };
    } finally {
      window.withProgress = original;
      cancel.dispose();
    }
  }

  it('Discard Partial Downloads… deletes a cancelled download’s part file and its record after a modal confirmation', async () => {
    const { part, shown } = await cancelledDownload(() => undefined);
    assert.deepEqual(
      shown.map((m) => m.actions),
      [['Resume', 'Discard']],
    );
    const kept = (await fsp.stat(part)).size;
    assert.ok(kept > 0, 'the cancelled download kept no bytes');
    assert.equal(rig.api.services.context.globalState.get<unknown[]>(PENDING_DOWNLOADS_KEY)?.length, 1);

    const dismissed = await recordingMessages(async () => vscode.commands.executeCommand<number>(COMMANDS.discardPartialDownloads), {
      answer: confirmWith(undefined),
    });
    assert.equal(dismissed, 0);
    assert.equal((await fsp.stat(part)).size, kept, 'a dismissed dialog touched the part file');

    const { count, asked } = await recordingMessages(
      async (asked) => ({ count: await vscode.commands.executeCommand<number>(COMMANDS.discardPartialDownloads), asked }),
      { answer: confirmWith('Discard') },
    );
    assert.equal(count, 1);
    const modal = asked.find((m) => m.modal);
    assert.match(modal?.text ?? '', new RegExp(`^Discard the partial download of ${MODEL} \\(`));
    assert.deepEqual(await fsp.readdir(directory!), [], 'the part file or its validator is still there');
    assert.deepEqual(rig.api.services.context.globalState.get<unknown[]>(PENDING_DOWNLOADS_KEY), []);

    const none = await recordingMessages(async (shown) => {
      await vscode.commands.executeCommand(COMMANDS.discardPartialDownloads);
      return shown;
    });
    assert.deepEqual(
      none.map((m) => m.text),
      ['No partial downloads to discard.'],
    );
  });

  it('Discard Partial Downloads… keeps a part file a download in progress holds (its lock is live) and says so', async () => {
    const { part } = await cancelledDownload(() => undefined);
    const bytes = (await fsp.stat(part)).size;
    // As a download of the same model running in another window holds it (this window's process: a live lock).
    const lock = await lockPartFile(part);
    try {
      const { count, shown } = await recordingMessages(
        async (shown) => ({ count: await vscode.commands.executeCommand<number>(COMMANDS.discardPartialDownloads), shown }),
        { answer: confirmWith('Discard') },
      );
      assert.equal(count, 0);
      assert.deepEqual(
        shown.map((m) => [m.text, m.modal]),
        [['1 partial download is in use by a download in progress and was kept.', false]],
      );
      assert.equal((await fsp.stat(part)).size, bytes, 'the part file a download holds was touched');
      assert.equal(rig.api.services.context.globalState.get<unknown[]>(PENDING_DOWNLOADS_KEY)?.length, 1);
    } finally {
      await lock.release();
    }
    // Released (the download ended): offered and discarded as any other.
    const count = await recordingMessages(async () => vscode.commands.executeCommand<number>(COMMANDS.discardPartialDownloads), {
      answer: confirmWith('Discard'),
    });
    assert.equal(count, 1);
    assert.deepEqual(await fsp.readdir(directory!), [], 'the part file, its validator or its lock is still there');
  });

  it('the paused notification’s Discard deletes that download’s part file', async () => {
    const { shown } = await cancelledDownload((m) => (/paused/.test(m.text) ? 'Discard' : undefined));
    assert.ok(shown.some((m) => /paused/.test(m.text)));
    await waitFor('the part file to be deleted', async () => ((await fsp.readdir(directory!)).length === 0 ? true : undefined), {
      describe: () => fsp.readdir(directory!),
    });
    assert.deepEqual(rig.api.services.context.globalState.get<unknown[]>(PENDING_DOWNLOADS_KEY), []);
  });

  it('Clear Stored Records… clears jobs, datasets, kept model names, playground history and presets, local models, folders and kept comparisons after a modal confirmation', async () => {
    await rig.useKey('demo-key');
    const services = rig.api.services;
    const scope = await services.session.scope();
    assert.ok(scope);
    const jobId = await rig.api.evaluate('oss-reasoner-8b', 'demo-qa');
    // Finished before anything else is written: a poll's write of the job list and a write of another record at the
    // same moment can lose the other one (VS Code echoes each flushed globalState copy back; see jobs/jobStore.ts).
    await waitFor('the evaluation to finish', () => services.jobs.list(scope).find((j) => j.id === jobId && j.state === 'completed'), {
      timeoutMs: 20_000,
    });
    await services.context.globalState.update(RECENT_DATASETS_KEY_PREFIX + scope, ['demo-qa']);
    const origin = (await services.session.current()).origin;
    assert.ok(origin);
    await services.knownModels.remember(origin, 'typed-before', 'typed');
    const saved = await rig.api.playground.presets.save({
      name: 'cleanup',
      settings: { temperature: 0.5, useRag: false, sequentialBudget: 8, parallelBudget: 1, stream: true },
    });
    assert.deepEqual(saved, { saved: true });
    assert.equal(rig.api.playground.presets.list().length, 1, 'the preset was not stored');
    const gguf = path.join((directory = await fsp.mkdtemp(path.join(os.tmpdir(), 'hr-suite-cleanup-'))), 'model.gguf');
    await fsp.writeFile(gguf, 'GGUF');
    await services.local.addFile(gguf, 4);
    await services.context.globalState.update('hostedReasoning.lastDownloadFolder', directory);
    const comparison = ComparisonLog.create(comparisonsRoot(services), {
      id: `cleanup-${Date.now().toString(36)}`,
      setName: 'questions.jsonl',
      createdAt: Date.now(),
      models: ['oss-reasoner-70b', 'oss-reasoner-8b'],
      scoring: 'exact',
      knobs: { useRag: false, sequentialBudget: 8, parallelBudget: 1, temperature: 0 },
      items: [{ question: 'Which port?', expected: '443', line: 1 }],
    });
    comparison.append({ kind: 'answer', item: 0, model: 'oss-reasoner-70b', text: '443', at: Date.now() });
    rig.api.playground.openPanel();
    const panel = rig.api.playground.panels[0]!;
    await whenPanelReady(panel);
    const posted: HostToWebview[] = [];
    const listening = panel.onDidPostMessage((m) => posted.push(m));
    const all = (items: Item[]) => items;
    try {
      const dismissed = await recordingMessages(
        () => answeringQuickPick(all, async () => vscode.commands.executeCommand<string[]>(COMMANDS.clearStoredRecords)),
        { answer: confirmWith(undefined) },
      );
      assert.deepEqual(dismissed, []);
      assert.ok(services.jobs.list(scope).length > 0, 'a dismissed dialog cleared the jobs');
      await fsp.access(comparison.dir); // a dismissed dialog keeps the comparison
      assert.equal(rig.api.playground.presets.list().length, 1);

      const { cleared, offered, shown } = await recordingMessages(
        async (shown) =>
          answeringQuickPick(all, async (offered) => ({
            cleared: await vscode.commands.executeCommand<string[]>(COMMANDS.clearStoredRecords),
            offered,
            shown,
          })),
        { answer: confirmWith('Clear') },
      );
      assert.deepEqual(
        offered[0]?.map((i) => [i.label, i.picked]),
        [
          ['Jobs and evaluations', true],
          ['Recently used datasets', true],
          ['Model names typed or made by jobs', true],
          ['Playground history', true],
          ['Playground presets', true],
          ['Models to run locally', true],
          ['Folders last saved to', true],
          ['How services are read', true],
          ['Comparisons on your questions', true],
        ],
      );
      assert.deepEqual(cleared, [
        'jobs',
        'datasets',
        'knownModels',
        'playgroundHistory',
        'presets',
        'localModels',
        'folders',
        'profiles',
        'comparisons',
      ]);
      assert.equal(shown.find((m) => m.modal)?.text, 'Clear 9 kinds of stored records?');
      assert.deepEqual(ComparisonLog.list(comparisonsRoot(services)), [], 'a kept comparison is still there');
      assert.deepEqual(services.jobs.list(scope), []);
      assert.equal(services.context.globalState.get(RECENT_DATASETS_KEY_PREFIX + scope), undefined);
      assert.deepEqual(services.knownModels.list(origin), []);
      assert.deepEqual(rig.api.playground.presets.list(), []);
      assert.deepEqual(services.local.all(), []);
      assert.equal(services.context.globalState.get('hostedReasoning.lastDownloadFolder'), undefined);
      await fsp.access(gguf); // the file itself stays
      // The open page is told to drop its history, and a page that loads later hears it in its init.
      const clear = posted.find((m) => m.type === 'clearHistory');
      assert.ok(clear && clear.type === 'clearHistory' && clear.at <= Date.now(), 'the open page was not told to clear its history');
      assert.equal(panel.handleMessage({ type: 'ready' }), true);
      const init = await waitFor('an init after ready', () => posted.find((m) => m.type === 'init'));
      assert.equal(init.type === 'init' && init.historyClearedAt, clear.at);
    } finally {
      listening.dispose();
    }
  });
});
