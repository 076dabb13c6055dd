// The run form, answer first: `element` holds what a run starts from (the context, the prompt, Run and Stop) and sits
// above the answer; `settings` (presets, one or two settings columns, compare, the query part under "Advanced") is a
// collapsible side column, so the prompt, Run and the answer's start fit one screen. Run stays disabled until every
// value is valid, and each invalid value says why next to it.
import { l10n } from '../../../l10n';
import type { ErrorFix, ModelsMessage, Preset, Prefill, RunSettings } from '../protocol';
import { h, icon, show, uid } from './dom';
import { promptProblems, toRunSettings, type Knobs } from './formValidation';
import { helpFor, knobHelp } from './knobHelp';
import { KnobsGroup } from './knobs';
import type { FormState } from './webviewState';

export interface FormEvents {
  changed(): void;
  run(): void;
  stop(): void;
  refreshModels(): void;
  fix(fix: ErrorFix): void;
  savePreset(name: string, knobs: Knobs): void;
  deletePreset(name: string): void;
}

/** What Run starts: one run, or two side by side. */
export interface RunPlan {
  a: RunSettings;
  b?: RunSettings;
}

export class RunForm {
  readonly element: HTMLElement;
  readonly settings: HTMLDetailsElement;
  private readonly contextBox: HTMLElement;
  private readonly contextText: HTMLElement;
  private readonly promptLabel: HTMLLabelElement;
  private readonly prompt: HTMLTextAreaElement;
  private readonly promptMessage: HTMLElement;
  private readonly customQuery: HTMLInputElement;
  private readonly queryOnly: HTMLTextAreaElement;
  private readonly compare: HTMLInputElement;
  private readonly a: KnobsGroup;
  private readonly b: KnobsGroup;
  private readonly runButton: HTMLButtonElement;
  private readonly stopButton: HTMLButtonElement;
  private readonly runHint: HTMLElement;
  private readonly presetSelect: HTMLSelectElement;
  private readonly presetName: HTMLInputElement;
  private readonly presetDelete: HTMLButtonElement;
  private presets: Preset[] = [];
  private running = false;
  private promptTouched = false;
  private context = '';
  /** What the context box shows: a large selection is not re-rendered on every key typed into the question. */
  private shownContext = '';

