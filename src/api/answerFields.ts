// The fields of an answer a person can choose from when the extension cannot read it (Choose How to Read…): every
// place that holds a plain value (text, number, true/false), as a profile path (`[]` for the items of a list, so one
// field of many records is one choice), with a few of its values to recognise it by. Bounded whatever the answer's
// size: a list is looked at through its first items, and the walk stops after a fixed number of values, so an answer
// of a million records costs what one of a hundred does.

import { MAX_DEPTH } from './answerShape';
import { EACH, formatPath, type Segment } from './profilePath';

export type FieldValueType = 'text' | 'number' | 'boolean';

export interface AnswerField {
  /** Where it is, as a profile writes it: `data.jobs[].state`. */
  path: string;
  segments: Segment[];
  /** Its first distinct values, as text (the service's words: neutralise before showing them). */
  samples: string[];
  /** How many values were seen there (among the items looked at). */
  seen: number;
  types: FieldValueType[];
}

/** Items of each list looked at: enough to see a field's values, few enough to stay fast on any answer. */
const ITEMS_PER_LIST = 50;
/** Values looked at in all. */
const MAX_VALUES = 5_000;
const SAMPLES = 3;
/** A sample longer than this is cut: it only has to be recognised. */
const SAMPLE_CHARS = 60;

/** The answer's fields holding plain values, in the order they first appear (shallow before deep). */
export function answerFields(body: unknown, max = 40): AnswerField[] {
  const byPath = new Map<string, AnswerField>();
  let values = 0;
  let level: { value: unknown; path: Segment[] }[] = [{ value: body, path: [] }];
  for (let depth = 0; depth <= MAX_DEPTH && level.length > 0 && values < MAX_VALUES; depth++) {
    const next: typeof level = [];
    for (const { value, path } of level) {
      if (values >= MAX_VALUES) break;
      const type = typeOf(value);
      if (type) {
        values++;
        see(byPath, path, value, type, max);
      } else if (Array.isArray(value)) {
        const items = Math.min(value.length, ITEMS_PER_LIST);
        for (let i = 0; i < items; i++) next.push({ value: value[i], path: [...path, EACH] });
      } else if (typeof value === 'object' && value !== null) {
        for (const [key, inner] of Object.entries(value)) next.push({ value: inner, path: [...path, key] });
      }
    }
    level = next;
  }
  return [...byPath.values()];
}

function typeOf(v: unknown): FieldValueType | undefined {
  if (typeof v === 'string') return v.trim() === '' ? undefined : 'text';
  if (typeof v === 'number') return Number.isFinite(v) ? 'number' : undefined;
  if (typeof v === 'boolean') return 'boolean';
  return undefined;
}

function see(byPath: Map<string, AnswerField>, segments: Segment[], value: unknown, type: FieldValueType, max: number): void {
  const path = formatPath(segments);
  let field = byPath.get(path);
  if (!field) {
    if (byPath.size >= max) return;
    field = { path, segments, samples: [], seen: 0, types: [] };
    byPath.set(path, field);
  }
  field.seen++;
  if (!field.types.includes(type)) field.types.push(type);
  const text = String(value).trim();
  const sample = text.length > SAMPLE_CHARS ? `${text.slice(0, SAMPLE_CHARS - 1)}…` : text;
  if (field.samples.length < SAMPLES && !field.samples.includes(sample)) field.samples.push(sample);
}
