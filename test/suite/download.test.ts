// Downloading a custom model's artifact: the file on disk is the emulator's, byte for byte, and the key never
// travels to the signed-URL storage origin.
import * as assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { useRig } from './rig';

const rig = useRig();
const MODEL = 'suite-model';

describe('download', () => {
  let directory: string | undefined;

  afterEach(async () => {
    if (directory) await fsp.rm(directory, { recursive: true, force: true });
    directory = undefined;
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

    const result = await vscode.commands.executeCommand<string | undefined>('hostedReasoning.download', { modelName: MODEL, directory });

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
    assert.deepEqual(leaked.map((r) => r.path), [], 'x-api-key was sent to the storage origin');
    const api = requests.filter((r) => r.origin === 'api' && r.path.startsWith('/cr/finetune_model/download'));
    assert.ok(api.length > 0 && api.every((r) => r.headers['x-api-key'] === 'demo-key'), 'the API download call did not carry the key');
  });
});
