// The in-editor harness itself: the right VS Code, our extension loaded from this repository, the test workspace open.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { EVERY_HOST_TAG, EXPECTED_VSCODE_ENV } from './suiteResult';

/** publisher.name from package.json. */
const EXTENSION_ID = 'hosted-reasoning.hosted-reasoning';

/** Compiled tests live in out/test/suite/: the repository root is three levels up. */
const repoRoot = path.resolve(__dirname, '..', '..', '..');

describe(`extension host smoke ${EVERY_HOST_TAG}`, () => {
  it('runs inside the VS Code the runner started, no older than the manifest allows', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { engines: { vscode: string } };
    const minimum = /(\d+)\.(\d+)/.exec(manifest.engines.vscode);
    const running = /^(\d+)\.(\d+)/.exec(vscode.version);
    assert.ok(minimum && running, `${vscode.version} / ${manifest.engines.vscode}`);
    assert.ok(
      Number(running[1]) * 1000 + Number(running[2]) >= Number(minimum[1]) * 1000 + Number(minimum[2]),
      `VS Code ${vscode.version} is older than engines.vscode ${manifest.engines.vscode}`,
    );
    const expected = process.env[EXPECTED_VSCODE_ENV];
    // Desktop VS Code through @vscode/test-electron sets no expectation.
    if (expected) assert.equal(vscode.version, expected);
  });

  it('loads the extension from this repository and activates it', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is not loaded`);
    // path.relative: equal paths give '' whatever the platform's case and separator rules.
    assert.equal(path.relative(repoRoot, extension.extensionPath), '', `loaded from ${extension.extensionPath}`);
    await extension.activate();
    assert.equal(extension.isActive, true);
  });

  it('opens the test workspace folder', async () => {
    const folders = vscode.workspace.workspaceFolders ?? [];
    assert.equal(folders.length, 1);
    const [folder] = folders;
    assert.ok(folder);
    const expected = path.join(repoRoot, 'test', 'fixtures', 'workspace');
    assert.equal(path.relative(expected, folder.uri.fsPath), '', `opened ${folder.uri.toString()}`);
    const readme = await vscode.workspace.fs.stat(vscode.Uri.joinPath(folder.uri, 'README.md'));
    assert.equal(readme.type, vscode.FileType.File);
  });
});
