// Model names kept per service for when its model list cannot be read (issue 27, part 3): a name typed in a picker and
// accepted by the service is offered, marked typed, by the next picker; Chat's model picker (through the provider, as
// `vscode.lm` sees it) offers kept names and a request through one reaches the service with that name. A list that can
// be read is the truth: kept names are not added to it.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { CHAT_VENDOR, COMMANDS } from '../../src/contributions';
import { acceptQuickPickItem, answeringInputBoxes, capturingQuickPicks, recordingMessages, waitFor } from './helpers';
import { useRig } from './rig';
import { EVERY_HOST_TAG } from './suiteResult';

const rig = useRig();
const UNREADABLE_KEY = 'kept-names-unreadable-key';
const KEPT = 'kept-reasoner-8b';

async function origin(): Promise<string> {
  const { origin } = await rig.api.services.session.current();
  assert.ok(origin, 'no service configured');
  return origin;
}

describe(`model names kept for when the list cannot be read ${EVERY_HOST_TAG}`, () => {
  before(() => rig.emu.setKey(UNREADABLE_KEY, { models: [KEPT], modelListShape: 'unreadable' }));
  // Finetunes of earlier suites kept the names they made: each test starts with none.
  beforeEach(() => rig.api.services.knownModels.forgetAll());
  afterEach(async () => {
    await rig.api.services.knownModels.forgetAll();
    await rig.clearKey();
  });

  it('Chat offers a kept typed model when the list cannot be read, and a request through it reaches the service with that name', async function () {
    this.timeout(30_000);
    await rig.api.services.knownModels.remember(await origin(), KEPT, 'typed');
    await rig.useKey(UNREADABLE_KEY);
    const chat = await waitFor(
      'the kept model offered through vscode.lm',
      async () => (await vscode.lm.selectChatModels({ vendor: CHAT_VENDOR })).find((m) => m.id === KEPT),
      { describe: async () => (await vscode.lm.selectChatModels({ vendor: CHAT_VENDOR })).map((m) => m.id) },
    );
    assert.equal(rig.api.models.models, undefined, 'the list was read after all');
    const given = await rig.api.chat.models.provideLanguageModelChatInformation({ silent: true });
    assert.deepEqual(
      given.map((m) => m.id),
      [KEPT],
    );
    assert.match(given[0]?.detail ?? '', /typed, kept: the model list could not be read/);
    const response = await chat.sendRequest([vscode.LanguageModelChatMessage.User('Which model answers?')], {});
    let text = '';
    for await (const piece of response.text) text += piece;
    assert.match(text, new RegExp(`Answer from ${KEPT}`), 'the service was not asked with the kept name');
  });

  it("@hosted with another vendor's model picked asks the kept name when the list cannot be read: the newest, and says so", async function () {
    this.timeout(30_000);
    // Two kept names: the one used last is the one a person expects (the Chat model picker offers the others).
    await rig.api.services.knownModels.remember(await origin(), 'older-reasoner-8b', 'job', Date.now() - 60_000);
    await rig.api.services.knownModels.remember(await origin(), KEPT, 'typed');
    await rig.useKey(UNREADABLE_KEY);
    // The new key's list read (and found unreadable) first: until then the view still holds the previous key's list,
    // which a test run before this one (of `@hosted`, say) left there.
    await waitFor('the list of the new key found unreadable', async () =>
      rig.api.models.models === undefined && (await vscode.lm.selectChatModels({ vendor: CHAT_VENDOR })).some((m) => m.id === KEPT)
        ? true
        : undefined,
    );
    const said: string[] = [];
    const stream = {
      markdown: (v: string | vscode.MarkdownString) => said.push(typeof v === 'string' ? v : v.value),
      progress: (v: string) => said.push(`progress: ${v}`),
      button: () => undefined,
    } as unknown as vscode.ChatResponseStream;
    const request = {
      prompt: 'Which model answers?',
      command: undefined,
      references: [],
      toolReferences: [],
      toolInvocationToken: undefined,
      model: { vendor: 'someone-else', id: 'their-model' },
    } as unknown as vscode.ChatRequest;
    const cancel = new vscode.CancellationTokenSource();
    const result = await rig.api.chat.participant(request, { history: [] }, stream, cancel.token);
    cancel.dispose();
    assert.equal(result.errorDetails, undefined, `the request failed: ${JSON.stringify(result.errorDetails)}; said: ${said.join(' | ')}`);
    assert.equal((result.metadata as { modelName?: string } | undefined)?.modelName, KEPT);
    assert.match(said.join(''), new RegExp(`Answer from ${KEPT}`), 'the service was not asked with the kept name');
    assert.ok(
      said.some((s) => /^progress: Asking kept-reasoner-8b \(typed, kept: the model list could not be read;.*model picker/.test(s)),
      said.join(' | '),
    );
  });

  it('a list that can be read is the truth: kept names are not added to it', async () => {
    await rig.api.services.knownModels.remember(await origin(), KEPT, 'typed');
    await rig.useKey('demo-key');
    // Earlier suites may have added finetuned models to this key: the list is whatever the service lists.
    const ids = await waitFor('the listed models', async () => {
      const listed = rig.api.models.models?.map((m) => m.name).sort();
      const offered = (await vscode.lm.selectChatModels({ vendor: CHAT_VENDOR })).map((m) => m.id).sort();
      return listed && listed.includes('oss-reasoner-8b') && JSON.stringify(offered) === JSON.stringify(listed) ? offered : undefined;
    });
    assert.ok(!ids.includes(KEPT), `a kept name was added to a list that was read: ${ids.join(', ')}`);
  });

  /** The key whose model list cannot be read, stored as a person does. */
  async function storeUnreadableKey(): Promise<void> {
    const stored = await recordingMessages(() =>
      answeringInputBoxes([UNREADABLE_KEY], async () => vscode.commands.executeCommand<boolean>(COMMANDS.setApiKey)),
    );
    assert.equal(stored, true);
  }

  /** Evaluate Model… from the palette, until its model picker has loaded. */
  async function startEvaluate(picks: vscode.QuickPick<vscode.QuickPickItem>[]) {
    const done = vscode.commands.executeCommand<string | undefined>(COMMANDS.evaluate);
    const modelPick = await waitFor('the model picker, loaded', () => picks.find((p) => /which model/i.test(p.title ?? '') && !p.busy));
    return { done, modelPick };
  }

  it('Enter right after typing a model name takes the typed name, before the picker lists it', async function () {
    this.timeout(40_000);
    await storeUnreadableKey();
    await capturingQuickPicks(async (picks) => {
      const { done, modelPick } = await startEvaluate(picks);
      // A fast typist: the name, then Enter, with no item made active (none may be listed yet).
      modelPick.value = `${KEPT}-fast`;
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      const datasetPick = await waitFor('the dataset picker', () => picks.find((p) => /dataset/i.test(p.title ?? '')));
      datasetPick.hide();
      assert.equal(await done, undefined);
    });
  });

  it('a name typed in the evaluate picker and accepted by the service is offered, marked typed, by the next picker', async function () {
    this.timeout(40_000);
    await storeUnreadableKey();
    await capturingQuickPicks(async (picks) => {
      const { done, modelPick } = await startEvaluate(picks);
      assert.deepEqual(modelPick.items, [], 'something was offered before anything was typed or kept');
      modelPick.value = KEPT;
      const item = await waitFor('the typed name offered', () => modelPick.items.find((i) => i.label === KEPT));
      await acceptQuickPickItem(modelPick, item);
      const datasetPick = await waitFor('the dataset picker', () => picks.find((p) => /dataset/i.test(p.title ?? '')));
      datasetPick.value = 'demo-qa';
      const dataset = await waitFor('the typed dataset offered', () => datasetPick.items.find((i) => i.label.includes('demo-qa')));
      await acceptQuickPickItem(datasetPick, dataset);
      assert.ok(await done, 'no evaluation was started');
    });
    const kept = await waitFor('the typed name kept', async () =>
      rig.api.services.knownModels.list(await origin()).find((k) => k.name === KEPT),
    );
    assert.equal(kept.source, 'typed');
    await capturingQuickPicks(async (picks) => {
      void vscode.commands.executeCommand(COMMANDS.evaluate);
      const modelPick = await waitFor(
        'the second model picker, loaded',
        () => picks.find((p) => /which model/i.test(p.title ?? '') && !p.busy && p.items.length > 0),
        { describe: () => picks.map((p) => `${p.title}: ${p.items.map((i) => i.label).join(', ')}`).join('; ') },
      );
      const offered = modelPick.items.find((i) => i.label === KEPT);
      assert.ok(offered, `items: ${JSON.stringify(modelPick.items)}`);
      assert.match(offered.description ?? '', /^typed · /);
      assert.match(modelPick.placeholder ?? '', /could not be read: type a model name or choose one used before/);
      modelPick.hide();
    });
  });
});
