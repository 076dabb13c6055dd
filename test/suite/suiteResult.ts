// What the in-editor suite reports to the runner that started it. The server-based runner cannot see the extension
// host's exit code, so the suite writes this file itself; both sides import this shape.

/** Environment variable naming the JSON file the suite writes its result to; the runner sets it for the server. */
export const RESULT_FILE_ENV = 'HR_TEST_RESULT';
/** The VS Code version the runner started, which the suite checks it runs in. */
export const EXPECTED_VSCODE_ENV = 'HR_EXPECTED_VSCODE';

/** Environment variable with a mocha --grep pattern, to run a subset of the suite. */
export const GREP_ENV = 'HR_TEST_GREP';

/** Environment variable naming a tag: only the tests whose full title carries it run (the runner sets it per host). */
export const TAG_ENV = 'HR_TEST_TAG';

/**
 * The tag, in a describe block's title, of the tests that run on every VS Code host: those of APIs that differ between
 * versions (Chat and vscode.lm, tools, proxy, the webview page, workspace trust) and a smoke test. Every other test runs
 * on the newest host only (test/runners/vscodeServerLayout.ts says why).
 */
export const EVERY_HOST_TAG = '@every-host';

/**
 * Environment variable naming the window the suite runs in: `restricted` (a real Restricted Mode window) runs only
 * test/suite/restricted/; anything else runs every other test.
 */
export const TRUST_PASS_ENV = 'HR_TEST_TRUST_PASS';

export interface TestFailure {
  /** Full title: describe blocks and the test, space-separated. */
  readonly title: string;
  readonly message: string;
  readonly stack: string;
}

export interface SuiteResult {
  readonly vscodeVersion: string;
  readonly passes: number;
  readonly failures: number;
  readonly pending: number;
  readonly durationMs: number;
  /** The spec-style report, one line per describe block and test, ready to print. */
  readonly lines: readonly string[];
  readonly failureDetails: readonly TestFailure[];
}

/**
 * What the suite says while it runs, rewritten whole in the file beside the result (`progressPath`) at each test's and
 * hook's start and end and every PROGRESS_BEAT_MS: the runner judges a hang by the suite's silence, never by the whole
 * run's time, which grows with the machine's load.
 */
export interface SuiteProgress {
  /** How many times it was written: a change is a sign of life. */
  readonly events: number;
  /** The full title of the test or hook running or run last ('' before the first). */
  readonly runnable: string;
  /** Its bound as it stands (mocha's timeout, ms). */
  readonly timeoutMs: number;
}

/** How often the suite says it goes on, between the starts and ends of tests. */
export const PROGRESS_BEAT_MS = 5_000;

/** The progress file of the result file `resultPath`. */
export const progressPath = (resultPath: string): string => `${resultPath}.progress`;
