// How long a running job has left, from the progress readings its record keeps (progressReadings.ts): a pure function
// of (time, progress, stage) readings and `now`, no vscode, no clock of its own. Its rules:
//  1. The run: only the readings since the last break count. A break is a new stage (a stage word said, changed or no
//     longer said), progress that went backwards, a clock that went back, or a pause: a step between two readings longer
//     than the pause limit (PAUSE_FACTOR times the longest step before it in the run, never under MIN_PAUSE_MS). The
//     rate then starts again from the reading after the break: another stage, or a job that paused, moves at its own pace.
//  2. Nothing is said with fewer than MIN_READINGS readings in the run, when the run gained no progress, when the last
//     reading is at 100%, or while the job is silent for longer than the pause limit (no new progress since: a pause
//     the rate does not know yet). Nothing either when a half of the run (rule 3) gained nothing, or when the job would
//     need more than MAX_LEFT_MS: such a figure says nothing a person can plan by.
//  3. Steady or unsteady: with three readings or more the run is cut at the reading nearest its middle in time, and the
//     rate of each half is measured. When the faster is more than UNSTEADY_RATIO times the slower, the job is unsteady
//     and the time left is a range: what is left at the faster rate to what is left at the slower. Otherwise (and with
//     two readings) one figure: what is left at the whole run's rate.
//  4. Counted from the last reading: the time since it is taken off (down to zero), so the figure counts down between
//     readings as the Jobs view ticks.
//  5. Said for a person (timeLeftText): under a minute as "under a minute"; otherwise rounded to a step that grows with
//     the figure (1 min below 10 min, 5 min below an hour, half an hour below 10 h, then hours): "about 6 min",
//     "about 1 h 30 min". A range rounds its low end down and its high end up to their steps, in one unit where both
//     share it ("5-8 min", "2-3 h", "40 min-2 h 30 min"); a low end under a minute says "under 3 min"; ends that round to
//     the same figure say that figure.
import { l10n } from '../l10n';
import type { ProgressReading } from './progressReadings';

/** The time left, in ms from `now`: equal ends when the job is steady. */
export interface TimeLeft {
  lowMs: number;
  highMs: number;
}

export const MIN_READINGS = 2;
export const UNSTEADY_RATIO = 1.5;
export const PAUSE_FACTOR = 3;
export const MIN_PAUSE_MS = 60_000;
export const MAX_LEFT_MS = 72 * 3_600_000;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const pauseLimit = (longestStep: number) => Math.max(PAUSE_FACTOR * longestStep, MIN_PAUSE_MS);

/** Rule 1: the readings since the last break, and the longest step between them. */
function currentRun(readings: readonly ProgressReading[]): { run: readonly ProgressReading[]; longestStep: number } {
  let start = 0;
  let longestStep = 0;
  for (let i = 1; i < readings.length; i++) {
    const prev = readings[i - 1]!;
    const r = readings[i]!;
    const step = r.at - prev.at;
    const paused = i - start >= 2 && step > pauseLimit(longestStep);
    if (r.stage !== prev.stage || r.progress < prev.progress || step <= 0 || paused) {
      start = i;
      longestStep = 0;
    } else {
      longestStep = Math.max(longestStep, step);
    }
  }
  return { run: readings.slice(start), longestStep };
}

const rateBetween = (a: ProgressReading, b: ProgressReading) => (b.progress - a.progress) / (b.at - a.at);

/** Rules 1-4: the time left at `now`, or undefined when the readings say nothing of it. */
export function estimateTimeLeft(readings: readonly ProgressReading[], now: number): TimeLeft | undefined {
  const { run, longestStep } = currentRun(readings);
  if (run.length < MIN_READINGS) return undefined;
  const first = run[0]!;
  const last = run.at(-1)!;
  if (last.progress >= 100 || last.progress <= first.progress) return undefined;
  const since = Math.max(0, now - last.at);
  if (since > pauseLimit(longestStep)) return undefined;
  const left = 100 - last.progress;
  let fast = rateBetween(first, last);
  let slow = fast;
  if (run.length >= 3) {
    const middle = (first.at + last.at) / 2;
    let mid = run[1]!;
    for (const r of run.slice(2, -1)) if (Math.abs(r.at - middle) < Math.abs(mid.at - middle)) mid = r;
    const early = rateBetween(first, mid);
    const late = rateBetween(mid, last);
    if (early <= 0 || late <= 0) return undefined;
    if (Math.max(early, late) > UNSTEADY_RATIO * Math.min(early, late)) {
      fast = Math.max(early, late);
      slow = Math.min(early, late);
    }
  }
  const highMs = left / slow - since;
  if (highMs > MAX_LEFT_MS) return undefined;
  return { lowMs: Math.max(0, left / fast - since), highMs: Math.max(0, highMs) };
}

/** Rule 5's step for a figure of `ms`. */
function stepFor(ms: number): number {
  if (ms < 10 * MINUTE) return MINUTE;
  if (ms < HOUR) return 5 * MINUTE;
  if (ms < 10 * HOUR) return 30 * MINUTE;
  return HOUR;
}

const rounded = (ms: number, round: (x: number) => number) => round(ms / stepFor(ms)) * stepFor(ms);

/** "6 min", "1 h", "1 h 30 min" for a figure already rounded to its step. */
function durationText(ms: number): string {
  const minutes = Math.round(ms / MINUTE);
  if (minutes < 60) return l10n.t('{0} min', minutes);
  const hours = Math.floor(minutes / 60);
  return minutes % 60 === 0 ? l10n.t('{0} h', hours) : l10n.t('{0} h {1} min', hours, minutes % 60);
}

/** Rule 5: "about 6 min left", "5-8 min left", "under a minute left". */
export function timeLeftText(left: TimeLeft): string {
  if (left.highMs < MINUTE) return l10n.t('under a minute left');
  // A high end of a minute or more rounds to one minute at least.
  const about = rounded(left.highMs, Math.round);
  if (about === rounded(left.lowMs, Math.round)) return l10n.t('about {0} left', durationText(about));
  const low = rounded(left.lowMs, Math.floor);
  const high = rounded(left.highMs, Math.ceil);
  if (low < MINUTE) return l10n.t('under {0} left', durationText(high));
  if (high < HOUR) return l10n.t('{0}-{1} min left', Math.round(low / MINUTE), Math.round(high / MINUTE));
  if (low % HOUR === 0 && high % HOUR === 0) return l10n.t('{0}-{1} h left', low / HOUR, high / HOUR);
  return l10n.t('{0}-{1} left', durationText(low), durationText(high));
}
