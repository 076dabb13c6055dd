// The playground page (browser code, bundled on its own): builds the form, output and history, restores the page's
// state, says `ready`, and turns host messages into screen updates. It has no network access and never sees the key:
// every request goes through the host as a protocol message.
// First: the host's translations are in place before any module below writes a word.
import './l10nStart';
import { isHostMessage, type ExportedRun, type HostToWebview, type RunSettings } from '../protocol';
import { OutputColumns } from './compare';
import { h } from './dom';
import { returnFocusAfterDialogs } from './focusReturn';
import { l10n } from '../../../l10n';
import { RunForm } from './form';
import { HistoryList } from './history';
import { createMarkdownRenderer } from './markdown';
import type { OutputPane } from './output';
import { initialState, post, StateSaver, type PlaygroundState } from './webviewState';
import { modelLabel, setModelLabels } from './modelLabels';
import { announcer } from './announcer';
import { runAnnouncement } from './runAnnouncement';

const { state: startState } = initialState();
const renderer = createMarkdownRenderer();
let restoring = true;

const saver = new StateSaver((): PlaygroundState => ({ version: 1, form: form.state, panes: outputs.saved(), history: history.saved }));
const changed = () => {
  if (!restoring) saver.schedule();
};

const form = new RunForm({
  changed: () => {
    outputs.setComparing(form.state.compare);
    changed();
  },
  run: () => runPlan(),
  stop: () => stopAll(),
  refreshModels: () => post({ type: 'refreshModels' }),
  fix: (fix) => post({ type: 'fix', fix }),
  savePreset: (name, k) => {
    const temperature = Number(k.temperature);
    const sequentialBudget = Number(k.sequentialBudget);
    const parallelBudget = Number(k.parallelBudget);
    post({
      type: 'savePreset',
      preset: {
        name,
        settings: {
          ...(k.modelName ? { modelName: k.modelName } : {}),
          temperature,
          useRag: k.useRag,
          sequentialBudget,
          parallelBudget,
          stream: k.stream,
        },
      },
    });
  },
  deletePreset: (name) => post({ type: 'deletePreset', name }),
});

const outputs = new OutputColumns(renderer, {
  retry: (pane) => retry(pane),
  copy: (text) => post({ type: 'copy', text }),
  openLink: (url) => post({ type: 'openLink', url: url.slice(0, 8192) }),
  fix: (fix) => post({ type: 'fix', fix }),
  changed,
});

const history = new HistoryList({
  show: (entry) => outputs.a.showEntry(entry),
  rerun: (entry) => {
    form.load(entry.settings);
    startRuns([{ pane: outputs.a, settings: entry.settings }]);
  },
  copy: (text) => post({ type: 'copy', text }),
  export: (entries) => post({ type: 'export', runs: entries }),
  changed,
});

