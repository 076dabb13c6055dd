// Downloading a custom model's artifact: the file on disk is the emulator's, byte for byte, and the key never
// travels to the signed-URL storage origin.
import * as assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { recordingMessages } from './helpers';
import { useRig } from './rig';
import { COMMANDS } from '../../src/contributions';

const rig = useRig();
const MODEL = 'suite-model';
const LAST_FOLDER_KEY = 'hostedReasoning.lastDownloadFolder';

describe('download', () => {
  let directory: string | undefined;

  afterEach(async () => {
    if (directory) await fsp.rm(directory, { recursive: true, force: true });
    directory = undefined;
    await rig.setSetting('downloadFolder', '');
    await rig.clearKey();
  });

  it('writes an artifact byte-identical to the emulator’s, without sending the key to storage', async function () {
    this.timeout(30_000);
    await rig.useKey('demo-key');
    if (!rig.emu.artifactPath(MODEL, 'demo-key')) await rig.emu.addCustomModel('demo-key', MODEL);
    const source = rig.emu.artifactPath(MODEL, 'demo-key');
    assert.ok(source, 'the emulator did not create the artifact');
    directory = await fsp.mkdtemp(path.join(os.tmpdir(), 'hr-suite-download-'));
    const since = rig.emu.received.length;

    await rig.setSetting('downloadFolder', directory);
    const result = await vscode.commands.executeCommand<string | undefined>(COMMANDS.download, { modelName: MODEL });

    assert.ok(result, 'the download command returned no path');
    assert.equal(path.dirname(result), directory, `saved outside the requested folder: ${result}`);
    const [got, want] = await Promise.all([fsp.readFile(result), fsp.readFile(source)]);
    assert.equal(got.length, want.length, 'sizes differ');
    assert.ok(got.equals(want), 'the bytes differ from the emulator’s artifact');
    assert.deepEqual(
      (await fsp.readdir(directory)).filter((f) => f !== path.basename(result)),
      [],
      'something besides the artifact was left in the folder (a .part file?)',
    );

    const requests = rig.emu.received.slice(since);
    const storage = requests.filter((r) => r.origin === 'storage');
    assert.ok(storage.length > 0, 'the artifact did not come from the storage origin');
    const leaked = storage.filter((r) => Object.keys(r.headers).some((h) => h.toLowerCase() === 'x-api-key'));
    assert.deepEqual(
      leaked.map((r) => r.path),
      [],
      'x-api-key was sent to the storage origin',
    );
    const api = requests.filter((r) => r.origin === 'api' && r.path.startsWith('/cr/finetune_model/download'));
    assert.ok(api.length > 0 && api.every((r) => r.headers['x-api-key'] === 'demo-key'), 'the API download call did not carry the key');
  });

  // Where the bytes go: never from the command's arguments, never over a file without a save dialog.
  it('takes no folder or file name from the command arguments, and never replaces a file without a save dialog', async function () {
    this.timeout(30_000);
    await rig.useKey('demo-key');
    if (!rig.emu.artifactPath(MODEL, 'demo-key')) await rig.emu.addCustomModel('demo-key', MODEL);
    directory = await fsp.mkdtemp(path.join(os.tmpdir(), 'hr-suite-download-'));
    const victim = path.join(directory, 'victim.txt');
    await fsp.writeFile(victim, 'precious');

    // With no folder set, a save dialog must ask; a user who cancels it gets nothing written anywhere.
    const window = vscode.window as unknown as { showSaveDialog: unknown };
    const original = window.showSaveDialog;
    let dialogs = 0;
    window.showSaveDialog = () => {
      dialogs++;
      return Promise.resolve(undefined);
    };
    try {
      const result = await vscode.commands.executeCommand(COMMANDS.download, { modelName: MODEL, directory, fileName: 'victim.txt' });
      assert.equal(result, undefined);
    } finally {
      window.showSaveDialog = original;
    }
    assert.equal(dialogs, 1, 'no save dialog asked where to write');
    assert.equal(await fsp.readFile(victim, 'utf8'), 'precious', 'the file named in the arguments was replaced');
    assert.deepEqual(await fsp.readdir(directory), ['victim.txt'], 'something was written into the folder named in the arguments');

    // The folder setting: a file already there keeps its bytes (the download takes another name).
    await rig.setSetting('downloadFolder', directory);
    const first = await vscode.commands.executeCommand<string | undefined>(COMMANDS.download, { modelName: MODEL });
    assert.ok(first);
    const firstBytes = await fsp.readFile(first);
    await fsp.writeFile(first, 'mine');
    const second = await vscode.commands.executeCommand<string | undefined>(COMMANDS.download, { modelName: MODEL });
    assert.ok(second && second !== first, `the second download went to ${second}`);
    assert.equal(await fsp.readFile(first, 'utf8'), 'mine', 'an existing file was replaced without a save dialog');
    assert.ok((await fsp.readFile(second)).equals(firstBytes));
  });

  it('opens the save dialog outside the workspace when no folder is set, then in the folder chosen last', async function () {
    this.timeout(30_000);
    await rig.useKey('demo-key');
    if (!rig.emu.artifactPath(MODEL, 'demo-key')) await rig.emu.addCustomModel('demo-key', MODEL);
    await rig.api.services.context.globalState.update(LAST_FOLDER_KEY, undefined);
    directory = await fsp.mkdtemp(path.join(os.tmpdir(), 'hr-suite-download-'));
    const chosen = path.join(directory, 'chosen.gguf');

    const window = vscode.window as unknown as { showSaveDialog: unknown };
    const original = window.showSaveDialog;
    const starts: (string | undefined)[] = [];
    let answer: vscode.Uri | undefined;
    window.showSaveDialog = (options: vscode.SaveDialogOptions) => {
      starts.push(options.defaultUri?.fsPath);
      return Promise.resolve(answer);
    };
    try {
      answer = vscode.Uri.file(chosen);
      assert.equal(await vscode.commands.executeCommand<string | undefined>(COMMANDS.download, { modelName: MODEL }), chosen);
      answer = undefined;
      await vscode.commands.executeCommand(COMMANDS.download, { modelName: MODEL });
    } finally {
      window.showSaveDialog = original;
    }

    const [first, second] = starts.map((start) => (start === undefined ? undefined : path.dirname(start)));
    assert.ok(first, 'the first dialog had no starting place');
    const workspaces = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
    assert.ok(workspaces.length > 0, 'the suite runs without a workspace: nothing to stay out of');
    const inside = workspaces.filter((w) => !path.relative(w, first).startsWith('..') && !path.isAbsolute(path.relative(w, first)));
    assert.deepEqual(inside, [], `the dialog started inside the workspace: ${first}`);
    const downloads = path.join(os.homedir(), 'Downloads');
    const downloadsExists = await fsp.stat(downloads).then(
      (s) => s.isDirectory(),
      () => false,
    );
    assert.equal(first, downloadsExists ? downloads : os.homedir());
    assert.equal(second, directory, 'the second dialog did not start in the folder chosen the first time');
  });

  // The disk refusing the part file, as a read-only, forbidden or full folder does (root can write anywhere here, so
  // the refusal is made by the file system calls themselves, which the extension shares with this test).
  it('tells a read-only or forbidden folder by its cause, without Resume; a full one to free space and try again', async function () {
    this.timeout(30_000);
    await rig.useKey('demo-key');
    if (!rig.emu.artifactPath(MODEL, 'demo-key')) await rig.emu.addCustomModel('demo-key', MODEL);
    directory = await fsp.mkdtemp(path.join(os.tmpdir(), 'hr-suite-download-'));
    await rig.setSetting('downloadFolder', directory);
    const open = fsp.open;
    const folder = directory;
    let code = '';
    fsp.open = ((file: string, ...rest: unknown[]) =>
      String(file).startsWith(folder) && String(file).endsWith('.part')
        ? Promise.reject(Object.assign(new Error(`${code}: emulated`), { code }))
        : (open as (...a: unknown[]) => unknown)(file, ...rest)) as typeof fsp.open;
    try {
      for (const [refusal, words, actions] of [
        ['EROFS', /is on a read-only disk\. Choose another folder/, []],
        ['EACCES', /cannot be written here \(permission denied\)\. Choose another folder/, []],
        ['ENOSPC', /is full\. Free space, then try again\./, ['Try Again']],
      ] as const) {
        code = refusal;
        const shown = await recordingMessages(async (shown) => {
          assert.equal(await vscode.commands.executeCommand(COMMANDS.download, { modelName: MODEL }), undefined);
          return shown;
        });
        const errors = shown.filter((m) => m.severity === 'error');
        assert.equal(errors.length, 1, `${refusal}: ${JSON.stringify(shown)}`);
        assert.match(errors[0]!.text, words, refusal);
        assert.ok(errors[0]!.text.includes(folder), `${refusal}: the folder is not named: ${errors[0]!.text}`);
        assert.doesNotMatch(errors[0]!.text, /0\.0 MB|kept/, refusal);
        assert.deepEqual(errors[0]!.actions, actions, refusal);
      }
    } finally {
      fsp.open = open;
    }
  });

  it('joins a download of the same model into the same folder already running in this window (one transfer, no error)', async function () {
    this.timeout(30_000);
    await rig.useKey('demo-key');
    if (!rig.emu.artifactPath(MODEL, 'demo-key')) await rig.emu.addCustomModel('demo-key', MODEL);
    directory = await fsp.mkdtemp(path.join(os.tmpdir(), 'hr-suite-download-'));
    await rig.setSetting('downloadFolder', directory);
    const since = rig.emu.received.length;
    const shown = await recordingMessages(async (shown) => {
      // As from the finished job's notification and from the Models view, at once.
      const [first, second] = await Promise.all([
        vscode.commands.executeCommand<string | undefined>(COMMANDS.download, { modelName: MODEL }),
        vscode.commands.executeCommand<string | undefined>(COMMANDS.download, { modelName: MODEL }),
      ]);
      assert.ok(first, `the first download failed: ${JSON.stringify(shown)}`);
      assert.equal(second, first, 'the second did not join the first');
      return shown;
    });
    assert.deepEqual(
      shown.filter((m) => m.severity === 'error'),
      [],
    );
    assert.ok(
      shown.some((m) => /is already being downloaded to/.test(m.text)),
      JSON.stringify(shown),
    );
    assert.deepEqual(await fsp.readdir(directory), [path.basename(downloadedName(shown) ?? `${MODEL}.gguf`)]);
    const transfers = rig.emu.received.slice(since).filter((r) => r.origin === 'storage' && r.method === 'GET');
    assert.equal(transfers.length, 1, 'the artifact was fetched twice');
  });
});

/** The file name the download's notification names. */
function downloadedName(shown: { text: string }[]): string | undefined {
  return /^Downloaded (.+) \(/.exec(shown.find((m) => m.text.startsWith('Downloaded'))?.text ?? '')?.[1];
}
