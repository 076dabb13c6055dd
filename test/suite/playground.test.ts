// The playground inside a real VS Code: panels opened by the commands load their page under its policy and say
// `ready`; driven through the host side (the panel's own message handler, as the webview would), runs against the
// emulator stream the exact answer in every framing, stop closes the connection, the service's errors come back in
// its own words, two runs compare side by side, and a panel comes back through the serializer.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { PlaygroundPanel } from '../../src/features/playground/host/playgroundPanel';
import type { ExportedRun, ModelsMessage, RunSettings } from '../../src/features/playground/protocol';
import { STREAM_ERROR_MARKER } from '../service/emulator';
import { composeAnswer } from '../service/inference';
import { waitFor, whenPanelReady } from './helpers';
import { chunks, record, runSettings, send, waitForEnd } from './playgroundMessages';
import { EMULATOR_SETTINGS, useRig } from './rig';
import { COMMANDS, type CommandId } from '../../src/contributions';

const rig = useRig();
const MODEL = 'oss-reasoner-8b';
const OTHER_MODEL = 'oss-reasoner-70b';
const INFER_PATH = '/cr/provider_predict_platform_base_oss';
const VIEW_TYPE = 'hostedReasoning.playground';

const SETTINGS = runSettings(MODEL, { prompt: 'What does a cache buy you?', temperature: 0.7, sequentialBudget: 8 });

/** The emulator's answer for these settings: what the panel must deliver, character for character. */
function answer(s: RunSettings): string {
  return composeAnswer({ ...s, queryOnly: s.queryOnly ?? s.prompt });
}

/** Opens a panel through the command and waits for its page to say `ready` (its script ran under the policy). */
async function openPanel(arg?: unknown, command: CommandId = COMMANDS.openPlayground): Promise<PlaygroundPanel> {
  const before = new Set(rig.api.playground.panels);
  await vscode.commands.executeCommand(command, arg);
  const panel = rig.api.playground.panels.find((p) => !before.has(p));
  assert.ok(panel, `${command} opened no panel`);
  return whenPanelReady(panel);
}

function inferenceRequests(since: number): typeof rig.emu.received {
  return rig.emu.received.filter((r) => r.method === 'POST' && r.path.startsWith(INFER_PATH) && r.time >= since);
}

