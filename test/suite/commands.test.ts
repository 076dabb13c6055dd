// The manifest and the code agree: every contributed command is registered once the extension is active, and every
// command a menu or a welcome view points at is a contributed one (a typo there is a dead button, found by nobody).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { useRig } from './rig';
import { EVERY_HOST_TAG } from './suiteResult';

const rig = useRig();

interface Manifest {
  contributes: {
    commands: { command: string }[];
    menus: Record<string, { command?: string; alt?: string; submenu?: string }[]>;
    viewsWelcome: { view: string; contents: string }[];
  };
}

/** The manifest as VS Code read it: package.nls.json's text in place of each %key%. */
function readManifest(): Manifest {
  return rig.extension.packageJSON as Manifest;
}

describe(`contributed commands ${EVERY_HOST_TAG}`, () => {
  it('registers every command contributed in package.json', async () => {
    const contributed = readManifest().contributes.commands.map((c) => c.command);
    assert.ok(contributed.length > 0, 'package.json contributes no commands');
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = contributed.filter((id) => !registered.has(id));
    assert.deepEqual(missing, [], `contributed but not registered: ${missing.join(', ')}`);
  });

  it('points every menu entry and welcome-view link at a contributed command', () => {
    const { contributes } = readManifest();
    const contributed = new Set(contributes.commands.map((c) => c.command));
    const referenced: { id: string; where: string }[] = [];
    for (const [menu, entries] of Object.entries(contributes.menus)) {
      for (const entry of entries) {
        if (entry.command) referenced.push({ id: entry.command, where: `menus.${menu}` });
        if (entry.alt) referenced.push({ id: entry.alt, where: `menus.${menu} (alt)` });
      }
    }
    for (const welcome of contributes.viewsWelcome) {
      for (const match of welcome.contents.matchAll(/\(command:([^)?\s]+)/g)) {
        referenced.push({ id: match[1] ?? '', where: `viewsWelcome[${welcome.view}]` });
      }
    }
    assert.ok(
      referenced.some((r) => r.where.startsWith('viewsWelcome')),
      'no welcome-view link found: the pattern is stale',
    );
    assert.ok(
      referenced.some((r) => r.where.startsWith('menus')),
      'no menu entry found',
    );
    const dangling = referenced.filter((r) => !contributed.has(r.id)).map((r) => `${r.id} in ${r.where}`);
    assert.deepEqual(dangling, [], `referenced but not contributed: ${dangling.join('; ')}`);
  });
});
