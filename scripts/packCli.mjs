// The command line as its own npm package (`hosted-reasoning`, bin → cli.js), staged from the bundles in dist/:
// cli.js, the pre-flight reader it forks (preflightChild.js) with its worker (sourceTextWorker.js) and the pdfjs files
// that worker loads beside it (pdfjs/), a package.json of its own (no dependencies: esbuild bundled them; no vscode),
// the licence, and a README made of README.md's "Command line" and "MCP server" sections. Source maps are left out
// (the .vsix ships none either) and so is any bundle's sourceMappingURL line. `npm run pack:cli` makes a production
// build first, then runs this with --pack, which writes hosted-reasoning-<version>.tgz into out/ with `npm pack`.
// Usage: node scripts/packCli.mjs [--from <dist folder>] [--to <staging folder>] [--pack]
// (defaults dist/ and out/cli-package/). Plain JavaScript: it runs before anything is compiled.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? path.resolve(args[i + 1]) : fallback;
};
const from = option('--from', path.join(root, 'dist'));
const to = option('--to', path.join(root, 'out', 'cli-package'));

/** The bundles the command line runs; everything else in dist/ is the extension's. */
export const CLI_BUNDLES = ['cli.js', 'preflightChild.js', 'sourceTextWorker.js'];
/** README.md's sections that the package's README holds. */
const SECTIONS = [/^## Command line\b/, /^## MCP server\b/];

const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));

fs.rmSync(to, { recursive: true, force: true });
fs.mkdirSync(to, { recursive: true });

for (const bundle of CLI_BUNDLES) {
  const source = path.join(from, bundle);
  if (!fs.existsSync(source)) throw new Error(`${source} is missing: run npm run build (or npm run pack:cli) first.`);
  // No source map ships, so no bundle points at one.
  const text = fs.readFileSync(source, 'utf8').replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n');
  fs.writeFileSync(path.join(to, bundle), text, { mode: bundle === 'cli.js' ? 0o755 : 0o644 });
}
fs.cpSync(path.join(from, 'pdfjs'), path.join(to, 'pdfjs'), { recursive: true, filter: (f) => !f.endsWith('.map') });
fs.copyFileSync(path.join(root, 'LICENSE'), path.join(to, 'LICENSE'));

const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8').split('\n');
const kept = [];
let inside = false;
for (const line of readme) {
  if (/^## /.test(line)) inside = SECTIONS.some((s) => s.test(line));
  if (inside) kept.push(line);
}
fs.writeFileSync(
  path.join(to, 'README.md'),
  [
    '# hosted-reasoning',
    '',
    `The command line and MCP server of the hosted reasoning and finetuning service, from the ${manifest.displayName ?? manifest.name} VS Code extension (version ${manifest.version}). Node.js 20 or newer.`,
    '',
    ...kept,
  ].join('\n'),
);

fs.writeFileSync(
  path.join(to, 'package.json'),
  JSON.stringify(
    {
      name: 'hosted-reasoning',
      version: manifest.version,
      description: 'The command line and MCP server (hosted-reasoning mcp) of the hosted reasoning and finetuning service.',
      license: manifest.license,
      bin: { 'hosted-reasoning': 'cli.js' },
      engines: { node: manifest.engines.node },
      keywords: ['mcp', 'finetuning', 'reasoning', 'cli'],
    },
    null,
    2,
  ) + '\n',
);

if (args.includes('--pack')) {
  const outDir = path.dirname(to);
  // Through the shell on Windows, where npm is a .cmd.
  execFileSync('npm', ['pack', '--pack-destination', outDir], { cwd: to, stdio: 'inherit', shell: process.platform === 'win32' });
}
console.log(`Staged the command line's package in ${to}.`);
