// How the server-based runner waits for the in-editor suite (test/runners/suiteWait.ts): a hang is the suite's
// silence (it speaks at each test's start and end and every few seconds between), never the whole run's time. A fresh-clone CI run
// at a load of 24 cut the newest VS Code's trusted window at its old 12-minute bound after 223 of its 225 tests had
// passed, the last one 2 s before. Driven by a clock of the test's own: no real waiting, nothing timed.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { progressPath, type SuiteProgress, type SuiteResult } from '../suite/suiteResult';
import { waitForResult, type WaitClock } from '../runners/suiteWait';

const RESULT: SuiteResult = { vscodeVersion: '1.139.1', passes: 1, failures: 0, pending: 0, durationMs: 1, lines: [], failureDetails: [] };
const aliveServer = { exitStatus: () => undefined, extensionHostExit: () => undefined };

describe('in-editor runner: waiting for the suite', () => {
  let dir: string;
  let resultPath: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hr-suite-wait-'));
    resultPath = path.join(dir, 'result.json');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  let events = 0;
  const progress = (runnable: string, timeoutMs: number): void => {
    const said: SuiteProgress = { events: ++events, runnable, timeoutMs };
    fs.writeFileSync(progressPath(resultPath), JSON.stringify(said));
  };

  /** A clock that moves only when the runner sleeps, and lets the "suite" act at given times. */
  function clockWith(actions: ReadonlyArray<readonly [atMs: number, act: () => void]>): WaitClock & { readonly at: () => number } {
    let now = 0;
    const pending = [...actions];
    return {
      now: () => now,
      at: () => now,
      sleep: (ms) => {
        now += ms;
        while (pending.length > 0 && pending[0]![0] <= now) pending.shift()![1]();
        return Promise.resolve();
      },
    };
  }

  it('waits as long as the suite goes on: tests ending one after another, past any whole-run bound', async () => {
    const actions: Array<readonly [number, () => void]> = [];
    // 30 minutes of 10-second tests, each within its 20 s bound, then the result.
    for (let t = 0; t < 30 * 60_000; t += 10_000) actions.push([t, () => progress(`test at ${t}`, 20_000)]);
    actions.push([30 * 60_000, () => fs.writeFileSync(resultPath, JSON.stringify(RESULT))]);
    const clock = clockWith(actions);
    assert.deepEqual(await waitForResult(resultPath, aliveServer, 60_000, clock), RESULT);
    assert.ok(clock.at() >= 30 * 60_000);
  });

  it('waits out a long test while the suite says it goes on', async () => {
    const actions: Array<readonly [number, () => void]> = [[0, () => progress('suite a long download', 240_000)]];
    for (let t = 5_000; t < 230_000; t += 5_000) actions.push([t, () => progress('suite a long download', 240_000)]);
    actions.push([230_000, () => fs.writeFileSync(resultPath, JSON.stringify(RESULT))]);
    assert.deepEqual(await waitForResult(resultPath, aliveServer, 60_000, clockWith(actions)), RESULT);
  });

  it('stops once the suite is silent past the bound, naming what it was running', async () => {
    const clock = clockWith([
      [1_000, () => progress('suite a test that blocks the host', 20_000)],
      [6_000, () => progress('suite a test that blocks the host', 20_000)],
    ]);
    await assert.rejects(waitForResult(resultPath, aliveServer, 60_000, clock), (error: Error) => {
      assert.match(error.message, /no word from it for 60 s; it was running suite a test that blocks the host \(its bound 20 s\)/);
      return true;
    });
    // Not before the bound had passed since it last said something.
    assert.ok(clock.at() > 6_000 + 60_000);
  });

  it('stops when no test starts within the bound, saying so', async () => {
    const clock = clockWith([]);
    await assert.rejects(waitForResult(resultPath, aliveServer, 60_000, clock), /no test started within 60 s/);
  });
});
