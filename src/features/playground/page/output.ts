// One output pane: a run's text rendered as markdown as it arrives (at most once per animation frame), its status
// for screen readers, time to first token / total time / size, auto-scroll that yields to a person scrolling up,
// code-block and whole-answer copy, link clicks handed to the host, and the error with Retry. The model's reasoning
// goes to a collapsible Thinking section above the answer (open while it thinks, closed once the answer starts, with
// thinking time and length); while nothing has come the pane says it is thinking or waiting, with the time so far.
import { l10n } from '../../../l10n';
import { serviceWaitText } from '../../../util/serviceWaitText';
import { playgroundObserver } from '../latencyObserver';
import {
  isLocalModelId,
  type DoneMessage,
  type ErrorFix,
  type ErrorMessage,
  type ExportedRun,
  type RunSettings,
  type RunSnapshot,
} from '../protocol';
import { h, icon, show } from './dom';
import { fixLabel } from './knobs';
import { IncrementalMarkdown, type MarkdownRenderer } from './markdown';
import { modelLabel } from './modelLabels';
import { emptyPane, type PaneId, type PaneState } from './webviewState';

export interface PaneEvents {
  retry(pane: OutputPane): void;
  copy(text: string): void;
  openLink(url: string): void;
  fix(fix: ErrorFix): void;
  /** The pane's state changed (save it soon). */
  changed(): void;
}

/** Within this many pixels of the end counts as "at the bottom" (sub-pixel layouts rarely land on 0). */
const BOTTOM_SLACK_PX = 24;

/** The status line of a pane, in the page's language. */
function statusText(status: PaneState['status']): string {
  const texts: Record<PaneState['status'], string> = {
    idle: l10n.t('Ready.'),
    running: l10n.t('Streaming…'),
    done: l10n.t('Done.'),
    stopped: l10n.t('Stopped.'),
    error: l10n.t('Failed.'),
  };
  return texts[status];
}

export class OutputPane {
  readonly element: HTMLElement;
  private state: PaneState = emptyPane();
  private readonly title: HTMLElement;
  private readonly summary: HTMLElement;
  private readonly status: HTMLElement;
  private readonly ttft: HTMLElement;
  private readonly total: HTMLElement;
  private readonly size: HTMLElement;
  private readonly body: HTMLElement;
  private readonly errorBox: HTMLElement;
  private readonly copyAll: HTMLButtonElement;
  /** Choose How to Read… for the answer shown: how the service's answer was read, one pick from right. */
  private readonly chooseReading: HTMLButtonElement;
  private readonly elapsed: HTMLElement;
  private readonly thinking: HTMLDetailsElement;
  private readonly thinkingSummary: HTMLElement;
  private readonly thinkingBody: HTMLElement;
  /** Characters of reasoning already rendered in thinkingBody. */
  private shownReasoning = 0;
  /** The reasoning is markdown as the answer is, rendered the same safe way and as incrementally. */
  private readonly thinkingMarkdown: IncrementalMarkdown;
  /** thinkingBody's first this many child nodes are finished blocks of the reasoning. */
  private thinkingFinishedNodes = 0;
  private clock: ReturnType<typeof setInterval> | undefined;
  /** What the pane last set the section's `open` to: a toggle to anything else is the person's. */
  private autoOpen: boolean | undefined;
  private following = true;
  private frame: number | undefined;
  private readonly markdown: IncrementalMarkdown;
  /** The body's first this many child nodes are finished blocks: rendered once, kept as they are. */
  private finishedNodes = 0;

