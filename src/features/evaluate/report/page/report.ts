// The evaluation report page: renders the view-model the host posts, and sends back only what the person asked for
// (evaluate the base on a row, add a model, export). Every string goes in as text (the h() builder and textContent);
// service text is never parsed as HTML. The host re-posts the whole view whenever a job changes.
// First: the host's translations are installed before any module writes a word.
import '../../../playground/page/l10nStart';
import {
  isHostReportMessage,
  lineageTime,
  type ReportDataset,
  type ReportLineage,
  type ReportModelColumn,
  type ReportPanelState,
  type ReportToHost,
  type ReportView,
} from '../protocol';
import { h, setChildren, vscodeApi } from '../../../playground/page/dom';
import { returnFocusAfterDialogs } from '../../../playground/page/focusReturn';
import { announcer } from '../../../playground/page/announcer';
import { formatBytes } from '../../../../util/byteSize';
import { l10n } from '../../../../l10n';
import { chart, swatch } from './chart';
import { droppedNote, intervalText, judgeWarning, percent, verdictSentence } from './reportText';
import { questionComparisonSection } from './questionComparison';

const { post, saveState } = vscodeApi<ReportToHost, ReportPanelState>();
const roleWords = (role: ReportModelColumn['role']): string =>
  role === 'model' ? l10n.t('this model') : role === 'base' ? l10n.t('base') : l10n.t('added');

const app = document.getElementById('app')!;
const focusReturn = returnFocusAfterDialogs();
const announce = announcer('announcement');
/** The verdicts the page showed last: one that comes later (the base evaluated, a model added) is read out. */
let shownVerdicts: Set<string> | undefined;
/** The view shown, drawn again when a control of the page itself changes what is shown (a filter). */
let shownView: ReportView | undefined;

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  if (!isHostReportMessage(event.data)) return;
  const view = event.data.view;
  saveState({ modelName: view.modelName, addedModels: view.addedModels });
  render(view);
});

function render(view: ReportView): void {
  shownView = view;
  const header = h(
    'header',
    {},
    h('h1', {}, l10n.t('Evaluation report: {0}', view.modelName)),
    h(
      'p',
      { class: 'subtitle' },
      view.baseModel !== undefined
        ? l10n.t("Base model: {0}. Accuracies with their 95 % Wilson interval; differences with Newcombe's interval.", view.baseModel)
        : l10n.t('No base model is known for this model. Accuracies with their 95 % Wilson interval.'),
    ),
  );
  const note = droppedNote(view.dropped);
  const actions = h(
    'div',
    { class: 'actions' },
    button(l10n.t('Add a model…'), 'add-model', () => post({ type: 'addModel' })),
    button(l10n.t('Export Markdown'), 'export-markdown', () => post({ type: 'export', format: 'markdown' }), 'secondary'),
    button(l10n.t('Export CSV'), 'export-csv', () => post({ type: 'export', format: 'csv' }), 'secondary'),
  );
  const body: Node[] = [header, origin(view.lineage), actions];
  if (note) body.push(h('p', { class: 'note', 'data-testid': 'dropped' }, note));
  if (view.datasets.length === 0) {
    body.push(h('p', {}, l10n.t('No finished evaluations of {0} yet. Evaluate it from the Models view.', view.modelName)));
  } else {
    body.push(h('figure', {}, chart(view), legend(view)));
    for (const dataset of view.datasets) body.push(section(view, dataset));
  }
  for (const c of view.questionComparisons) body.push(questionComparisonSection(c, () => shownView && render(shownView)));
  const focus = focusedPlace();
  setChildren(app, body);
  restoreFocus(focus);
  announceNewVerdicts(view);
}

function announceNewVerdicts(view: ReportView): void {
  const verdicts = view.datasets.flatMap((d) => d.comparisons.map((c) => `${d.datasetName}: ${verdictSentence(view.modelName, c)}`));
  const fresh = shownVerdicts ? verdicts.filter((v) => !shownVerdicts?.has(v)) : [];
  shownVerdicts = new Set(verdicts);
  if (fresh.length > 0) announce(fresh.join(' '));
}

