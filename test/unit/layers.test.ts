// The folders of src/ form layers: every run-time import goes down to a lower layer or stays in its folder, so no
// import runs back up and no two folders import each other in a circle. Type-only imports are free (erased). A new
// folder must be given its layer here; a failure names the importing file and what it imports.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';

const SRC = path.resolve(__dirname, '../../../src');

/** Lower layers first. A folder may import its own files and anything in a lower layer. */
const LAYERS: string[][] = [
  ['api'],
  ['core'], // contributions, services, log, storageKeys, deferredTree: small modules every layer may read
  ['connection', 'util', 'playground/shared'],
  ['local'], // the local models and runtime: the playground's protocol names their ids
  ['jobs'],
  ['features/jobs'],
  ['features/models'],
  ['features/apiKey', 'features/download', 'features/finetune', 'playground/host', 'playground/page'],
  ['features/evaluate'], // with its report, which saves where downloads do and reuses the playground page's DOM helper
  ['features/runLocally', 'features/cleanup', 'features/chat'], // open or clear the playground; chat runs the finetune and evaluate flows
  ['features/tools'], // the language-model tools: chat's inference, the finetune, evaluate and download flows, the report's view
  ['entry'], // extension.ts and main.ts: the composition roots
];

function folderOf(file: string): string {
  const parts = path.relative(SRC, file).split(path.sep);
  const [first, second, third] = parts;
  if (parts.length === 1) return first === 'extension.ts' || first === 'main.ts' ? 'entry' : 'core';
  if (first === 'features' && (second === 'playground' || second === 'report'))
    return parts.length > 3 ? `${second}/${third}` : `${second}/shared`;
  if (first === 'features') return `features/${second}`;
  if (first === 'webviews') return parts.length > 3 ? `${second}/${third}` : `${second}/shared`;
  return first!;
}

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? sources(full) : e.name.endsWith('.ts') ? [full] : [];
  });
}

/** Run-time imports (static, re-exports and import()), relative ones only: `import type` and `export type` are erased. */
function runtimeImports(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\s+(type\s+)?[^'"]*?from\s+['"](\.[^'"]+)['"]/gm)) if (!m[1]) found.push(m[2]!);
  for (const m of text.matchAll(/\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/g)) found.push(m[1]!);
  return found.map((spec) => path.resolve(path.dirname(file), spec).replace(/\.js$/, '') + '.ts');
}

const layerOf = new Map(LAYERS.flatMap((folders, rank) => folders.map((f) => [f, rank] as const)));
const files = sources(SRC);

describe('the layers of src/', () => {
  it('gives every folder a layer', () => {
    const unknown = [...new Set(files.map(folderOf))].filter((f) => !layerOf.has(f));
    assert.deepEqual(unknown, [], 'folders without a layer in test/unit/layers.test.ts');
  });

  it('imports only downwards or within a folder (so no folders import each other in a circle)', () => {
    const upward: string[] = [];
    for (const file of files) {
      const from = folderOf(file);
      for (const target of runtimeImports(file)) {
        const to = folderOf(target);
        if (to !== from && layerOf.get(to)! >= layerOf.get(from)!) {
          upward.push(`${path.relative(SRC, file)} (${from}) imports ${path.relative(SRC, target)} (${to})`);
        }
      }
    }
    assert.deepEqual(upward, []);
  });

  it('is read by this test as it is written (the import reader finds the imports it judges)', () => {
    const main = files.find((f) => path.relative(SRC, f) === 'main.ts');
    assert.ok(main);
    assert.ok(runtimeImports(main).length > 5, 'main.ts imports almost everything');
  });
});
