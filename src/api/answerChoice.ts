// Choose How to Read… for an inference answer (issue 27, item 2): the fields a person can choose the answer's text
// (and, optionally, the reasoning's) from, and the profile part their choice makes. A non-streamed answer is one
// record; a stream is handed over as its first events (a list), and a stream profile's paths are relative to one
// event, so the list's own `[]` is left out of each path. Only text is offered: numbers and flags are never the answer.

import { answerFields, type AnswerField } from './answerFields';
import { EACH, formatPath } from './profilePath';
import type { StreamProfile } from './profileFormat';

/** The text fields of an answer nothing could read, as paths a profile part of `part` reads. */
export function answerChoiceFields(part: 'answer' | 'stream', body: unknown): AnswerField[] {
  if (part === 'stream' && !Array.isArray(body)) return [];
  const fields = answerFields(body).filter((f) => f.types.includes('text'));
  const out: AnswerField[] = [];
  for (const f of fields) {
    const segments = part === 'stream' ? f.segments.slice(1) : f.segments;
    // The answer itself as a string is read without any profile: nothing to choose.
    if (segments.length === 0 || (part === 'stream' && f.segments[0] !== EACH)) continue;
    out.push({ ...f, segments, path: formatPath(segments) });
  }
  return out;
}

/** The part a person's choice makes: the answer's text at `answer`, the reasoning's at `reasoning` when chosen. */
export function chosenAnswerProfile(answer: string, reasoning?: string): StreamProfile {
  return { answer: [answer], reasoning: reasoning === undefined || reasoning === answer ? [] : [reasoning], by: 'chosen' };
}
