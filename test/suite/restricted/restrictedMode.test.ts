// Restricted Mode in a real untrusted window: the runner's second window (test/runners/runInServer.ts) keeps VS Code's
// workspace trust on and opens the workspace untrusted; only this folder's tests run there. Running a local model hands
// its file to native code (llama.cpp), so a file the workspace controls waits for trust: Run Locally of a .gguf from
// the Explorer, a download kept inside the workspace, a chosen file in the playground. A download elsewhere runs at
// once. Once the user opens Manage Workspace Trust from the refusal and trusts the workspace (the runner clicks Trust
// in the editor that opens, as that person would), the action goes on by itself. The trust granted stays for the
// window: the test that grants it is the last.
import * as assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { COMMANDS } from '../../../src/contributions';
import type { LocalRuntime } from '../../../src/local/localRuntime';
import { LOCAL_MODELS_KEY } from '../../../src/storageKeys';
import type { PlaygroundPanel } from '../../../src/features/playground/host/playgroundPanel';
import { FakeLocalRuntime } from '../../unit/fakeLocalRuntime';
import { recordingMessages, waitFor, type ShownMessage } from '../helpers';
import { record, runSettings, waitForEnd } from '../playgroundMessages';
import { useRig } from '../rig';
import { EVERY_HOST_TAG } from '../suiteResult';

const rig = useRig();
const MANAGE = 'Manage Workspace Trust';
const OUTSIDE_MODEL = 'restricted-download';
const INSIDE_MODEL = 'restricted-download-in-workspace';

/** Every run names its model: these are the rest of its settings. */
const run = runSettings(OUTSIDE_MODEL);

async function ready(panel: PlaygroundPanel | undefined): Promise<PlaygroundPanel> {
  assert.ok(panel, 'no playground opened');
  await panel.ready;
  return panel;
}

/** Runs `command(arg)` as a user who answers the notification with `answer`; what it returned and what was shown. */
async function runLocallyAnswering(arg: unknown, answer?: string): Promise<{ returned: unknown; shown: ShownMessage[] }> {
  return recordingMessages(
    async (shown) => {
      const returned = await vscode.commands.executeCommand(COMMANDS.runLocally, arg);
      // The refusal's notification is shown without holding up the command: wait until it is.
      if (returned === undefined) await waitFor('the refusal to be shown', () => (shown.length > 0 ? true : undefined));
      return { returned, shown };
    },
    { answer: () => answer },
  );
}

