// What a judge model is asked, and how its answer is read. With an expected answer, a judge says whether one answer
// means the same as it (CORRECT or INCORRECT). Without one, a pairwise judge says which of two answers is better (A, B
// or TIE), asked twice with the answers in both orders: judges favour a position, and a verdict that flips with the
// order is a tie. The prompts are shown to the person and editable; the placeholders are replaced literally (never a
// template language). A verdict is the last verdict word of the judge's answer: judges often reason first.

export const DEFAULT_JUDGE_PROMPT = [
  'You grade an answer against the expected answer. Say whether the answer means the same as the expected answer;',
  'wording, case and formatting do not matter, a different fact or number does.',
  '',
  'Question: {question}',
  'Expected answer: {expected}',
  'Answer: {answer}',
  '',
  'Reply with one word: CORRECT or INCORRECT.',
].join('\n');

export const DEFAULT_PAIRWISE_PROMPT = [
  'You compare two answers to the same question. Say which answer is more correct and more helpful.',
  '',
  'Question: {question}',
  '',
  'Answer A: {first}',
  '',
  'Answer B: {second}',
  '',
  'Reply with one word: A, B or TIE.',
].join('\n');

function fill(template: string, values: Record<string, string>): string {
  // One pass over the template, so a placeholder written inside an answer is never replaced in turn.
  return template.replace(/\{(question|expected|answer|first|second)\}/g, (whole, name: string) => values[name] ?? whole);
}

export function judgePrompt(template: string, question: string, expected: string, answer: string): string {
  return fill(template, { question, expected, answer });
}

export function pairwisePrompt(template: string, question: string, first: string, second: string): string {
  return fill(template, { question, first, second });
}

/** CORRECT → true, INCORRECT → false, by the last such word; undefined when the judge said neither. */
export function readJudgeVerdict(answer: string): boolean | undefined {
  const words = [...answer.matchAll(/\b(INCORRECT|CORRECT)\b/gi)];
  const last = words[words.length - 1]?.[1];
  return last === undefined ? undefined : last.toUpperCase() === 'CORRECT';
}

export type PairVerdict = 'first' | 'second' | 'tie';

/**
 * A → first, B → second, TIE → tie, by the last such word standing alone; undefined when the judge said none. Only
 * capital A and B count: a lowercase "a" is an article.
 */
export function readPairVerdict(answer: string): PairVerdict | undefined {
  const said = [...answer.matchAll(/(?<![\p{L}\p{N}])(A|B|[Tt][Ii][Ee])(?![\p{L}\p{N}])/gu)].map((m) => m[1]!.toUpperCase());
  const last = said[said.length - 1];
  return last === 'A' ? 'first' : last === 'B' ? 'second' : last === 'TIE' ? 'tie' : undefined;
}

export type Outcome = 'win' | 'loss' | 'tie';

/**
 * The subject's outcome from the two asks: in `subjectFirst` its answer was A, in `subjectSecond` it was B. Both
 * favouring the subject is a win, both the other a loss; anything else (a split, or a tie in either) is a tie.
 */
export function pairOutcome(subjectFirst: PairVerdict, subjectSecond: PairVerdict): Outcome {
  const one = subjectFirst === 'first' ? 'win' : subjectFirst === 'second' ? 'loss' : 'tie';
  const two = subjectSecond === 'second' ? 'win' : subjectSecond === 'first' ? 'loss' : 'tie';
  return one === two ? one : 'tie';
}
