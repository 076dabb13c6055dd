// A tiny step runner for the UI tests: the steps share one browser session and run in the order given; each ends with a
// screenshot `NN-<id>.png` (the state it left, or the state it failed in), then the reset (reset.ts) returns the
// workbench to the known state every step starts from, whether the step passed or failed (after every step but the
// last: none follows it). A step that needs another's
// result (`needs`: the model a finetune made) is skipped when that one failed; any other step runs as if alone. When
// the reset itself cannot undo what a step left, the step counts as failed and the window is opened afresh
// (`recover`). No mocha: one page object is passed from step to step.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';

export interface StepContext {
  readonly page: Page;
  /**
   * Saves `NN-<id>-<detail>.png` now (a state inside the step worth looking at), of the whole window or of the part
   * `clip` names (page coordinates); returns its path.
   */
  shot: (detail: string, clip?: { x: number; y: number; width: number; height: number }) => Promise<string>;
  /** A line in the run's output under the step's number. */
  note: (line: string) => void;
}

export interface Step {
  /** Its number in the issue's list: the screenshot is `NN-<id>.png`. */
  readonly number: number;
  /** Short slug: the screenshot name (`NN-<id>.png`) and what `needs` refers to. */
  readonly id: string;
  /** What a person does and sees, one line. */
  readonly title: string;
  /** Ids of steps that must have passed first (the state they leave behind is used). */
  readonly needs?: readonly string[];
  /** Upper bound for the whole step; default 60 s. */
  readonly timeoutMs?: number;
  run(context: StepContext): Promise<void>;
}

export interface RunOptions {
  /** Returns the workbench to the known state; resolves to what it had to undo (printed under the step). */
  readonly reset?: () => Promise<string[]>;
  /** Opens the window afresh (reload, reconnect) when the reset failed. */
  readonly recover?: () => Promise<void>;
  /**
   * Told as each step starts and as it ends (its screenshot and reset done): the run's bound for a hang is on the time
   * between two of these, not on the whole run, whose time grows with the machine's load (run.ts).
   */
  readonly progress?: (what: string) => void;
}

export type StepOutcome = 'passed' | 'failed' | 'skipped';

export interface StepResult {
  readonly number: string;
  readonly step: Step;
  readonly outcome: StepOutcome;
  readonly durationMs: number;
  readonly screenshot?: string;
  readonly error?: string;
}

const DEFAULT_STEP_TIMEOUT_MS = 60_000;
/** The reset's own bound: closing what is open and waiting for a running job to end. */
const RESET_TIMEOUT_MS = 90_000;
/**
 * After a step's time is up, how long its promise may take to settle before the reset starts: every action and wait
 * inside it has its own bound (30 s for a wait, WAIT_TIMEOUT_MS in workbench.ts), and a reset racing a step still
 * clicking would undo nothing.
 */
const SETTLE_AFTER_TIMEOUT_MS = 45_000;

class StepTimeout extends Error {}

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StepTimeout(`${what} did not finish within ${ms / 1000} s`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** Waits (bounded) for a step that ran out of time to stop acting on the page. */
async function settled(work: Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), SETTLE_AFTER_TIMEOUT_MS)));
  const done = work.then(
    () => true,
    () => true,
  );
  return Promise.race([done, bound]).finally(() => clearTimeout(timer));
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    // Playwright's messages carry a call log that says what it waited for: keep it, drop the stack frames.
    return error.message;
  }
  return String(error);
}

/**
 * Lets the workbench's finite animations end (a notification toast sliding in) so a screenshot shows what a person
 * sees a moment later; spinners and other endless animations are left running. At most one second.
 * (Playwright's `animations: 'disabled'` would do this, but after it a webview no longer took the next click.)
 */
async function settleAnimations(page: Page): Promise<void> {
  await page
    .evaluate(() => {
      const finite = document.getAnimations().filter((a) => a.effect?.getComputedTiming().endTime !== Infinity);
      const done = Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
      return Promise.race([done, new Promise((resolve) => setTimeout(resolve, 1_000))]);
    })
    .catch(() => undefined);
}

/** Takes a screenshot, never throwing (a crashed page must not hide the step's own error). */
async function screenshot(page: Page, file: string): Promise<string | undefined> {
  try {
    await settleAnimations(page);
    await page.screenshot({ path: file, timeout: 10_000 });
    return file;
  } catch {
    return undefined;
  }
}

