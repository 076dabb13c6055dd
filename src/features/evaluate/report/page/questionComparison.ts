// A comparison on the person's own questions, in the report beside the service's evaluations: the findings in words,
// each model's accuracy with its Wilson interval, the buckets with the paired difference and its test, and the
// per-question table (question, expected, each model's answer with its reasoning folded and its verdict) with a
// labelled filter, "only where they differ". Every word of the questions and answers goes in as text (h()): the
// workspace's and the service's text is never parsed as HTML or markdown, and no link in it is live.
import { l10n } from '../../../../l10n';
import { h } from '../../../playground/page/dom';
import type { QuestionBucket, ReportQuestionAnswer, ReportQuestionComparison, ReportQuestionPair, ReportQuestionRow } from '../protocol';
import { percent, points } from './reportText';

/** The comparisons whose filter is on, by `filterKey`: kept across the host's re-renders. */
const differOnly = new Set<string>();

const filterKey = (c: ReportQuestionComparison): string => `${c.createdAt}|${c.setName}|${c.models.join('|')}`;

export function bucketWords(bucket: QuestionBucket): string {
  switch (bucket) {
    case 'fixed':
      return l10n.t('fixed');
    case 'regressed':
      return l10n.t('regressed');
    case 'bothRight':
      return l10n.t('both right');
    case 'bothWrong':
      return l10n.t('both wrong');
    case 'win':
      return l10n.t('win');
    case 'loss':
      return l10n.t('loss');
    case 'tie':
      return l10n.t('tie');
  }
}

export function pValueText(p: number): string {
  return p < 0.001 ? 'p < 0.001' : `p = ${p.toFixed(3)}`;
}

/** The section of one comparison; `rerender` draws the page again when the filter changes. */
export function questionComparisonSection(c: ReportQuestionComparison, rerender: () => void): HTMLElement {
  const subject = c.models[0] ?? '';
  const unfinished =
    (c.missing > 0 || c.failed > 0) &&
    h(
      'p',
      { class: 'warning', 'data-testid': 'question-unfinished' },
      l10n.t(
        'Not finished: {0} requests missing, {1} failed. Compare Models on Questions… resumes it or sends the failed ones again.',
        c.missing,
        c.failed,
      ),
    );
  const verdicts = c.pairs.map((p) =>
    h(
      'div',
      {
        class: `verdict ${p.verdict === 'better' ? 'better' : p.verdict === 'worse' ? 'worse' : 'unclear'}`,
        'data-testid': 'question-verdict',
      },
      h('p', {}, p.sentence),
    ),
  );
  return h(
    'section',
    { class: 'question-comparison', 'data-testid': 'question-comparison' },
    h('h2', { tabindex: '-1', 'data-testid': 'question-comparison-heading' }, l10n.t('On your questions: {0}', c.setName)),
    h(
      'p',
      { class: 'subtitle' },
      l10n.t(
        '{0} against {1}; {2}. Started {3}.',
        subject,
        c.models.slice(1).join(', '),
        c.scoring,
        new Date(c.createdAt).toLocaleString(),
      ),
    ),
    unfinished,
    ...verdicts,
    c.accuracies.length > 0 && accuracyTable(c),
    pairTable(c),
    questionTable(c, rerender),
  );
}

function accuracyTable(c: ReportQuestionComparison): HTMLTableElement {
  const head = [l10n.t('Model'), l10n.t('Accuracy'), l10n.t('95 % Wilson interval'), l10n.t('Right / scored')];
  return h(
    'table',
    { 'data-testid': 'question-accuracy' },
    h('caption', {}, l10n.t('Accuracy on {0}', c.setName)),
    h('thead', {}, h('tr', {}, ...head.map((t) => h('th', { scope: 'col' }, t)))),
    h(
      'tbody',
      {},
      c.accuracies.map((a) =>
        h(
          'tr',
          {},
          h('th', { scope: 'row' }, a.model),
          h('td', {}, a.scored > 0 ? percent(a.correct / a.scored) : l10n.t('none scored')),
          h(
            'td',
            {},
            a.lower === undefined || a.upper === undefined
              ? l10n.t('no interval')
              : l10n.t('{0} to {1}', percent(a.lower), percent(a.upper)),
          ),
          h('td', {}, `${a.correct} / ${a.scored}`),
        ),
      ),
    ),
  );
}