/** Where the focus is, by what survives a render: the control's test id and rank, and the dataset section it is in. */
interface FocusPlace {
  testId: string | undefined;
  nth: number;
  section: number;
}

function focusedPlace(): FocusPlace | undefined {
  // While a dialog has the focus (a picker opened here), the control that opened it is the one the focus comes back to.
  // So too when the page has the focus but not yet that control: the focus came back from a dialog to the body, and
  // focusReturn puts it on the control a moment later; a render in between replaced that control, and the focus
  // stayed on the body (the page is given the focus, then a view arrives before focusReturn's turn).
  const focused = document.activeElement;
  const onControl = document.hasFocus() && focused instanceof HTMLElement && app.contains(focused);
  const active = onControl ? focused : (focusReturn.last() ?? focused);
  if (!(active instanceof HTMLElement) || !app.contains(active)) return undefined;
  const testId = active.dataset.testid;
  const same = testId === undefined ? [] : Array.from(app.querySelectorAll(`[data-testid="${testId}"]`));
  const sections = Array.from(app.querySelectorAll('[data-testid="dataset"]'));
  const section = sections.findIndex((s) => s.contains(active));
  return { testId, nth: same.indexOf(active), section };
}

/**
 * Every view re-renders the page, which would drop the focus to the body: it goes back to the same control, or, when
 * that is gone (Evaluate base, once the evaluation started), to its dataset's heading. While a dialog has the focus
 * (a job ended while a picker is open), that control is where the focus returns when the dialog closes.
 */
function restoreFocus(place: FocusPlace | undefined): void {
  if (!place) return;
  const same = place.testId === undefined ? undefined : app.querySelectorAll<HTMLElement>(`[data-testid="${place.testId}"]`)[place.nth];
  const target = same ?? app.querySelectorAll<HTMLElement>('[data-testid="dataset-heading"]')[place.section];
  if (!target) return;
  if (document.hasFocus()) target.focus();
  else focusReturn.returnTo(target);
}

/** "Where it came from": the finetune here that created the model, or one quiet line when none recorded it. */
function origin(lineage: ReportLineage | undefined): HTMLElement {
  if (!lineage) {
    return h(
      'p',
      { class: 'note', 'data-testid': 'no-lineage' },
      l10n.t('No lineage was recorded here for this model (it was not created by this extension).'),
    );
  }
  const facts: [string, string][] = [
    [l10n.t('Base model'), lineage.baseModel],
    [l10n.t('Questions'), l10n.t('{0} · mode {1}', lineage.numQs, lineage.mode)],
    ...(lineage.useCase ? [[l10n.t('Use case'), lineage.useCase] as [string, string]] : []),
    [l10n.t('Finetune job'), lineage.jobId],
    [l10n.t('Started'), lineageTime(lineage.startedAt)],
    ...(lineage.finishedAt !== undefined ? [[l10n.t('Ended'), lineageTime(lineage.finishedAt)] as [string, string]] : []),
  ];
  const files = h(
    'table',
    { class: 'lineage-files' },
    h('caption', {}, l10n.t('Source files ({0})', lineage.files.length)),
    h('thead', {}, h('tr', {}, ...[l10n.t('File'), l10n.t('Size'), 'SHA-256'].map((t) => h('th', { scope: 'col' }, t)))),
    h(
      'tbody',
      {},
      ...lineage.files.map((f) =>
        h(
          'tr',
          {},
          h('th', { scope: 'row' }, f.name),
          h('td', {}, formatBytes(f.size)),
          h('td', { class: 'hash' }, f.sha256 ?? l10n.t('not recorded')),
        ),
      ),
    ),
  );
  return h(
    'section',
    { class: 'lineage', 'data-testid': 'lineage' },
    h('h2', {}, l10n.t('Where it came from')),
    h('dl', {}, ...facts.flatMap(([term, value]) => [h('dt', {}, term), h('dd', {}, value)])),
    files,
  );
}

