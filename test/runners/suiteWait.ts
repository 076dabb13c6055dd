// How the server-based runner waits for the in-editor suite's result file (test/suite/index.ts writes it), and when
// it stops waiting: the server or the extension host ended, or the suite fell silent. A hang is judged by the suite's
// silence, never by the whole run's time, which grows with the machine's load (a fresh-clone CI run at a load of 24
// was cut at a 12-minute bound with 223 of its 225 tests passed, the last 2 s before): the suite rewrites its
// progress file at each test's and hook's start and end, with that runnable's own bound, and mocha ends a runnable
// past its bound; so silence longer than that bound and a grace means the extension host itself is stuck, or the
// suite never started.
import * as fs from 'node:fs';
import { progressPath, type SuiteProgress, type SuiteResult } from '../suite/suiteResult';
import type { VscodeServer } from './vscodeServerProcess';

/** How long a result may trail the extension host's exit (the file is written before run() settles). */
const RESULT_GRACE_MS = 3_000;
const POLL_MS = 200;

/** The clock and the pause between looks: the real ones, or a test's. */
export interface WaitClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const realClock: WaitClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** The suite's last word, or undefined before its first (or while the file is being replaced). */
function readProgress(file: string): SuiteProgress | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as SuiteProgress;
  } catch {
    return undefined;
  }
}

/**
 * Polls for the suite's result file; fails if the server or the extension host ends, or if the suite says nothing for
 * longer than the bound of the test or hook it last started or ended plus `graceMs` (before its first word: `graceMs`
 * from now, for the extension host to load the suite; never while a runnable without a bound runs).
 */
export async function waitForResult(
  resultPath: string,
  server: Pick<VscodeServer, 'exitStatus' | 'extensionHostExit'>,
  graceMs: number,
  clock: WaitClock = realClock,
): Promise<SuiteResult> {
  let hostExitSeen: number | undefined;
  let last: SuiteProgress | undefined;
  let lastHeard = clock.now();
  while (!fs.existsSync(resultPath)) {
    const exit = server.exitStatus();
    if (exit) throw new Error(`the VS Code server exited (${exit}) before the suite reported`);
    const hostExit = server.extensionHostExit();
    if (hostExit) {
      hostExitSeen ??= clock.now();
      if (clock.now() - hostExitSeen > RESULT_GRACE_MS) {
        throw new Error(`the extension host exited (${hostExit}) without a result: the suite did not load or run`);
      }
    }
    const heard = readProgress(progressPath(resultPath));
    if (heard !== undefined && heard.events !== last?.events) {
      last = heard;
      lastHeard = clock.now();
    }
    // Mocha's timeout 0 is none: such a runnable (a test someone steps through) is waited for.
    const allowedMs = last?.timeoutMs === 0 ? Infinity : (last?.timeoutMs ?? 0) + graceMs;
    if (clock.now() - lastHeard > allowedMs) {
      throw new Error(
        last === undefined
          ? `the suite did not report: no test started within ${graceMs / 1000} s`
          : `the suite did not report: no word from it for ${allowedMs / 1000} s; last heard: ${last.runnable} ` +
              `(its bound ${last.timeoutMs / 1000} s)`,
      );
    }
    await clock.sleep(POLL_MS);
  }
  return JSON.parse(fs.readFileSync(resultPath, 'utf8')) as SuiteResult;
}
