// What a comparison found, from its spec and log alone (the same after a reload, and testable without vscode): each
// question with every model's answer and verdict, each model's accuracy with its Wilson interval, and the subject (the
// tuned model, first) against each other model: the buckets, the paired difference with Newcombe's interval and the
// exact McNemar test, or, for a pairwise judge, wins, losses and ties with the sign test. Nothing here is shown as
// markup: the report's page writes these strings as text.
import { l10n } from '../../../l10n';
import { wilsonInterval, type Interval, type Verdict } from '../statistics';
import { answerMatches } from './answerMatch';
import { entryKey, type ComparisonSpec, type Entry } from './comparisonLog';
import { pairOutcome, readJudgeVerdict, readPairVerdict, type Outcome } from './judging';
import { exactBinomialTwoSided, mcnemarExact, pairedDifference, questionsToShow, type PairedCounts } from './pairedStatistics';

export interface ModelAnswer {
  model: string;
  text?: string;
  reasoning?: string;
  /** The service's words when the answer (or its judging) failed. */
  error?: string;
  /** Right or wrong; undefined when unscored (no expected answer, not judged yet, or failed). */
  right?: boolean;
}

export type Bucket = 'fixed' | 'regressed' | 'bothRight' | 'bothWrong' | 'win' | 'loss' | 'tie';

export interface QuestionRow {
  item: number;
  line: number;
  question: string;
  expected?: string;
  answers: ModelAnswer[];
  /** The subject against the first other model (the base): undefined until both are scored. */
  bucket?: Bucket;
}

export interface ModelAccuracy {
  model: string;
  correct: number;
  scored: number;
  interval?: Interval;
}

export interface PairResult {
  subject: string;
  other: string;
  /** fixed/regressed/bothRight/bothWrong, or win/loss/tie. */
  buckets: Partial<Record<Bucket, number>>;
  /** Questions scored for both. */
  n: number;
  estimate?: number;
  interval?: Interval;
  verdict?: Verdict;
  p?: number;
  /** When no clear difference: questions that would show `gain` (the difference seen, or 5 points). */
  needed?: { gain: number; questions: number };
  /** The whole finding in words. */
  sentence: string;
}

export interface ComparisonSummary {
  rows: QuestionRow[];
  accuracies: ModelAccuracy[];
  pairs: PairResult[];
  /** Requests not done yet (Resume sends them) and failed (kept; retried on request). */
  missing: number;
  failed: number;
}

