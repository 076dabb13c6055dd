// Running a model locally, beside the hosted one, inside a real VS Code with a fake runtime (the real one is tested
// with its own package): Run Locally on a downloaded model (from the command and from the download's notification)
// opens a playground with the local model, a local run streams and stops, Compare runs hosted and local on one
// prompt, a missing runtime says how to get it, a runtime failure names the file, and the page never gets a path
// opened: only ids from the host's own record run locally.
import * as assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LocalRuntime } from '../../src/local/localRuntime';
import type { PlaygroundPanel } from '../../src/features/playground/host/playgroundPanel';
import type { ModelsMessage, RunSettings } from '../../src/features/playground/protocol';
import { COMMANDS } from '../../src/contributions';
import { LOCAL_MODELS_KEY } from '../../src/storageKeys';
import { composeAnswer } from '../service/inference';
import { LOCAL_ANSWER_TOKENS } from '../../src/features/playground/host/localInference';
import { FakeLocalRuntime } from '../unit/fakeLocalRuntime';
import { recordingMessages, waitFor, whenPanelReady, type ShownMessage } from './helpers';
import { record, runSettings, send, textOf, waitForEnd } from './playgroundMessages';
import { useRig } from './rig';

const rig = useRig();
const HOSTED = 'oss-reasoner-8b';
const CUSTOM = 'suite-local-model';
const INFER_PATH = '/cr/provider_predict_platform_base_oss';
/** A key of its own, so the custom model it adds is in no other test's lists. */
const KEY = 'local-run-key';
/** Every run names its model: these are the rest of its settings. */
const base = runSettings(HOSTED);

/** The file the record holds for the custom model now (a later download of it replaces the first). */
async function recordedFile(): Promise<string> {
  const { origin } = await rig.api.services.session.current();
  const model = origin ? await rig.api.services.local.download(origin, CUSTOM) : undefined;
  assert.ok(model, 'the download was not recorded');
  return model.path;
}

/** Run Locally on a model name; the panel it opened, ready. */
async function runLocally(arg: unknown): Promise<PlaygroundPanel> {
  const panel = await vscode.commands.executeCommand<PlaygroundPanel | undefined>(COMMANDS.runLocally, arg);
  assert.ok(panel, 'Run Locally opened no panel');
  return whenPanelReady(panel);
}