describe('playground', function () {
  this.timeout(40_000);

  afterEach(async () => {
    for (const panel of rig.api.playground.panels) panel.dispose();
    rig.emu.configure({ tokenIntervalMs: EMULATOR_SETTINGS.tokenIntervalMs });
    await rig.clearKey();
  });

  it('opens from the command with the model preselected, locked down, and lists the key’s models', async () => {
    // A key of its own: earlier tests add custom models to demo-key.
    rig.emu.setKey('playground-models', { models: [MODEL, OTHER_MODEL] });
    await rig.useKey('playground-models');
    const panel = await openPanel({ modelName: MODEL });
    const log = record(panel);
    try {
      assert.equal(panel.panel.viewType, VIEW_TYPE);
      assert.deepEqual(panel.prefill, { modelName: MODEL });
      assert.match(panel.panel.title, new RegExp(MODEL));
      const options = panel.panel.webview.options;
      assert.equal(options.enableScripts, true);
      assert.equal(options.enableCommandUris, false);
      assert.equal((options as { enableForms?: boolean }).enableForms, false);
      const roots = (options.localResourceRoots ?? []).map((u) => path.relative(rig.extension.extensionPath, u.fsPath)).sort();
      assert.deepEqual(roots, [path.join('dist', 'webview'), 'media']);
      assert.equal(panel.panel.options.retainContextWhenHidden, false);
      const html = panel.panel.webview.html;
      assert.match(
        html,
        new RegExp(`default-src 'none'; script-src 'nonce-[A-Za-z0-9+/=]{16,}'; style-src ${escapeRegExp(panel.panel.webview.cspSource)};`),
      );
      assert.doesNotMatch(html, /playground-models/);

      // The page asks again (as after being hidden): it gets the models of the key, never the key itself.
      send(panel, { type: 'ready' });
      const models = await waitFor('the model list', () => log.posted.find((m): m is ModelsMessage => m.type === 'models' && !m.loading));
      assert.deepEqual(models.models.map((m) => m.name).sort(), [MODEL, OTHER_MODEL].sort());
      assert.ok(
        log.posted.some((m) => m.type === 'init'),
        'no init after ready',
      );
      assert.doesNotMatch(JSON.stringify(log.posted), /playground-models/);
    } finally {
      log.dispose();
    }
  });

  it('opens from a Models view row and from a plain name', async () => {
    await rig.useKey('demo-key');
    const fromRow = await openPanel({ type: 'model', model: { name: OTHER_MODEL, kind: 'base', raw: {} } });
    assert.equal(fromRow.prefill?.modelName, OTHER_MODEL);
    const fromName = await openPanel(MODEL);
    assert.equal(fromName.prefill?.modelName, MODEL);
    assert.equal(rig.api.playground.panels.length, 2, 'each open is its own panel');
  });

  for (const framing of ['sse', 'ndjson', 'text'] as const) {
    it(`streams the emulator’s exact answer in ordered chunks, then done with timings (${framing})`, async () => {
      const key = `playground-${framing}`;
      rig.emu.setKey(key, { models: [MODEL, OTHER_MODEL], framing });
      await rig.useKey(key);
      const panel = await openPanel({ modelName: MODEL });
      const log = record(panel);
      try {
        send(panel, { type: 'run', runId: `s-${framing}`, settings: SETTINGS });
        const end = await waitForEnd(log.posted, `s-${framing}`);
        assert.equal(end.type, 'done', JSON.stringify(end));
        const got = chunks(log.posted, `s-${framing}`);
        assert.deepEqual(
          got.map((c) => c.seq),
          got.map((_, i) => i),
          'chunks in order, none missing',
        );
        assert.equal(got.map((c) => c.text).join(''), answer(SETTINGS));
        assert.equal(end.timing.chars, answer(SETTINGS).length);
        assert.ok(typeof end.timing.ttfbMs === 'number' && end.timing.ttfbMs <= end.timing.totalMs, JSON.stringify(end.timing));
        assert.ok(got.length < answer(SETTINGS).length / 4, `${got.length} chunks: deltas were not batched`);
      } finally {
        log.dispose();
      }
    });
  }

  it('runs a non-streamed request: one chunk, then done', async () => {
    await rig.useKey('demo-key');
    const panel = await openPanel();
    const log = record(panel);
    try {
      const settings = { ...SETTINGS, stream: false, useRag: true };
      send(panel, { type: 'run', runId: 'plain', settings });
      const end = await waitForEnd(log.posted, 'plain');
      assert.equal(end.type, 'done');
      assert.deepEqual(
        chunks(log.posted, 'plain').map((c) => c.text),
        [answer(settings)],
      );
    } finally {
      log.dispose();
    }
  });

  it('stop ends the run at once: the emulator sees the request aborted and the connection goes', async () => {
    await rig.useKey('demo-key');
    rig.emu.configure({ tokenIntervalMs: 60 });
    const panel = await openPanel();
    const log = record(panel);
    try {
      const since = Date.now();
      send(panel, { type: 'run', runId: 'to-stop', settings: SETTINGS });
      await waitFor('the first chunk', () => chunks(log.posted, 'to-stop')[0]);
      const during = rig.emu.activeConnections();
      assert.deepEqual(panel.activeRuns, ['to-stop']);
      send(panel, { type: 'stop', runId: 'to-stop' });
      // "At once" is shown by what the run got, not by a clock (a loaded machine makes any bound flaky): it ends
      // stopped with part of an answer whose stream would have gone on for seconds more (60 ms a token).
      const end = await waitForEnd(log.posted, 'to-stop');
      assert.equal(end.type, 'done');
      assert.equal(end.type === 'done' && end.stopped, true);
      assert.ok(end.timing.chars < answer(SETTINGS).length);
      const request = await waitFor(
        'the emulator to record the inference request as aborted',
        () => inferenceRequests(since).find((r) => r.aborted),
        {
          timeoutMs: 3_000,
          describe: () => inferenceRequests(since),
        },
      );
      assert.equal(request.aborted, true);
      await waitFor(`open connections to drop below ${during}`, () => (rig.emu.activeConnections() < during ? true : undefined), {
        timeoutMs: 3_000,
        describe: () => rig.emu.activeConnections(),
      });
      assert.deepEqual(panel.activeRuns, []);
    } finally {
      log.dispose();
    }
  });

  it('closing the panel aborts its running request', async () => {
    await rig.useKey('demo-key');
    rig.emu.configure({ tokenIntervalMs: 60 });
    const panel = await openPanel();
    const log = record(panel);
    const since = Date.now();
    send(panel, { type: 'run', runId: 'orphan', settings: SETTINGS });
    await waitFor('the first chunk', () => chunks(log.posted, 'orphan')[0]);
    log.dispose();
    panel.panel.dispose();
    await waitFor('the request to be aborted', () => inferenceRequests(since).find((r) => r.aborted), {
      timeoutMs: 3_000,
      describe: () => inferenceRequests(since),
    });
    assert.equal(rig.api.playground.panels.includes(panel), false);
  });

  it('shows the service’s own words when it refuses a value (temperature 99)', async () => {
    await rig.useKey('demo-key');
    const panel = await openPanel();
    const log = record(panel);
    try {
      send(panel, { type: 'run', runId: 'too-hot', settings: { ...SETTINGS, temperature: 99 } });
      const end = await waitForEnd(log.posted, 'too-hot');
      assert.equal(end.type, 'error');
      if (end.type !== 'error') return;
      assert.equal(end.error.kind, 'request');
      assert.equal(end.error.retryable, false);
      assert.match(end.error.message, /less than or equal to 2/);
    } finally {
      log.dispose();
    }
  });

  for (const framing of ['sse', 'ndjson'] as const) {
    it(`reports a mid-stream failure with the service’s text after the text before it (${framing})`, async () => {
      rig.emu.setKey(`playground-err-${framing}`, { models: [MODEL], framing });
      await rig.useKey(`playground-err-${framing}`);
      const panel = await openPanel();
      const log = record(panel);
      try {
        send(panel, { type: 'run', runId: 'breaks', settings: { ...SETTINGS, prompt: `Break please ${STREAM_ERROR_MARKER}` } });
        const end = await waitForEnd(log.posted, 'breaks');
        assert.equal(end.type, 'error');
        if (end.type !== 'error') return;
        assert.ok(chunks(log.posted, 'breaks').length > 0, 'the text before the failure arrived');
        assert.equal(end.error.kind, 'server');
        assert.equal(end.error.retryable, true);
        assert.match(end.error.message, /Model backend failed mid-stream \(emulated\)/);
      } finally {
        log.dispose();
      }
    });
  }

  it('says what to fix when no key is set', async () => {
    const panel = await openPanel();
    const log = record(panel);
    try {
      send(panel, { type: 'run', runId: 'no-key', settings: SETTINGS });
      const end = await waitForEnd(log.posted, 'no-key');
      assert.equal(end.type === 'error' && end.error.kind, 'notConfigured');
      assert.equal(end.type === 'error' && end.error.fix, 'setApiKey');
    } finally {
      log.dispose();
    }
  });

  it('compares two models side by side: two runs stream at the same time, each under its own runId', async () => {
    await rig.useKey('demo-key');
    rig.emu.configure({ tokenIntervalMs: 5 });
    const panel = await openPanel();
    const log = record(panel);
    try {
      const a = SETTINGS;
      const b = { ...SETTINGS, modelName: OTHER_MODEL, temperature: 1.2, useRag: true };
      send(panel, { type: 'run', runId: 'left', settings: a });
      send(panel, { type: 'run', runId: 'right', settings: b });
      const [endA, endB] = await Promise.all([waitForEnd(log.posted, 'left'), waitForEnd(log.posted, 'right')]);
      assert.equal(endA.type, 'done');
      assert.equal(endB.type, 'done');
      assert.equal(
        chunks(log.posted, 'left')
          .map((c) => c.text)
          .join(''),
        answer(a),
      );
      assert.equal(
        chunks(log.posted, 'right')
          .map((c) => c.text)
          .join(''),
        answer(b),
      );
      assert.notEqual(answer(a), answer(b));
      // Overlap: the right run's first chunk came before the left run ended.
      const firstRight = log.posted.findIndex((m) => m.type === 'chunk' && m.runId === 'right');
      assert.ok(firstRight >= 0 && firstRight < log.posted.indexOf(endA), 'the two runs did not stream at the same time');
    } finally {
      log.dispose();
    }
  });

  it('drops invalid messages without acting on them', async () => {
    await rig.useKey('demo-key');
    const panel = await openPanel();
    const log = record(panel);
    try {
      const since = Date.now();
      for (const bad of [
        { type: 'run', runId: 'x', settings: { ...SETTINGS, apiKey: 'k' } },
        { type: 'run', runId: '../x', settings: SETTINGS },
        { type: 'run', runId: 'x', settings: { ...SETTINGS, sequentialBudget: 0 } },
        { type: 'fix', fix: 'workbench.action.terminal.new' },
        { type: 'openLink', url: 7 },
        { type: 'nope' },
        'ready',
      ]) {
        assert.equal(panel.handleMessage(bad), false, JSON.stringify(bad));
      }
      await new Promise((r) => setTimeout(r, 200));
      // The model list may still arrive from the page's own `ready`; nothing may come from the refused messages.
      assert.deepEqual(
        log.posted.filter((m) => m.type !== 'models'),
        [],
      );
      assert.deepEqual(inferenceRequests(since), []);
      assert.deepEqual(panel.activeRuns, []);
    } finally {
      log.dispose();
    }
  });

  it('opens only https links from the page', async function () {
    const panel = await openPanel();
    const env = vscode.env as unknown as { openExternal: (uri: vscode.Uri) => Thenable<boolean> };
    const original = env.openExternal;
    const opened: string[] = [];
    try {
      env.openExternal = (uri) => {
        opened.push(uri.toString(true));
        return Promise.resolve(true);
      };
      if (vscode.env.openExternal !== env.openExternal) this.skip(); // the API object is frozen in this build
      const warnings = vscode.window as unknown as { showWarningMessage: (...args: unknown[]) => Thenable<unknown> };
      const originalWarning = warnings.showWarningMessage;
      warnings.showWarningMessage = () => Promise.resolve(undefined);
      try {
        for (const url of [
          'javascript:alert(1)',
          'http://example.com/',
          'command:workbench.action.terminal.new',
          'file:///etc/passwd',
          'https://example.com/docs?a=1',
        ]) {
          send(panel, { type: 'openLink', url });
        }
        await waitFor('the https link to open', () => (opened.length > 0 ? true : undefined), { timeoutMs: 3_000 });
        await new Promise((r) => setTimeout(r, 100));
      } finally {
        warnings.showWarningMessage = originalWarning;
      }
      assert.deepEqual(opened, ['https://example.com/docs?a=1']);
    } finally {
      env.openExternal = original;
    }
  });

  it('Ask About Selection makes the editor selection the context of a default question', async () => {
    const document = await vscode.workspace.openTextDocument({
      language: 'typescript',
      content: 'const a = 1;\nfunction twice(x: number) { return 2 * x; }\n',
    });
    const editor = await vscode.window.showTextDocument(document);
    editor.selection = new vscode.Selection(1, 0, 1, document.lineAt(1).text.length);
    try {
      const panel = await openPanel(undefined, COMMANDS.askAboutSelection);
      assert.deepEqual(panel.prefill, { context: 'function twice(x: number) { return 2 * x; }', prompt: 'Explain this code.' });
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });

  it('comes back through the serializer after a reload', async () => {
    const webviewPanel = vscode.window.createWebviewPanel(VIEW_TYPE, 'Playground', vscode.ViewColumn.Active, {});
    await rig.api.playground.deserializeWebviewPanel(webviewPanel, { version: 1 });
    const panel = rig.api.playground.panels.find((p) => p.panel === webviewPanel);
    assert.ok(panel, 'the manager did not adopt the restored panel');
    assert.equal(panel.prefill, undefined, 'a restored panel keeps its own state, not a prefill');
    assert.equal(webviewPanel.webview.options.enableScripts, true);
    await waitFor(
      'the restored page to say ready',
      async () => {
        let ready = false;
        await Promise.race([panel.ready.then(() => (ready = true)), new Promise((r) => setTimeout(r, 100))]);
        return ready || undefined;
      },
      { timeoutMs: 20_000 },
    );
  });

  it('exports the session as markdown where the user chooses', async () => {
    const panel = await openPanel();
    const target = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hr-playground-')), 'session.md');
    const window = vscode.window as unknown as Record<'showSaveDialog' | 'showInformationMessage', unknown>;
    const originals = { save: window.showSaveDialog, info: window.showInformationMessage };
    window.showSaveDialog = () => Promise.resolve(vscode.Uri.file(target));
    window.showInformationMessage = () => Promise.resolve(undefined);
    try {
      const run: ExportedRun = {
        runId: 'r1',
        startedAt: Date.now(),
        settings: SETTINGS,
        output: '**bold** answer',
        outcome: 'done',
        timing: { ttfbMs: 10, totalMs: 100, chars: 15 },
      };
      send(panel, { type: 'export', runs: [run] });
      // The file can exist before its bytes are written: wait for content, not for the name.
      const text = await waitFor('the exported file', () => (fs.existsSync(target) && fs.readFileSync(target, 'utf8')) || undefined, {
        timeoutMs: 5_000,
      });
      assert.match(text, /^# Playground session/);
      assert.match(text, new RegExp(`## 1\\. ${MODEL}`));
      assert.match(text, /\*\*bold\*\* answer/);
    } finally {
      window.showSaveDialog = originals.save;
      window.showInformationMessage = originals.info;
      fs.rmSync(path.dirname(target), { recursive: true, force: true });
    }
  });

  it('saves presets for every panel and reads them back', async () => {
    const panel = await openPanel();
    const log = record(panel);
    const name = `test preset ${Date.now()}`;
    try {
      send(panel, {
        type: 'savePreset',
        preset: {
          name,
          settings: { modelName: MODEL, temperature: 0.1, useRag: true, sequentialBudget: 3, parallelBudget: 2, stream: false },
        },
      });
      await waitFor('the presets to be posted', () =>
        log.posted.find((m) => m.type === 'presets' && m.presets.some((p) => p.name === name)),
      );
      assert.ok(rig.api.playground.presets.list().some((p) => p.name === name && p.settings.sequentialBudget === 3));
    } finally {
      log.dispose();
      await rig.api.playground.presets.delete(name);
    }
    assert.equal(
      rig.api.playground.presets.list().some((p) => p.name === name),
      false,
    );
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
