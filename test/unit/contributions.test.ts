// The command table (src/contributions.ts) is what the entry registers and main answers: package.json must contribute
// exactly its commands, and every menu, welcome view and walkthrough must name one of them.
import { strict as assert } from 'node:assert';
import { COMMANDS } from '../../src/contributions';
import { localizedManifest } from './localizedManifest';

interface Manifest {
  contributes: {
    commands: { command: string }[];
    menus: Record<string, { command: string }[]>;
    viewsWelcome: { contents: string }[];
    views: Record<string, { id: string }[]>;
    walkthroughs: unknown[];
  };
}
const manifest = localizedManifest<Manifest>();
const table = new Set<string>(Object.values(COMMANDS));

/** The command ids in `[title](command:id…)` links of a text. */
function linkedCommands(text: string): string[] {
  return [...text.matchAll(/\(command:([\w.-]+)/g)].map((m) => m[1] as string);
}

describe('the command table', () => {
  it('is exactly the commands package.json contributes', () => {
    assert.deepEqual([...table].sort(), manifest.contributes.commands.map((c) => c.command).sort());
  });

  it('has one key per id', () => {
    assert.equal(table.size, Object.keys(COMMANDS).length);
  });

  it('holds every command a menu names', () => {
    const named = Object.entries(manifest.contributes.menus).flatMap(([menu, items]) => items.map((i) => `${menu}: ${i.command}`));
    assert.ok(named.length > 0);
    assert.deepEqual(
      named.filter((n) => !table.has(n.slice(n.indexOf(': ') + 2))),
      [],
    );
  });

  it('holds every command a welcome view or walkthrough links to (besides focusing a contributed view)', () => {
    const views = new Set(Object.values(manifest.contributes.views).flatMap((list) => list.map((v) => `${v.id}.focus`)));
    const linked = [
      ...manifest.contributes.viewsWelcome.flatMap((w) => linkedCommands(w.contents)),
      ...linkedCommands(JSON.stringify(manifest.contributes.walkthroughs)),
    ];
    assert.ok(linked.length > 0);
    assert.deepEqual(
      linked.filter((id) => !table.has(id) && !views.has(id)),
      [],
    );
  });
});
