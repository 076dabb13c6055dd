// The in-editor harness itself: the right VS Code, our extension loaded from this repository, the test workspace open.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';

/** publisher.name from package.json. */
const EXTENSION_ID = 'hosted-reasoning.hosted-reasoning';

/** Compiled tests live in out/test/suite/: the repository root is three levels up. */
const repoRoot = path.resolve(__dirname, '..', '..', '..');

describe('extension host smoke', () => {
  it('runs inside VS Code 1.100', () => {
    assert.match(vscode.version, /^1\.100\./);
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
