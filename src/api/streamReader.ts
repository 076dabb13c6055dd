// A stream's event read by a known profile (profileFormat.ts's StreamProfile): follow its paths, map the flag's value,
// no search of the event's structure. Every event of a run but the first few takes this path, so it stays small and
// linear in what the paths reach. What it cannot read (no path holds text) goes back to the inference
// (streamReading.ts), which may find that the profile no longer fits.

import type { InferencePiece } from './answerText';
import { isLabelValue, isReasoningName, keyRole } from './hintWords';
import { isCitationList, isObj } from './answerShape';
import { MAX_MAPPED } from './profileFormat';
import { EACH, type Segment } from './profilePath';

/** A profile with its paths parsed, as the reader uses it; the run that holds it may add paths and flag values. */
export interface CompiledStream {
  answer: { text: string; path: Segment[] }[];
  reasoning: { text: string; path: Segment[] }[];
  flag?: { from: string; map: Map<string, 'reasoning' | 'answer'> };
}

/** One string at a path, with the value of the flag field nearest above it (undefined when none is on the way). */
export interface Found {
  text: string;
  flag: Scalar | undefined;
}

type Scalar = string | number | boolean;

/**
 * Whether a flag field's value says its record is reasoning: true, false, or undefined when the field is no flag.
 * A boolean or number under a key that says reasoning (`thought: true`, `reasoning: 1`); a short label under a key
 * that says a kind, by the words of its value (`type: "thinking"`, `channel: "analysis"`).
 */
export function flagSays(from: string, value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return keyRole(from).reasoning ? value : undefined;
  if (typeof value === 'number') return keyRole(from).reasoning ? value !== 0 : undefined;
  if (typeof value === 'string' && keyRole(from).kind && isLabelValue(value)) return isReasoningName(value);
  return undefined;
}

/**
 * Every string at `path` in `v` (`[]`: each item), into `out`, with the value of `flagFrom` nearest above it, unless a
 * value further up `sticks` (says reasoning: everything inside a reasoning record is reasoning).
 */
export function textsAt(
  v: unknown,
  path: readonly Segment[],
  flagFrom: string | undefined,
  out: Found[],
  sticks: (flag: Scalar) => boolean = () => false,
  i = 0,
  flag?: Scalar,
): void {
  let f = flag;
  if (flagFrom !== undefined && isObj(v) && Object.hasOwn(v, flagFrom) && (f === undefined || !sticks(f))) {
    const x = v[flagFrom];
    // Only a scalar is a flag's value; a record under that name (a nested `type` object) says nothing.
    if (typeof x === 'string' || typeof x === 'number' || typeof x === 'boolean') f = x;
  }
  if (i === path.length) {
    if (typeof v === 'string') out.push({ text: v, flag: f });
    return;
  }
  const s = path[i]!;
  if (typeof s === 'number') {
    // A profile kept before citations were known may hold a path into them (`sources[].snippet`): never text.
    if (!Array.isArray(v) || isCitationList(v)) return;
    if (s === EACH) for (const x of v) textsAt(x, path, flagFrom, out, sticks, i + 1, f);
    else if (s < v.length) textsAt(v[s], path, flagFrom, out, sticks, i + 1, f);
  } else if (isObj(v) && Object.hasOwn(v, s)) textsAt(v[s], path, flagFrom, out, sticks, i + 1, f);
}

/**
 * The pieces of one event by the profile: its reasoning, then its answer. Every path of the profile that holds text
 * is read, but a path whose text equals one read before in the event is the same text (`token` beside `text`). A flag
 * value the map does not hold yet is read by its words and added (`learned` is called: the profile changed). Empty
 * when no path holds text.
 */
export function readByProfile(v: unknown, p: CompiledStream, learned: () => void): InferencePiece[] {
  const flag = p.flag;
  /** What a flag value says: the map's word for it, else its own words (then kept in the map). */
  const kindOf = (value: Scalar): 'reasoning' | 'answer' => {
    if (!flag) return 'answer';
    const key = String(value);
    const known = flag.map.get(key);
    if (known !== undefined) return known;
    const kind = flagSays(flag.from, value) ? 'reasoning' : 'answer';
    // Bounded, as the values come from the service: past the cap a value is read by its words each time.
    if (flag.map.size < MAX_MAPPED) {
      flag.map.set(key, kind);
      learned();
    }
    return kind;
  };
  const sticks = (value: Scalar) => kindOf(value) === 'reasoning';
  const reasoning: InferencePiece[] = [];
  const answer: InferencePiece[] = [];
  /** The texts read so far in this event, per kind, each path's text of that kind joined. */
  const read = { reasoning: [] as string[], answer: [] as string[] };
  const found: Found[] = [];
  /**
   * Reads one path. A path whose text of one kind equals a text of that kind read before in the event is the same
   * text: `token` beside `delta.text`, or beside `delta.thinking` when its flag says reasoning
   * (`{type: "thinking", token, delta: {thinking}}`). Only texts of one kind are compared: a reasoning token may
   * equal an answer token.
   */
  const take = (path: readonly Segment[], from: string | undefined, kind: (f: Found) => 'reasoning' | 'answer') => {
    found.length = 0;
    textsAt(v, path, from, found, sticks);
    const joined = { reasoning: '', answer: '' };
    for (const f of found) joined[kind(f)] += f.text;
    const fresh = {
      reasoning: joined.reasoning !== '' && !read.reasoning.includes(joined.reasoning),
      answer: joined.answer !== '' && !read.answer.includes(joined.answer),
    };
    if (fresh.reasoning) read.reasoning.push(joined.reasoning);
    if (fresh.answer) read.answer.push(joined.answer);
    for (const f of found) {
      const k = kind(f);
      if (f.text !== '' && fresh[k]) (k === 'reasoning' ? reasoning : answer).push({ kind: k, text: f.text });
    }
  };
  for (const r of p.reasoning) take(r.path, undefined, () => 'reasoning');
  for (const a of p.answer) take(a.path, flag?.from, (f) => (f.flag === undefined ? 'answer' : kindOf(f.flag)));
  for (const x of answer) reasoning.push(x);
  return reasoning;
}
