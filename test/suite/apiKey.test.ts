// The API key decides what the Models view lists; a refused key is never stored and says so.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { type AskedBox, answeringInputBoxes, modelsView, recordingMessages, waitFor } from './helpers';
import { useRig } from './rig';
import { COMMANDS } from '../../src/contributions';
import { ApiKeyStore } from '../../src/connection/apiKeyStore';

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

  it('a refused key can be corrected in the same box: the second key is checked and stored', async () => {
    await rig.clearKey();
    const { stored, asked } = await answeringInputBoxes(['wrong-key', 'demo-key'], async (boxes) => ({
      stored: await vscode.commands.executeCommand<boolean>(COMMANDS.setApiKey),
      asked: boxes,
    }));
    assert.equal(stored, true);
    assert.equal(asked.length, 1, 'a second box was opened');
    assert.equal(asked[0]?.refusals?.length, 1);
    assert.match(asked[0]?.refusals?.[0] ?? '', /refused the API key/i);
    assert.equal((await rig.api.services.session.current()).key?.key, 'demo-key');
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

  it('does not store a refused key: the box stays open saying why, without echoing it; Escape leaves the welcome view', async () => {
    await rig.clearKey();
    assert.equal(
      (await rig.api.services.session.current()).key,
      undefined,
      'a key is already stored (or comes from HOSTED_REASONING_API_KEY)',
    );
    const { stored, shown, asked } = await recordingMessages(async (shown) => {
      let asked: AskedBox[] = [];
      const stored = await answeringInputBoxes(['wrong-key', undefined], async (boxes) => {
        asked = boxes;
        return vscode.commands.executeCommand<boolean>(COMMANDS.setApiKey);
      });
      return { stored, shown, asked };
    });

    assert.equal(stored, false, 'the command reported the refused key as stored');
    assert.equal((await rig.api.services.session.current()).key, undefined, 'the refused key is in the store');
    assert.equal(asked.length, 1, 'the refusal opened another box instead of keeping the first');
    const [refusal] = asked[0]?.refusals ?? [];
    assert.ok(refusal, `the box showed no error: ${JSON.stringify(asked)}`);
    assert.match(refusal, /refused the API key/i);
    assert.match(refusal, /Escape/);
    assert.ok(!refusal.includes('wrong-key'), `the box echoes the key: ${refusal}`);
    assert.deepEqual(shown, [], 'a notification was shown besides the box');

    // No key: the view has no rows, so VS Code shows the "Set API Key" welcome content instead.
    await rig.api.models.refresh();
    assert.deepEqual(await rig.api.models.getChildren(), []);
  });

  it('asks SecretStorage again after it answered nothing (a keyring not ready yet), and keeps a key it read', async () => {
    // A stand-in SecretStorage that fires no change event: what a keyring that was not ready, then is, looks like.
    const held = new Map<string, string>();
    const asked: string[] = [];
    const changed = new vscode.EventEmitter<vscode.SecretStorageChangeEvent>();
    const secrets: vscode.SecretStorage = {
      get: async (name) => {
        asked.push(name);
        return held.get(name);
      },
      store: async () => undefined,
      delete: async () => undefined,
      onDidChange: changed.event,
    };
    const store = new ApiKeyStore(secrets, {});
    const origin = 'https://service.example';
    try {
      assert.equal(await store.get(origin), undefined);
      held.set(`hostedReasoning.apiKey@${origin}`, 'late-key');
      assert.equal((await store.get(origin))?.key, 'late-key', 'the miss was kept: the key that came later is not read');
      const reads = asked.length;
      assert.equal((await store.get(origin))?.key, 'late-key');
      assert.equal(asked.length, reads, 'a key read once is read again from SecretStorage');
    } finally {
      store.dispose();
      changed.dispose();
    }
  });

  it('a key stored or removed elsewhere (another window) is read at once, though reads are kept in memory', async () => {
    const { session } = rig.api.services;
    const secrets = rig.api.services.context.secrets;
    const { origin } = await session.current();
    assert.ok(origin);
    // Read once with no key: what the store keeps until SecretStorage says the key changed.
    assert.equal((await session.current()).key, undefined, 'a key is already stored (or comes from HOSTED_REASONING_API_KEY)');
    // Written past the store, as another window's store would.
    await secrets.store(`hostedReasoning.apiKey@${origin}`, 'demo-key');
    await waitFor('the key stored elsewhere to be read', async () =>
      (await session.current()).key?.key === 'demo-key' ? true : undefined,
    );
    await secrets.delete(`hostedReasoning.apiKey@${origin}`);
    await waitFor('the key removed elsewhere to be gone', async () => ((await session.current()).key === undefined ? true : undefined));
  });
});