  constructor(
    readonly id: PaneId,
    renderer: MarkdownRenderer,
    private readonly events: PaneEvents,
  ) {
    this.markdown = new IncrementalMarkdown(renderer);
    this.thinkingMarkdown = new IncrementalMarkdown(renderer);
    const tid = (name: string) => (id === 'a' ? name : `${name}-${id}`);
    this.title = h('h2', { class: 'pane-title' });
    this.summary = h('span', { class: 'pane-summary' });
    this.copyAll = h(
      'button',
      {
        type: 'button',
        class: 'icon-button',
        title: l10n.t('Copy the answer (markdown)'),
        'aria-label': l10n.t('Copy the answer'),
        'data-testid': tid('copy-output'),
      },
      icon('copy'),
    );
    this.chooseReading = h(
      'button',
      {
        type: 'button',
        class: 'icon-button',
        title: l10n.t('Choose How to Read… the service’s answer'),
        'aria-label': l10n.t('Choose How to Read…'),
        'data-testid': tid('choose-reading'),
      },
      icon('symbol-field'),
    );
    this.status = h('span', { class: 'status', role: 'status', 'aria-live': 'polite', 'data-testid': tid('status') });
    this.ttft = h('span', { class: 'metric', title: l10n.t('Time to first token'), 'data-testid': tid('ttft') });
    this.total = h('span', { class: 'metric', title: l10n.t('Total time'), 'data-testid': tid('total') });
    this.size = h('span', { class: 'metric', title: l10n.t('Output size'), 'data-testid': tid('size') });
    this.body = h('div', {
      class: 'markdown-body',
      tabindex: '0',
      role: 'region',
      'aria-label': l10n.t('Answer'),
      'data-testid': tid('output'),
    });
    this.errorBox = h('div', { class: 'error-box', role: 'alert', 'data-testid': tid('error'), hidden: true });
    // Not a live region: a clock read out every second would drown the status.
    this.elapsed = h('span', { class: 'metric elapsed', 'data-testid': tid('elapsed') });
    this.thinkingSummary = h('summary', { class: 'thinking-summary', 'data-testid': tid('thinking-summary') });
    this.thinkingBody = h('div', {
      class: 'thinking-body',
      tabindex: '0',
      role: 'region',
      'aria-label': l10n.t('Thinking'),
      'data-testid': tid('thinking'),
    });
    this.thinking = h('details', { class: 'thinking', hidden: true }, this.thinkingSummary, this.thinkingBody);
    this.thinking.addEventListener('toggle', () => {
      // 'toggle' comes after the change, as a task: the pane's own changes are told apart by their value.
      if (this.thinking.open === this.autoOpen) return;
      this.state.thinkingToggled = true;
      this.events.changed();
    });
    this.element = h(
      'section',
      { class: 'pane', 'aria-label': id === 'a' ? l10n.t('Output') : l10n.t('Output B'), 'data-pane': id },
      h('header', { class: 'pane-header' }, this.title, this.summary, this.chooseReading, this.copyAll),
      h('div', { class: 'pane-status' }, this.status, this.elapsed, this.ttft, this.total, this.size),
      this.errorBox,
      this.thinking,
      this.body,
    );

    this.body.addEventListener('scroll', () => {
      this.following = this.body.scrollTop + this.body.clientHeight >= this.body.scrollHeight - BOTTOM_SLACK_PX;
      this.body.dataset.following = String(this.following);
    });
    this.body.addEventListener('click', (e) => this.onBodyClick(e));
    this.thinkingBody.addEventListener('click', (e) => this.onBodyClick(e));
    // Middle-click would open a link in a new browser context: never from here.
    this.body.addEventListener('auxclick', (e) => {
      if (e.target instanceof Element && e.target.closest('a')) e.preventDefault();
    });
    this.copyAll.addEventListener('click', () => this.events.copy(this.state.text));
    this.chooseReading.addEventListener('click', () => this.events.fix('chooseAnswerReading'));
    this.paint();
  }

  get runId(): string | undefined {
    return this.state.runId;
  }

  get isRunning(): boolean {
    return this.state.status === 'running';
  }

  get settings(): RunSettings | undefined {
    return this.state.settings;
  }

  get saved(): PaneState {
    return this.state;
  }

  restore(state: PaneState): void {
    this.state = { ...state };
    this.resetThinking();
    this.paint();
  }

  start(runId: string, settings: RunSettings): void {
    this.state = { status: 'running', runId, settings, startedAt: Date.now(), text: '', reasoning: '', nextSeq: 0 };
    this.following = true;
    this.resetThinking();
    this.paint();
  }

  /** The reasoning so far. */
  get reasoning(): string {
    return this.state.reasoning ?? '';
  }

