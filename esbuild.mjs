// The bundles: the extension's entry (Node, CommonJS, `vscode` external: registrations only), the rest of the extension
// it loads on first use (the service client and axios included), the local runtime's child process, the pre-flight
// reader's child process and its worker, the command line, and the playground and report pages (browser, IIFE).
// The page's codicon font and stylesheet are copied from @vscode/codicons next to it, so the page loads them from the
// extension's own files (its policy allows nothing else).
import { chmod, copyFile, cp, mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import cliLeanParts from './scripts/cliLean.cjs';

const { cliPrelude, cliLean } = cliLeanParts;

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

// `import * as vscode from 'vscode'` in each of ~30 files becomes `__toESM(require('vscode'))`, and each of those
// copies every property of the API object as a getter: measured at ~7 ms of activation in the extension host
// (test/bench, figure 1). One virtual module re-exports `vscode` once; every file imports that instead.
const vscodeOnce = {
  name: 'vscode-once',
  setup(build) {
    build.onResolve({ filter: /^vscode$/ }, (args) =>
      args.namespace === 'vscode-once' ? { path: 'vscode', external: true } : { path: 'vscode', namespace: 'vscode-once' },
    );
    build.onLoad({ filter: /.*/, namespace: 'vscode-once' }, () => ({ contents: "export * from 'vscode';", loader: 'js' }));
  },
};

// The entry module (src/extension.ts) is what activation loads, in every window: it registers the contributions and
// loads src/main.ts, built on its own as dist/main.js, by `import('./main.js')` on first use.
const MAIN_ENTRY = path.resolve('src/main.ts');
const mainAsSeparateBundle = {
  name: 'main-as-separate-bundle',
  setup(build) {
    build.onResolve({ filter: /\/main(\.js)?$/ }, (args) => {
      const target = path.resolve(args.resolveDir, args.path.replace(/\.js$/, '.ts'));
      return target === MAIN_ENTRY ? { path: './main.js', external: true } : undefined;
    });
  },
};

const main = {
  plugins: [vscodeOnce],
  // `import()` becomes `require()`: the extension host's own module loader, one module cache, no ESM detour.
  supported: { 'dynamic-import': false },
  entryPoints: ['src/main.ts'],
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  outfile: 'dist/main.js',
  external: ['vscode'],
  sourcemap: !production,
  minify: production,
  logLevel: 'info',
};

const extension = { ...main, plugins: [mainAsSeparateBundle, vscodeOnce], entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js' };

// The local runtime's child process (src/local/runtimeChild.ts), forked by path: node-llama-cpp stays external, loaded
// by a real `import()` (it is ESM only and finds its native binaries next to its own files).
const localRuntime = {
  entryPoints: ['src/local/runtimeChild.ts'],
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  outfile: 'dist/localRuntime.js',
  external: ['node-llama-cpp'],
  sourcemap: !production,
  minify: production,
  logLevel: 'info',
};

// The pre-flight reader of finetune sources (src/features/finetune/sourceTextWorker.ts), a worker thread started by
// path: mammoth bundled in; pdfjs-dist (ESM only, and it loads its own worker module) copied beside it by copyPdfjs.
const sourceTextWorker = {
  ...localRuntime,
  entryPoints: ['src/features/finetune/sourceTextWorker.ts'],
  outfile: 'dist/sourceTextWorker.js',
  supported: { 'dynamic-import': false },
  external: [],
};

// The pre-flight reader's child process (src/features/finetune/preflightChild.ts), forked by path: it starts the worker
// above beside it and holds the memory bound.
const preflightChild = { ...sourceTextWorker, entryPoints: ['src/features/finetune/preflightChild.ts'], outfile: 'dist/preflightChild.js' };

// The command line (src/cli/cli.ts, `bin` hosted-reasoning): plain Node, no `vscode` (not external, so a module that
// reached it would fail the build), and none of the extension's webview or worker code. It forks the pre-flight
// reader above by path, beside it in dist/.
// The command line starts once per pipeline step, so its start is measured (test/bench figure 14): the prelude and
// plugin that keep its bundle lean are in scripts/cliLean.cjs, which that figure builds with too.
const cli = {
  entryPoints: ['src/cli/cli.ts'],
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  outfile: 'dist/cli.js',
  plugins: [cliLean],
  banner: { js: cliPrelude },
  supported: { 'dynamic-import': false },
  sourcemap: !production,
  minify: production,
  logLevel: 'info',
};

const webview = {
  entryPoints: ['src/features/playground/page/playground.ts'],
  bundle: true,
  platform: 'browser',
  target: 'es2022',
  format: 'iife',
  outfile: 'dist/webview/playground.js',
  sourcemap: !production,
  minify: production,
  logLevel: 'info',
};

// The evaluation report page: the same browser settings, its own bundle.
const report = { ...webview, entryPoints: ['src/features/evaluate/report/page/report.ts'], outfile: 'dist/webview/report.js' };

async function copyCodicons() {
  const require = createRequire(import.meta.url);
  const dist = path.dirname(require.resolve('@vscode/codicons/dist/codicon.css'));
  await mkdir('dist/webview', { recursive: true });
  await Promise.all(['codicon.css', 'codicon.ttf'].map((file) => copyFile(path.join(dist, file), path.join('dist/webview', file))));
}

// pdfjs's legacy (Node) build, minified, the standard fonts' data and the predefined CMaps (packed, for CJK text): what
// sourceText.ts loads in the packaged extension.
async function copyPdfjs() {
  const require = createRequire(import.meta.url);
  const root = path.dirname(require.resolve('pdfjs-dist/package.json'));
  await cp(path.join(root, 'standard_fonts'), 'dist/pdfjs/standard_fonts', { recursive: true });
  await cp(path.join(root, 'cmaps'), 'dist/pdfjs/cmaps', { recursive: true });
  await Promise.all(
    ['pdf.min.mjs', 'pdf.worker.min.mjs'].map((file) => copyFile(path.join(root, 'legacy/build', file), path.join('dist/pdfjs', file))),
  );
  await copyFile(path.join(root, 'LICENSE'), 'dist/pdfjs/LICENSE');
}

await copyCodicons();
await copyPdfjs();
if (watch) {
  const contexts = await Promise.all([
    esbuild.context(extension),
    esbuild.context(main),
    esbuild.context(localRuntime),
    esbuild.context(sourceTextWorker),
    esbuild.context(preflightChild),
    esbuild.context(cli),
    esbuild.context(webview),
    esbuild.context(report),
  ]);
  await Promise.all(contexts.map((ctx) => ctx.watch()));
} else {
  await Promise.all([
    esbuild.build(extension),
    esbuild.build(main),
    esbuild.build(localRuntime),
    esbuild.build(sourceTextWorker),
    esbuild.build(preflightChild),
    esbuild.build(cli),
    esbuild.build(webview),
    esbuild.build(report),
  ]);
}
// `bin` hosted-reasoning runs dist/cli.js itself (npx, npm link): by its #! line, so it must be executable.
await chmod('dist/cli.js', 0o755).catch(() => undefined);
