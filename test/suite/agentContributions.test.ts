// The Agent Skill, prompt files and custom agent the manifest contributes (contributes.chatSkills, chatPromptFiles,
// chatAgents): VS Code 1.139 registers each as the extension's (read through its own `_listExtensionPromptFiles`, the
// command its customizations list uses: an internal one, so this reads what the workbench registered, not a promise of
// API); VS Code 1.104 knows none of these points and the extension works all the same (it activates, its commands and
// Chat participant are there). Their contents are checked by test/unit/agentContributions.test.ts.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { COMMANDS } from '../../src/contributions';
import { EXTENSION_ID, useRig } from './rig';
import { EVERY_HOST_TAG } from './suiteResult';

useRig();

const LIST_COMMAND = '_listExtensionPromptFiles';

interface Listed {
  uri: { path: string };
  type: string;
  extensionId: string;
}

describe(`agent contributions (chat skills, prompt files, agents) ${EVERY_HOST_TAG}`, () => {
  it('are registered as the extension’s where VS Code knows them, and ignored where it does not', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension?.isActive, 'the extension is not active');
    const contributes = (extension.packageJSON as { contributes: Record<string, { path: string }[]> }).contributes;
    const commands = await vscode.commands.getCommands(true);
    assert.ok(commands.includes(COMMANDS.askInChat), 'the extension’s commands are missing');
    if (vscode.version.startsWith('1.104.')) {
      // The points are unknown there: nothing lists them, and the extension above works.
      assert.ok(!commands.includes(LIST_COMMAND), `${LIST_COMMAND} exists in ${vscode.version}: test what it lists`);
      return;
    }
    const listed = (await vscode.commands.executeCommand<Listed[]>(LIST_COMMAND)).filter(
      (f) => f.extensionId.toLowerCase() === EXTENSION_ID,
    );
    const ours = (point: string, type: string) =>
      (contributes[point] ?? []).map((c) => [type, vscode.Uri.joinPath(extension.extensionUri, c.path).path] as const);
    const expected = [...ours('chatAgents', 'agent'), ...ours('chatPromptFiles', 'prompt'), ...ours('chatSkills', 'skill')];
    assert.equal(expected.length, 4);
    assert.deepEqual(listed.map((f) => [f.type, f.uri.path]).sort(), expected.map(([t, p]) => [t, p]).sort());
  });
});
