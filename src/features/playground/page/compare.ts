// The output area: one pane, or two side by side when comparing (two models, or one model with two settings). The two
// runs stream at the same time; each message finds its pane by runId, so their chunks never mix.
import type { RunSettings } from '../protocol';
import { h, show } from './dom';
import type { MarkdownRenderer } from './markdown';
import { OutputPane, type PaneEvents } from './output';
import type { PaneId, PaneState } from './webviewState';

export class OutputColumns {
  readonly element: HTMLElement;
  readonly a: OutputPane;
  readonly b: OutputPane;

  constructor(renderer: MarkdownRenderer, events: PaneEvents) {
    this.a = new OutputPane('a', renderer, events);
    this.b = new OutputPane('b', renderer, events);
    this.element = h('div', { class: 'outputs' }, this.a.element, this.b.element);
    this.setComparing(false);
  }

  get panes(): OutputPane[] {
    return [this.a, this.b];
  }

  setComparing(comparing: boolean): void {
    // A pane B that still shows a run stays visible until a single run replaces it.
    const showB = comparing || this.b.isRunning;
    show(this.b.element, showB);
    this.element.classList.toggle('side-by-side', showB);
  }

  paneFor(runId: string): OutputPane | undefined {
    return this.panes.find((p) => p.runId === runId);
  }

  get running(): OutputPane[] {
    return this.panes.filter((p) => p.isRunning);
  }

  /** Starts the plan's runs: A alone, or A and B together; returns the run ids to send. */
  start(plan: { a: RunSettings; b?: RunSettings }, newRunId: () => string): { runId: string; settings: RunSettings }[] {
    const runs: { runId: string; settings: RunSettings }[] = [];
    const a = newRunId();
    this.a.start(a, plan.a);
    runs.push({ runId: a, settings: plan.a });
    if (plan.b) {
      const b = newRunId();
      this.b.start(b, plan.b);
      runs.push({ runId: b, settings: plan.b });
    } else {
      this.b.clear();
    }
    this.setComparing(!!plan.b);
    return runs;
  }

  restore(panes: Record<PaneId, PaneState>, comparing: boolean): void {
    this.a.restore(panes.a);
    this.b.restore(panes.b);
    this.setComparing(comparing);
  }

  saved(): Record<PaneId, PaneState> {
    return { a: this.a.saved, b: this.b.saved };
  }
}
