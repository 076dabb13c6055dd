// One column of run settings: model (from the host's live list), temperature, RAG, budgets, streaming. Each control
// has a label, a description of what it does (knobHelp.ts) and an inline message that says what is wrong with its value.
import { l10n } from '../../../l10n';
import { isLocalModelId, type ErrorFix, type ModelEntry, type ModelsMessage } from '../protocol';
import { h, icon, setChildren, show, uid } from './dom';
import { knobProblems, type KnobErrors, type KnobField, type Knobs } from './formValidation';
import { helpFor, knobHelp } from './knobHelp';
import { modelLabel } from './modelLabels';

export interface KnobsEvents {
  changed(): void;
  refreshModels(): void;
}

interface Field {
  input: HTMLInputElement | HTMLSelectElement;
  message: HTMLElement;
}

export class KnobsGroup {
  readonly element: HTMLFieldSetElement;
  private readonly model: HTMLSelectElement;
  private readonly refresh: HTMLButtonElement;
  private readonly modelNote: HTMLElement;
  /** A model name typed by hand: shown when the service's list is empty or could not be read, so a run can still start. */
  private readonly typedModel: HTMLInputElement;
  private readonly temperature: HTMLInputElement;
  private readonly sequential: HTMLInputElement;
  private readonly parallel: HTMLInputElement;
  private readonly rag: HTMLInputElement;
  private readonly stream: HTMLInputElement;
  private readonly fields: Record<KnobField, Field>;
  private models: ModelEntry[] = [];
  private modelsLoading = true;

