// The language-model tools in a real Restricted Mode window (the runner's untrusted window). The tool that sends
// workspace documents to the service is hidden from agents there by its `when` (isWorkspaceTrusted, checked in
// test/unit/languageModelTools.test.ts). VS Code 1.104 leaves it out of `vscode.lm.tools` too; 1.139 lists every tool
// to extensions, disabled or not (its list comes from getAllToolsIncludingDisabled, while the agents' list, getTools,
// applies `when`). Both still run a call through vscode.lm.invokeTool (seen), so the tool refuses it itself, saying
// why, and nothing is uploaded. Named to sort before restrictedMode.test.ts, whose last test trusts the window.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { LM_TOOLS } from '../../../src/contributions';
import { waitFor } from '../helpers';
import { useRig } from '../rig';
import { EVERY_HOST_TAG } from '../suiteResult';

const rig = useRig();

describe(`language-model tools in Restricted Mode ${EVERY_HOST_TAG}`, () => {
  it('hosted_start_finetune is hidden, and refuses when called anyway, and uploads nothing', async () => {
    assert.equal(vscode.workspace.isTrusted, false, 'this window is trusted: the runner did not open it in Restricted Mode');
    await waitFor('our tools in vscode.lm.tools', () => vscode.lm.tools.find((t) => t.name === LM_TOOLS.listModels));
    const listed = vscode.lm.tools.some((t) => t.name === LM_TOOLS.startFinetune);
    // VS Code 1.104 applies `when` to the list extensions see as well (seen: the tool is not in it); 1.139 lists it.
    if (vscode.version.startsWith('1.104.')) assert.equal(listed, false, 'listed in Restricted Mode');
    await rig.useKey('demo-key');
    rig.emu.clearReceived();
    const result = await vscode.lm.invokeTool(LM_TOOLS.startFinetune, {
      input: { files: ['README.md'], baseModel: 'oss-reasoner-8b', modelName: 'restricted-tool' },
      toolInvocationToken: undefined,
    });
    const text = result.content.map((p) => (p as { value?: unknown }).value).join('');
    assert.match(text, /^Not started: this workspace is in Restricted Mode/);
    assert.ok(
      !rig.emu.received.some((q) => q.method === 'POST' && q.path.split('?')[0] === '/cr/generate_questions'),
      'a file was uploaded',
    );
  });
});
