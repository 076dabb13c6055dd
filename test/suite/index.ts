// Entry point VS Code's extension host calls (extensionTestsPath) under either runner: runs every compiled
// test/suite/**/*.test.js in one mocha (bdd) and reports the result itself, because the server-based runner cannot
// see the extension host's exit code.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';
import * as vscode from 'vscode';
import {
  GREP_ENV,
  PROGRESS_BEAT_MS,
  progressPath,
  RESULT_FILE_ENV,
  TAG_ENV,
  TRUST_PASS_ENV,
  type SuiteProgress,
  type SuiteResult,
  type TestFailure,
} from './suiteResult';
import { suiteGrep } from './suiteGrep';
import { prepareTestTrust } from './testTrust';

const {
  EVENT_SUITE_BEGIN,
  EVENT_SUITE_END,
  EVENT_TEST_BEGIN,
  EVENT_TEST_END,
  EVENT_HOOK_BEGIN,
  EVENT_HOOK_END,
  EVENT_TEST_PASS,
  EVENT_TEST_FAIL,
  EVENT_TEST_PENDING,
  EVENT_RUN_END,
} = Mocha.Runner.constants;

/**
 * Compiled test files next to this index, sorted so the order is the same on every machine: those of restricted/ in
 * the Restricted Mode window (TRUST_PASS_ENV), every other one elsewhere.
 */
function testFiles(): string[] {
  const restricted = process.env[TRUST_PASS_ENV] === 'restricted';
  return fs
    .readdirSync(__dirname, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.js') && file.startsWith(`restricted${path.sep}`) === restricted)
    .sort()
    .map((file) => path.join(__dirname, file));
}

function errorDetails(error: unknown): { message: string; stack: string } {
  if (error instanceof Error) return { message: error.message, stack: error.stack ?? error.message };
  return { message: String(error), stack: String(error) };
}

/** Writes a file atomically so the runner polling for it never reads half of it. */
function writeWhole(file: string, value: unknown): void {
  const partial = `${file}.part`;
  fs.writeFileSync(partial, JSON.stringify(value, null, 2));
  fs.renameSync(partial, file);
}

function writeResult(result: SuiteResult): void {
  const file = process.env[RESULT_FILE_ENV];
  if (file) writeWhole(file, result);
}

/**
 * Tells the runner that the suite goes on: at each test's and hook's start and end, and every PROGRESS_BEAT_MS
 * between (a test may raise its own timeout in its body, after its start was told). The runner judges a hang by the
 * suite's silence (test/runners/suiteWait.ts), never by the whole run's time: while this beats, the extension host's
 * event loop runs, so mocha's timeouts end any test past its bound.
 */
function reportProgress(runner: Mocha.Runner): void {
  const file = process.env[RESULT_FILE_ENV];
  if (!file) return;
  let events = 0;
  let current: Mocha.Runnable | undefined;
  const tell = (): void => {
    const progress: SuiteProgress = { events: ++events, runnable: current?.fullTitle() ?? '', timeoutMs: current?.timeout() ?? 0 };
    writeWhole(progressPath(file), progress);
  };
  const said = (runnable: Mocha.Runnable): void => {
    current = runnable;
    tell();
  };
  for (const event of [EVENT_TEST_BEGIN, EVENT_TEST_END, EVENT_HOOK_BEGIN, EVENT_HOOK_END, EVENT_TEST_FAIL]) runner.on(event, said);
  const beat = setInterval(tell, PROGRESS_BEAT_MS);
  runner.once(EVENT_RUN_END, () => clearInterval(beat));
}

/** Runs mocha, collecting a spec-style report (the spec reporter's own output is lost in the server's log). */
function runMocha(mocha: Mocha): Promise<SuiteResult> {
  const started = Date.now();
  const lines: string[] = [];
  const failureDetails: TestFailure[] = [];
  let depth = 0;
  const indent = (): string => '  '.repeat(depth);

  return new Promise((resolve) => {
    const runner = mocha.run((failures) => {
      resolve({
        vscodeVersion: vscode.version,
        passes: runner.stats?.passes ?? 0,
        failures,
        pending: runner.stats?.pending ?? 0,
        durationMs: Date.now() - started,
        lines,
        failureDetails,
      });
    });
    reportProgress(runner);
    runner.on(EVENT_SUITE_BEGIN, (suite: Mocha.Suite) => {
      if (suite.root) return;
      lines.push(`${indent()}${suite.title}`);
      depth++;
    });
    runner.on(EVENT_SUITE_END, (suite: Mocha.Suite) => {
      if (!suite.root) depth--;
    });
    runner.on(EVENT_TEST_PASS, (test: Mocha.Test) => {
      lines.push(`${indent()}✔ ${test.title} (${test.duration ?? 0} ms)`);
    });
    runner.on(EVENT_TEST_PENDING, (test: Mocha.Test) => {
      lines.push(`${indent()}- ${test.title} (pending)`);
    });
    // Also fires for failing hooks, whose "test" is the hook: its full title names it.
    runner.on(EVENT_TEST_FAIL, (test: Mocha.Runnable, error: unknown) => {
      failureDetails.push({ title: test.fullTitle(), ...errorDetails(error) });
      lines.push(`${indent()}✘ ${test.title} (failure ${failureDetails.length})`);
    });
  });
}

export async function run(): Promise<void> {
  const grep = suiteGrep(process.env[GREP_ENV], process.env[TAG_ENV]);
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 20_000, ...(grep ? { grep } : {}) });
  let result: SuiteResult;
  try {
    await prepareTestTrust();
    for (const file of testFiles()) mocha.addFile(file);
    result = await runMocha(mocha);
  } catch (error) {
    // A test file that throws while loading never reaches a test: report it as the run's one failure.
    result = {
      vscodeVersion: vscode.version,
      passes: 0,
      failures: 1,
      pending: 0,
      durationMs: 0,
      lines: [],
      failureDetails: [{ title: 'loading the test files', ...errorDetails(error) }],
    };
  }
  writeResult(result);
  if (result.failures > 0) throw new Error(`${result.failures} in-editor test(s) failed`);
  if (result.passes === 0) throw new Error('no in-editor test ran');
}