function legend(view: ReportView): HTMLElement {
  const names = [
    { name: view.modelName, role: 'model' as const },
    ...(view.baseModel !== undefined ? [{ name: view.baseModel, role: 'base' as const }] : []),
    ...view.addedModels.map((name) => ({ name, role: 'added' as const })),
  ];
  return h('figcaption', { class: 'legend' }, ...names.map((n) => h('span', { class: 'legend-item' }, swatch(n.role), n.name)));
}

function section(view: ReportView, dataset: ReportDataset): HTMLElement {
  const verdicts = dataset.comparisons.map((c) => {
    const warning = judgeWarning(dataset, c);
    return h(
      'div',
      { class: `verdict ${c.verdict === 'better' ? 'better' : c.verdict === 'worse' ? 'worse' : 'unclear'}`, 'data-testid': 'verdict' },
      h('p', {}, verdictSentence(view.modelName, c)),
      warning !== undefined && h('p', { class: 'warning', role: 'note' }, warning),
    );
  });
  const running = dataset.columns
    .filter((c) => c.running)
    .map((c) => h('p', { class: 'running' }, l10n.t('Evaluating {0} on this dataset…', c.name)));
  const evaluateBase =
    dataset.canEvaluateBase &&
    view.baseModel !== undefined &&
    h(
      'p',
      {},
      l10n.t('{0} has no result on this dataset yet.', view.baseModel) + ' ',
      button(l10n.t('Evaluate base on this dataset'), 'evaluate-base', () => post({ type: 'evaluateBase', datasetId: dataset.id })),
    );
  return h(
    'section',
    { 'data-testid': 'dataset' },
    h('h2', { tabindex: '-1', 'data-testid': 'dataset-heading' }, dataset.datasetName),
    ...verdicts,
    ...running,
    evaluateBase,
    table(dataset),
  );
}

function table(dataset: ReportDataset): HTMLTableElement {
  const head = h(
    'thead',
    {},
    h(
      'tr',
      {},
      ...[
        l10n.t('Model'),
        l10n.t('Role'),
        l10n.t('Accuracy'),
        l10n.t('95 % interval'),
        l10n.t('Correct / total'),
        l10n.t('Judge'),
        l10n.t('Finished'),
      ].map((t) => h('th', { scope: 'col' }, t)),
    ),
  );
  const rows = dataset.columns.flatMap((column) =>
    column.evaluations.map((e, i) =>
      h(
        'tr',
        { class: i === 0 ? 'latest' : 'older' },
        h('th', { scope: 'row' }, column.name),
        h('td', {}, roleWords(column.role)),
        h('td', {}, percent(e.accuracy)),
        h('td', {}, intervalText(e)),
        h('td', {}, `${e.correct} / ${e.total}`),
        h('td', {}, e.judgeModel ?? l10n.t('not said')),
        h('td', {}, new Date(e.at).toLocaleString()),
      ),
    ),
  );
  const empty = dataset.columns
    .filter((c) => c.evaluations.length === 0)
    .map((c) =>
      h(
        'tr',
        { class: 'missing' },
        h('th', { scope: 'row' }, c.name),
        h('td', {}, roleWords(c.role)),
        h('td', { colspan: '5' }, c.running ? l10n.t('evaluating…') : l10n.t('no result')),
      ),
    );
  return h('table', {}, h('caption', {}, l10n.t('Evaluations on {0}', dataset.datasetName)), head, h('tbody', {}, rows, empty));
}

function button(label: string, testId: string, onClick: () => void, kind: 'primary' | 'secondary' = 'primary'): HTMLButtonElement {
  const b = h('button', { type: 'button', 'data-testid': testId, ...(kind === 'secondary' && { class: 'secondary' }) }, label);
  b.addEventListener('click', onClick);
  return b;
}

post({ type: 'ready' });
