// The statistics of two models answering the same questions: each question is a pair (the base's verdict, the tuned
// model's), so the models' accuracies are not independent and the difference is judged on the pairs. The interval is
// Newcombe's hybrid score interval for paired proportions (method 10 of Newcombe 1998, "Improved confidence intervals
// for the difference between binomial proportions based on paired data", Statistics in Medicine 17:2635-2650): the
// two Wilson intervals of statistics.ts, combined with the pairs' correlation. The test is McNemar's exact one: under
// "no difference" each discordant question is a fair coin, so the p-value is a two-sided binomial test on them, which
// is also the sign test for a pairwise judge's wins and losses. No vscode: plain mocha.
import { verdictOf, wilsonInterval, Z_95, type Interval, type Verdict } from '../statistics';

/** One model against another on the same questions; A is the subject (the tuned model), B the reference (its base). */
export interface PairedCounts {
  bothRight: number;
  /** A right, B wrong: the questions A fixed. */
  onlyA: number;
  /** A wrong, B right: the questions A regressed. */
  onlyB: number;
  bothWrong: number;
}

export interface PairedDifference {
  /** accuracy of A minus accuracy of B */
  estimate: number;
  interval: Interval;
  verdict: Verdict;
}

function total(c: PairedCounts): number {
  return c.bothRight + c.onlyA + c.onlyB + c.bothWrong;
}

function usable(c: PairedCounts): boolean {
  return Object.values(c).every((v) => Number.isInteger(v) && v >= 0) && total(c) > 0;
}

/** Newcombe's method 10 for paired data; undefined when there are no pairs. */
export function pairedDifference(c: PairedCounts, z = Z_95): PairedDifference | undefined {
  if (!usable(c)) return undefined;
  const n = total(c);
  const rightA = c.bothRight + c.onlyA;
  const rightB = c.bothRight + c.onlyB;
  const a = wilsonInterval(rightA, n, z)!;
  const b = wilsonInterval(rightB, n, z)!;
  const pa = rightA / n;
  const pb = rightB / n;
  const estimate = pa - pb;
  // The pairs' correlation as the paper's method 10 takes it: the phi coefficient with its numerator AD − BC moved N/2
  // towards 0 when positive (0 within N/2), left as it is when negative; 0 when a margin is empty.
  const margins = rightA * (n - rightA) * rightB * (n - rightB);
  const cross = c.bothRight * c.bothWrong - c.onlyA * c.onlyB;
  const adjusted = cross > n / 2 ? cross - n / 2 : cross < 0 ? cross : 0;
  const phi = margins === 0 ? 0 : adjusted / Math.sqrt(margins);
  const dl = pa - a.lower;
  const ub = b.upper - pb;
  const ua = a.upper - pa;
  const lb = pb - b.lower;
  const lower = Math.max(-1, estimate - Math.sqrt(Math.max(0, dl * dl - 2 * phi * dl * ub + ub * ub)));
  const upper = Math.min(1, estimate + Math.sqrt(Math.max(0, ua * ua - 2 * phi * ua * lb + lb * lb)));
  return { estimate, interval: { lower, upper }, verdict: verdictOf({ lower, upper }) };
}

/**
 * Two-sided exact binomial test of `x` successes against `n - x` at one half: the probability of a split at least as
 * uneven as this one by chance. With the discordant pairs (fixed, regressed) it is McNemar's exact test; with a
 * judge's wins and losses (ties left out) it is the sign test. Summed in logarithms: 2^-n underflows past n = 1074.
 */
export function exactBinomialTwoSided(x: number, n: number): number {
  if (!Number.isInteger(x) || !Number.isInteger(n) || n < 0 || x < 0 || x > n) return Number.NaN;
  if (n === 0) return 1;
  const k = Math.min(x, n - x);
  if (2 * k === n) return 1;
  // log C(n, i) built term by term, each term of the tail summed relative to the largest (i = k) for precision.
  const logs: number[] = [];
  let logC = 0;
  for (let i = 0; i <= k; i++) {
    if (i > 0) logC += Math.log((n - i + 1) / i);
    logs.push(logC - n * Math.LN2);
  }
  const top = logs[logs.length - 1]!;
  const tail = Math.exp(top) * logs.reduce((sum, l) => sum + Math.exp(l - top), 0);
  return Math.min(1, 2 * tail);
}

/** McNemar's exact test on the discordant pairs: A fixed `onlyA`, regressed `onlyB`. */
export function mcnemarExact(c: Pick<PairedCounts, 'onlyA' | 'onlyB'>): number {
  return exactBinomialTwoSided(c.onlyA, c.onlyA + c.onlyB);
}

/** Φ⁻¹(0.80): the power a sample size is planned for. */
const Z_80 = 0.8416212335729143;

/**
 * How many questions a paired comparison needs to show a gain of `gain` (a difference of accuracies) at the 5 % level
 * with 80 % power, when a share `discordant` of the questions are answered right by one model only (Connor 1987,
 * "Sample size for testing differences in proportions for the paired-sample design", Biometrics 43:207-211:
 * n = (z_α/2·√ψ + z_β·√(ψ − δ²))² / δ²). Undefined when the figures cannot hold (the gain must be within the share).
 */
export function questionsToShow(gain: number, discordant: number): number | undefined {
  const d = Math.abs(gain);
  if (!(d > 0) || !(discordant > 0) || discordant > 1 || d > discordant) return undefined;
  const n = (Z_95 * Math.sqrt(discordant) + Z_80 * Math.sqrt(discordant - d * d)) ** 2 / (d * d);
  return Math.ceil(n);
}
