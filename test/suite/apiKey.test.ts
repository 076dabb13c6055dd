// The API key decides what the Models view lists; a refused key is never stored and says so.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { answeringInputBoxes, modelsView, recordingMessages, waitFor } from './helpers';
import { useRig } from './rig';
import { COMMANDS } from '../../src/contributions';

const rig = useRig();

/** What the emulator lets this key see: its base models, plus custom models it holds for the key. */
function allowedBy(key: string, listed: string[]): { expected: string[]; base: string[] } {
  const config = rig.emu.options.keys[key];
  assert.ok(config, `the emulator has no key ${key}`);
  const custom = listed.filter((name) => !config.models.includes(name) && rig.emu.artifactPath(name, key) !== undefined);
  return { expected: [...config.models, ...custom].sort(), base: [...config.models].sort() };
}

/** Waits until the view lists exactly what the key allows (the key change refreshes the view in the background). */
async function viewFor(key: string) {
  let last: Awaited<ReturnType<typeof modelsView>> | undefined;
  const names = () => (last?.models ?? []).map((m) => m.model.name).sort();
  await waitFor(
    `the Models view to list the models of ${key}`,
    async () => {
      last = await modelsView(rig.api);
      const listed = names();
      return listed.length > 0 && JSON.stringify(listed) === JSON.stringify(allowedBy(key, listed).expected) ? true : undefined;
    },
    { describe: () => ({ roots: last?.roots.map((r) => r.type), names: names(), allowed: rig.emu.options.keys[key]?.models }) },
  );
  assert.ok(last);
  return { view: last, names: names() };
}

describe('API key', () => {
  afterEach(() => rig.clearKey());

  it('shows two different model lists for two keys', async () => {
    await rig.useKey('demo-key');
    const demo = await viewFor('demo-key');
    // demo-key's list says which models are base ones: they sit under "Base models".
    const baseGroup = demo.view.groups.find((g) => g.kind === 'base');
    assert.ok(baseGroup, `no base group: ${demo.view.groups.map((g) => g.kind).join(', ')}`);
    assert.deepEqual(baseGroup.models.map((m) => m.model.name).sort(), allowedBy('demo-key', demo.names).base);

    await rig.useKey('other-key');
    const other = await viewFor('other-key');

    assert.notDeepEqual(other.names, demo.names);
    const shared = other.names.filter((n) => demo.names.includes(n));
    assert.deepEqual(shared, [], 'a model of one key is listed under the other');
  });

  it('checks a new key with one model list and reloads the view once', async () => {
    await rig.clearKey();
    await new Promise((r) => setTimeout(r, 300)); // let the clear's own refresh land before counting
    rig.emu.clearReceived();
    assert.equal(await answeringInputBoxes(['demo-key'], async () => vscode.commands.executeCommand<boolean>(COMMANDS.setApiKey)), true);
    await viewFor('demo-key');
    await new Promise((r) => setTimeout(r, 300)); // late duplicate refreshes would arrive here
    const lists = rig.emu.received.filter((r) => r.origin === 'api' && r.path.startsWith('/cr/get_allowed_models'));
    // One request checks the key before it is stored; one reloads the Models view. Rate-limited quota is not wasted.
    assert.equal(lists.length, 2, `model list requests: ${lists.map((r) => r.time).join(', ')}`);
  });

  it('does not store a refused key, says why without echoing it, and leaves the welcome view', async () => {
    await rig.clearKey();
    assert.equal(
      (await rig.api.services.session.current()).key,
      undefined,
      'a key is already stored (or comes from HOSTED_REASONING_API_KEY)',
    );
    const { stored, shown } = await recordingMessages(async (shown) => ({
      stored: await answeringInputBoxes(['wrong-key'], async () => vscode.commands.executeCommand<boolean>(COMMANDS.setApiKey)),
      shown,
    }));

    assert.equal(stored, false, 'the command reported the refused key as stored');
    assert.equal((await rig.api.services.session.current()).key, undefined, 'the refused key is in the store');
    const errors = shown.filter((m) => m.severity === 'error');
    assert.equal(errors.length, 1, `expected one error message, got ${JSON.stringify(shown)}`);
    const [error] = errors;
    assert.ok(error);
    assert.match(error.text, /refused the API key/i);
    assert.match(error.text, /not stored/i);
    assert.ok(!error.text.includes('wrong-key'), `the message echoes the key: ${error.text}`);
    assert.ok(error.actions.includes('Set API Key'), `no "Set API Key" action: ${JSON.stringify(error.actions)}`);
    assert.ok(!shown.some((m) => m.severity === 'information' && /saved/i.test(m.text)), 'a "key saved" message was shown');

    // No key: the view has no rows, so VS Code shows the "Set API Key" welcome content instead.
    await rig.api.models.refresh();
    assert.deepEqual(await rig.api.models.getChildren(), []);
  });
});
