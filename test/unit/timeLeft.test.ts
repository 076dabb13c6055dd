// How long a running job has left, from recorded (time, progress, stage) readings: the estimate's rules (src/jobs/timeLeft.ts)
// on recorded series, with `now` passed (no real clock), and the words a person reads.
import { strict as assert } from 'node:assert';
import { appendReading, MAX_READINGS, readingsProblem, type ProgressReading } from '../../src/jobs/progressReadings';
import { estimateTimeLeft, timeLeftText, MIN_PAUSE_MS, type TimeLeft } from '../../src/jobs/timeLeft';

const T0 = 1_700_000_000_000;
const S = 1000;
const MIN = 60 * S;
const H = 60 * MIN;

/** Readings `[seconds after T0, percent, stage?]`. */
function series(...points: [number, number, string?][]): ProgressReading[] {
  return points.map(([s, progress, stage]) => ({ at: T0 + s * S, progress, ...(stage === undefined ? {} : { stage }) }));
}

/** The estimate's words at `s` seconds after T0, or undefined when it says nothing. */
function said(readings: ProgressReading[], s: number): string | undefined {
  const left = estimateTimeLeft(readings, T0 + s * S);
  return left && timeLeftText(left);
}

describe('time left: the estimate', () => {
  it('a steady job: one figure, from its rate since the first reading, counted down from the last', () => {
    // 1% every 6 s: 60 points left at 10 a minute is 6 min.
    const steady = series(...[0, 6, 12, 18, 24, 30].map((s, i): [number, number, string] => [s, 35 + i, 'training']));
    const left = estimateTimeLeft(steady, T0 + 30 * S);
    assert.deepEqual(left, { lowMs: 6 * MIN, highMs: 6 * MIN });
    assert.equal(said(steady, 30), 'about 6 min left');
    // Between readings the figure counts down: 50 s later (a long step, not yet a pause), 5 min 10 s are left.
    assert.equal(said(steady, 80), 'about 5 min left');
  });

  it('after two readings, not one; none at all says nothing', () => {
    assert.equal(estimateTimeLeft([], T0), undefined);
    assert.equal(estimateTimeLeft(series([0, 10]), T0 + 5 * S), undefined);
    assert.deepEqual(estimateTimeLeft(series([0, 10], [60, 20]), T0 + 60 * S), { lowMs: 8 * MIN, highMs: 8 * MIN });
  });

  it('an unsteady job: a range between its slower and its faster half', () => {
    // 10 points in the first minute, then 10 in the next two and a half: the faster half says 6 min for the 60 left,
    // the slower 15. (A step more than three times the longest before it would be a pause: the rate would start again.)
    const unsteady = series([0, 20], [60, 30], [210, 40]);
    const left = estimateTimeLeft(unsteady, T0 + 210 * S) as TimeLeft;
    assert.equal(Math.round(left.lowMs / S), 6 * 60);
    assert.equal(Math.round(left.highMs / S), 15 * 60);
    assert.equal(timeLeftText(left), '6-15 min left');
    // Halves within the ratio of each other are steady: one figure from the whole run.
    const nearly = series([0, 20], [60, 30], [120, 38]);
    const one = estimateTimeLeft(nearly, T0 + 120 * S) as TimeLeft;
    assert.equal(one.lowMs, one.highMs);
  });

  it('progress that goes backwards starts the rate again from there', () => {
    const back = series([0, 40], [10, 50], [20, 30]);
    assert.equal(estimateTimeLeft(back, T0 + 20 * S), undefined, 'one reading since the step back');
    const again = series([0, 40], [10, 50], [20, 30], [80, 40]);
    assert.deepEqual(estimateTimeLeft(again, T0 + 80 * S), { lowMs: 6 * MIN, highMs: 6 * MIN });
  });

  it('a new stage starts the rate again: the last stage’s rate says nothing of this one', () => {
    const fast = series([0, 2, 'extracting'], [10, 12, 'extracting'], [20, 14, 'generating']);
    assert.equal(estimateTimeLeft(fast, T0 + 20 * S), undefined);
    const next = [...fast, ...series([80, 24, 'generating'])];
    // 10 points a minute in this stage (not the 60 a minute of the last): 76 left is 7.6 min.
    assert.equal(said(next, 80), 'about 8 min left');
    // A stage said only now and then (no word, then a word) is a change too.
    assert.equal(estimateTimeLeft(series([0, 10], [10, 20, 'training']), T0 + 10 * S), undefined);
  });

  it('unknown progress, no progress gained, a finished job: nothing', () => {
    assert.equal(estimateTimeLeft(series([0, 40], [60, 40]), T0 + 60 * S), undefined, 'no progress between the readings');
    assert.equal(estimateTimeLeft(series([0, 90], [60, 100]), T0 + 60 * S), undefined, 'at 100%');
    // A half that made no progress: no slower rate to bound the range by.
    assert.equal(estimateTimeLeft(series([0, 10], [60, 20], [120, 20], [180, 20]), T0 + 180 * S), undefined);
  });

  it('a long pause: nothing while it lasts, then the rate starts again after it', () => {
    // Readings every 30 s; the pause limit is three times the longest step, and never under MIN_PAUSE_MS.
    const run = series([0, 10], [30, 15], [60, 20]);
    assert.ok(estimateTimeLeft(run, T0 + 60 * S + MIN_PAUSE_MS - S), 'a minute’s silence is within the limit');
    assert.equal(said(run, 60 + 89), 'about 7 min left', '8 min less 89 s');
    assert.equal(estimateTimeLeft(run, T0 + (60 + 91) * S), undefined, 'more than 3 × 30 s without a reading');
    // It moves again after 10 min: the pause is no part of the rate, and one reading since says nothing yet.
    const resumed = [...run, ...series([660, 21])];
    assert.equal(estimateTimeLeft(resumed, T0 + 660 * S), undefined);
    const after = [...resumed, ...series([690, 26])];
    assert.equal(said(after, 690), 'about 7 min left', '74 points at 10 a minute');
  });

  it('a clock that went back, or a reading from the future, is a break, not a negative rate', () => {
    assert.equal(estimateTimeLeft(series([60, 10], [0, 20]), T0 + 60 * S), undefined);
    // `now` before the last reading (another window's clock): counted from the reading.
    assert.deepEqual(estimateTimeLeft(series([0, 10], [60, 20]), T0), { lowMs: 8 * MIN, highMs: 8 * MIN });
  });

  it('a rate so slow that the job would take days says nothing', () => {
    assert.equal(estimateTimeLeft(series([0, 10], [3600, 11]), T0 + 3600 * S), undefined, '89 h');
    assert.ok(estimateTimeLeft(series([0, 10], [3600, 12]), T0 + 3600 * S), '44 h is said');
  });
});