describe('run locally', function () {
  this.timeout(40_000);
  let original: LocalRuntime;
  let runtime: FakeLocalRuntime;
  let directory: string;
  let modelFile: string;

  before(async () => {
    rig.emu.setKey(KEY, { models: [HOSTED] });
    await rig.useKey(KEY);
    await rig.emu.addCustomModel(KEY, CUSTOM);
    directory = await fsp.mkdtemp(path.join(os.tmpdir(), 'hr-suite-local-'));
    await rig.setSetting('downloadFolder', directory);
    // The download as a user makes it; its notification offers Run Locally (answered in its own test).
    const shown = await recordingMessages(async (messages) => {
      const file = await vscode.commands.executeCommand<string | undefined>(COMMANDS.download, { modelName: CUSTOM });
      assert.ok(file, 'the download failed');
      modelFile = file;
      return messages;
    });
    const done = shown.find((m) => m.text.startsWith('Downloaded'));
    assert.deepEqual(done?.actions, ['Reveal', 'Copy Path', 'Run Locally']);
  });

  beforeEach(async () => {
    original = rig.api.services.local.runtime;
    runtime = new FakeLocalRuntime();
    rig.api.services.local.runtime = runtime;
    await rig.useKey(KEY);
  });

  afterEach(() => {
    for (const panel of rig.api.playground.panels) panel.dispose();
    rig.api.services.local.runtime = original;
  });

  after(async () => {
    await rig.setSetting('downloadFolder', '');
    await rig.api.services.context.globalState.update(LOCAL_MODELS_KEY, undefined);
    await fsp.rm(directory, { recursive: true, force: true });
    await rig.clearKey();
  });

  it('on a downloaded model opens the playground with it selected and listed as local; the Models view offers it', async () => {
    const panel = await runLocally({ modelName: CUSTOM });
    const log = record(panel);
    try {
      const id = panel.prefill?.modelName ?? '';
      assert.match(id, /^local:[0-9a-f]{16}$/, 'the page gets an id, not a path');
      assert.equal(panel.panel.title, `Playground · Local · ${CUSTOM}`, 'the title names the model, not its id');
      assert.doesNotMatch(JSON.stringify(panel.prefill), new RegExp(path.basename(modelFile)));
      send(panel, { type: 'ready' });
      const models = await waitFor('the model list', () => log.posted.find((m): m is ModelsMessage => m.type === 'models' && !m.loading));
      assert.deepEqual(
        models.models.filter((m) => m.kind === 'local'),
        [{ name: id, kind: 'local', label: CUSTOM }],
      );
      assert.ok(
        models.models.some((m) => m.name === HOSTED),
        'the hosted models are listed too',
      );
      assert.doesNotMatch(JSON.stringify(log.posted), new RegExp(escapeRegExp(directory)), 'no path reaches the page');

      await rig.api.models.refresh();
      const row = (await rig.api.models.getChildren())
        .flatMap((n) => (n.type === 'group' ? n.models : [n]))
        .find((n) => n.type === 'model' && n.model.name === CUSTOM);
      assert.ok(row, 'the custom model is not in the Models view');
      assert.match(String(rig.api.models.getTreeItem(row).contextValue), /\bdownloaded\b/);
    } finally {
      log.dispose();
    }
  });

  it('is the action of the download notification', async () => {
    const before = new Set(rig.api.playground.panels);
    await recordingMessages(
      async () => {
        const file = await vscode.commands.executeCommand<string | undefined>(COMMANDS.download, { modelName: CUSTOM });
        assert.ok(file);
        await waitFor('a playground from the notification', () => rig.api.playground.panels.find((p) => !before.has(p)));
      },
      { answer: (m) => (m.text.startsWith('Downloaded') ? 'Run Locally' : undefined) },
    );
    const panel = rig.api.playground.panels.find((p) => !before.has(p));
    assert.match(panel?.prefill?.modelName ?? '', /^local:/);
  });

  it('streams a local run, and Stop ends it with the partial text', async () => {
    const panel = await runLocally(CUSTOM);
    const log = record(panel);
    try {
      const modelName = panel.prefill!.modelName!;
      const since = Date.now();
      send(panel, { type: 'run', runId: 'whole', settings: { ...base, modelName } });
      const end = await waitForEnd(log.posted, 'whole');
      assert.equal(end.type, 'done', JSON.stringify(end));
      assert.equal(textOf(log.posted, 'whole'), runtime.script.chunks.join(''));
      assert.equal(end.timing.chars, runtime.script.chunks.join('').length);
      assert.deepEqual(runtime.requests, [
        { modelPath: await recordedFile(), prompt: base.prompt, temperature: base.temperature, maxTokens: LOCAL_ANSWER_TOKENS },
      ]);
      assert.match(panel.panel.title, new RegExp(`Local · ${CUSTOM}`));
      assert.deepEqual(
        rig.emu.received.filter((r) => r.path.startsWith(INFER_PATH) && r.time >= since),
        [],
        'a local run asks the service nothing',
      );

      runtime.script = { chunks: ['first', ' second', ' never'], holdAfter: 2 };
      send(panel, { type: 'run', runId: 'stopped', settings: { ...base, modelName } });
      await runtime.held;
      await waitFor('the text before the hold', () => textOf(log.posted, 'stopped') === 'first second' || undefined);
      send(panel, { type: 'stop', runId: 'stopped' });
      const stopped = await waitForEnd(log.posted, 'stopped');
      assert.equal(stopped.type, 'done');
      assert.equal(stopped.type === 'done' && stopped.stopped, true);
      assert.equal(runtime.aborted, 1, 'the runtime saw the abort');
      assert.equal(textOf(log.posted, 'stopped'), 'first second');
    } finally {
      log.dispose();
    }
  });

  it('runs the downloaded model with the real runtime (llama.cpp in a child process): it streams, and Stop ends it', async () => {
    // The emulator's artifact is a real tiny llama model, so this is the whole loop a person follows: download, then
    // run locally. One thread: two on a loaded 2-core machine slowed generation by orders of magnitude.
    rig.api.services.local.runtime = original;
    await rig.setSetting('local.threads', 1);
    const panel = await runLocally(CUSTOM);
    const log = record(panel);
    try {
      // Greedy (temperature 0), so both runs write the same answer: sampled, the second one sometimes ended by itself
      // after a few characters, before Stop arrived.
      const settings = { ...base, temperature: 0, modelName: panel.prefill!.modelName! };
      send(panel, { type: 'run', runId: 'real', settings });
      const end = await waitForEnd(log.posted, 'real');
      assert.equal(end.type, 'done', JSON.stringify(end));
      const whole = textOf(log.posted, 'real');
      // Long enough that Stop, sent at the first text, lands before the end (the emulator's model is fixed per name).
      assert.ok(whole.length >= 40, `the tiny model's answer is too short to stop mid-way: ${JSON.stringify(whole)}`);
      assert.ok(end.timing.ttfbMs !== undefined, 'no time to first token');

      send(panel, { type: 'run', runId: 'real-stop', settings });
      await waitFor('the first text of the second run', () => textOf(log.posted, 'real-stop').length > 0 || undefined, {
        timeoutMs: 20_000,
      });
      send(panel, { type: 'stop', runId: 'real-stop' });
      const stopped = await waitForEnd(log.posted, 'real-stop');
      assert.equal(stopped.type === 'done' && stopped.stopped, true, JSON.stringify(stopped));
      assert.ok(textOf(log.posted, 'real-stop').length < whole.length, 'Stop ended the run before its end');
    } finally {
      log.dispose();
      await vscode.workspace.getConfiguration('hostedReasoning').update('local.threads', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('compares the hosted model and the local one on the same prompt', async () => {
    const panel = await runLocally(CUSTOM);
    const log = record(panel);
    try {
      const hosted: RunSettings = { ...base, modelName: HOSTED };
      const local: RunSettings = { ...base, modelName: panel.prefill!.modelName! };
      send(panel, { type: 'run', runId: 'cmp-a', settings: hosted });
      send(panel, { type: 'run', runId: 'cmp-b', settings: local });
      const [a, b] = await Promise.all([waitForEnd(log.posted, 'cmp-a'), waitForEnd(log.posted, 'cmp-b')]);
      assert.equal(a.type, 'done', JSON.stringify(a));
      assert.equal(b.type, 'done', JSON.stringify(b));
      assert.equal(textOf(log.posted, 'cmp-a'), composeAnswer({ ...hosted, queryOnly: hosted.prompt }));
      assert.equal(textOf(log.posted, 'cmp-b'), runtime.script.chunks.join(''));
    } finally {
      log.dispose();
    }
  });

  it('names the local model in an exported session, not by its id', async () => {
    const panel = await runLocally(CUSTOM);
    const id = panel.prefill!.modelName!;
    const target = vscode.Uri.file(path.join(directory, 'session.md'));
    const window = vscode.window as unknown as { showSaveDialog: unknown };
    const original = window.showSaveDialog;
    window.showSaveDialog = () => Promise.resolve(target);
    try {
      await recordingMessages(async (messages) => {
        const run = { runId: 'x1', startedAt: Date.now(), settings: { ...base, modelName: id }, output: 'Hello', outcome: 'done' };
        send(panel, { type: 'export', runs: [run] });
        await waitFor('the export to be written', () => messages.find((m) => m.text.startsWith('Exported')));
      });
    } finally {
      window.showSaveDialog = original;
    }
    const text = await fsp.readFile(target.fsPath, 'utf8');
    assert.ok(text.includes(`Local · ${CUSTOM}`), text);
    assert.ok(!text.includes(id), 'the id is in the export');
  });

  it('says how to get local runs when this package has no runtime, and opens nothing', async () => {
    runtime.isAvailable = false;
    const before = rig.api.playground.panels.length;
    const shown: ShownMessage[] = await recordingMessages(async (messages) => {
      assert.equal(await vscode.commands.executeCommand(COMMANDS.runLocally, { modelName: CUSTOM }), undefined);
      return messages;
    });
    assert.equal(shown.length, 1, JSON.stringify(shown));
    assert.match(shown[0]!.text, /package built for your platform/);
    assert.match(shown[0]!.text, /Marketplace|\.vsix/);
    assert.equal(rig.api.playground.panels.length, before);
  });

  it('shows a runtime failure in the panel, naming the file', async () => {
    const panel = await runLocally(CUSTOM);
    const log = record(panel);
    try {
      runtime.script = { chunks: [], fail: { kind: 'load-failed', message: 'not a GGUF file' } };
      send(panel, { type: 'run', runId: 'bad', settings: { ...base, modelName: panel.prefill!.modelName! } });
      const end = await waitForEnd(log.posted, 'bad');
      assert.equal(end.type, 'error');
      const message = end.type === 'error' ? end.error.message : '';
      assert.ok(message.includes(path.basename(await recordedFile())), message);
      assert.match(message, /not a GGUF file/);
      assert.ok(!message.includes(directory), 'the folder is not shown');
    } finally {
      log.dispose();
    }
  });

  it('never opens a path from the page: only an id of its own record runs locally', async () => {
    const other = await rig.api.services.local.recordDownload('https://other.example', CUSTOM, modelFile, 1);
    const since = Date.now();
    const panel = await runLocally(CUSTOM);
    const log = record(panel);
    try {
      const attempts = [
        modelFile, // a path
        `local:${'0'.repeat(16)}`, // an id of no record
        other.id, // another service's download
      ];
      for (const [i, modelName] of attempts.entries()) {
        send(panel, { type: 'run', runId: `p${i}`, settings: { ...base, modelName } });
        const end = await waitForEnd(log.posted, `p${i}`);
        assert.equal(end.type, 'error', `${modelName}: ${JSON.stringify(end)}`);
      }
      assert.deepEqual(runtime.requests, [], 'the runtime was never asked');
      // The path went to the service as a model name, as any other name from the page does, and was refused there;
      // the ids of local shape went nowhere.
      assert.equal(rig.emu.received.filter((r) => r.method === 'POST' && r.path.startsWith(INFER_PATH) && r.time >= since).length, 1);
    } finally {
      log.dispose();
    }
  });

  it('runs a .gguf from the Explorer only inside the workspace', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(folder, 'the suite has no workspace folder');
    const inside = vscode.Uri.joinPath(folder, 'suite-tiny.gguf');
    const outside = vscode.Uri.file(path.join(directory, 'outside.gguf'));
    await fsp.writeFile(inside.fsPath, 'GGUF');
    await fsp.writeFile(outside.fsPath, 'GGUF');
    try {
      const panel = await runLocally(inside);
      const listed = (await rig.api.services.local.visible(undefined)).find((m) => m.id === panel.prefill?.modelName);
      assert.ok(listed, 'the chosen file is not recorded');
      assert.equal(listed.label, 'suite-tiny.gguf');

      const before = rig.api.playground.panels.length;
      const shown = await recordingMessages(async (messages) => {
        assert.equal(await vscode.commands.executeCommand(COMMANDS.runLocally, outside), undefined);
        return messages;
      });
      assert.match(shown[0]?.text ?? '', /in this workspace/);
      assert.equal(rig.api.playground.panels.length, before);
      // A file that is gone leaves the lists and the record.
      await fsp.rm(inside.fsPath, { force: true });
      assert.equal(
        (await rig.api.services.local.visible(undefined)).find((m) => m.id === listed.id),
        undefined,
      );
      assert.equal(
        rig.api.services.local.all().find((m) => m.id === listed.id),
        undefined,
      );
    } finally {
      await fsp.rm(inside.fsPath, { force: true });
    }
  });
});

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
