// `npm start`'s only command. `--help` answers from the compiled option parser without building the extension; any
// other start builds (esbuild, then the start scripts) and then runs scripts/start in this very process, so the node
// process npm started is the one that holds VS Code and the emulator: a signal npm forwards reaches it directly
// (no shell in between to die and leave them running). Plain JavaScript: it runs before anything is compiled.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const args = process.argv.slice(2);

function run(what, file, fileArgs) {
  const result = spawnSync(process.execPath, [file, ...fileArgs], { cwd: root, stdio: 'inherit' });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    console.error(`[start] ${what} failed (${result.status ?? result.signal})`);
    process.exit(result.status ?? 1);
  }
}

/** The start scripts only (out/scripts/): incremental, and never touches dist/. */
const compileStartScripts = () => run('compiling scripts/', require.resolve('typescript/bin/tsc'), ['-p', 'tsconfig.start.json']);

const mtime = (file) => {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
};

if (args.includes('--help') || args.includes('-h')) {
  const compiled = path.join(root, 'out', 'scripts', 'startArgs.js');
  const built = mtime(compiled);
  if (built === undefined || built < (mtime(path.join(root, 'scripts', 'startArgs.ts')) ?? Infinity)) compileStartScripts();
  console.log(require(compiled).USAGE);
} else {
  // Inside `npm test` (scripts/testSteps.mjs), which built the extension and compiled the scripts before its lanes
  // started: a start there (the unit suite's npm start test) must not write them again while other lanes run from them.
  const prepared = new Set((process.env.HR_TEST_PREPARED ?? '').split(','));
  if (!prepared.has('build')) run('building the extension', path.join(root, 'esbuild.mjs'), []);
  if (!prepared.has('compile')) compileStartScripts();
  await import(pathToFileURL(path.join(root, 'out', 'scripts', 'start.js')).href);
}
