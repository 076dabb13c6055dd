// Two bundles: the extension (Node, CommonJS, `vscode` external) and the playground page (browser, IIFE). The page's
// codicon font and stylesheet are copied from @vscode/codicons next to it, so the page loads them from the
// extension's own files (its policy allows nothing else).
import { copyFile, mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

const extension = {
  entryPoints: ['src/extension.ts'],
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  outfile: 'dist/extension.js',
  external: ['vscode'],
  sourcemap: !production,
  minify: production,
  logLevel: 'info',
};

const webview = {
  entryPoints: ['src/webview/playground.ts'],
  bundle: true,
  platform: 'browser',
  target: 'es2022',
  format: 'iife',
  outfile: 'dist/webview/playground.js',
  sourcemap: !production,
  minify: production,
  logLevel: 'info',
};

async function copyCodicons() {
  const require = createRequire(import.meta.url);
  const dist = path.dirname(require.resolve('@vscode/codicons/dist/codicon.css'));
  await mkdir('dist/webview', { recursive: true });
  await Promise.all(['codicon.css', 'codicon.ttf'].map((file) => copyFile(path.join(dist, file), path.join('dist/webview', file))));
}

await copyCodicons();
if (watch) {
  const contexts = await Promise.all([esbuild.context(extension), esbuild.context(webview)]);
  await Promise.all(contexts.map((ctx) => ctx.watch()));
} else {
  await Promise.all([esbuild.build(extension), esbuild.build(webview)]);
}
