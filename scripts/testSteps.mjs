// What the test scripts need before they run, each step done once: `npm test` does the shared steps up front and
// names them in HR_TEST_PREPARED, so its four suites compile the tests once and build the .vsix once; a suite run
// alone (`npm run test:e2e`) still does everything it needs. Plain JavaScript: it runs before anything is compiled.
//
//   node scripts/testSteps.mjs prepare <step>...   the steps HR_TEST_PREPARED does not name, in order
//   node scripts/testSteps.mjs all                 what `npm test` runs
import { spawnSync } from 'node:child_process';

const PREPARED_ENV = 'HR_TEST_PREPARED';

/** Each step, and the steps whose output includes its own (the tests' compile includes scripts/). */
const STEPS = {
  compile: { run: ['npm', 'run', 'compile-tests'] },
  scripts: { run: ['npx', 'tsc', '-p', 'tsconfig.start.json'], doneBy: ['compile'] },
  build: { run: ['npm', 'run', 'build'] },
  package: { run: ['npm', 'run', 'package'] },
  // The package a person on this platform installs (the Marketplace serves it before the universal one): it carries
  // the local runtime, which the UI tests run.
  packageTarget: { run: ['npm', 'run', 'package:target', '--', `${process.platform}-${process.arch}`] },
  server: { run: ['node', 'out/test/runners/setupVscodeServer.js'] },
};

function prepared() {
  return new Set((process.env[PREPARED_ENV] ?? '').split(',').filter((s) => s !== ''));
}

function run(command) {
  const [file, ...args] = command;
  // Windows starts npm and npx through their .cmd shims, which need a shell.
  const result = spawnSync(file, args, { stdio: 'inherit', shell: process.platform === 'win32' && file !== 'node' });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    console.error(`[test] \`${command.join(' ')}\` failed (${result.status ?? result.signal})`);
    process.exit(result.status ?? 1);
  }
}

function prepare(names) {
  const done = prepared();
  for (const name of names) {
    const step = STEPS[name];
    if (!step) throw new Error(`unknown step '${name}' (known: ${Object.keys(STEPS).join(', ')})`);
    if (done.has(name) || (step.doneBy ?? []).some((other) => done.has(other))) continue;
    run(step.run);
    done.add(name);
  }
  process.env[PREPARED_ENV] = [...done].join(',');
}

const [mode, ...names] = process.argv.slice(2);
if (mode === 'prepare') {
  prepare(names);
} else if (mode === 'all') {
  // In-editor tests run on the development build (source maps in stack traces); packaging then replaces dist/ with
  // the production build, which the package check and the UI tests install.
  // The server build comes first: the unit suite's `npm start` test runs it (it skips itself without one).
  prepare(['compile', 'server']);
  run(['npm', 'run', 'test:unit']);
  prepare(['build']);
  run(['npm', 'run', 'test:vscode']);
  prepare(['package']);
  run(['npm', 'run', 'test:package']);
  run(['npm', 'run', 'test:e2e']);
} else {
  console.error('usage: node scripts/testSteps.mjs prepare <step>... | all');
  process.exit(2);
}
