// What each knob does, in plain words: shown under the knob (its accessible description) and as its hover text. The
// spec names the budgets only "compute budgets", so their text says what a larger value trades, not a unit. Built when
// asked, not at load: the host's translations are in place by then (l10nStart.ts).
import { l10n } from '../../../l10n';
import { h } from './dom';

export type KnobHelpKey =
  | 'model'
  | 'temperature'
  | 'sequentialBudget'
  | 'parallelBudget'
  | 'useRag'
  | 'stream'
  | 'queryPart'
  | 'compare'
  | 'localModel'
  | 'notForLocal';

/** The help text of one knob, in the page's language. */
export function knobHelp(key: KnobHelpKey): string {
  switch (key) {
    case 'model':
      return l10n.t('The model that answers: a base model of the service, or one you finetuned.');
    case 'temperature':
      return l10n.t(
        'How much the answer varies: 0 picks the likeliest words every time; higher values give more varied, less predictable answers.',
      );
    case 'sequentialBudget':
      return l10n.t(
        'How much step-by-step thinking the model may do before it answers. More can help with hard questions but takes longer.',
      );
    case 'parallelBudget':
      return l10n.t(
        'How many attempts the model may work on side by side before it settles on one answer. More can be steadier but costs more.',
      );
    case 'useRag':
      return l10n.t(
        'Retrieval (RAG): before answering, the service looks up passages that match the query part and gives them to the model.',
      );
    case 'stream':
      return l10n.t('Show the answer as it is written, instead of all at once at the end.');
    case 'queryPart':
      return l10n.t(
        'The text the service searches with when Retrieval is on. By default it is the prompt (or your question, when you ask about a context).',
      );
    case 'compare':
      return l10n.t('Run the same prompt with two models, or two settings, and see both answers side by side.');
    case 'localModel':
      return l10n.t('A model file on this machine: it runs here, not on the service.');
    case 'notForLocal':
      return l10n.t(
        'Not used by a local model: retrieval and the compute budgets are features of the service, and this model runs on your machine.',
      );
  }
}

/** The visible description of a control; the control names it in aria-describedby and repeats it as its title. */
export function helpFor(key: KnobHelpKey, id: string): HTMLElement {
  return h('div', { id: `${id}-help`, class: 'field-help' }, knobHelp(key));
}
