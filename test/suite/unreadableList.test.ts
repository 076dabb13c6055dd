// A service whose model list cannot be read (issue 20): the key it accepted with a 200 is kept, the person is told the
// list could not be read, and a model picker takes a typed name, so the journey goes on. Lists shaped by keys the
// decoder does not know are read by their structure.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { COMMANDS } from '../../src/contributions';
import { answeringInputBoxes, capturingQuickPicks, modelsView, recordingMessages, waitFor } from './helpers';
import { useRig } from './rig';

const rig = useRig();
const ODD_KEY = 'unreadable-list-key';
const GROUPED_KEY = 'grouped-list-key';

describe('an answer that cannot be read', () => {
  before(() => {
    rig.emu.setKey(ODD_KEY, { models: ['odd-reasoner-8b'], modelListShape: 'unreadable' });
    rig.emu.setKey(GROUPED_KEY, { models: ['grouped-base-8b'], modelListShape: 'grouped-by-kind' });
  });
  afterEach(() => rig.clearKey());

  it('a 200 whose model list cannot be read keeps the key and says the list could not be read', async () => {
    await rig.clearKey();
    const { stored, asked, shown } = await recordingMessages(async (messages) =>
      answeringInputBoxes([ODD_KEY], async (boxes) => ({
        stored: await vscode.commands.executeCommand<boolean>(COMMANDS.setApiKey),
        asked: boxes,
        shown: messages,
      })),
    );
    assert.equal(stored, true, 'the key was not stored');
    assert.deepEqual(asked[0]?.refusals, [], `the box refused the key: ${JSON.stringify(asked[0]?.refusals)}`);
    assert.equal((await rig.api.services.session.current()).key?.key, ODD_KEY);
    const told = shown.find((m) => /list of models could not be read/.test(m.text));
    assert.ok(told, `messages: ${JSON.stringify(shown)}`);
    assert.doesNotMatch(told.text, /correct the key/i);
    // Where the person learns the list cannot be read, they are offered to say how to read it.
    assert.deepEqual(told.actions, ['Choose How to Read…', 'Show Log']);
  });

  it('the evaluate picker takes a typed model name when the list cannot be read, and the job starts with it', async function () {
    this.timeout(30_000);
    const stored = await recordingMessages(() =>
      answeringInputBoxes([ODD_KEY], async () => vscode.commands.executeCommand<boolean>(COMMANDS.setApiKey)),
    );
    assert.equal(stored, true);
    rig.emu.clearReceived();
    const typed = 'odd-reasoner-8b';
    await capturingQuickPicks(async (picks) => {
      const done = vscode.commands.executeCommand<string | undefined>(COMMANDS.evaluate);
      const modelPick = await waitFor('the model picker, loaded', () => picks.find((p) => /which model/i.test(p.title ?? '') && !p.busy));
      assert.match(modelPick.placeholder ?? '', /could not be read: type a model name/);
      modelPick.value = typed;
      const item = await waitFor('the typed name offered', () => modelPick.items.find((i) => i.label === typed));
      modelPick.activeItems = [item];
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      const datasetPick = await waitFor('the dataset picker', () => picks.find((p) => /dataset/i.test(p.title ?? '')));
      datasetPick.value = 'demo-qa';
      const dataset = await waitFor('the typed dataset offered', () => datasetPick.items.find((i) => i.label.includes('demo-qa')));
      datasetPick.activeItems = [dataset];
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      const jobId = await done;
      assert.ok(jobId, 'no evaluation was started');
      const scope = await rig.api.services.session.scope();
      assert.ok(scope);
      assert.equal(rig.api.services.jobs.get(scope, `evaluation:${jobId}`)?.modelName, typed, 'the job is not for the typed model');
    });
    assert.ok(
      rig.emu.received.some((r) => r.path.startsWith('/cr/finetune_model/evaluate_async')),
      'the service was not asked',
    );
  });

  it('a list grouped by kind under keys the extension does not know is listed by its structure', async () => {
    await rig.useKey(GROUPED_KEY);
    const view = await waitFor('the grouped list in the Models view', async () => {
      const v = await modelsView(rig.api);
      return v.models.some((m) => m.model.name === 'grouped-base-8b') ? v : undefined;
    });
    const base = view.groups.find((g) => g.kind === 'base');
    assert.deepEqual(
      base?.models.map((m) => m.model.name),
      ['grouped-base-8b'],
    );
  });
});
