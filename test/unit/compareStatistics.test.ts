// The comparison's paired statistics against published values (sources named at each), and against the same figures
// found another way (a binomial tail summed in plain arithmetic where it does not underflow).
import { strict as assert } from 'node:assert';
import {
  exactBinomialTwoSided,
  mcnemarExact,
  pairedDifference,
  questionsToShow,
} from '../../src/features/evaluate/compare/pairedStatistics';

const round = (x: number | undefined, digits = 4) => x?.toFixed(digits);

/** The two-sided binomial tail at one half in plain arithmetic (exact enough for n ≤ 60). */
function tailDirect(x: number, n: number): number {
  const k = Math.min(x, n - x);
  if (2 * k === n) return 1;
  let c = 1;
  let sum = 0;
  for (let i = 0; i <= k; i++) {
    if (i > 0) c = (c * (n - i + 1)) / i;
    sum += c;
  }
  return Math.min(1, (2 * sum) / 2 ** n);
}

describe('compare: Newcombe interval for a paired difference (method 10)', () => {
  // Fagerland MW, Lydersen S, Laake P (2017), Statistical Analysis of Contingency Tables, chapter 8 ("The paired 2x2
  // table"), the Cavo et al. (2012) example, Newcombe square-and-add interval: −0.0621 (95 % CI −0.1186 to −0.0046), as
  // the book's companion R package (contingencytables, tests/testthat/test-ch8.R) checks it.
  it('matches Fagerland et al. 2017, chapter 8, Cavo et al. 2012: −0.0621 (−0.1186 to −0.0046)', () => {
    const d = pairedDifference({ bothRight: 59, onlyA: 6, onlyB: 16, bothWrong: 80 });
    assert.equal(round(d?.estimate), '-0.0621');
    assert.equal(round(d?.interval.lower), '-0.1186');
    assert.equal(round(d?.interval.upper), '-0.0046');
    assert.equal(d?.verdict, 'worse');
  });

  it('is the mirror image when the models change places, and stays within [−1, 1] at the extremes', () => {
    const ab = pairedDifference({ bothRight: 59, onlyA: 6, onlyB: 16, bothWrong: 80 })!;
    const ba = pairedDifference({ bothRight: 59, onlyA: 16, onlyB: 6, bothWrong: 80 })!;
    assert.equal(round(ba.interval.lower, 10), round(-ab.interval.upper, 10));
    assert.equal(round(ba.interval.upper, 10), round(-ab.interval.lower, 10));
    const all = pairedDifference({ bothRight: 0, onlyA: 10, onlyB: 0, bothWrong: 0 })!;
    assert.equal(all.estimate, 1);
    assert.ok(all.interval.lower > 0 && all.interval.upper === 1, JSON.stringify(all));
    const same = pairedDifference({ bothRight: 30, onlyA: 0, onlyB: 0, bothWrong: 20 })!;
    assert.equal(same.estimate, 0);
    assert.equal(same.verdict, 'no clear difference at this sample size');
  });

  it('gives no interval for no pairs or counts that cannot be', () => {
    assert.equal(pairedDifference({ bothRight: 0, onlyA: 0, onlyB: 0, bothWrong: 0 }), undefined);
    assert.equal(pairedDifference({ bothRight: -1, onlyA: 2, onlyB: 0, bothWrong: 0 }), undefined);
    assert.equal(pairedDifference({ bothRight: 1.5, onlyA: 2, onlyB: 0, bothWrong: 0 }), undefined);
  });
});

describe('compare: exact McNemar and sign test', () => {
  // Fagerland MW, Lydersen S, Laake P (2013), "The McNemar test for binary matched-pairs data: mid-p and asymptotic
  // are better than exact conditional", BMC Medical Research Methodology 13:91, the Bentur et al. (2009) example
  // (1 and 7 discordant pairs): exact conditional P = 0.070; and the same authors' book (2017, chapter 8), Cavo et al.
  // (2012) (6 and 16): P = 0.052.
  it('matches Fagerland et al.: Bentur et al. 2009 P = 0.070, Cavo et al. 2012 P = 0.052', () => {
    assert.equal(round(mcnemarExact({ onlyA: 1, onlyB: 7 }), 3), '0.070');
    assert.equal(round(mcnemarExact({ onlyA: 6, onlyB: 16 }), 3), '0.052');
  });

  it('says the issue’s example as written: fixed 14, regressed 3 gives p = 0.013', () => {
    assert.equal(round(mcnemarExact({ onlyA: 14, onlyB: 3 }), 3), '0.013');
    assert.equal(mcnemarExact({ onlyA: 14, onlyB: 3 }), mcnemarExact({ onlyA: 3, onlyB: 14 }));
  });

  it('agrees with the tail summed directly, and stays finite where 2^-n underflows', () => {
    for (let n = 0; n <= 60; n += 7) {
      for (let x = 0; x <= n; x += 3) assert.equal(round(exactBinomialTwoSided(x, n), 12), round(tailDirect(x, n), 12), `${x}/${n}`);
    }
    const big = exactBinomialTwoSided(4_900, 10_000);
    assert.ok(big > 0.04 && big < 0.05, String(big)); // z = 2.0 on 10,000 coins: about 0.0455
    assert.equal(exactBinomialTwoSided(5_000, 10_000), 1);
    assert.ok(exactBinomialTwoSided(0, 5_000) === 0 || exactBinomialTwoSided(0, 5_000) < 1e-300);
    assert.ok(Number.isNaN(exactBinomialTwoSided(3, 2)));
  });
});

describe('compare: how many questions would show a gain', () => {
  // Connor RJ (1987), Biometrics 43:207-211, n = (z_α/2·√ψ + z_β·√(ψ − δ²))² / δ², worked here by hand for ψ = 0.2,
  // δ = 0.1: (1.95996·0.44721 + 0.84162·0.43589)² / 0.01 = (0.87652 + 0.36686)² / 0.01 = 154.6 → 155.
  it('is Connor’s formula: 155 questions for a 10-point gain with 20 % discordant', () => {
    assert.equal(questionsToShow(0.1, 0.2), 155);
    assert.equal(questionsToShow(-0.1, 0.2), 155);
    assert.ok(questionsToShow(0.05, 0.2)! > questionsToShow(0.1, 0.2)!);
  });

  it('says nothing for figures that cannot hold', () => {
    assert.equal(questionsToShow(0, 0.2), undefined);
    assert.equal(questionsToShow(0.3, 0.2), undefined);
    assert.equal(questionsToShow(0.1, 0), undefined);
  });
});
