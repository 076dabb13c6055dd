// Every string package.json contributes for people to read is a `%key%` with its English text in package.nls.json, so
// a language pack can translate it; every key is used, so package.nls.json holds no text nobody sees.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { NLS_KEY, localizedManifest, readJson } from './localizedManifest';

/** The places of package.json VS Code or the Marketplace shows as text (indices written `*`, levels joined by `/`). */
const SHOWN: RegExp[] = [
  /^capabilities\/\w+\/description$/,
  /^contributes\/viewsContainers\/[^/]+\/\*\/title$/,
  /^contributes\/views\/[^/]+\/\*\/(name|contextualTitle)$/,
  /^contributes\/viewsWelcome\/\*\/contents$/,
  /^contributes\/commands\/\*\/(title|shortTitle|category)$/,
  /^contributes\/menus\/[^/]+\/\*\/title$/,
  /^contributes\/submenus\/\*\/label$/,
  /^contributes\/configuration(\/\*)?\/title$/,
  /^contributes\/configuration(\/\*)?\/properties\/[^/]+\/(description|markdownDescription|deprecationMessage|markdownDeprecationMessage)$/,
  /^contributes\/configuration(\/\*)?\/properties\/[^/]+\/(enumDescriptions|markdownEnumDescriptions|enumItemLabels)\/\*$/,
  /^contributes\/walkthroughs\/\*\/(title|description)$/,
  /^contributes\/walkthroughs\/\*\/steps\/\*\/(title|description|media\/altText)$/,
];

/** Every string of a JSON value with its place. */
function strings(value: unknown, at: string[] = []): [string, string][] {
  if (typeof value === 'string') return [[at.join('/'), value]];
  if (Array.isArray(value)) return value.flatMap((v) => strings(v, [...at, '*']));
  if (typeof value === 'object' && value !== null) return Object.entries(value).flatMap(([k, v]) => strings(v, [...at, k]));
  return [];
}

/** The shown strings of a manifest written as text rather than as a `%key%`. */
export function unlocalizedStrings(manifest: unknown): string[] {
  return strings(manifest)
    .filter(([place, value]) => SHOWN.some((re) => re.test(place)) && !NLS_KEY.test(value))
    .map(([place, value]) => `${place}: ${value}`);
}

const manifest = readJson('package.json');
const nls = readJson('package.nls.json') as Record<string, unknown>;
const usedKeys = strings(manifest).flatMap(([, value]) => NLS_KEY.exec(value)?.[1] ?? []);

describe('package.json and package.nls.json', () => {
  it('writes every contributed string people read as a %key%', () => {
    assert.deepEqual(unlocalizedStrings(manifest), []);
  });

  it('finds a contributed string written as text (the check can fail)', () => {
    const fixture = {
      contributes: {
        commands: [{ command: 'x.run', title: 'Run X', category: '%commands.category%' }],
        configuration: { properties: { 'x.mode': { markdownDescription: 'How X runs.', enumDescriptions: ['%a%', 'Fast'] } } },
        walkthroughs: [{ title: '%w%', steps: [{ id: 's', title: '%s%', media: { altText: 'A picture' } }] }],
      },
    };
    assert.deepEqual(unlocalizedStrings(fixture), [
      'contributes/commands/*/title: Run X',
      'contributes/configuration/properties/x.mode/markdownDescription: How X runs.',
      'contributes/configuration/properties/x.mode/enumDescriptions/*: Fast',
      'contributes/walkthroughs/*/steps/*/media/altText: A picture',
    ]);
  });

  it('gives every %key% of package.json an English text in package.nls.json', () => {
    assert.deepEqual(
      [...new Set(usedKeys)].filter((key) => typeof nls[key] !== 'string' || !nls[key].trim()),
      [],
    );
  });

  it('holds no key package.json does not use', () => {
    const used = new Set(usedKeys);
    assert.deepEqual(
      Object.keys(nls).filter((key) => !used.has(key)),
      [],
    );
  });

  it('ships package.nls.json, its translations and the l10n folder in the .vsix (.vscodeignore is an allowlist)', () => {
    const ignore = fs.readFileSync(path.resolve(__dirname, '../../../.vscodeignore'), 'utf8');
    for (const line of ['!package.nls.json', '!package.nls.*.json', '!l10n/**']) assert.ok(ignore.split('\n').includes(line), line);
  });

  it('points VS Code at the folder of the runtime strings’ translations', () => {
    assert.equal((manifest as { l10n?: unknown }).l10n, './l10n');
  });

  it('reads, through localizedManifest, as it did before it was keyed', () => {
    const shown = localizedManifest<{ contributes: { commands: { command: string; title: string; category: string }[] } }>();
    const setKey = shown.contributes.commands.find((c) => c.command === 'hostedReasoning.setApiKey');
    assert.deepEqual([setKey?.category, setKey?.title], ['Hosted Reasoning', 'Set API Key…']);
  });
});