  /** `suffix` keeps test ids apart when two groups are shown (compare). */
  constructor(legend: string, suffix: string, events: KnobsEvents) {
    const tid = (name: string) => (suffix ? `${name}-${suffix}` : name);
    const message = (id: string) => h('div', { id, class: 'field-message', role: 'status' });

    const modelId = uid('model');
    this.model = h('select', {
      id: modelId,
      title: knobHelp('model'),
      'data-testid': tid('model-select'),
      'aria-describedby': `${modelId}-help ${modelId}-msg`,
    });
    this.refresh = h(
      'button',
      {
        type: 'button',
        class: 'icon-button',
        title: l10n.t('Refresh the model list'),
        'aria-label': l10n.t('Refresh the model list'),
        'data-testid': tid('refresh-models'),
      },
      icon('refresh'),
    );
    // The list's own status (loading, could not list) is apart from the field's problem (none chosen).
    this.modelNote = h('div', { class: 'field-note', 'aria-live': 'polite' });
    this.typedModel = h('input', {
      type: 'text',
      autocomplete: 'off',
      spellcheck: 'false',
      placeholder: l10n.t('Or type a model name'),
      'aria-label': l10n.t('Model name, typed'),
      title: l10n.t('The service did not list its models: type the name of the model to run.'),
      'data-testid': tid('model-typed'),
    });
    show(this.typedModel, false);

    const textInput = (id: string, testId: string, inputmode: string, title: string) =>
      h('input', {
        id,
        type: 'text',
        inputmode,
        autocomplete: 'off',
        spellcheck: 'false',
        title,
        'data-testid': tid(testId),
        'aria-describedby': `${id}-help ${id}-msg`,
      });
    const tempId = uid('temperature');
    const seqId = uid('sequential');
    const parId = uid('parallel');
    this.temperature = textInput(tempId, 'temperature', 'decimal', knobHelp('temperature'));
    this.sequential = textInput(seqId, 'sequential-budget', 'numeric', knobHelp('sequentialBudget'));
    this.parallel = textInput(parId, 'parallel-budget', 'numeric', knobHelp('parallelBudget'));
    const ragId = uid('rag');
    const streamId = uid('stream');
    const checkbox = (id: string, testId: string, title: string) =>
      h('input', { id, type: 'checkbox', title, 'data-testid': tid(testId), 'aria-describedby': `${id}-help` });
    this.rag = checkbox(ragId, 'use-rag', knobHelp('useRag'));
    this.stream = checkbox(streamId, 'stream', knobHelp('stream'));
    // The label carries the title too: a person hovers the words more often than the box.
    const label = (id: string, title: string, text: string) => h('label', { for: id, title }, text);

    this.fields = {
      modelName: { input: this.model, message: message(`${modelId}-msg`) },
      temperature: { input: this.temperature, message: message(`${tempId}-msg`) },
      sequentialBudget: { input: this.sequential, message: message(`${seqId}-msg`) },
      parallelBudget: { input: this.parallel, message: message(`${parId}-msg`) },
    };

    this.element = h(
      'fieldset',
      { class: 'knobs' },
      h('legend', {}, legend),
      // The model on a line of its own under its label: beside it, the side column left the select room for a few
      // letters of a name ("oss-reasor").
      h(
        'div',
        { class: 'row wide' },
        label(modelId, knobHelp('model'), l10n.t('Model')),
        h('div', { class: 'inline model-choice' }, this.model, this.refresh),
      ),
      helpFor('model', modelId),
      this.typedModel,
      this.modelNote,
      this.fields.modelName.message,
      h('div', { class: 'row' }, label(tempId, knobHelp('temperature'), l10n.t('Temperature (0–2)')), this.temperature),
      helpFor('temperature', tempId),
      this.fields.temperature.message,
      h('div', { class: 'row' }, label(seqId, knobHelp('sequentialBudget'), l10n.t('Sequential budget')), this.sequential),
      helpFor('sequentialBudget', seqId),
      this.fields.sequentialBudget.message,
      h('div', { class: 'row' }, label(parId, knobHelp('parallelBudget'), l10n.t('Parallel budget')), this.parallel),
      helpFor('parallelBudget', parId),
      this.fields.parallelBudget.message,
      h(
        'div',
        { class: 'row checks' },
        h('span', { class: 'check' }, this.rag, label(ragId, knobHelp('useRag'), l10n.t('Retrieval (RAG)'))),
      ),
      helpFor('useRag', ragId),
      h('div', { class: 'row checks' }, h('span', { class: 'check' }, this.stream, label(streamId, knobHelp('stream'), l10n.t('Stream')))),
      helpFor('stream', streamId),
    );

    for (const input of [this.temperature, this.sequential, this.parallel]) input.addEventListener('input', () => events.changed());
    this.model.addEventListener('change', () => this.markLocal());
    for (const input of [this.model, this.rag, this.stream]) input.addEventListener('change', () => events.changed());
    this.refresh.addEventListener('click', () => events.refreshModels());
    this.typedModel.addEventListener('input', () => {
      this.fillModels(this.typedModel.value.trim());
      this.markLocal();
      events.changed();
    });
  }

  get values(): Knobs {
    return {
      modelName: this.model.value,
      temperature: this.temperature.value,
      useRag: this.rag.checked,
      sequentialBudget: this.sequential.value,
      parallelBudget: this.parallel.value,
      stream: this.stream.checked,
    };
  }

  set values(k: Knobs) {
    this.fillModels(k.modelName);
    this.temperature.value = k.temperature;
    this.rag.checked = k.useRag;
    this.sequential.value = k.sequentialBudget;
    this.parallel.value = k.parallelBudget;
    this.stream.checked = k.stream;
    this.markLocal();
  }

  setModels(message: ModelsMessage, onFix: (fix: ErrorFix) => void): void {
    this.models = message.models;
    this.modelsLoading = message.loading;
    // Nothing chosen yet: the first model is as good a start as any, and saves a click.
    const first = message.models[0];
    this.fillModels(this.model.value || (message.loading || !first ? '' : first.name));
    this.markLocal();
    this.refresh.disabled = message.loading;
    // No service model to choose (an empty or unreadable list): a typed name is the way forward.
    show(this.typedModel, !message.loading && !message.models.some((m) => m.kind !== 'local'));
    this.modelNote.replaceChildren();
    this.modelNote.classList.remove('error');
    if (message.loading) {
      this.modelNote.append(l10n.t('Loading models…'));
    } else if (message.error) {
      const error = message.error;
      this.modelNote.classList.add('error');
      this.modelNote.append(l10n.t('Could not list the models: {0}', error.message), ' ');
      const fix = error.fix;
      if (fix) {
        const fixButton = h('button', { type: 'button', class: 'link-button' }, fixLabel(fix));
        fixButton.addEventListener('click', () => onFix(fix));
        this.modelNote.append(fixButton);
      }
    }
  }