/**
 * Resets after a step; on failure takes `NN-<id>-reset.png`, opens the window afresh and returns why (the step then
 * counts as failed: it left behind what the reset could not undo). Undefined when the reset succeeded.
 */
async function resetAfter(page: Page, number: string, step: Step, outputDir: string, options: RunOptions): Promise<string | undefined> {
  try {
    const undone = await withTimeout(options.reset!(), RESET_TIMEOUT_MS, `the reset after step ${number}`);
    if (undone.length > 0) console.log(`[e2e]     ${number} reset: ${undone.join('; ')}`);
    return undefined;
  } catch (caught) {
    const shot = await screenshot(page, path.join(outputDir, `${number}-${step.id}-reset.png`));
    // The first line, and the locator a timed-out wait was on (Playwright puts it in the call log below).
    const lines = describe(caught).split('\n');
    const waitingFor = lines
      .find((line) => line.includes('waiting for'))
      // Without the terminal's colour codes (ESC [ n m).
      ?.replace(new RegExp(`${String.fromCharCode(27)}\\[\\d+m`, 'g'), '')
      .trim();
    const problem = `the reset after it failed (${lines[0]}${waitingFor ? `: ${waitingFor}` : ''}); screenshot: ${shot ?? 'none'}`;
    try {
      await options.recover?.();
      return `${problem}; the window was opened afresh`;
    } catch (recoverError) {
      return `${problem}; opening the window afresh failed too: ${describe(recoverError).split('\n')[0]}`;
    }
  }
}

/** Runs the steps in order; prints one line per step (and the error of a failed one). */
export async function runSteps(page: Page, steps: readonly Step[], outputDir: string, options: RunOptions = {}): Promise<StepResult[]> {
  fs.mkdirSync(outputDir, { recursive: true });
  const results: StepResult[] = [];
  const passed = new Set<string>();
  for (const step of steps) {
    const number = String(step.number).padStart(2, '0');
    const label = `${number} ${step.title}`;
    const missing = (step.needs ?? []).filter((id) => !passed.has(id));
    if (missing.length > 0) {
      console.log(`[e2e] - ${label}: skipped (needs ${missing.join(', ')})`);
      results.push({ number, step, outcome: 'skipped', durationMs: 0 });
      options.progress?.(`step ${number} skipped`);
      continue;
    }
    const started = Date.now();
    const context: StepContext = {
      page,
      shot: async (detail, clip) => {
        const file = path.join(outputDir, `${number}-${step.id}-${detail}.png`);
        await settleAnimations(page);
        await page.screenshot({ path: file, ...(clip ? { clip } : {}) });
        return file;
      },
      note: (line) => console.log(`[e2e]     ${number} ${line}`),
    };
    let error: string | undefined;
    options.progress?.(`step ${number} started`);
    const work = step.run(context);
    try {
      await withTimeout(work, step.timeoutMs ?? DEFAULT_STEP_TIMEOUT_MS, `step ${number}`);
    } catch (caught) {
      error = describe(caught);
      if (caught instanceof StepTimeout && !(await settled(work))) {
        error += `\n(the step was still acting ${SETTLE_AFTER_TIMEOUT_MS / 1000} s later)`;
      }
    }
    const shot = await screenshot(page, path.join(outputDir, `${number}-${step.id}.png`));
    // No step follows the last one: its reset would prepare a window nobody uses (after step 7, which points the
    // service URL elsewhere, the window opened afresh and the key given again: 22 s of a 376 s run).
    if (options.reset && step !== steps[steps.length - 1]) {
      const problem = await resetAfter(page, number, step, outputDir, options);
      if (problem !== undefined) error = error === undefined ? problem : `${error}\n${problem}`;
    }
    options.progress?.(`step ${number} ended`);
    const durationMs = Date.now() - started;
    const seconds = `${(durationMs / 1000).toFixed(1)} s`;
    if (error === undefined) {
      passed.add(step.id);
      console.log(`[e2e] ✓ ${label} (${seconds})`);
      results.push({ number, step, outcome: 'passed', durationMs, screenshot: shot });
    } else {
      console.error(`[e2e] ✗ ${label} (${seconds}) FAILED`);
      console.error(
        error
          .split('\n')
          .map((line) => `        ${line}`)
          .join('\n'),
      );
      console.error(`        screenshot: ${shot ?? '(could not be taken)'}`);
      results.push({ number, step, outcome: 'failed', durationMs, screenshot: shot, error });
    }
  }
  return results;
}