export function formatP(p: number): string {
  return p < 0.001 ? 'p < 0.001' : `p = ${p.toFixed(3)}`;
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

export function summarize(spec: ComparisonSpec, entries: ReadonlyMap<string, Entry>): ComparisonSummary {
  const get = (k: Pick<Entry, 'kind' | 'item' | 'model' | 'order'>) => entries.get(entryKey(k));
  let missing = 0;
  let failed = 0;
  const count = (e: Entry | undefined) => {
    if (!e) missing++;
    else if (e.error !== undefined) failed++;
  };
  const [subject, ...others] = spec.models;
  const outcomes = new Map<string, Outcome[]>(); // per other model, per item
  const rows: QuestionRow[] = spec.items.map((item, i) => {
    const answers = spec.models.map((model): ModelAnswer => {
      const a = get({ kind: 'answer', item: i, model });
      count(a);
      const out: ModelAnswer = { model, ...(a?.text !== undefined && { text: a.text }), ...(a?.reasoning && { reasoning: a.reasoning }) };
      if (a?.error !== undefined) return { ...out, error: a.error };
      if (a?.text === undefined || item.expected === undefined) return out;
      if (spec.scoring === 'exact' || spec.scoring === 'normalized') {
        return { ...out, right: answerMatches(a.text, item.expected, spec.scoring) };
      }
      if (spec.scoring === 'judge') {
        const j = get({ kind: 'judge', item: i, model });
        count(j);
        if (j?.error !== undefined) return { ...out, error: l10n.t('The judge failed: {0}', j.error) };
        const right = j?.text === undefined ? undefined : readJudgeVerdict(j.text);
        return right === undefined ? (j ? { ...out, error: l10n.t('The judge gave no verdict.') } : out) : { ...out, right };
      }
      return out;
    });
    const row: QuestionRow = {
      item: i,
      line: item.line,
      question: item.question,
      ...(item.expected !== undefined && { expected: item.expected }),
      answers,
    };
    if (spec.scoring === 'pairwise') {
      others.forEach((other, k) => {
        const first = get({ kind: 'judge', item: i, model: other, order: 'first' });
        const second = get({ kind: 'judge', item: i, model: other, order: 'second' });
        count(first);
        count(second);
        const v1 = first?.text === undefined ? undefined : readPairVerdict(first.text);
        const v2 = second?.text === undefined ? undefined : readPairVerdict(second.text);
        if (v1 === undefined || v2 === undefined) return;
        const outcome = pairOutcome(v1, v2);
        const list = outcomes.get(other) ?? [];
        list[i] = outcome;
        outcomes.set(other, list);
        if (k === 0) row.bucket = outcome;
      });
    } else if (answers[0]?.right !== undefined && answers[1]?.right !== undefined) {
      row.bucket = bucketOf(answers[0].right, answers[1].right);
    }
    return row;
  });
  const accuracies =
    spec.scoring === 'pairwise'
      ? []
      : spec.models.map((model, m) =>
          accuracyOf(
            model,
            rows.map((r) => r.answers[m]!.right),
          ),
        );
  const pairs = others.map((other, k) =>
    spec.scoring === 'pairwise'
      ? pairwiseResult(subject!, other, outcomes.get(other) ?? [])
      : pairedResult(
          subject!,
          other,
          rows.map((r) => [r.answers[0]!.right, r.answers[k + 1]!.right] as const),
        ),
  );
  return { rows, accuracies, pairs, missing, failed };
}

function bucketOf(subjectRight: boolean, otherRight: boolean): Bucket {
  if (subjectRight) return otherRight ? 'bothRight' : 'fixed';
  return otherRight ? 'regressed' : 'bothWrong';
}

function accuracyOf(model: string, verdicts: readonly (boolean | undefined)[]): ModelAccuracy {
  const scored = verdicts.filter((v) => v !== undefined).length;
  const correct = verdicts.filter((v) => v === true).length;
  const interval = wilsonInterval(correct, scored);
  return { model, correct, scored, ...(interval && { interval }) };
}

function pairedResult(subject: string, other: string, pairs: readonly (readonly [boolean | undefined, boolean | undefined])[]): PairResult {
  const counts: PairedCounts = { bothRight: 0, onlyA: 0, onlyB: 0, bothWrong: 0 };
  for (const [a, b] of pairs) {
    if (a === undefined || b === undefined) continue;
    if (a && b) counts.bothRight++;
    else if (a) counts.onlyA++;
    else if (b) counts.onlyB++;
    else counts.bothWrong++;
  }
  const n = counts.bothRight + counts.onlyA + counts.onlyB + counts.bothWrong;
  const buckets = { fixed: counts.onlyA, regressed: counts.onlyB, bothRight: counts.bothRight, bothWrong: counts.bothWrong };
  const d = pairedDifference(counts);
  if (!d) return { subject, other, buckets, n, sentence: l10n.t('No question is scored for both {0} and {1} yet.', subject, other) };
  const p = mcnemarExact(counts);
  let sentence = l10n.t(
    '{0} fixed {1} and regressed {2} of {3} against {4}; a difference this large by chance: {5}. Accuracy difference {6} (95% interval {7} to {8}): {9}.',
    subject,
    counts.onlyA,
    counts.onlyB,
    n,
    other,
    formatP(p),
    signedPct(d.estimate),
    signedPct(d.interval.lower),
    signedPct(d.interval.upper),
    verdictWords(d.verdict),
  );
  const needed =
    d.verdict === 'no clear difference at this sample size' ? neededFor(d.estimate, (counts.onlyA + counts.onlyB) / n) : undefined;
  if (needed) {
    sentence +=
      ' ' +
      l10n.t('To show a gain of {0} with this share of disagreements would take about {1} questions.', pct(needed.gain), needed.questions);
  }
  return {
    subject,
    other,
    buckets,
    n,
    estimate: d.estimate,
    interval: d.interval,
    verdict: d.verdict,
    p,
    ...(needed && { needed }),
    sentence,
  };
}

function pairwiseResult(subject: string, other: string, outcomes: readonly (Outcome | undefined)[]): PairResult {
  const win = outcomes.filter((o) => o === 'win').length;
  const loss = outcomes.filter((o) => o === 'loss').length;
  const tie = outcomes.filter((o) => o === 'tie').length;
  const n = win + loss + tie;
  if (n === 0) {
    return {
      subject,
      other,
      buckets: { win, loss, tie },
      n,
      sentence: l10n.t('No question is judged for both {0} and {1} yet.', subject, other),
    };
  }
  const p = exactBinomialTwoSided(win, win + loss);
  const sentence = l10n.t(
    'The judge preferred {0} on {1} and {2} on {3} of {4} questions ({5} ties, or split when the answers changed places); a difference this large by chance: {6}.',
    subject,
    win,
    other,
    loss,
    n,
    tie,
    formatP(p),
  );
  return { subject, other, buckets: { win, loss, tie }, n, p, sentence };
}

/** The questions that would show the gain seen (or 5 points when none was seen), at this share of disagreements. */
function neededFor(estimate: number, discordant: number): { gain: number; questions: number } | undefined {
  const gain = Math.abs(estimate) >= 0.01 ? Math.abs(estimate) : 0.05;
  const questions = questionsToShow(gain, Math.max(discordant, gain));
  return questions === undefined ? undefined : { gain, questions };
}

function signedPct(x: number): string {
  return `${x > 0 ? '+' : ''}${(x * 100).toFixed(1)} pts`;
}

function verdictWords(v: Verdict): string {
  return v === 'better' ? l10n.t('better') : v === 'worse' ? l10n.t('worse') : l10n.t('no clear difference at this sample size');
}
