// Honest numbers for an evaluation report: how sure one accuracy is, and whether two models really differ on a dataset.
// Wilson's score interval because it stays inside [0, 1] and behaves at 0/n, n/n and small n where the textbook
// p ± z·SE does not; the difference uses Newcombe's hybrid score interval (method 10 of Newcombe 1998, Statistics in
// Medicine 17:857-872), built from the two Wilson intervals, for the same reasons. No vscode: plain mocha tests it.

/** The normal quantile for a two-sided 95 % interval (Φ⁻¹(0.975)). */
export const Z_95 = 1.959963984540054;

export interface Interval {
  lower: number;
  upper: number;
}

/** Written as the report says it, A being the subject ("tuned-model is better than its base"). */
export type Verdict = 'better' | 'worse' | 'no clear difference at this sample size';

export interface ProportionDifference {
  /** accuracy of A minus accuracy of B */
  estimate: number;
  interval: Interval;
  /** A compared with B: decided only by whether the interval excludes 0. */
  verdict: Verdict;
}

export interface Counts {
  correct: number;
  total: number;
}

/**
 * Counts we can reason about. The service's numbers are untrusted: a negative, non-finite or over-total count, or
 * no questions at all, gives no interval rather than NaN or a confident-looking wrong one.
 */
function usable({ correct, total }: Counts): boolean {
  return Number.isFinite(correct) && Number.isFinite(total) && total > 0 && correct >= 0 && correct <= total;
}

/** 95 % Wilson score interval of correct/total; undefined when there is nothing to estimate from. */
export function wilsonInterval(correct: number, total: number, z = Z_95): Interval | undefined {
  if (!usable({ correct, total })) {
    return undefined;
  }
  const p = correct / total;
  const z2 = z * z;
  const centre = 2 * total * p + z2;
  const spread = z * Math.sqrt(z2 + 4 * total * p * (1 - p));
  const denominator = 2 * (total + z2);
  // At 0/n and n/n the bound is exactly 0 or 1 in theory; rounding would otherwise leave -1e-17 or 0.9999999999.
  const lower = correct === 0 ? 0 : Math.max(0, (centre - spread) / denominator);
  const upper = correct === total ? 1 : Math.min(1, (centre + spread) / denominator);
  return { lower, upper };
}

/**
 * Difference of two independent proportions, A − B (two models, each evaluated once on the same dataset), with
 * Newcombe's hybrid score interval: each side combines the distance from each estimate to its own Wilson bound.
 */
export function compareProportions(a: Counts, b: Counts, z = Z_95): ProportionDifference | undefined {
  const ia = wilsonInterval(a.correct, a.total, z);
  const ib = wilsonInterval(b.correct, b.total, z);
  if (!ia || !ib) {
    return undefined;
  }
  const pa = a.correct / a.total;
  const pb = b.correct / b.total;
  const estimate = pa - pb;
  const lower = Math.max(-1, estimate - Math.hypot(pa - ia.lower, ib.upper - pb));
  const upper = Math.min(1, estimate + Math.hypot(ia.upper - pa, pb - ib.lower));
  return { estimate, interval: { lower, upper }, verdict: verdictOf({ lower, upper }) };
}

export function verdictOf(interval: Interval): Verdict {
  if (interval.lower > 0) {
    return 'better';
  }
  if (interval.upper < 0) {
    return 'worse';
  }
  return 'no clear difference at this sample size';
}