function newRunId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `r${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

function runPlan(): void {
  if (outputs.running.length > 0) return;
  const plan = form.plan();
  if (!plan) return;
  for (const run of outputs.start(plan, newRunId)) post({ type: 'run', runId: run.runId, settings: run.settings });
  afterStart();
}

function startRuns(runs: { pane: OutputPane; settings: RunSettings }[]): void {
  if (outputs.running.length > 0) return;
  for (const { pane, settings } of runs) {
    const runId = newRunId();
    pane.start(runId, settings);
    post({ type: 'run', runId, settings });
  }
  outputs.setComparing(form.state.compare);
  afterStart();
}

function retry(pane: OutputPane): void {
  const settings = pane.settings;
  if (!settings || pane.isRunning) return;
  const runId = newRunId();
  pane.start(runId, settings);
  post({ type: 'run', runId, settings });
  afterStart();
}

function afterStart(): void {
  form.setRunning(true);
  saver.saveNow();
}

function stopAll(): void {
  for (const pane of outputs.running) if (pane.runId) post({ type: 'stop', runId: pane.runId });
}

const announce = announcer('announcement');
const endings: string[] = [];

function ended(pane: OutputPane): void {
  const s = pane.saved;
  if (s.runId && s.settings && s.startedAt !== undefined && s.status !== 'running' && s.status !== 'idle') {
    const entry: ExportedRun = {
      runId: s.runId,
      startedAt: s.startedAt,
      settings: s.settings,
      output: s.text,
      ...(s.reasoning ? { reasoning: s.reasoning } : {}),
      outcome: s.status,
      ...(s.error ? { error: s.error.message } : {}),
      ...(s.timing ? { timing: s.timing } : {}),
    };
    history.add(entry);
  }
  if (s.settings && (s.status === 'done' || s.status === 'stopped')) {
    endings.push(runAnnouncement(modelLabel(s.settings.modelName), s.status, s.text));
  }
  // Both panes of a Compare run in one announcement, once the last ends: a second would cut the first short.
  if (outputs.running.length === 0 && endings.length > 0) announce(endings.splice(0).join(' '));
  form.setRunning(outputs.running.length > 0);
  saver.saveNow();
}

/** Asks the host for everything again (its `init` carries every run's text); at most once a second. */
let lastResync = 0;
function resync(): void {
  const now = Date.now();
  if (now - lastResync < 1000) return;
  lastResync = now;
  post({ type: 'ready' });
}

function onMessage(message: HostToWebview): void {
  switch (message.type) {
    case 'init': {
      form.setPresets(message.presets);
      if (history.dropUntil(message.historyClearedAt)) saver.saveNow();
      if (message.prefill) form.applyPrefill(message.prefill);
      for (const pane of outputs.panes) {
        const wasRunning = pane.isRunning;
        pane.reconcile(message.runs.find((r) => r.runId === pane.runId));
        if (wasRunning && !pane.isRunning) ended(pane);
      }
      form.setRunning(outputs.running.length > 0);
      return;
    }
    case 'models':
      // Before the form: its lists name local models by these labels.
      setModelLabels(message.models);
      form.setModels(message);
      return;
    case 'presets':
      form.setPresets(message.presets);
      return;
    case 'clearHistory':
      if (history.dropUntil(message.at)) saver.saveNow();
      return;
    case 'chunk': {
      const pane = outputs.paneFor(message.runId);
      if (pane?.isRunning && !pane.chunk(message.seq, message.text, message.ttfbMs, message.reasoning === true)) resync();
      return;
    }
    case 'wait': {
      const pane = outputs.paneFor(message.runId);
      if (pane?.isRunning) pane.serviceWait({ waitMs: message.waitMs, until: message.until });
      return;
    }
    case 'done':
    case 'error': {
      const pane = outputs.paneFor(message.runId);
      if (!pane?.isRunning) return;
      pane.end(message);
      ended(pane);
      return;
    }
  }
}

// Build the page from the saved state, then listen, then say ready: nothing the host sends can arrive before.
const app = document.getElementById('app') ?? document.body;
returnFocusAfterDialogs();
// The panel's tab shows its title; the page says it again as its level-one heading, for a screen reader's outline.
app.append(
  h(
    'main',
    { class: 'playground' },
    h('h1', { class: 'visually-hidden' }, l10n.t('Playground')),
    form.element,
    outputs.element,
    form.settings,
    history.element,
  ),
);
form.state = startState.form;
outputs.restore(startState.panes, startState.form.compare);
history.restore(startState.history);
form.setRunning(outputs.running.length > 0);
restoring = false;

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  if (isHostMessage(event.data)) onMessage(event.data);
});
document.addEventListener('keydown', (e) => {
  if (e.key === 'Escape' && outputs.running.length > 0) {
    e.preventDefault();
    stopAll();
  }
});
// The page is discarded when hidden; keep the latest text.
window.addEventListener('pagehide', () => saver.saveNow());
// The prompt takes the keyboard once the page has it: a page that merely became visible again (it is rebuilt then)
// must not pull the focus from where the person is typing, such as an input box over the editor.
if (document.hasFocus()) form.focusPrompt();
else window.addEventListener('focus', () => form.focusPrompt(), { once: true });
void pageLoaded().then(() => post({ type: 'ready' }));

/**
 * Resolves once the page's own files (stylesheets, the codicon font) have arrived, or after a few seconds whatever
 * happens. Saying `ready` only then means no request of this page is still in flight when the host starts talking
 * to it, or when the panel is hidden and the page discarded. In the browser workbench all webviews share one service
 * worker, and a request cut off mid-way there holds up the next webview's start for up to 30 s (seen with the font,
 * which is fetched only once icons are laid out, after the script has run).
 */
function pageLoaded(): Promise<void> {
  const loaded = new Promise<void>((resolve) => {
    if (document.readyState === 'complete') resolve();
    else window.addEventListener('load', () => resolve(), { once: true });
  });
  const fonts = document.fonts.load('16px codicon').then(() => document.fonts.ready);
  const limit = new Promise<void>((resolve) => setTimeout(resolve, 3000));
  return Promise.race([Promise.all([loaded, fonts]).then(() => undefined), limit]).catch(() => undefined);
}
