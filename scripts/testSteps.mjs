// What the test scripts need before they run, each step done once: `npm test` does the shared steps up front and
// names them in HR_TEST_PREPARED, so its suites compile the tests once and build the .vsix once; a suite run alone
// (`npm run test:e2e`) still does everything it needs. Plain JavaScript: it runs before anything is compiled.
//
//   node scripts/testSteps.mjs prepare <step>...   the steps HR_TEST_PREPARED does not name, in order
//   node scripts/testSteps.mjs all                 what `npm test` runs
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

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

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/**
 * How many of a failed lane's last lines `npm test` repeats at its end: enough for an in-editor runner's digest of a
 * few failures with their assertions' diffs (test/runners/suiteReport.ts) and the lines it prints after it.
 */
const FAILED_LANE_TAIL = 30;
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(0)} s`;

/** Set by Ctrl+C or a signal to `npm test`: a lane then starts no further command. */
let interrupted = false;

/**
 * Runs a lane's commands in turn, its output into a file of its own, printed whole once the lane ends (lanes run side
 * by side: their lines interleaved would be unreadable). A failed command does not stop the next one: a CI log then
 * names every failure of the run, not the first of each lane. Resolves to the lane's outcome; never rejects.
 */
function runLane(lane, logDir, children) {
  const started = Date.now();
  const logPath = path.join(logDir, `${lane.name}.log`);
  const out = fs.openSync(logPath, 'w');
  const failures = [];
  return new Promise((resolve) => {
    const finish = () => {
      const failed = failures.length > 0 ? failures.join('; ') : undefined;
      fs.closeSync(out);
      const time = seconds(started);
      console.log(`\n[test] ===== ${lane.title}: ${failed ? `FAILED (${failed})` : 'passed'} in ${time} =====`);
      process.stdout.write(fs.readFileSync(logPath, 'utf8'));
      console.log(`[test] ===== end of ${lane.title} (its output: ${path.relative(root, logPath)}) =====`);
      resolve({ title: lane.title, failed, time, logPath });
    };
    const next = (i) => {
      if (i === lane.commands.length || interrupted) return finish();
      const { run: command, env = {} } = lane.commands[i];
      const [file, ...args] = command;
      const child = spawn(file, args, {
        stdio: ['ignore', out, out],
        env: { ...process.env, ...env },
        shell: process.platform === 'win32' && file !== 'node',
      });
      children.add(child);
      const described = `${Object.entries(env)
        .map(([k, v]) => `${k}=${v} `)
        .join('')}${command.join(' ')}`;
      // 'error' (it could not start) and 'exit' may both come: the first one moves on.
      let ended = false;
      const ends = (failure) => {
        if (ended) return;
        ended = true;
        children.delete(child);
        if (failure) failures.push(failure);
        next(i + 1);
      };
      child.once('error', (error) => ends(`could not start \`${described}\`: ${error.message}`));
      child.once('exit', (code, signal) => ends(code === 0 ? undefined : `\`${described}\` exited with ${code ?? signal}`));
    };
    next(0);
  });
}

/**
 * `npm test`: what every lane reads is made first, one step after another (the packages before the development build,
 * as packaging replaces dist/ with the production build), and nothing writes it while the lanes run. Then three lanes
 * side by side, as most of their time is waiting (on VS Code, the browser, the emulator's timings), not computing:
 * the unit suite; the whole in-editor suite on the newest VS Code; the UI steps (with the package check) through the
 * installed platform package, then the in-editor tests tagged for every host on VS Code's oldest supported version.
 */
async function all() {
  const started = Date.now();
  prepare(['compile', 'server', 'package', 'packageTarget', 'build']);
  console.log(`[test] prepared in ${seconds(started)}: ${process.env[PREPARED_ENV]}`);
  // The oldest VS Code's tagged tests follow the UI steps, not the unit suite: behind the unit suite they made its lane
  // the last to end by ~150 s, with one core idle meanwhile (fbd3df7: lanes of 562, 409 and 331 s). Their Restricted
  // Mode window (a server and a window of its own, 17 s) follows the newest VS Code's suite instead, which ended
  // 130 s before the UI lane (ci2 at 81a9203: lanes of 476, 434 and 564 s).
  const inEditor = ['node', 'out/test/runners/runInServer.js'];
  const lanes = [
    { name: 'unit', title: 'unit tests', commands: [{ run: ['npx', 'mocha', '--config', '.mocharc.json'] }] },
    {
      name: 'in-editor-newest',
      title: 'the in-editor suite on the newest VS Code, then the Restricted Mode window of the oldest',
      commands: [
        { run: inEditor, env: { HR_VSCODE_HOST: 'newest' } },
        { run: inEditor, env: { HR_VSCODE_HOST: 'minimum', HR_TEST_PASSES: 'restricted' } },
      ],
    },
    {
      name: 'ui-and-oldest',
      title: 'the UI steps and the package check, then the in-editor tests tagged @every-host on the oldest VS Code (trusted window)',
      commands: [
        { run: ['node', 'out/test/e2e/run.js'] },
        { run: inEditor, env: { HR_VSCODE_HOST: 'minimum', HR_TEST_PASSES: 'trusted' } },
      ],
    },
  ];
  const logDir = path.join(root, 'test-output', 'lanes');
  fs.mkdirSync(logDir, { recursive: true });
  const children = new Set();
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.once(signal, () => {
      interrupted = true;
      for (const child of children) child.kill(signal);
      process.exitCode = 1;
    });
  }
  console.log(`[test] ${lanes.length} lanes side by side:\n${lanes.map((l) => `  ${l.title}`).join('\n')}`);
  const results = await Promise.all(lanes.map((lane) => runLane(lane, logDir, children)));
  console.log(`\n[test] npm test took ${seconds(started)}:`);
  for (const r of results) console.log(`  ${r.failed ? 'FAILED' : 'passed'}  ${r.time.padStart(6)}  ${r.title}`);
  const failed = results.filter((r) => r.failed);
  // Each failed lane's last lines again, below the table: they hold its runner's verdict (which tests, which steps),
  // and the end of the run is what a CI page shows first.
  for (const r of failed) {
    const lines = fs.readFileSync(r.logPath, 'utf8').trimEnd().split('\n');
    console.log(`\n[test] the end of "${r.title}":\n${lines.slice(-FAILED_LANE_TAIL).join('\n')}`);
  }
  if (failed.length > 0) {
    console.error(`[test] ${failed.length} lane(s) failed: ${failed.map((r) => `${r.title}: ${r.failed}`).join('; ')}`);
    process.exit(1);
  }
}

const [mode, ...names] = process.argv.slice(2);
if (mode === 'prepare') {
  prepare(names);
} else if (mode === 'all') {
  await all();
} else {
  console.error('usage: node scripts/testSteps.mjs prepare <step>... | all');
  process.exit(2);
}