function pairTable(c: ReportQuestionComparison): HTMLTableElement {
  const buckets: QuestionBucket[] = c.pairwise ? ['win', 'loss', 'tie'] : ['fixed', 'regressed', 'bothRight', 'bothWrong'];
  const head = [
    l10n.t('Compared with'),
    ...buckets.map(bucketWords),
    ...(c.pairwise ? [] : [l10n.t('Difference'), l10n.t('95 % interval (Newcombe)')]),
    c.pairwise ? l10n.t('Sign test') : l10n.t('Exact McNemar'),
  ];
  const row = (p: ReportQuestionPair) =>
    h(
      'tr',
      { 'data-testid': 'question-pair' },
      h('th', { scope: 'row' }, p.other),
      ...buckets.map((b) => h('td', { 'data-testid': `question-bucket-${b}` }, String(p.buckets[b] ?? 0))),
      ...(c.pairwise
        ? []
        : [
            h('td', { 'data-testid': 'question-difference' }, p.estimate === undefined ? l10n.t('n/a') : points(p.estimate)),
            h(
              'td',
              { 'data-testid': 'question-interval' },
              p.lower === undefined || p.upper === undefined ? l10n.t('n/a') : l10n.t('{0} to {1}', points(p.lower), points(p.upper)),
            ),
          ]),
      h('td', { 'data-testid': 'question-p' }, p.p === undefined ? l10n.t('n/a') : pValueText(p.p)),
    );
  return h(
    'table',
    { 'data-testid': 'question-pairs' },
    h(
      'caption',
      {},
      c.pairwise
        ? l10n.t('{0} against each model: which answer the judge preferred', c.models[0] ?? '')
        : l10n.t('{0} against each model, question by question', c.models[0] ?? ''),
    ),
    h('thead', {}, h('tr', {}, ...head.map((t) => h('th', { scope: 'col' }, t)))),
    h('tbody', {}, c.pairs.map(row)),
  );
}

function questionTable(c: ReportQuestionComparison, rerender: () => void): HTMLElement {
  const key = filterKey(c);
  const only = differOnly.has(key);
  const differing = c.rows.filter((r) => r.differs).length;
  const rows = only ? c.rows.filter((r) => r.differs) : c.rows;
  const filter = h('input', { type: 'checkbox', 'data-testid': 'question-differ-filter' });
  filter.checked = only;
  filter.addEventListener('change', () => {
    if (filter.checked) differOnly.add(key);
    else differOnly.delete(key);
    rerender();
  });
  const head = [
    l10n.t('Line'),
    l10n.t('Question'),
    l10n.t('Expected'),
    ...c.models.map((m) => l10n.t('{0}: answer', m)),
    c.pairwise ? l10n.t('Judge') : l10n.t('Bucket'),
  ];
  const shown =
    c.rows.length < c.questions
      ? l10n.t(
          'Questions of {0}: {1} shown of the first {2} (of {3}; the export has them all)',
          c.setName,
          rows.length,
          c.rows.length,
          c.questions,
        )
      : l10n.t('Questions of {0}: {1} shown of {2}', c.setName, rows.length, c.rows.length);
  return h(
    'div',
    { class: 'question-rows' },
    h('label', { class: 'filter' }, filter, ' ', l10n.t('Only where they differ ({0} of {1} questions)', differing, c.rows.length)),
    h(
      'table',
      { class: 'questions', 'data-testid': 'question-table' },
      h('caption', {}, shown),
      h('thead', {}, h('tr', {}, ...head.map((t) => h('th', { scope: 'col' }, t)))),
      h(
        'tbody',
        {},
        rows.map((r) => questionRow(r)),
      ),
    ),
  );
}

function questionRow(r: ReportQuestionRow): HTMLTableRowElement {
  return h(
    'tr',
    { 'data-testid': 'question-row', class: r.differs ? 'differs' : undefined },
    h('td', {}, String(r.line)),
    h('th', { scope: 'row', class: 'text', 'data-testid': 'question-text' }, r.question),
    h('td', { class: 'text' }, r.expected ?? l10n.t('none given')),
    ...r.answers.map(answerCell),
    h('td', { 'data-testid': 'question-row-bucket' }, r.bucket === undefined ? l10n.t('not scored') : bucketWords(r.bucket)),
  );
}

function answerCell(a: ReportQuestionAnswer): HTMLTableCellElement {
  const verdict =
    a.error !== undefined
      ? h('span', { class: 'answer-verdict failed' }, l10n.t('failed'))
      : a.right === undefined
        ? undefined
        : h('span', { class: `answer-verdict ${a.right ? 'right' : 'wrong'}` }, a.right ? l10n.t('right') : l10n.t('wrong'));
  return h(
    'td',
    { class: 'text', 'data-testid': 'question-answer' },
    verdict,
    a.error !== undefined && h('div', { class: 'answer-error' }, a.error),
    a.text !== undefined
      ? h('div', { class: 'answer-text', 'data-testid': 'question-answer-text' }, a.text)
      : a.error === undefined && h('div', { class: 'note' }, l10n.t('no answer yet')),
    a.reasoning !== undefined &&
      h(
        'details',
        { class: 'reasoning' },
        h('summary', { 'data-testid': 'question-reasoning' }, l10n.t('Reasoning of {0}', a.model)),
        h('div', { class: 'reasoning-text', 'data-testid': 'question-reasoning-text' }, a.reasoning),
      ),
  );
}
