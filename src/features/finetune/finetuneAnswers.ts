// What the finetune wizard asks for, and the rules each answer must meet. Pure (no VS Code) so the same rules check
// what a person types, what a test or e2e script passes programmatically, and run under plain mocha.
import * as path from 'node:path';

export interface FinetuneAnswers {
  /** The base model to tune (sent as `modelType`). */
  baseModel: string;
  /** The custom model to create (sent as `modelName`). */
  modelName: string;
  numQs: number;
  mode: string;
  /** May be empty. */
  useCase: string;
}

/** The mode the spec documents; always offered first. */
export const DOCUMENTED_MODE = 'pretraining';
export const NUM_QS_MIN = 1;
export const NUM_QS_MAX = 10_000;
export const MODEL_NAME_MAX = 64;
const MODEL_NAME_PATTERN = /^[A-Za-z0-9._-]+$/;
const MODE_MAX = 100;

/** Why a model name cannot be used, or undefined when it can. `taken`: names of existing models and pending jobs. */
export function modelNameProblem(value: string, taken: Iterable<string> = []): string | undefined {
  if (value.length === 0) return 'Enter a name for the new model.';
  if (value.length > MODEL_NAME_MAX) return `The name is ${value.length} characters long; at most ${MODEL_NAME_MAX} are allowed.`;
  if (!MODEL_NAME_PATTERN.test(value)) {
    const bad = [...new Set(value.replace(/[A-Za-z0-9._-]/g, ''))].map((c) => (c === ' ' ? 'space' : `"${c}"`));
    return `Use only letters, digits, ".", "_" and "-" (not ${bad.join(', ')}).`;
  }
  const lower = value.toLowerCase();
  for (const name of taken) {
    // Case-insensitively: a service that folds case would refuse it, and two names differing in case confuse people.
    if (name.toLowerCase() === lower) {
      return name === value ? `A model named ${name} already exists.` : `A model named ${name} already exists (differs only in case).`;
    }
  }
  return undefined;
}

/** The number typed for numQs, or a reason it is not acceptable. */
export function parseNumQs(text: string): { value: number } | { problem: string } {
  const t = text.trim();
  if (!/^\d+$/.test(t)) return { problem: `Enter a whole number from ${NUM_QS_MIN} to ${NUM_QS_MAX}.` };
  const value = Number(t);
  if (value < NUM_QS_MIN || value > NUM_QS_MAX) return { problem: `Enter a whole number from ${NUM_QS_MIN} to ${NUM_QS_MAX}.` };
  return { value };
}

export function modeProblem(value: string): string | undefined {
  const t = value.trim();
  if (t.length === 0) return 'Enter a mode, for example pretraining.';
  if (t.length > MODE_MAX) return `A mode is at most ${MODE_MAX} characters.`;
  // eslint-disable-next-line no-control-regex -- a form field with control characters is never what was meant
  if (/[\x00-\x1f\x7f]/.test(t)) return 'A mode cannot contain control characters.';
  return undefined;
}

/**
 * A free name like `handbook-2025-06-01` from the first file and the date, made to fit the rules and suffixed
 * (`-2`, `-3`, …) until no existing model or pending job has it.
 */
export function suggestModelName(firstFile: string | undefined, taken: Iterable<string>, now = new Date()): string {
  const date = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
  const stem = path
    .basename(firstFile ?? '', path.extname(firstFile ?? ''))
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '') // accents off: "Résumé" -> "Resume"
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[-._]+|[-._]+$/g, '')
    .replace(/-{2,}/g, '-');
  const takenLower = new Set([...taken].map((n) => n.toLowerCase()));
  const maxStem = MODEL_NAME_MAX - date.length - 1 - 4; // room for "-" + date + a "-999" suffix
  const base = `${(stem || 'model').slice(0, maxStem).replace(/[-._]+$/, '')}-${date}`;
  for (let i = 1; i < 1000; i++) {
    const candidate = i === 1 ? base : `${base}-${i}`;
    if (!takenLower.has(candidate.toLowerCase())) return candidate;
  }
  return base;
}

/** Every problem of a complete set of answers (used for programmatic calls, which skip the wizard's checks). */
export function answersProblems(a: FinetuneAnswers, taken: Iterable<string> = []): string[] {
  const problems: string[] = [];
  if (!a.baseModel.trim()) problems.push('baseModel: choose a base model.');
  const name = modelNameProblem(a.modelName, taken);
  if (name) problems.push(`modelName: ${name}`);
  if (!Number.isInteger(a.numQs) || a.numQs < NUM_QS_MIN || a.numQs > NUM_QS_MAX) {
    problems.push(`numQs: a whole number from ${NUM_QS_MIN} to ${NUM_QS_MAX} is needed.`);
  }
  const mode = modeProblem(a.mode);
  if (mode) problems.push(`mode: ${mode}`);
  return problems;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}
