// The one statement of how src/ is layered: which folder may import which. Every run-time import goes down to a lower
// layer or stays in its folder, so no import runs back up and no two folders import each other in a circle. Type-only
// imports are free (erased). A new folder must be given its layer here; a failure names the importing file and what it
// imports. The table in docs/architecture.md is this list written out (the last test keeps the two in step);
// CONTRIBUTING.md points at it.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');
const SRC = path.join(ROOT, 'src');
const ARCHITECTURE = path.join(ROOT, 'docs/architecture.md');

interface Layer {
  folders: string[];
  holds: string;
}

/** Lower layers first. A folder may import its own files and anything in a lower layer. */
const LAYERS: Layer[] = [
  { folders: ['api'], holds: 'the service client: HTTP policy, decoding of every answer, streams, downloads; never imports `vscode`' },
  {
    folders: ['core'],
    holds:
      'the modules at the top of `src/` that every layer may read: contributions, services, log, storageKeys, strictChecks, globalStateEdit, l10n, deferredTree, modelNameRule, walkthroughContext',
  },
  {
    folders: ['connection', 'util', 'features/playground/shared'],
    holds:
      'settings, the per-origin key store and the session; small helpers (notify, untrustedText, classifyError, webviewPanel); the playground protocol and latency seam, which local models and pages share',
  },
  {
    folders: ['local'],
    holds:
      'the local runtime (node-llama-cpp in a forked child, no `vscode`), its settings and trust gate, the record of local models: shared by the playground that runs them, Run Locally that chooses them, downloads that add them and cleanup that clears them, so it sits below all four',
  },
  {
    folders: ['jobs'],
    holds:
      'job records, the store and its bounds (evaluationHistory), the poller (`jobPoller.ts`) and its VS Code wiring, lineage, progress, time left and job text several features show',
  },
  {
    folders: ['features/jobs'],
    holds: 'the Jobs view, the status bar, the job commands, the notifier',
  },
  { folders: ['features/models'], holds: 'the Models view and the model commands' },
  {
    folders: ['features/reading'],
    holds:
      'Choose How to Read…: one command and one picker for every kind of answer, opened from a job row, the Models view, an error or the palette',
  },
  {
    folders: ['features/apiKey', 'features/download', 'features/finetune', 'features/playground/host', 'features/playground/page'],
    holds:
      'the features that build on the models: the key commands, downloads, the finetune flow, the playground (extension side and page)',
  },
  {
    folders: ['features/evaluate'],
    holds:
      'the evaluate command, datasets, statistics, and the report (`report/`: host, page, protocol), which reuses the playground page and the download folder',
  },
  {
    folders: ['features/runLocally', 'features/cleanup', 'features/chat'],
    holds: 'Run Locally and cleanup (open or clear the playground); Chat and `vscode.lm`, which run the finetune and evaluate flows',
  },
  { folders: ['features/tools'], holds: "the language-model tools, over the features' own flows" },
  {
    folders: ['mcp'],
    holds:
      "the MCP server (`hosted-reasoning mcp`): the tools' definitions and vscode-free cores served over stdio; never reaches `vscode` (test/unit/layers.test.ts)",
  },
  {
    folders: ['cli'],
    holds:
      "the command line (`hosted-reasoning`, its own bundle): `src/api` and the vscode-free modules of the layers below (file checks, pre-flight read, job records, the report's view); never `vscode` (ESLint, and its bundle has none to load)",
  },
  { folders: ['entry'], holds: '`extension.ts` (registers the contributions) and `main.ts` (the composition root)' },
];

function folderOf(file: string): string {
  const parts = path.relative(SRC, file).split(path.sep);
  const [first, second, third] = parts;
  if (parts.length === 1) return first === 'extension.ts' || first === 'main.ts' ? 'entry' : 'core';
  // The playground's host runs in the extension, its page in the browser; both read protocol.ts beside them.
  if (first === 'features' && second === 'playground') return `features/playground/${parts.length > 3 ? third : 'shared'}`;
  if (first === 'features') return `features/${second}`;
  return first!;
}

/** The table docs/architecture.md shows, top layer first. */
function layerTable(): string {
  const rows = LAYERS.map((l, rank) => `| ${rank} | ${l.folders.map((f) => `\`${f}\``).join(', ')} | ${l.holds} |`).reverse();
  return ['| Layer | Folders | What they hold |', '|---|---|---|', ...rows].join('\n');
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

const layerOf = new Map(LAYERS.flatMap(({ folders }, rank) => folders.map((f) => [f, rank] as const)));
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

  it('keeps vscode out of everything src/mcp runs (the command line bundles it without VS Code)', () => {
    const importsVscode = (file: string) =>
      /^\s*(?:import|export)\s+(?!type\s)[^'"]*?from\s+['"]vscode['"]|\b(?:require|import)\(\s*['"]vscode['"]\s*\)/m.test(
        fs.readFileSync(file, 'utf8'),
      );
    const seen = new Set<string>();
    const reached: string[] = [];
    const visit = (file: string, from: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      if (importsVscode(file)) reached.push(`${path.relative(SRC, file)} (through ${path.relative(SRC, from)})`);
      for (const target of runtimeImports(file)) visit(target, file);
    };
    const mcp = files.filter((f) => folderOf(f) === 'mcp');
    assert.ok(mcp.length > 0);
    for (const file of mcp) visit(file, file);
    assert.ok(seen.size > 20, 'the walk follows the imports');
    assert.deepEqual(reached, []);
  });

  it('is read by this test as it is written (the import reader finds the imports it judges)', () => {
    const main = files.find((f) => path.relative(SRC, f) === 'main.ts');
    assert.ok(main);
    assert.ok(runtimeImports(main).length > 5, 'main.ts imports almost everything');
  });
  it('names only folders that exist (a moved folder leaves no stale layer behind)', () => {
    const present = new Set(files.map(folderOf));
    assert.deepEqual(
      [...layerOf.keys()].filter((f) => !present.has(f)),
      [],
    );
  });

  it('is the table docs/architecture.md shows (paste the expected text there when a layer changes)', () => {
    const doc = fs.readFileSync(ARCHITECTURE, 'utf8');
    // Cells compared without their padding, so a formatter may align the columns.
    const cells = (lines: string[]) =>
      lines
        .map((line) =>
          line
            .split('|')
            .map((cell) => cell.trim())
            .join('|'),
        )
        .join('\n');
    const shown = doc.split('\n').filter((line) => line.startsWith('|'));
    assert.equal(cells(shown), cells(layerTable().split('\n')), `docs/architecture.md's layer table should read:\n${layerTable()}`);
  });
});
