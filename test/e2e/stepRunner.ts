// A tiny step runner for the UI tests: the steps share one browser session and run in the order given; each ends with a
// screenshot `NN-<id>.png` (the state it left, or the state it failed in); a step whose prerequisite failed is
// skipped, so one failure does not bury the others under follow-on errors. No mocha: the steps are a story, not a
// set of independent tests, and one page object is passed from step to step.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';

export interface StepContext {
  readonly page: Page;
  /** Saves `NN-<id>-<detail>.png` now (a state inside the step worth looking at); returns its path. */
  shot: (detail: string) => Promise<string>;
  /** A line in the run's output under the step's number. */
  note: (line: string) => void;
}

export interface Step {
  /** Its number in the list: the screenshot is `NN-<id>.png`. */
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

class StepTimeout extends Error {}

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StepTimeout(`${what} did not finish within ${ms / 1000} s`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
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

/** Runs the steps in order; prints one line per step (and the error of a failed one). */
export async function runSteps(page: Page, steps: readonly Step[], outputDir: string): Promise<StepResult[]> {
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
      continue;
    }
    const started = Date.now();
    const context: StepContext = {
      page,
      shot: async (detail) => {
        const file = path.join(outputDir, `${number}-${step.id}-${detail}.png`);
        await settleAnimations(page);
        await page.screenshot({ path: file });
        return file;
      },
      note: (line) => console.log(`[e2e]     ${number} ${line}`),
    };
    let error: string | undefined;
    try {
      await withTimeout(step.run(context), step.timeoutMs ?? DEFAULT_STEP_TIMEOUT_MS, `step ${number}`);
    } catch (caught) {
      error = describe(caught);
    }
    const shot = await screenshot(page, path.join(outputDir, `${number}-${step.id}.png`));
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