  /**
   * Appends a chunk of this pane's run (answer text, or reasoning when `reasoning`); returns false when chunks went
   * missing (the page should resynchronise).
   */
  chunk(seq: number, text: string, ttfbMs: number | undefined, reasoning = false): boolean {
    if (seq < this.state.nextSeq) return true; // already have it (re-sent after the page was re-created)
    if (seq > this.state.nextSeq) return false;
    const s = this.state;
    const answerBegins = !reasoning && s.text === '' && text !== '';
    const waited = s.wait !== undefined;
    delete s.wait;
    if (reasoning) s.reasoning = (s.reasoning ?? '') + text;
    else s.text += text;
    s.nextSeq = seq + 1;
    if (ttfbMs !== undefined) s.ttfbMs = ttfbMs;
    if (answerBegins && this.reasoning !== '' && s.startedAt !== undefined) s.thinkingMs = Date.now() - s.startedAt;
    // The status line changes a few times per run here, not per chunk: it is a live region a screen reader reads out.
    if (seq === 0 || answerBegins || waited) this.paintStatus();
    if (s.runId && !reasoning) playgroundObserver()?.chunkArrived?.(s.runId, seq, s.text.length);
    this.scheduleRender();
    return true;
  }

  /** The service asked the run to wait: said in the status line, with the clock time, until something comes. */
  serviceWait(wait: { waitMs: number; until: number }): void {
    this.state.wait = { ...wait };
    this.paintStatus();
    this.events.changed();
  }

  end(message: DoneMessage | ErrorMessage): void {
    delete this.state.wait;
    if (message.type === 'done') {
      this.state.status = message.stopped ? 'stopped' : 'done';
      delete this.state.error;
    } else {
      this.state.status = 'error';
      this.state.error = message.error;
    }
    this.state.timing = message.timing;
    if (message.timing.thinkingMs !== undefined) this.state.thinkingMs = message.timing.thinkingMs;
    this.paint();
  }

  /** The host's account of this pane's run, after the page was re-created. */
  reconcile(snapshot: RunSnapshot | undefined): void {
    if (this.state.status !== 'running') return;
    if (!snapshot) {
      // The host no longer knows the run: the window reloaded while it was going.
      this.state.status = 'error';
      this.state.error = {
        message: l10n.t('The run was interrupted (the window reloaded). Retry to run it again.'),
        kind: 'cancelled',
        retryable: true,
      };
      this.paint();
      return;
    }
    this.state.text = snapshot.text;
    this.state.reasoning = snapshot.reasoning;
    if (snapshot.thinkingMs !== undefined) this.state.thinkingMs = snapshot.thinkingMs;
    this.state.nextSeq = snapshot.nextSeq;
    if (snapshot.wait) this.state.wait = { ...snapshot.wait };
    else delete this.state.wait;
    this.resetThinking();
    if (snapshot.end) this.end(snapshot.end);
    else this.paint();
  }

  /** Shows a past run from the history. */
  showEntry(entry: ExportedRun): void {
    this.state = {
      status: entry.outcome,
      runId: entry.runId,
      settings: entry.settings,
      startedAt: entry.startedAt,
      text: entry.output,
      reasoning: entry.reasoning ?? '',
      ...(entry.timing?.thinkingMs !== undefined ? { thinkingMs: entry.timing.thinkingMs } : {}),
      nextSeq: 0,
      ...(entry.timing ? { timing: entry.timing, ...(entry.timing.ttfbMs !== undefined ? { ttfbMs: entry.timing.ttfbMs } : {}) } : {}),
      ...(entry.outcome === 'error'
        ? { error: { message: entry.error ?? l10n.t('The run failed.'), kind: 'unexpected', retryable: true } }
        : {}),
    };
    this.following = false;
    this.resetThinking();
    this.paint();
    this.body.scrollTop = 0;
  }

  clear(): void {
    this.state = emptyPane();
    this.resetThinking();
    this.paint();
  }

  /** The Thinking section is rebuilt from the state on the next render. */
  private resetThinking(): void {
    this.thinkingBody.textContent = '';
    this.shownReasoning = 0;
    this.thinkingFinishedNodes = 0;
    this.thinkingMarkdown.update('');
  }

