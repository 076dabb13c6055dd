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
