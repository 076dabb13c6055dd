// What each knob does, in plain words: shown under the knob (its accessible description) and as its hover text. The
// spec names the budgets only "compute budgets", so their text says what a larger value trades, not a unit.
import { h } from './dom';

export const KNOB_HELP = {
  model: 'The model that answers: a base model of the service, or one you finetuned.',
  temperature:
    'How much the answer varies: 0 picks the likeliest words every time; higher values give more varied, less predictable answers.',
  sequentialBudget:
    'How much step-by-step thinking the model may do before it answers. More can help with hard questions but takes longer.',
  parallelBudget:
    'How many attempts the model may work on side by side before it settles on one answer. More can be steadier but costs more.',
  useRag: 'Retrieval (RAG): before answering, the service looks up passages that match the query part and gives them to the model.',
  stream: 'Show the answer as it is written, instead of all at once at the end.',
  queryPart:
    'The text the service searches with when Retrieval is on. By default it is the prompt (or your question, when you ask about a context).',
  compare: 'Run the same prompt with two models, or two settings, and see both answers side by side.',
  localModel: 'A model file on this machine: it runs here, not on the service.',
  notForLocal:
    'Not used by a local model: retrieval and the compute budgets are features of the service, and this model runs on your machine.',
} as const;

export type KnobHelpKey = keyof typeof KNOB_HELP;

/** The visible description of a control; the control names it in aria-describedby and repeats it as its title. */
export function helpFor(key: KnobHelpKey, id: string): HTMLElement {
  return h('div', { id: `${id}-help`, class: 'field-help' }, KNOB_HELP[key]);
}