  /** Everything except the text, which renders on the next frame. */
  private paint(): void {
    const s = this.state;
    const settings = s.settings;
    this.title.textContent = settings ? modelLabel(settings.modelName) : this.id === 'a' ? l10n.t('Output') : l10n.t('Output B');
    this.summary.textContent = settings ? summaryText(settings) : '';
    this.paintStatus();
    this.copyAll.disabled = s.text.length === 0;
    // A service's answer once it is shown (a local model's is not the service's to read otherwise).
    show(this.chooseReading, !!settings && !isLocalModelId(settings.modelName) && (s.status === 'done' || s.status === 'stopped'));
    this.paintMetrics();
    this.errorBox.replaceChildren();
    show(this.errorBox, s.status === 'error' && !!s.error);
    if (s.status === 'error' && s.error) {
      const retry = h(
        'button',
        { type: 'button', 'data-testid': this.id === 'a' ? 'retry' : `retry-${this.id}` },
        icon('refresh'),
        ' ',
        l10n.t('Retry'),
      );
      retry.addEventListener('click', () => this.events.retry(this));
      this.errorBox.append(h('span', { class: 'error-text' }, s.error.message), retry);
      const fix = s.error.fix;
      if (fix) {
        const fixButton = h(
          'button',
          { type: 'button', class: 'secondary', 'data-testid': this.id === 'a' ? 'error-fix' : `error-fix-${this.id}` },
          fixLabel(fix),
        );
        fixButton.addEventListener('click', () => this.events.fix(fix));
        this.errorBox.append(fixButton);
      }
    }
    this.scheduleRender();
    this.events.changed();
  }

  private paintStatus(): void {
    const s = this.state;
    // Set only when it changes: the same words written again are read out again ("Thinking…" twice).
    const status = s.status === 'running' && s.text === '' ? this.waitingText() : statusText(s.status);
    if (this.status.textContent !== status) this.status.textContent = status;
    this.element.dataset.status = s.status;
    this.element.dataset.phase = s.status !== 'running' ? s.status : s.text !== '' ? 'answering' : 'thinking';
    this.paintClock();
  }

  /** Nothing of the answer yet: a streamed run (or one writing its reasoning) thinks; a non-streamed one is awaited. */
  private waitingText(): string {
    const s = this.state;
    if (s.wait) return serviceWaitText(s.wait, document.documentElement.lang);
    return s.settings?.stream === false && this.reasoning === '' ? l10n.t('Waiting for the answer…') : l10n.t('Thinking…');
  }

  /** The time since the run began, each second, while no answer text has come. */
  private paintClock(): void {
    const s = this.state;
    const waiting = s.status === 'running' && s.text === '' && s.startedAt !== undefined;
    if (!waiting) {
      if (this.clock !== undefined) clearInterval(this.clock);
      this.clock = undefined;
      this.elapsed.textContent = '';
      return;
    }
    const tick = () => {
      this.elapsed.textContent = clockText(Date.now() - (this.state.startedAt ?? Date.now()));
    };
    tick();
    this.clock ??= setInterval(tick, 1000);
  }

  private paintThinking(): void {
    const s = this.state;
    const reasoning = this.reasoning;
    show(this.thinking, reasoning !== '');
    if (reasoning === '') return;
    if (this.shownReasoning > reasoning.length) this.resetThinking();
    if (reasoning.length > this.shownReasoning) {
      // Markdown, as the answer (models write their reasoning in it: `**Reading the question**`), through the same
      // safe renderer; finished blocks are kept, so a long reasoning costs only its open tail per frame.
      const update = this.thinkingMarkdown.update(reasoning);
      if (update.reset) this.thinkingFinishedNodes = 0;
      while (this.thinkingBody.childNodes.length > this.thinkingFinishedNodes) this.thinkingBody.lastChild?.remove();
      if (update.finished) {
        this.thinkingBody.insertAdjacentHTML('beforeend', update.finished);
        this.thinkingFinishedNodes = this.thinkingBody.childNodes.length;
      }
      this.thinkingBody.insertAdjacentHTML('beforeend', update.tail);
      this.shownReasoning = reasoning.length;
      if (this.thinking.open) this.thinkingBody.scrollTop = this.thinkingBody.scrollHeight;
    }
    const thinkingNow = s.status === 'running' && s.text === '';
    const chars = l10n.t('{0} chars', reasoning.length.toLocaleString('en-US'));
    // A run that was not streamed gets its reasoning and its answer in one body: the time between them is the time
    // to read that body, not to think, and the thinking alone was never seen. Nothing is said of time then.
    const streamed = s.settings?.stream !== false;
    const ms = s.thinkingMs ?? (thinkingNow && s.startedAt !== undefined ? Date.now() - s.startedAt : s.timing?.totalMs);
    this.thinkingSummary.textContent = !streamed
      ? l10n.t('Reasoning · {0}', chars)
      : thinkingNow
        ? l10n.t('Thinking · {0}', chars)
        : ms !== undefined
          ? l10n.t('Thought for {0} · {1}', formatMs(ms), chars)
          : l10n.t('Thinking · {0}', chars);
    // Open while the model thinks, closed once the answer starts; a person's own choice stays.
    if (!s.thinkingToggled && this.thinking.open !== thinkingNow) {
      this.autoOpen = thinkingNow;
      this.thinking.open = thinkingNow;
    }
    if (s.runId) playgroundObserver()?.reasoningRendered?.(s.runId, reasoning.length);
  }

