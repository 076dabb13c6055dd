// Three bundles: the extension (Node, CommonJS, `vscode` external), the service client it loads on first use, and
// the playground page (browser, IIFE). The page's
// codicon font and stylesheet are copied from @vscode/codicons next to it, so the page loads them from the
// extension's own files (its policy allows nothing else).
import { copyFile, mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

// The service client (axios, form-data, mime types: most of the bytes) is its own bundle, dist/api.js, loaded by
// `import('./api/index.js')` on first use. Activation then compiles only the extension's own code.
const API_ENTRY = path.resolve('src/api/index.ts');
const apiAsSeparateBundle = {
  name: 'api-as-separate-bundle',
  setup(build) {
    build.onResolve({ filter: /\/api\/index(\.js)?$/ }, (args) => {
      const target = path.resolve(args.resolveDir, args.path.replace(/\.js$/, '.ts'));
      return target === API_ENTRY ? { path: './api.js', external: true } : undefined;
    });
  },
};

const api = {
  entryPoints: ['src/api/index.ts'],
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  outfile: 'dist/api.js',
  sourcemap: !production,
  minify: production,
  logLevel: 'info',
};

const extension = {
  plugins: [apiAsSeparateBundle],
  // `import()` becomes `require()`: the extension host's own module loader, one module cache, no ESM detour.
  supported: { 'dynamic-import': false },
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
  const contexts = await Promise.all([esbuild.context(extension), esbuild.context(api), esbuild.context(webview)]);
  await Promise.all(contexts.map((ctx) => ctx.watch()));
} else {
  await Promise.all([esbuild.build(extension), esbuild.build(api), esbuild.build(webview)]);
}
