// The trust boundary in the real VS Code: text from the service reaches no surface as a link, a workspace cannot
// steer the service URL or the download folder, and the key goes only to the origin it was stored for.
import * as assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { answeringInputBoxes, capturingQuickPicks, modelNode, recordingMessages, waitFor } from './helpers';
import { useRig } from './rig';
import { COMMANDS } from '../../src/contributions';
import { EVERY_HOST_TAG } from './suiteResult';

const rig = useRig();
const KEY = 'demo-key';
const MODEL = 'oss-reasoner-8b';

/** VS Code 1.100's notification link grammar (src/vs/base/common/linkedText.ts). */
const NOTIFICATION_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/i;
const LINKS =
  '[Fix it](command:hostedReasoning.configureBaseUrl?%5B%22https%3A%2F%2Fevil.example%22%5D) [x](file:///etc/passwd) <command:x> $(key)';

function assertInert(text: unknown, where: string): void {
  assert.equal(typeof text, 'string', `${where} is not plain text: ${JSON.stringify(text)}`);
  const s = text as string;
  assert.equal(s.match(NOTIFICATION_LINK), null, `${where} holds a link: ${s}`);
  assert.ok(!/<command:|<file:/.test(s), `${where} holds an autolink: ${s}`);
  assert.ok(!s.includes('$('), `${where} holds an icon: ${s}`);
}