  private paintMetrics(): void {
    const s = this.state;
    const ttfb = s.timing?.ttfbMs ?? s.ttfbMs;
    this.ttft.textContent = ttfb !== undefined ? l10n.t('first token {0}', formatMs(ttfb)) : '';
    this.total.textContent = s.timing ? l10n.t('total {0}', formatMs(s.timing.totalMs)) : '';
    this.size.textContent = s.text.length ? l10n.t('{0} chars', s.text.length.toLocaleString('en-US')) : '';
  }

  private scheduleRender(): void {
    this.frame ??= requestAnimationFrame(() => {
      this.frame = undefined;
      this.render();
    });
  }

  private render(): void {
    const observer = playgroundObserver();
    const started = observer ? performance.now() : 0;
    // At most once per frame, and only the open tail: finished blocks keep their nodes, so a frame's cost (markdown,
    // HTML parsing, layout) follows the last block, not the whole answer. The result is the same as rendering the
    // whole text (IncrementalMarkdown).
    this.paintThinking();
    const update = this.markdown.update(this.state.text);
    if (update.reset) this.finishedNodes = 0;
    while (this.body.childNodes.length > this.finishedNodes) this.body.lastChild?.remove();
    if (update.finished) {
      this.body.insertAdjacentHTML('beforeend', update.finished);
      this.finishedNodes = this.body.childNodes.length;
    }
    this.body.insertAdjacentHTML('beforeend', update.tail);
    if (this.following) this.body.scrollTop = this.body.scrollHeight;
    this.body.dataset.following = String(this.following);
    this.paintMetrics();
    // Following the end (the benchmark's case), reading scrollHeight above laid the new text out: it is on screen
    // with the next paint.
    if (this.state.runId) observer?.frameRendered?.(this.state.runId, this.state.text.length, started);
    this.events.changed();
  }

  private onBodyClick(e: MouseEvent): void {
    if (!(e.target instanceof Element)) return;
    const link = e.target.closest('a');
    if (link) {
      // The page never navigates: the host decides whether a link opens (https only).
      e.preventDefault();
      const href = link.getAttribute('href');
      if (href) this.events.openLink(href);
      return;
    }
    const copy = e.target.closest('button.copy-code');
    if (copy) {
      const code = copy.parentElement?.querySelector('pre > code');
      if (code?.textContent != null) {
        this.events.copy(code.textContent);
        copy.classList.add('copied');
        setTimeout(() => copy.classList.remove('copied'), 1200);
      }
    }
  }
}

/** A run's settings in one line: `temperature 0.7 · RAG off · budgets 8×1 · streamed`. */
function summaryText(settings: RunSettings): string {
  const service = isLocalModelId(settings.modelName)
    ? l10n.t('on this machine')
    : settings.useRag
      ? l10n.t('RAG on · budgets {0}×{1}', settings.sequentialBudget, settings.parallelBudget)
      : l10n.t('RAG off · budgets {0}×{1}', settings.sequentialBudget, settings.parallelBudget);
  const streamed = settings.stream ? l10n.t('streamed') : l10n.t('not streamed');
  return l10n.t('temperature {0} · {1} · {2}', settings.temperature, service, streamed);
}

/** Elapsed time as a clock: `0:45`, `1:05`, `1:02:03`. */
export function clockText(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const sec = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

export function formatMs(ms: number): string {
  return ms >= 1000 ? l10n.t('{0} s', (ms / 1000).toFixed(2)) : l10n.t('{0} ms', Math.round(ms));
}
