// The report's statistics against published values, and against a second implementation written differently.
import { strict as assert } from 'node:assert';
import { compareProportions, wilsonInterval, Z_95, type Interval } from '../../src/features/evaluate/statistics';

function assertClose(actual: Interval | undefined, lower: number, upper: number, what: string): void {
  assert.ok(actual, `${what}: an interval`);
  assert.equal(actual.lower.toFixed(4), lower.toFixed(4), `${what}: lower`);
  assert.equal(actual.upper.toFixed(4), upper.toFixed(4), `${what}: upper`);
}

/**
 * A second Wilson interval, found by bisection on the score equation (p̂ − p)² = z²·p(1 − p)/n instead of the closed
 * form the module uses: the two agree only if both are right.
 */
function wilsonByBisection(correct: number, total: number): Interval {
  const phat = correct / total;
  const excess = (p: number): number => (phat - p) ** 2 - (Z_95 * Z_95 * p * (1 - p)) / total;
  const root = (outside: number, inside: number): number => {
    // excess(outside) >= 0, excess(inside) <= 0
    let [a, b] = [outside, inside];
    for (let i = 0; i < 200; i++) {
      const mid = (a + b) / 2;
      if (excess(mid) > 0) {
        a = mid;
      } else {
        b = mid;
      }
    }
    return (a + b) / 2;
  };
  return { lower: correct === 0 ? 0 : root(0, phat), upper: correct === total ? 1 : root(1, phat) };
}

/** Newcombe's method 10 as printed in the paper: d − z·√(l₁(1−l₁)/n₁ + u₂(1−u₂)/n₂), d + z·√(u₁(1−u₁)/n₁ + l₂(1−l₂)/n₂). */
function newcombeAsPrinted(r1: number, n1: number, r2: number, n2: number): Interval {
  const a = wilsonByBisection(r1, n1);
  const b = wilsonByBisection(r2, n2);
  const d = r1 / n1 - r2 / n2;
  return {
    lower: d - Z_95 * Math.sqrt((a.lower * (1 - a.lower)) / n1 + (b.upper * (1 - b.upper)) / n2),
    upper: d + Z_95 * Math.sqrt((a.upper * (1 - a.upper)) / n1 + (b.lower * (1 - b.lower)) / n2),
  };
}

describe('statistics: Wilson score interval', () => {
  // Newcombe RG (1998), "Two-sided confidence intervals for the single proportion: comparison of seven methods",
  // Statistics in Medicine 17:857-872, Table I, method 3 (score method without continuity correction).
  it('matches Newcombe 1998 Table I, method 3', () => {
    assertClose(wilsonInterval(81, 263), 0.2553, 0.3662, '81/263');
    assertClose(wilsonInterval(15, 148), 0.0624, 0.1605, '15/148');
    assertClose(wilsonInterval(0, 20), 0, 0.1611, '0/20');
    assertClose(wilsonInterval(1, 29), 0.0061, 0.1718, '1/29');
  });

  it('agrees with a bisection on the score equation for small and large n', () => {
    for (const [r, n] of [
      [1, 1],
      [1, 2],
      [2, 3],
      [3, 5],
      [7, 9],
      [50, 100],
      [999, 1000],
      [12_345, 20_000],
    ] as const) {
      const expected = wilsonByBisection(r, n);
      assertClose(wilsonInterval(r, n), expected.lower, expected.upper, `${r}/${n}`);
    }
  });

  it('0/n starts at exactly 0 and n/n ends at exactly 1, each with a real width', () => {
    const none = wilsonInterval(0, 10);
    const all = wilsonInterval(10, 10);
    assert.equal(none?.lower, 0);
    assert.equal(all?.upper, 1);
    // The mirror image of each other, and as wide as the bisection says (not the zero width of p ± z·SE).
    assertClose(none, 0, wilsonByBisection(0, 10).upper, '0/10');
    assertClose(all, 1 - (none?.upper ?? NaN), 1, '10/10');
    assert.ok((none?.upper ?? 0) > 0.2);
  });

  it('one question: 0/1 and 1/1 stay inside [0, 1] and are wide', () => {
    assertClose(wilsonInterval(0, 1), 0, wilsonByBisection(0, 1).upper, '0/1');
    assertClose(wilsonInterval(1, 1), wilsonByBisection(1, 1).lower, 1, '1/1');
    assert.ok((wilsonInterval(1, 1)?.lower ?? 1) < 0.25);
  });

  it('gives no interval, never NaN, for 0 questions or counts that cannot be', () => {
    assert.equal(wilsonInterval(0, 0), undefined);
    assert.equal(wilsonInterval(5, 4), undefined);
    assert.equal(wilsonInterval(-1, 4), undefined);
    assert.equal(wilsonInterval(NaN, 4), undefined);
    assert.equal(wilsonInterval(1, Infinity), undefined);
  });
});