describe(`Restricted Mode (an untrusted window) ${EVERY_HOST_TAG}`, function () {
  this.timeout(60_000);
  let original: LocalRuntime;
  let runtime: FakeLocalRuntime;
  let outside: string;
  let workspace: vscode.Uri;
  let insideGguf: vscode.Uri;
  let insideDownload: vscode.Uri;

  before(async () => {
    assert.equal(vscode.workspace.isTrusted, false, 'this window is trusted: the runner did not open it in Restricted Mode');
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(folder, 'the suite has no workspace folder');
    workspace = folder;
    original = rig.api.services.local.runtime;
    runtime = new FakeLocalRuntime();
    rig.api.services.local.runtime = runtime;
    outside = await fsp.mkdtemp(path.join(os.tmpdir(), 'hr-restricted-'));
    const downloaded = path.join(outside, `${OUTSIDE_MODEL}.gguf`);
    insideGguf = vscode.Uri.joinPath(workspace, 'restricted-tiny.gguf');
    insideDownload = vscode.Uri.joinPath(workspace, `${INSIDE_MODEL}.gguf`);
    for (const file of [downloaded, insideGguf.fsPath, insideDownload.fsPath]) await fsp.writeFile(file, 'GGUF');
    const { origin } = await rig.api.services.session.current();
    assert.ok(origin);
    await rig.api.services.local.recordDownload(origin, OUTSIDE_MODEL, downloaded, 4);
    await rig.api.services.local.recordDownload(origin, INSIDE_MODEL, insideDownload.fsPath, 4);
  });

  afterEach(() => {
    for (const panel of rig.api.playground.panels) panel.dispose();
  });

  after(async () => {
    rig.api.services.local.runtime = original;
    await rig.api.services.context.globalState.update(LOCAL_MODELS_KEY, undefined);
    await fsp.rm(outside, { recursive: true, force: true });
    for (const uri of [insideGguf, insideDownload]) await fsp.rm(uri.fsPath, { force: true });
  });

  it('runs a download kept outside the workspace at once: the extension wrote it, from the user’s service', async () => {
    const panel = await ready(
      await vscode.commands.executeCommand<PlaygroundPanel | undefined>(COMMANDS.runLocally, { modelName: OUTSIDE_MODEL }),
    );
    const log = record(panel);
    try {
      panel.handleMessage({ type: 'run', runId: 'outside', settings: { ...run, modelName: panel.prefill!.modelName! } });
      assert.equal((await waitForEnd(log.posted, 'outside')).type, 'done');
      assert.deepEqual(
        runtime.requests.map((r) => path.basename(r.modelPath)),
        [`${OUTSIDE_MODEL}.gguf`],
      );
    } finally {
      log.dispose();
    }
  });

  it('refuses a .gguf from the Explorer, says why and offers to manage trust; records and runs nothing', async () => {
    const panels = rig.api.playground.panels.length;
    const requests = runtime.requests.length;
    const { returned, shown } = await runLocallyAnswering(insideGguf);
    assert.equal(returned, undefined);
    assert.equal(shown.length, 1, JSON.stringify(shown));
    assert.equal(shown[0]!.severity, 'warning');
    assert.match(shown[0]!.text, /Restricted Mode: restricted-tiny\.gguf comes from a workspace/);
    assert.match(shown[0]!.text, /native code/);
    assert.deepEqual(shown[0]!.actions, [MANAGE]);
    assert.equal(rig.api.playground.panels.length, panels, 'a playground opened');
    assert.equal(runtime.requests.length, requests, 'the runtime was asked');
    assert.deepEqual(
      rig.api.services.local.all().filter((m) => m.source === 'file'),
      [],
      'the file was recorded for the playground',
    );
  });

  it('refuses a download kept inside the workspace folder (the workspace controls that file)', async () => {
    const { returned, shown } = await runLocallyAnswering({ modelName: INSIDE_MODEL });
    assert.equal(returned, undefined);
    assert.match(shown[0]?.text ?? '', new RegExp(`Restricted Mode: ${INSIDE_MODEL}\\.gguf`));
    assert.deepEqual(shown[0]?.actions, [MANAGE]);
  });

  it('ends a playground run on a chosen .gguf with why, and never asks the runtime', async () => {
    // A file chosen in a window that was trusted: the record says nothing of which one, so it waits here too.
    const chosen = await rig.api.services.local.addFile(insideGguf.fsPath, 4);
    try {
      const panel = await ready(
        await vscode.commands.executeCommand<PlaygroundPanel | undefined>(COMMANDS.runLocally, { modelName: OUTSIDE_MODEL }),
      );
      const requests = runtime.requests.length;
      const log = record(panel);
      try {
        const shown = await recordingMessages(async (shown) => {
          panel.handleMessage({ type: 'run', runId: 'chosen', settings: { ...run, modelName: chosen.id } });
          const end = await waitForEnd(log.posted, 'chosen');
          assert.equal(end.type, 'error');
          assert.match(end.type === 'error' ? end.error.message : '', /Restricted Mode: restricted-tiny\.gguf .*trust this workspace/);
          await waitFor('the notification offering to manage trust', () => (shown.length > 0 ? true : undefined));
          return shown;
        });
        assert.deepEqual(shown[0]?.actions, [MANAGE]);
        assert.equal(runtime.requests.length, requests, 'the runtime was asked');
      } finally {
        log.dispose();
      }
    } finally {
      await rig.api.services.context.globalState.update(
        LOCAL_MODELS_KEY,
        (rig.api.services.context.globalState.get<{ path: string }[]>(LOCAL_MODELS_KEY) ?? []).filter((r) => r.path !== insideGguf.fsPath),
      );
    }
  });

  // Last: the trust granted here stays for the rest of the window.
  it('goes on by itself once the user trusts the workspace from the refusal (Manage Workspace Trust, then Trust)', async () => {
    const granted = new Promise<void>((resolve) => {
      const subscription = vscode.workspace.onDidGrantWorkspaceTrust(() => {
        subscription.dispose();
        resolve();
      });
    });
    const { returned, shown } = await runLocallyAnswering(insideGguf, MANAGE);
    assert.equal(returned, undefined);
    assert.deepEqual(shown[0]?.actions, [MANAGE]);
    // The Workspace Trust editor opened; the runner clicks Trust there.
    await waitFor('the user to trust the workspace', () => (vscode.workspace.isTrusted ? true : undefined), { timeoutMs: 30_000 });
    await granted;
    const panel = await ready(
      await waitFor('Run Locally to open the playground on the file', () =>
        rig.api.playground.panels.find((p) => {
          const id = p.prefill?.modelName;
          return id !== undefined && rig.api.services.local.all().some((m) => m.id === id && m.path === insideGguf.fsPath);
        }),
      ),
    );
    const log = record(panel);
    try {
      panel.handleMessage({ type: 'run', runId: 'trusted', settings: { ...run, modelName: panel.prefill!.modelName! } });
      assert.equal((await waitForEnd(log.posted, 'trusted')).type, 'done');
      assert.equal(runtime.requests.at(-1)?.modelPath, insideGguf.fsPath);
    } finally {
      log.dispose();
    }
  });
});