/** A loopback server that records what it receives and answers an empty model list. */
async function listener(): Promise<{ url: string; received: http.IncomingHttpHeaders[]; close(): Promise<void> }> {
  const received: http.IncomingHttpHeaders[] = [];
  const server = http.createServer((req, res) => {
    received.push(req.headers);
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end('[]');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe(`trust boundary ${EVERY_HOST_TAG}`, () => {
  afterEach(async () => {
    rig.emu.faults.clear();
    await rig.setSetting('baseUrl', rig.emu.url);
    await rig.clearKey();
  });

  it('shows a service error carrying links in a notification without any link', async function () {
    this.timeout(20_000);
    await rig.useKey(KEY);
    rig.emu.faults.add({
      path: '/cr/finetune_model/evaluate_async',
      kind: 'status',
      status: 402,
      body: JSON.stringify({ detail: `Payment required. ${LINKS}` }),
    });
    const shown = await recordingMessages(async (shown) => {
      assert.equal(await rig.api.evaluate(MODEL, 'demo-qa'), undefined);
      return shown;
    });
    const errors = shown.filter((m) => m.severity === 'error');
    assert.equal(errors.length, 1, JSON.stringify(shown));
    assert.match(errors[0]!.text, /Payment required/, 'the service’s words are shown');
    assertInert(errors[0]!.text, 'the error notification');
  });

  it('keeps links in a failed job’s error and in model names inert in rows, tooltips, the status bar, notifications and pickers', async function () {
    this.timeout(30_000);
    await rig.useKey(KEY);
    // One token: a model's name is its identifier-like string (answerReading.ts); the link and the icon are what matter here.
    const hostileModel = `m-[x](command:hostedReasoning.download)$(zap)`;
    if (!rig.emu.artifactPath(hostileModel, KEY)) await rig.emu.addCustomModel(KEY, hostileModel);
    // An unknown dataset fails on the service with an error that repeats its name (links included).
    const dataset = `ds ${LINKS}`;
    const shown = await recordingMessages(async (shown) => {
      const jobId = await rig.api.evaluate(hostileModel, dataset);
      assert.ok(jobId, 'the evaluation was not started');
      await waitFor('the job to fail and be announced', () => (shown.some((m) => m.severity === 'error') ? true : undefined), {
        timeoutMs: 15_000,
        describe: () => shown,
      });
      return shown;
    });
    for (const m of shown) assertInert(m.text, `the notification "${m.text}"`);

    const rows = await rig.api.jobsView.getChildren();
    const row = rows.find((n) => n.job.datasetName === dataset);
    assert.ok(row, 'the job is not in the Jobs view');
    assert.equal(row.job.state, 'failed');
    const item = rig.api.jobsView.getTreeItem(row);
    assertInert(item.label, 'the job row label');
    assertInert(item.description, 'the job row description');
    assertInert(item.tooltip, 'the job row tooltip');
    assert.ok(typeof item.tooltip === 'string', 'the job row tooltip is plain text');
    assert.match(item.tooltip, /not found/, 'the tooltip does not show the service’s error');
    assertInert(rig.api.statusBar.item.tooltip, 'the status bar tooltip');

    await rig.api.models.refresh();
    const node = await waitFor('the hostile model in the Models view', () => modelNode(rig.api, hostileModel));
    const modelItem = rig.api.models.resolveTreeItem(rig.api.models.getTreeItem(node), node);
    assertInert(modelItem.label, 'the model row label');
    assertInert(modelItem.tooltip, 'the model row tooltip');

    // The model picker (Download with no argument) lists the same names.
    await capturingQuickPicks(async (picks) => {
      const done = vscode.commands.executeCommand(COMMANDS.download);
      const pick = await waitFor('the model picker to list the models', () =>
        picks[0] && picks[0].items.length > 0 ? picks[0] : undefined,
      );
      const labels = pick.items.map((i) => i.label);
      assert.ok(
        labels.some((l) => l.startsWith('m-')),
        `the hostile model is not listed: ${JSON.stringify(labels)}`,
      );
      for (const i of pick.items) {
        assertInert(i.label, 'a picker label');
        if (i.description !== undefined) assertInert(i.description, 'a picker description');
      }
      pick.hide();
      assert.equal(await done, undefined);
    });
  });

  it('starts no evaluation and no finetuning from a dataset or files given as arguments: the person is asked', async function () {
    this.timeout(30_000);
    await rig.useKey(KEY);
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(folder);
    const pdf = path.join(folder, 'trust-arg.pdf');
    await fsp.writeFile(pdf, '%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
    const since = rig.emu.received.length;
    try {
      await capturingQuickPicks(async (picks) => {
        // A link can pass anything: the dataset and the files (with answers that would skip the wizard).
        const evaluation = vscode.commands.executeCommand(COMMANDS.evaluate, { modelName: MODEL, datasetName: 'demo-qa' });
        const datasetPick = await waitFor('the dataset picker', () => picks.find((p) => /dataset/i.test(p.title ?? '')));
        datasetPick.hide();
        assert.equal(await evaluation, undefined);

        const answers = { baseModel: MODEL, modelName: 'from-a-link', numQs: 5, mode: 'pretraining', useCase: '' };
        const finetune = vscode.commands.executeCommand(COMMANDS.finetune, undefined, { files: [pdf], answers });
        const filePick = await waitFor('the source file picker', () => picks.find((p) => /source files/i.test(p.title ?? '')));
        filePick.hide();
        await finetune;
      });
    } finally {
      await fsp.rm(pdf, { force: true });
    }
    const started = rig.emu.received.slice(since).filter((r) => r.method === 'POST');
    assert.deepEqual(
      started.map((r) => r.path),
      [],
      'a job was started from the arguments alone',
    );
  });

  it('never sends a key an earlier version kept for no particular service; offers it, hidden, when a key is set', async () => {
    const secrets = rig.api.services.context.secrets;
    await rig.clearKey();
    await secrets.store('hostedReasoning.apiKey', KEY);
    try {
      await waitFor('the old key to be offered only', async () =>
        (await rig.api.services.session.current()).key === undefined ? true : undefined,
      );
      const since = rig.emu.received.length;
      await vscode.commands.executeCommand(COMMANDS.refreshModels);
      assert.deepEqual(
        rig.emu.received.slice(since).filter((r) => r.headers['x-api-key'] !== undefined),
        [],
        'the unbound key was sent',
      );
      const stored = await answeringInputBoxes([KEY], async (asked) => {
        const done = await vscode.commands.executeCommand<boolean>(COMMANDS.setApiKey);
        assert.equal(asked[0]?.value, KEY, 'the earlier key is not filled in');
        assert.equal(asked[0]?.password, true);
        assert.match(asked[0]?.prompt ?? '', /earlier version/);
        return done;
      });
      assert.equal(stored, true);
      assert.equal((await rig.api.services.session.current()).key?.key, KEY, 'the key is not bound to the service now');
      assert.equal(await secrets.get('hostedReasoning.apiKey'), undefined, 'the unbound copy is still kept');
    } finally {
      await secrets.delete('hostedReasoning.apiKey');
    }
  });

  it('ignores a workspace’s service URL and download folder: the workspace’s listener receives nothing', async function () {
    this.timeout(30_000);
    const hostile = await listener();
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(folder, 'the suite runs without a workspace folder');
    const settingsDir = path.join(folder, '.vscode');
    try {
      await rig.useKey(KEY);
      await fsp.mkdir(settingsDir, { recursive: true });
      await fsp.writeFile(
        path.join(settingsDir, 'settings.json'),
        JSON.stringify({
          'hostedReasoning.baseUrl': hostile.url,
          'hostedReasoning.downloadFolder': path.join(folder, 'stolen'),
          // A setting a workspace may set: once VS Code shows it, it has read the file.
          'hostedReasoning.pollIntervalSeconds': 7,
        }),
      );
      const config = () => vscode.workspace.getConfiguration('hostedReasoning');
      await waitFor('VS Code to read the workspace settings', () =>
        config().inspect('pollIntervalSeconds')?.workspaceValue === 7 ? true : undefined,
      );

      assert.equal(rig.api.services.session.settings().baseUrl, rig.emu.url, 'the workspace moved the service URL');
      assert.equal(rig.api.services.session.settings().downloadFolder, undefined, 'the workspace set the download folder');
      const since = rig.emu.received.length;
      await vscode.commands.executeCommand(COMMANDS.refreshModels);
      await waitFor('the models of the user’s service', () => modelNode(rig.api, MODEL));
      assert.ok(
        rig.emu.received.slice(since).some((r) => r.path === '/cr/get_allowed_models'),
        'the user’s service was not asked',
      );
      assert.deepEqual(hostile.received, [], 'the workspace’s listener was called');
    } finally {
      await fsp.rm(settingsDir, { recursive: true, force: true });
      await hostile.close();
    }
  });

  it('never sends a key to a service it was not stored for, and says which service and key the Models view uses', async function () {
    this.timeout(30_000);
    const other = await listener();
    try {
      await rig.useKey(KEY);
      const emuHost = new URL(rig.emu.url).host;
      await waitFor(
        'the Models view to name its service',
        () => (rig.api.modelsView.description === `${emuHost} · key stored` ? true : undefined),
        {
          describe: () => rig.api.modelsView.description,
        },
      );
      await waitFor('the models of the first service', () => modelNode(rig.api, MODEL));

      // The user points the extension at another service: the key stays with the first one.
      await rig.setSetting('baseUrl', other.url);
      await waitFor('the Models view to name the new service', () =>
        rig.api.modelsView.description === `${new URL(other.url).host} · no key` ? true : undefined,
      );
      assert.deepEqual(await rig.api.models.getChildren(), [], 'rows of the previous service are still shown');
      await vscode.commands.executeCommand(COMMANDS.refreshModels);
      await vscode.commands.executeCommand(COMMANDS.refreshJobs);
      assert.deepEqual(
        other.received.filter((h) => h['x-api-key'] !== undefined),
        [],
        'the key went to a service it was not set for',
      );

      // Back to the first service: its key is still there.
      await rig.setSetting('baseUrl', rig.emu.url);
      await waitFor('the first service’s models again', () => modelNode(rig.api, MODEL));
      assert.equal((await rig.api.services.session.current()).key?.key, KEY);
    } finally {
      await other.close();
    }
  });
});