describe('time left: the words', () => {
  const about = (ms: number) => timeLeftText({ lowMs: ms, highMs: ms });
  it('one figure, rounded as a person would say it', () => {
    assert.equal(about(0), 'under a minute left');
    assert.equal(about(59 * S), 'under a minute left');
    assert.equal(about(61 * S), 'about 1 min left');
    assert.equal(about(6 * MIN + 20 * S), 'about 6 min left');
    assert.equal(about(9 * MIN + 40 * S), 'about 10 min left');
    assert.equal(about(23 * MIN), 'about 25 min left', 'to 5 min from 10 min');
    assert.equal(about(58 * MIN), 'about 1 h left');
    assert.equal(about(H + 20 * MIN), 'about 1 h 30 min left', 'to half hours from 1 h');
    assert.equal(about(2 * H + 5 * MIN), 'about 2 h left');
    assert.equal(about(13 * H + 40 * MIN), 'about 14 h left', 'to hours from 10 h');
  });

  it('a range: its low end rounded down, its high end up, in one unit where it can', () => {
    assert.equal(timeLeftText({ lowMs: 5 * MIN + 10 * S, highMs: 7 * MIN + 30 * S }), '5-8 min left');
    assert.equal(timeLeftText({ lowMs: 20 * S, highMs: 50 * S }), 'under a minute left');
    assert.equal(timeLeftText({ lowMs: 20 * S, highMs: 2 * MIN + 30 * S }), 'under 3 min left');
    assert.equal(timeLeftText({ lowMs: 6 * MIN + 10 * S, highMs: 6 * MIN + 50 * S }), '6-7 min left');
    assert.equal(timeLeftText({ lowMs: 6 * MIN + 1 * S, highMs: 6 * MIN + 2 * S }), 'about 6 min left', 'ends that round to one figure');
    assert.equal(timeLeftText({ lowMs: 40 * MIN, highMs: 2 * H + 10 * MIN }), '40 min-2 h 30 min left');
    assert.equal(timeLeftText({ lowMs: 2 * H + 10 * MIN, highMs: 2 * H + 50 * MIN }), '2-3 h left');
    assert.equal(timeLeftText({ lowMs: 11 * H, highMs: 16 * H + 10 * MIN }), '11-17 h left');
  });
});

describe('time left: the readings a record keeps', () => {
  it('a reading is kept when progress or stage changed, the newest MAX_READINGS only', () => {
    let kept: ProgressReading[] | undefined;
    kept = appendReading(kept, { at: T0, progress: 10, stage: 'training' });
    const same = appendReading(kept, { at: T0 + S, progress: 10, stage: 'training' });
    assert.equal(same, kept, 'the same progress and stage: the time it was first seen stays');
    kept = appendReading(kept, { at: T0 + 2 * S, progress: 10, stage: 'exporting' });
    assert.equal(kept.length, 2);
    for (let i = 1; i <= 20; i++) kept = appendReading(kept, { at: T0 + (10 + i) * S, progress: 10 + i });
    assert.equal(kept.length, MAX_READINGS);
    assert.equal(kept.at(-1)?.progress, 30);
  });

  it('readings read back from storage are checked: any other shape is refused', () => {
    assert.equal(readingsProblem(series([0, 10, 'training'], [5, 11])), undefined);
    assert.ok(readingsProblem('readings'));
    assert.ok(readingsProblem([{ at: T0, progress: 101 }]));
    assert.ok(readingsProblem([{ at: T0, progress: 10, extra: 1 }]));
    assert.ok(readingsProblem([{ at: T0, progress: 10, stage: 'x'.repeat(1000) }]));
    assert.ok(readingsProblem(series(...Array.from({ length: MAX_READINGS + 1 }, (_, i): [number, number] => [i, i]))));
  });
});
