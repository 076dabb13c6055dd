// The UI tests' step runner (test/e2e/stepRunner.ts) without a browser: which steps the reset follows. Every step but
// the last is followed by it, passed or failed, so the next step starts from the known state; after the last nothing
// follows, and its reset (a window opened afresh after step 7) would prepare a window nobody uses.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { runSteps, type Step } from '../e2e/stepRunner';

/** What runSteps asks of the page: the screenshot after each step (and the animations it lets end first). */
const page = {
  evaluate: () => Promise.resolve(undefined),
  screenshot: () => Promise.resolve(Buffer.alloc(0)),
} as unknown as Page;

describe('UI step runner: the reset between steps', () => {
  let outputDir: string;
  let logged: typeof console.log;
  beforeEach(() => {
    outputDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hr-steps-'));
    logged = console.log;
    console.log = () => undefined;
  });
  afterEach(() => {
    console.log = logged;
    fs.rmSync(outputDir, { recursive: true, force: true });
  });

  function step(number: number, fails = false): Step {
    return {
      number,
      id: `step-${number}`,
      title: `step ${number}`,
      run: () => (fails ? Promise.reject(new Error(`step ${number} failed`)) : Promise.resolve()),
    };
  }

  it('resets after every step but the last, after a failed one too', async () => {
    const after: string[] = [];
    const ran: string[] = [];
    const steps = [step(1), step(2, true), step(3)].map((s) => ({
      ...s,
      run: async (context: Parameters<Step['run']>[0]) => {
        ran.push(s.id);
        await s.run(context);
      },
    }));
    const reset = () => {
      after.push(ran[ran.length - 1] ?? 'none');
      return Promise.resolve([]);
    };
    const errors = console.error;
    console.error = () => undefined;
    try {
      const results = await runSteps(page, steps, outputDir, { reset });
      assert.deepEqual(
        results.map((r) => r.outcome),
        ['passed', 'failed', 'passed'],
      );
    } finally {
      console.error = errors;
    }
    assert.deepEqual(after, ['step-1', 'step-2']);
  });

  it('tells its progress as each step starts and ends (after its reset), a skipped one too', async () => {
    const told: string[] = [];
    const steps = [step(1, true), { ...step(2), needs: ['step-1'] }, step(3)];
    const reset = () => {
      told.push('reset');
      return Promise.resolve([]);
    };
    const errors = console.error;
    console.error = () => undefined;
    try {
      await runSteps(page, steps, outputDir, { reset, progress: (what) => told.push(what) });
    } finally {
      console.error = errors;
    }
    assert.deepEqual(told, ['step 01 started', 'reset', 'step 01 ended', 'step 02 skipped', 'step 03 started', 'step 03 ended']);
  });

  it('a single step is the last: no reset follows it', async () => {
    let resets = 0;
    const results = await runSteps(page, [step(1)], outputDir, {
      reset: () => {
        resets++;
        return Promise.resolve([]);
      },
    });
    assert.equal(results[0]?.outcome, 'passed');
    assert.equal(resets, 0);
  });
});
