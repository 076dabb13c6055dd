// Choose How to Read… for a start answer whose job id could not be read (§4.3/§4.5): the fields a person may choose
// from (plain text and numbers, one place each: a list's items are other things), those whose values the inference
// would take for a job id first (isJobIdValue: an identifier, no state or type word, nothing the request sent, never a
// key name), then the part that keeps the chosen place, and the kept answer read again by it.
import { answerFields, type AnswerField } from './answerFields';
import { ContractError } from './errors';
import { EACH } from './profilePath';
import type { StartedJobProfile } from './profileFormat';
import { readStartedJob, type StartAnswer } from './startedJob';
import { isJobIdValue } from './startedJobInference';
import type { StartedJob } from './types';

export type StartedJobKind = 'finetune' | 'evaluation';

/** The fields of an unreadable start answer that could hold its job id: id-like values first, then numbers, then the rest. */
export function startedJobFields(body: unknown, answer: StartAnswer): AnswerField[] {
  const sent = new Set(answer.sent ?? []);
  // A number's samples are its digits, which are identifiers too: only text is judged by the inference's value rules.
  const order = (f: AnswerField) =>
    f.types.includes('text') && f.samples.some((s) => isJobIdValue(s, sent)) ? 0 : f.types.includes('number') ? 1 : 2;
  return answerFields(body)
    .filter((f) => !f.segments.includes(EACH) && (f.types.includes('text') || f.types.includes('number')))
    .map((f, i) => ({ f, i, o: order(f) }))
    .sort((a, b) => a.o - b.o || a.i - b.i)
    .map(({ f }) => f);
}

/** The job the answer names at `path`, or undefined when nothing there is a job id (the place is then not kept). */
export function readByChosenPlace(body: unknown, answer: StartAnswer, path: string): StartedJob | undefined {
  try {
    const { job, from } = readStartedJob(body, answer, path);
    // A place that does not fit is inferred again by readStartedJob: only the chosen place's own reading counts here.
    return from === path ? job : undefined;
  } catch (e) {
    if (e instanceof ContractError) return undefined;
    throw e;
  }
}

/** The started job part with `kind`'s place chosen by the person (the other endpoint's place kept as it is). */
export function withChosenPlace(kept: StartedJobProfile | undefined, kind: StartedJobKind, path: string): StartedJobProfile {
  const part: StartedJobProfile = { by: 'chosen' };
  if (kept?.finetune !== undefined) part.finetune = kept.finetune;
  if (kept?.evaluation !== undefined) part.evaluation = kept.evaluation;
  part[kind] = path;
  return part;
}
