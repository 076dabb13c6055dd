// The form's checks, explained in words a person can act on. The spec shows no ranges: temperature 0..2 is the
// common convention and what the form asks for; budgets must be positive whole numbers. The service may still refuse
// a value, and then its own message is shown. No DOM use: tested under plain mocha.
import { l10n } from '../../../l10n';
import { isLocalModelId, LIMITS, type RunSettings } from '../protocol';

export const TEMPERATURE_MIN = 0;
export const TEMPERATURE_MAX = 2;

/** One settings column as the form holds it: numbers as typed, so a half-typed value is kept, not lost. */
export interface Knobs {
  modelName: string;
  temperature: string;
  useRag: boolean;
  sequentialBudget: string;
  parallelBudget: string;
  stream: boolean;
}

export interface PromptFields {
  /** What the prompt asks about (Ask About Selection puts the editor's selection here); empty when there is none. */
  context: string;
  /** The person's own words: the whole prompt, or the question about the context. */
  prompt: string;
  /** Used only when `customQuery` is on; otherwise the query part is the prompt. */
  queryOnly: string;
  customQuery: boolean;
}

export type KnobField = 'modelName' | 'temperature' | 'sequentialBudget' | 'parallelBudget';
export type KnobErrors = Partial<Record<KnobField, string>>;
export type PromptErrors = Partial<Record<'prompt' | 'queryOnly', string>>;

export const DEFAULT_KNOBS: Knobs = {
  modelName: '',
  temperature: '0.7',
  useRag: false,
  sequentialBudget: '8',
  parallelBudget: '1',
  stream: true,
};

export function temperatureProblem(text: string): string | undefined {
  const t = text.trim();
  const value = Number(t);
  if (t === '' || !Number.isFinite(value)) return l10n.t('Temperature must be a number from {0} to {1}.', TEMPERATURE_MIN, TEMPERATURE_MAX);
  if (value < TEMPERATURE_MIN || value > TEMPERATURE_MAX) {
    return l10n.t('Temperature must be between {0} and {1}; {2} is outside.', TEMPERATURE_MIN, TEMPERATURE_MAX, t);
  }
  return undefined;
}

export function budgetProblem(label: string, text: string): string | undefined {
  const t = text.trim();
  if (!/^\d+$/.test(t) || Number(t) < 1) return l10n.t('{0} must be a whole number of at least 1.', label);
  if (Number(t) > LIMITS.budgetMax) return l10n.t('{0} must be at most {1}.', label, LIMITS.budgetMax.toLocaleString('en-US'));
  return undefined;
}

export function knobProblems(k: Knobs): KnobErrors {
  const errors: KnobErrors = {};
  if (!k.modelName.trim()) errors.modelName = l10n.t('Choose a model.');
  const t = temperatureProblem(k.temperature);
  if (t) errors.temperature = t;
  // A local model has no budgets: their boxes are off, so a value in them cannot stop a run.
  if (isLocalModelId(k.modelName.trim())) return errors;
  const s = budgetProblem(l10n.t('Sequential budget'), k.sequentialBudget);
  if (s) errors.sequentialBudget = s;
  const p = budgetProblem(l10n.t('Parallel budget'), k.parallelBudget);
  if (p) errors.parallelBudget = p;
  return errors;
}

export function promptProblems(p: PromptFields): PromptErrors {
  const errors: PromptErrors = {};
  if (!p.prompt.trim()) errors.prompt = p.context ? l10n.t('Enter a question about the context.') : l10n.t('Enter a prompt.');
  else if (composedPrompt(p).length > LIMITS.promptChars) {
    errors.prompt = l10n.t('The prompt is longer than {0} characters.', LIMITS.promptChars.toLocaleString('en-US'));
  }
  if (p.customQuery && p.queryOnly.length > LIMITS.promptChars) errors.queryOnly = l10n.t('The query part is too long.');
  return errors;
}

/**
 * The prompt the service gets: the context in a fence (longer than any run of backticks inside it, so code with its
 * own fences stays whole and the model can tell it from the question), then the question.
 */
export function composedPrompt(p: PromptFields): string {
  if (!p.context) return p.prompt;
  const longestRun = Math.max(0, ...Array.from(p.context.matchAll(/`+/g), (m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longestRun + 1));
  return `${fence}\n${p.context}\n${fence}\n\n${p.prompt}`;
}

/** The request settings, or undefined while anything is invalid. */
export function toRunSettings(k: Knobs, p: PromptFields): RunSettings | undefined {
  if (Object.keys(knobProblems(k)).length > 0 || Object.keys(promptProblems(p)).length > 0) return undefined;
  const local = isLocalModelId(k.modelName.trim());
  // A local run sends no retrieval and whatever budget is valid (the host ignores both), so its record reads true.
  const budget = (text: string) => (local && budgetProblem('', text) ? 1 : Number(text.trim()));
  return {
    modelName: k.modelName.trim(),
    prompt: composedPrompt(p),
    ...(p.customQuery ? { queryOnly: p.queryOnly } : p.context ? { queryOnly: p.prompt } : {}),
    temperature: Number(k.temperature.trim()),
    useRag: local ? false : k.useRag,
    sequentialBudget: budget(k.sequentialBudget),
    parallelBudget: budget(k.parallelBudget),
    stream: k.stream,
  };
}
