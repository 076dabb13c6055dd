// A model list the extension cannot read alone (issue 27): two lists fit equally well, so the Models view offers
// Choose How to Read…; the person picks the list once, the view lists the models with their kinds at once, and a new
// window still reads them so, from the profile it kept.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { COMMANDS } from '../../src/contributions';
import type { ModelsNode } from '../../src/features/models/modelsTree';
import { ServiceProfiles } from '../../src/connection/serviceProfiles';
import { capturingQuickPicks, modelsView, waitFor } from './helpers';
import { useRig } from './rig';

const rig = useRig();
const KEY = 'two-lists-key';

describe('Choose How to Read… (a model list read two ways)', () => {
  before(() => rig.emu.setKey(KEY, { models: ['kappa-base', 'lambda-base'], modelListShape: 'two-lists' }));
  // The profile chosen here is kept for the emulator's origin, which every other test's key shares with other list
  // shapes: it goes with the test, so the next tests start from an origin with no profile, as they were written for.
  after(async () => {
    await rig.api.services.profiles.forgetAll();
    await rig.clearKey();
  });

  it('offers Choose How to Read…, lists the models with their kinds once picked, and keeps the choice for the next window', async function () {
    this.timeout(60_000);
    await rig.useKey(KEY);
    await rig.api.models.refresh();
    const rows = await rig.api.models.getChildren();
    const offer = rows.find(
      (r): r is Extract<ModelsNode, { type: 'error' }> => r.type === 'error' && r.command.command === COMMANDS.chooseHowToRead,
    );
    assert.ok(offer, `rows: ${JSON.stringify(rows.map((r) => (r.type === 'error' ? r.label : r.type)))}`);
    assert.equal(offer.command.title, 'Choose How to Read…');
    // The row names its place, never a path: the command opens the list the book kept.
    assert.deepEqual(offer.command.arguments, [{ place: 'modelList' }]);

    const chosen = await capturingQuickPicks(async (picks) => {
      const done = vscode.commands.executeCommand<boolean>(offer.command.command, ...((offer.command.arguments ?? []) as unknown[]));
      const pick = await waitFor('the quick pick of ways to read', () => picks.find((p) => p.items.length > 0));
      const labels = pick.items.map((i) => i.label);
      assert.ok(labels.includes('available.items[].ref') && labels.includes('featured.items[].ref'), labels.join(', '));
      // Either list reads the models; the first one offered is the one the pick has active.
      const item = pick.items[0]!;
      assert.match(item.detail ?? '', /kappa-base, lambda-base/);
      pick.activeItems = [item];
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      return { done: await done, label: item.label };
    });
    assert.equal(chosen.done, true);
    const kinds = async () => (await modelsView(rig.api)).models.map((m) => `${m.model.name}:${m.kind}`).sort();
    assert.deepEqual(await kinds(), ['kappa-base:base', 'lambda-base:base']);

    const shown = await vscode.commands.executeCommand<string>(COMMANDS.showServiceProfile);
    assert.ok(shown.includes(`Model names: ${chosen.label} — kappa-base, lambda-base; kind from tier: foundation → base`), shown);
    assert.match(shown, /as you chose it/);
    // Below the words, the profile as the setting takes it: each part kept, without where it came from.
    const { origin: shownOrigin } = await rig.api.services.session.current();
    const { by: _by, ...asSetting } = rig.api.services.profiles.profile(shownOrigin!, 'modelList')!;
    const json = JSON.parse(shown.slice(shown.indexOf('\n{') + 1)) as Record<string, Record<string, unknown>>;
    assert.deepEqual(json[shownOrigin!]?.modelList, asSetting, shown);

    // What a window reload reads: the profile is read from globalState at each use (nothing of it is held in memory),
    // so a new store over the same state has the choice, and listing again reads the models by it. (A whole second
    // activation in this window, tried first, left the suite's other tests with stale keys: the rig is shared.)
    const { origin } = await rig.api.services.session.current();
    const fresh = new ServiceProfiles(rig.api.services.context.globalState, rig.api.services.log);
    assert.equal(fresh.profile(origin!, 'modelList')?.by, 'chosen');
    fresh.dispose();
    await rig.api.models.refresh();
    assert.deepEqual(await kinds(), ['kappa-base:base', 'lambda-base:base']);
  });
});
