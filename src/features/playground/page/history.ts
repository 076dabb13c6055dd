// The panel's past runs (kept in the page's state): show one again, re-run it, copy its answer, or export the whole
// session as a markdown file (the host asks where and writes it).
import { l10n } from '../../../l10n';
import type { ExportedRun } from '../protocol';
import { h, icon, setChildren, show } from './dom';
import { modelLabel } from './modelLabels';
import { formatMs } from './output';
import { HISTORY_LIMIT, HISTORY_OUTPUT_CHARS, historyAfter } from './webviewState';

export interface HistoryEvents {
  show(entry: ExportedRun): void;
  rerun(entry: ExportedRun): void;
  copy(text: string): void;
  export(entries: ExportedRun[]): void;
  changed(): void;
}

export class HistoryList {
  readonly element: HTMLElement;
  private entries: ExportedRun[] = [];
  private readonly list: HTMLUListElement;
  private readonly empty: HTMLElement;
  private readonly exportButton: HTMLButtonElement;
  private readonly clearButton: HTMLButtonElement;

  constructor(private readonly events: HistoryEvents) {
    const headingId = 'history-heading';
    this.list = h('ul', { role: 'list', class: 'history-list', 'aria-labelledby': headingId, 'data-testid': 'history' });
    this.empty = h('p', { class: 'hint' }, l10n.t('Runs of this panel appear here.'));
    this.exportButton = h('button', { type: 'button', 'data-testid': 'export-session' }, icon('export'), ' ', l10n.t('Export session…'));
    this.clearButton = h(
      'button',
      { type: 'button', class: 'secondary', 'data-testid': 'clear-history' },
      icon('clear-all'),
      ' ',
      l10n.t('Clear'),
    );
    this.element = h(
      'section',
      { class: 'history', 'aria-labelledby': headingId },
      h('header', { class: 'inline' }, h('h2', { id: headingId }, l10n.t('History')), this.exportButton, this.clearButton),
      this.empty,
      this.list,
    );
    this.exportButton.addEventListener('click', () => events.export([...this.entries].reverse()));
    this.clearButton.addEventListener('click', () => {
      this.entries = [];
      this.paint();
      events.changed();
    });
  }

  /** Newest first. */
  get saved(): ExportedRun[] {
    return this.entries;
  }

  /** Drops the runs that started at or before `clearedAt`; returns whether any went. */
  dropUntil(clearedAt: number | undefined): boolean {
    const kept = historyAfter(this.entries, clearedAt);
    if (kept.length === this.entries.length) return false;
    this.entries = kept;
    this.paint();
    return true;
  }

  restore(entries: ExportedRun[]): void {
    this.entries = entries.slice(0, HISTORY_LIMIT);
    this.paint();
  }

  add(entry: ExportedRun): void {
    const cut = (text: string) =>
      text.length > HISTORY_OUTPUT_CHARS
        ? `${text.slice(0, HISTORY_OUTPUT_CHARS)}\n\n_(${l10n.t('cut: the history keeps the first {0} characters', HISTORY_OUTPUT_CHARS.toLocaleString('en-US'))})_`
        : text;
    // The reasoning is kept apart from the answer: Copy answer copies the answer only.
    const kept: ExportedRun = { ...entry, output: cut(entry.output), ...(entry.reasoning ? { reasoning: cut(entry.reasoning) } : {}) };
    this.entries = [kept, ...this.entries.filter((e) => e.runId !== entry.runId)].slice(0, HISTORY_LIMIT);
    this.paint();
    this.events.changed();
  }

  private paint(): void {
    show(this.empty, this.entries.length === 0);
    this.exportButton.disabled = this.entries.length === 0;
    this.clearButton.disabled = this.entries.length === 0;
    setChildren(
      this.list,
      this.entries.map((entry) => this.item(entry)),
    );
  }

  private item(entry: ExportedRun): HTMLLIElement {
    const s = entry.settings;
    const when = new Date(entry.startedAt).toLocaleTimeString();
    const outcome = entry.outcome === 'done' ? [] : [entry.outcome === 'stopped' ? l10n.t('stopped') : l10n.t('failed')];
    const timing = entry.timing ? [formatMs(entry.timing.totalMs)] : [];
    const prompt = s.prompt.replace(/\s+/g, ' ').trim();
    const button = (label: string, iconName: string, testId: string, run: () => void) => {
      const b = h(
        'button',
        {
          type: 'button',
          class: 'icon-button',
          title: label,
          'aria-label': l10n.t('{0}: {1}, {2}', label, modelLabel(s.modelName), when),
          'data-testid': testId,
        },
        icon(iconName),
      );
      b.addEventListener('click', run);
      return b;
    };
    return h(
      'li',
      { role: 'listitem', class: `history-item ${entry.outcome}` },
      h(
        'div',
        { class: 'history-text' },
        h('span', { class: 'history-title' }, [modelLabel(s.modelName), when, ...outcome, ...timing].join(' · ')),
        h('span', { class: 'history-prompt', title: prompt.slice(0, 500) }, prompt.slice(0, 140)),
      ),
      h(
        'div',
        { class: 'history-actions' },
        button(l10n.t('Show'), 'eye', 'history-show', () => this.events.show(entry)),
        button(l10n.t('Re-run'), 'debug-rerun', 'history-rerun', () => this.events.rerun(entry)),
        button(l10n.t('Copy answer'), 'copy', 'history-copy', () => this.events.copy(entry.output)),
      ),
    );
  }
}
