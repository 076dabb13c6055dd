// How the server-based runner waits for the in-editor suite's result file (test/suite/index.ts writes it), and when
// it stops waiting: the server or the extension host ended, or the suite fell silent. A hang is judged by the suite's
// silence, never by the whole run's time, which grows with the machine's load (a fresh-clone CI run at a load of 24
// was cut at a 12-minute bound with 223 of its 225 tests passed, the last 2 s before): the suite rewrites its progress
// file at each test's and hook's start and end and every few seconds between, so it is silent only when the extension
// host's event loop is stuck (or the suite never started); while it runs, mocha's timeouts end any test past its bound.
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
 * longer than `silenceMs` (before its first word too: the extension host loading the suite).
 */
export async function waitForResult(
  resultPath: string,
  server: Pick<VscodeServer, 'exitStatus' | 'extensionHostExit'>,
  silenceMs: number,
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
    if (clock.now() - lastHeard > silenceMs) {
      throw new Error(
        last === undefined || last.runnable === ''
          ? `the suite did not report: no test started within ${silenceMs / 1000} s`
          : `the suite did not report: no word from it for ${silenceMs / 1000} s; it was running ${last.runnable} ` +
              `(its bound ${last.timeoutMs / 1000} s)`,
      );
    }
    await clock.sleep(POLL_MS);
  }
  return JSON.parse(fs.readFileSync(resultPath, 'utf8')) as SuiteResult;
}