  /** Shows each field's problem; returns them. A missing model is not an error while the list is loading. */
  validate(): KnobErrors {
    const errors = knobProblems(this.values);
    for (const [name, field] of Object.entries(this.fields) as [KnobField, Field][]) {
      // "Choose a model" would only repeat "Loading models…".
      const problem = name === 'modelName' && this.modelsLoading ? undefined : errors[name];
      field.input.setAttribute('aria-invalid', problem ? 'true' : 'false');
      field.message.textContent = problem ?? '';
      field.message.classList.toggle('error', !!problem);
      show(field.message, !!problem);
    }
    return errors;
  }

  focusFirstInvalid(): void {
    for (const field of Object.values(this.fields)) {
      if (field.input.getAttribute('aria-invalid') === 'true') {
        field.input.focus();
        return;
      }
    }
  }

  /** Whether the chosen model runs on this machine: retrieval and the budgets are the service's, so they are off. */
  get isLocal(): boolean {
    return isLocalModelId(this.model.value);
  }

  private markLocal(): void {
    const local = this.isLocal;
    const knobs: [HTMLInputElement, string][] = [
      [this.rag, knobHelp('useRag')],
      [this.sequential, knobHelp('sequentialBudget')],
      [this.parallel, knobHelp('parallelBudget')],
    ];
    for (const [input, help] of knobs) {
      input.disabled = local;
      input.title = local ? knobHelp('notForLocal') : help;
      // The label is hovered more often than the box: it says the same.
      const label = input.id ? this.element.querySelector<HTMLLabelElement>(`label[for="${input.id}"]`) : null;
      if (label) label.title = input.title;
    }
    this.element.classList.toggle('local-model', local);
  }

  /** The list, plus the chosen model when the list lacks it (not loaded yet, or a name from elsewhere). */
  private fillModels(selected: string): void {
    const names = this.models.map((m) => m.name);
    const options: (HTMLOptionElement | HTMLOptGroupElement)[] = [
      h('option', { value: '' }, this.modelsLoading && names.length === 0 ? l10n.t('Loading models…') : l10n.t('Choose a model')),
    ];
    if (selected && !names.includes(selected)) options.push(h('option', { value: selected }, modelLabel(selected)));
    const hosted = this.models.filter((m) => m.kind !== 'local');
    const local = this.models.filter((m) => m.kind === 'local');
    for (const m of hosted) options.push(h('option', { value: m.name }, hostedLabel(m)));
    if (local.length > 0) {
      options.push(
        h(
          'optgroup',
          { label: l10n.t('On this machine'), 'data-testid': 'local-models' },
          local.map((m) => h('option', { value: m.name, title: knobHelp('localModel') }, modelLabel(m.name))),
        ),
      );
    }
    setChildren(this.model, options);
    this.model.value = selected;
  }
}

/** A service model in the list: its name and whether it is a base model or one of the user's (`name (base)`). */
function hostedLabel(m: ModelEntry): string {
  if (m.kind === 'base') return l10n.t('{0} (base)', m.name);
  if (m.kind === 'custom') return l10n.t('{0} (custom)', m.name);
  return m.name;
}

/** The label of a fix's button, in the page's language. */
export function fixLabel(fix: ErrorFix): string {
  const labels: Record<ErrorFix, string> = {
    setApiKey: l10n.t('Set API Key'),
    configureBaseUrl: l10n.t('Configure Service URL'),
    showLog: l10n.t('Show Log'),
    openProxySettings: l10n.t('Open Proxy Settings'),
    chooseAnswerReading: l10n.t('Choose How to Read…'),
  };
  return labels[fix];
}