describe('statistics: difference of two proportions (Newcombe hybrid score, method 10)', () => {
  // Newcombe RG (1998), "Interval estimation for the difference between independent proportions: comparison of eleven
  // methods", Statistics in Medicine 17:873-890, Table II, method 10.
  it('matches Newcombe 1998 Table II, method 10', () => {
    assertClose(compareProportions({ correct: 56, total: 70 }, { correct: 48, total: 80 })?.interval, 0.0524, 0.3339, '56/70 − 48/80');
    assertClose(compareProportions({ correct: 9, total: 10 }, { correct: 3, total: 10 })?.interval, 0.1705, 0.809, '9/10 − 3/10');
    assertClose(compareProportions({ correct: 5, total: 56 }, { correct: 0, total: 29 })?.interval, -0.0381, 0.1926, '5/56 − 0/29');
  });

  // Further rows of the same table (6/7 − 2/7, 0/10 − 0/20) are checked against the formula as printed in the paper,
  // computed from bisection-found Wilson bounds, rather than against numbers recalled from the table.
  it('agrees with the formula as printed, from independently found Wilson bounds', () => {
    for (const [r1, n1, r2, n2] of [
      [6, 7, 2, 7],
      [0, 10, 0, 20],
      [10, 10, 0, 20],
      [1, 1, 0, 1],
      [3, 4, 4, 4],
      [410, 500, 380, 500],
    ] as const) {
      const expected = newcombeAsPrinted(r1, n1, r2, n2);
      assertClose(
        compareProportions({ correct: r1, total: n1 }, { correct: r2, total: n2 })?.interval,
        expected.lower,
        expected.upper,
        `${r1}/${n1} − ${r2}/${n2}`,
      );
    }
  });

  it('estimate is A − B; swapping A and B mirrors the interval and the verdict', () => {
    const ab = compareProportions({ correct: 56, total: 70 }, { correct: 48, total: 80 });
    const ba = compareProportions({ correct: 48, total: 80 }, { correct: 56, total: 70 });
    assert.ok(ab && ba);
    assert.equal(ab.estimate, 56 / 70 - 48 / 80);
    assert.equal(ba.interval.lower.toFixed(10), (-ab.interval.upper).toFixed(10));
    assert.equal(ba.interval.upper.toFixed(10), (-ab.interval.lower).toFixed(10));
    assert.equal(ab.verdict, 'better');
    assert.equal(ba.verdict, 'worse');
  });

  it('an interval that contains 0 says so in words, however large the point difference', () => {
    // 5/56 − 0/29: the point estimate favours A by 9 points, the interval [-0.0381, 0.1926] does not.
    assert.equal(
      compareProportions({ correct: 5, total: 56 }, { correct: 0, total: 29 })?.verdict,
      'no clear difference at this sample size',
    );
    // 2/3 − 1/3: a 33-point difference on three questions each.
    assert.equal(
      compareProportions({ correct: 2, total: 3 }, { correct: 1, total: 3 })?.verdict,
      'no clear difference at this sample size',
    );
    assert.equal(
      compareProportions({ correct: 0, total: 10 }, { correct: 0, total: 10 })?.verdict,
      'no clear difference at this sample size',
    );
  });

  it('the extremes stay inside [-1, 1]: n/n against 0/n is better, 0/n against n/n worse', () => {
    const up = compareProportions({ correct: 10, total: 10 }, { correct: 0, total: 10 });
    const down = compareProportions({ correct: 0, total: 10 }, { correct: 10, total: 10 });
    assert.ok(up && down);
    assert.equal(up.interval.upper, 1);
    assert.equal(down.interval.lower, -1);
    assert.equal(up.verdict, 'better');
    assert.equal(down.verdict, 'worse');
  });

  it('no interval and no verdict when either side has no questions', () => {
    assert.equal(compareProportions({ correct: 0, total: 0 }, { correct: 3, total: 10 }), undefined);
    assert.equal(compareProportions({ correct: 3, total: 10 }, { correct: 0, total: 0 }), undefined);
    assert.equal(compareProportions({ correct: 11, total: 10 }, { correct: 3, total: 10 }), undefined);
  });
});