  constructor(private readonly events: FormEvents) {
    const knobEvents = { changed: () => this.changed(), refreshModels: () => events.refreshModels() };
    this.a = new KnobsGroup(l10n.t('Settings A'), '', knobEvents);
    this.b = new KnobsGroup(l10n.t('Settings B'), 'b', knobEvents);

    this.contextText = h('pre', { class: 'context-text', tabindex: '0', 'aria-label': l10n.t('Context'), 'data-testid': 'context-text' });
    const contextRemove = h(
      'button',
      {
        type: 'button',
        class: 'icon-button',
        title: l10n.t('Remove the context: the prompt is then sent on its own'),
        'aria-label': l10n.t('Remove the context'),
        'data-testid': 'context-remove',
      },
      icon('close'),
    );
    this.contextBox = h(
      'div',
      { class: 'context', role: 'group', 'aria-label': l10n.t('Context'), 'data-testid': 'context', hidden: true },
      h('div', { class: 'context-header' }, h('span', {}, l10n.t('Context (sent before your question)')), contextRemove),
      this.contextText,
    );

    const promptId = uid('prompt');
    this.promptLabel = h('label', { for: promptId }, l10n.t('Prompt'));
    this.prompt = h('textarea', {
      id: promptId,
      rows: '5',
      'data-testid': 'prompt',
      'aria-describedby': `${promptId}-msg ${promptId}-hint`,
      placeholder: l10n.t('Ask something…'),
    });
    this.promptMessage = h('div', { id: `${promptId}-msg`, class: 'field-message', role: 'status' });
    const queryId = uid('query');
    const customId = uid('custom-query');
    this.customQuery = h('input', {
      id: customId,
      type: 'checkbox',
      title: knobHelp('queryPart'),
      'aria-describedby': `${queryId}-help`,
      'data-testid': 'custom-query',
    });
    this.queryOnly = h('textarea', {
      id: queryId,
      rows: '3',
      title: knobHelp('queryPart'),
      'aria-describedby': `${queryId}-help`,
      'data-testid': 'query-only',
      disabled: true,
    });

    const compareId = uid('compare');
    this.compare = h('input', {
      id: compareId,
      type: 'checkbox',
      title: knobHelp('compare'),
      'aria-describedby': `${compareId}-help`,
      'data-testid': 'compare',
    });

    this.runButton = h(
      'button',
      { type: 'button', class: 'primary', 'data-testid': 'run', 'aria-keyshortcuts': 'Control+Enter Meta+Enter' },
      icon('play'),
      ' ',
      l10n.t('Run'),
    );
    this.stopButton = h(
      'button',
      { type: 'button', 'data-testid': 'stop', disabled: true, 'aria-keyshortcuts': 'Escape' },
      icon('debug-stop'),
      ' ',
      l10n.t('Stop'),
    );
    this.runHint = h('span', { id: `${promptId}-hint`, class: 'hint' }, l10n.t('Ctrl+Enter runs · Escape stops'));

    const presetId = uid('preset');
    this.presetSelect = h('select', { id: presetId, 'data-testid': 'preset-select' });
    this.presetName = h('input', {
      type: 'text',
      placeholder: l10n.t('Preset name'),
      'aria-label': l10n.t('Name of the preset to save'),
      maxlength: '60',
      'data-testid': 'preset-name',
    });
    const presetSave = h(
      'button',
      { type: 'button', title: l10n.t('Save the settings as a preset'), 'data-testid': 'preset-save' },
      icon('save'),
      ' ',
      l10n.t('Save preset'),
    );
    this.presetDelete = h(
      'button',
      {
        type: 'button',
        class: 'icon-button',
        title: l10n.t('Delete the chosen preset'),
        'aria-label': l10n.t('Delete the chosen preset'),
        disabled: true,
        'data-testid': 'preset-delete',
      },
      icon('trash'),
    );

    const advanced = h(
      'details',
      { class: 'advanced' },
      h('summary', {}, l10n.t('Advanced')),
      h(
        'div',
        { class: 'check' },
        this.customQuery,
        h('label', { for: customId, title: knobHelp('queryPart') }, l10n.t('Send a different query part')),
      ),
      h('label', { for: queryId, title: knobHelp('queryPart') }, l10n.t('Query part')),
      this.queryOnly,
      helpFor('queryPart', queryId),
    );

    this.element = h(
      'section',
      { class: 'run-form', 'aria-label': l10n.t('Prompt') },
      this.contextBox,
      this.promptLabel,
      this.prompt,
      this.promptMessage,
      h('div', { class: 'actions inline' }, this.runButton, this.stopButton, this.runHint),
    );

    this.settings = h(
      'details',
      { class: 'settings', open: true, 'data-testid': 'settings' },
      h('summary', {}, h('h2', {}, l10n.t('Settings'))),
      h(
        'div',
        { class: 'presets inline' },
        h('label', { for: presetId }, l10n.t('Preset')),
        this.presetSelect,
        this.presetDelete,
        this.presetName,
        presetSave,
      ),
      h('div', { class: 'columns' }, this.a.element, this.b.element),
      h(
        'div',
        { class: 'check' },
        this.compare,
        h('label', { for: compareId, title: knobHelp('compare') }, l10n.t('Compare side by side (two models or two settings)')),
      ),
      helpFor('compare', compareId),
      advanced,
    );

    this.prompt.addEventListener('input', () => {
      this.promptTouched = true;
      this.changed();
    });
    // Anywhere in the form, not only in the prompt: a person who just changed the temperature runs from there.
    for (const part of [this.element, this.settings]) {
      part.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
          e.preventDefault();
          this.tryRun();
        }
      });
    }
    contextRemove.addEventListener('click', () => {
      this.context = '';
      this.changed();
      this.prompt.focus();
    });
    this.customQuery.addEventListener('change', () => {
      this.queryOnly.disabled = !this.customQuery.checked;
      if (this.customQuery.checked && !this.queryOnly.value) this.queryOnly.value = this.prompt.value;
      this.changed();
    });
    this.queryOnly.addEventListener('input', () => this.changed());
    this.compare.addEventListener('change', () => this.changed());
    this.runButton.addEventListener('click', () => this.tryRun());
    this.stopButton.addEventListener('click', () => events.stop());
    this.presetSelect.addEventListener('change', () => this.applyPreset());
    presetSave.addEventListener('click', () => {
      const name = this.presetName.value.trim() || this.presetSelect.value;
      if (!name) {
        this.presetName.focus();
        return;
      }
      events.savePreset(name, this.a.values);
      this.presetName.value = '';
    });
    this.presetDelete.addEventListener('click', () => {
      if (this.presetSelect.value) events.deletePreset(this.presetSelect.value);
    });
  }

  get state(): FormState {
    return {
      prompt: { context: this.context, prompt: this.prompt.value, queryOnly: this.queryOnly.value, customQuery: this.customQuery.checked },
      a: this.a.values,
      b: this.b.values,
      compare: this.compare.checked,
    };
  }

  set state(s: FormState) {
    this.context = s.prompt.context;
    this.prompt.value = s.prompt.prompt;
    this.queryOnly.value = s.prompt.queryOnly;
    this.customQuery.checked = s.prompt.customQuery;
    this.queryOnly.disabled = !s.prompt.customQuery;
    this.a.values = s.a;
    this.b.values = s.b;
    this.compare.checked = s.compare;
    this.promptTouched = s.prompt.prompt !== '';
    this.update();
  }

  applyPrefill(prefill: Prefill): void {
    const s = this.state;
    const asks = prefill.prompt !== undefined || prefill.context !== undefined;
    if (asks) s.prompt = { context: prefill.context ?? '', prompt: prefill.prompt ?? '', queryOnly: '', customQuery: false };
    if (prefill.modelName !== undefined) s.a = { ...s.a, modelName: prefill.modelName };
    this.state = s;
    this.events.changed();
    if (asks) {
      // Selected, so typing replaces the suggested question and Ctrl+Enter runs it as is.
      this.prompt.focus();
      this.prompt.select();
    }
  }

  /** Puts a past run's settings back in the form (single column). */
  load(settings: RunSettings): void {
    this.state = {
      // The sent prompt already holds any context: it comes back as one text, with the query part as it was sent.
      prompt: { context: '', prompt: settings.prompt, queryOnly: settings.queryOnly ?? '', customQuery: settings.queryOnly !== undefined },
      a: {
        modelName: settings.modelName,
        temperature: String(settings.temperature),
        useRag: settings.useRag,
        sequentialBudget: String(settings.sequentialBudget),
        parallelBudget: String(settings.parallelBudget),
        stream: settings.stream,
      },
      b: this.b.values,
      compare: false,
    };
    this.events.changed();
  }

  setModels(message: ModelsMessage): void {
    this.a.setModels(message, (fix) => this.events.fix(fix));
    this.b.setModels(message, (fix) => this.events.fix(fix));
    this.changed();
  }

  setPresets(presets: Preset[]): void {
    this.presets = presets;
    const chosen = this.presetSelect.value;
    this.presetSelect.replaceChildren(
      h('option', { value: '' }, presets.length ? l10n.t('Choose a preset…') : l10n.t('No presets yet')),
      ...presets.map((p) => h('option', { value: p.name }, p.name)),
    );
    this.presetSelect.value = presets.some((p) => p.name === chosen) ? chosen : '';
    this.presetDelete.disabled = !this.presetSelect.value;
  }

  setRunning(running: boolean): void {
    this.running = running;
    this.update();
  }

  /** The runs to start, or undefined (with the problems shown and the first invalid field focused). */
  plan(): RunPlan | undefined {
    this.promptTouched = true;
    this.update();
    const s = this.state;
    const a = toRunSettings(s.a, s.prompt);
    const b = s.compare ? toRunSettings(s.b, s.prompt) : undefined;
    if (!a || (s.compare && !b)) {
      if (promptProblems(s.prompt).prompt) this.prompt.focus();
      else if (!a) this.a.focusFirstInvalid();
      else this.b.focusFirstInvalid();
      return undefined;
    }
    return b ? { a, b } : { a };
  }

  focusPrompt(): void {
    this.prompt.focus();
  }

  private tryRun(): void {
    if (!this.running) this.events.run();
  }

  private applyPreset(): void {
    const preset = this.presets.find((p) => p.name === this.presetSelect.value);
    this.presetDelete.disabled = !preset;
    if (!preset) return;
    const k = preset.settings;
    this.a.values = {
      modelName: k.modelName ?? this.a.values.modelName,
      temperature: String(k.temperature),
      useRag: k.useRag,
      sequentialBudget: String(k.sequentialBudget),
      parallelBudget: String(k.parallelBudget),
      stream: k.stream,
    };
    this.changed();
  }

  private changed(): void {
    this.update();
    this.events.changed();
  }

  /** Re-checks every value and sets the buttons. */
  private update(): void {
    const s = this.state;
    show(this.b.element, s.compare);
    this.settings.classList.toggle('comparing', s.compare);
    show(this.contextBox, s.prompt.context !== '');
    if (this.shownContext !== s.prompt.context) this.contextText.textContent = this.shownContext = s.prompt.context;
    this.promptLabel.textContent = s.prompt.context ? l10n.t('Question about the context') : l10n.t('Prompt');
    this.prompt.placeholder = s.prompt.context ? l10n.t('What do you want to know about it?') : l10n.t('Ask something…');
    const problems = promptProblems(s.prompt);
    const promptProblem = this.promptTouched ? problems.prompt : undefined;
    this.promptMessage.textContent = promptProblem ?? '';
    this.promptMessage.classList.toggle('error', !!promptProblem);
    show(this.promptMessage, !!promptProblem);
    this.prompt.setAttribute('aria-invalid', promptProblem ? 'true' : 'false');
    const aProblems = Object.keys(this.a.validate()).length;
    const bProblems = s.compare ? Object.keys(this.b.validate()).length : 0;
    const valid = Object.keys(problems).length === 0 && aProblems === 0 && bProblems === 0;
    // A button that disables itself while it has the focus drops it to the page's body: hand it to the other one.
    const focused = document.activeElement;
    this.runButton.disabled = this.running || !valid;
    this.runButton.title = valid ? l10n.t('Run (Ctrl+Enter)') : l10n.t('Fix the marked values to run');
    this.stopButton.disabled = !this.running;
    if (focused === this.runButton && this.runButton.disabled) (this.stopButton.disabled ? this.prompt : this.stopButton).focus();
    if (focused === this.stopButton && this.stopButton.disabled) (this.runButton.disabled ? this.prompt : this.runButton).focus();
  }
}
