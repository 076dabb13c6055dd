// Turns the suite's result file into mocha-like console output and a verdict.
import type { SuiteResult } from '../suite/suiteResult';

/**
 * The verdict of a run of several windows (the trusted one and the Restricted Mode one): each reported and none
 * failed, and something ran in one of them (HR_TEST_GREP may leave one window without a test).
 */
export function suitesPassed(results: readonly (SuiteResult | undefined)[]): boolean {
  if (results.length === 0 || results.some((r) => r === undefined || r.failures > 0)) return false;
  return results.some((r) => r!.passes > 0);
}

/** How one window ended: the suite's result, or why it gave none (a deadline, a server that would not start). */
export interface WindowOutcome {
  readonly window: string;
  readonly result?: SuiteResult;
  readonly problem?: string;
}

/** A failure's message lines in the digest (an assertion's diff is under its first line), each cut at LINE_CHARS. */
const MESSAGE_LINES = 8;
const LINE_CHARS = 300;

/**
 * A few lines saying what failed, each window's failing tests by title with their message's first lines, printed last:
 * the end of a run is what a CI page and a lane's tail show, and the whole report sits far above it.
 */
export function failureDigest(outcomes: readonly WindowOutcome[], limit = 8): string[] {
  const lines: string[] = [];
  for (const { window, result, problem } of outcomes) {
    if (!result) {
      lines.push(`  ${window} window: no result (${problem ?? 'it did not report'})`);
      continue;
    }
    if (result.failures === 0) {
      lines.push(`  ${window} window: ${result.passes > 0 ? `${result.passes} passing` : 'no test ran'}`);
      continue;
    }
    lines.push(`  ${window} window: ${result.failures} failing`);
    result.failureDetails.slice(0, limit).forEach((failure, index) => {
      // An assertion's first line only says that values differ ("Expected values to be strictly equal:"); the diff
      // under it says how, so its first lines are printed too, whole.
      const [first = '', ...rest] = failure.message.split('\n').filter((line) => line.trim() !== '');
      lines.push(`    ${index + 1}) ${failure.title}: ${first.trim().slice(0, LINE_CHARS)}`);
      const shown = rest.slice(0, MESSAGE_LINES - 1);
      lines.push(...shown.map((line) => `       ${line.trimEnd().slice(0, LINE_CHARS)}`));
      if (rest.length > shown.length) lines.push(`       … (${rest.length - shown.length} more lines of this message above)`);
    });
    if (result.failureDetails.length > limit) lines.push(`    … and ${result.failureDetails.length - limit} more above`);
  }
  return lines;
}

export function formatSuiteResult(result: SuiteResult, window?: string): string {
  const out = ['', ...(window ? [`  [${window} window]`] : []), ...result.lines.map((line) => `  ${line}`), ''];
  const duration = `${(result.durationMs / 1000).toFixed(1)} s`;
  out.push(`  ${result.passes} passing (${duration}) in VS Code ${result.vscodeVersion}`);
  if (result.pending > 0) out.push(`  ${result.pending} pending`);
  if (result.failures > 0) out.push(`  ${result.failures} failing`);
  result.failureDetails.forEach((failure, index) => {
    out.push('', `  ${index + 1}) ${failure.title}:`);
    // The stack starts with the message; print the message alone only when the stack lacks it.
    const body = failure.stack.includes(failure.message) ? failure.stack : `${failure.message}\n${failure.stack}`;
    out.push(...body.split('\n').map((line) => `     ${line}`));
  });
  if (result.passes === 0 && result.failures === 0) out.push('', '  no test ran (check HR_TEST_GREP and test/suite/)');
  return out.join('\n');
}
