// The stream profile's inference (§4.2, issue 27): from the first events of a run, *where* each event holds the answer
// and the reasoning, as paths (profileFormat.ts's StreamProfile) that streamReader.ts then reads every later event
// by. It reads events by their shape and by the words of keys and label values (answerText.ts's keyRole), never by a
// list of whole key names. Its rules:
//  1. Text is a non-empty string in an event, at a path (`[]` every item of a list, `[0]` the first of alternatives
//     such as OpenAI's `choices`). Labels (`type`, `id`, `model`, `finish_reason`), error fields and what they hold
//     are never text.
//  2. Never answer or reasoning text: a value shaped like an identifier or an opaque blob (isOpaque: an id, a
//     signature, encrypted content, a URL), and a value repeated unchanged in every event that carried it (an id, a
//     model, a worker name: it does not grow as an answer does). The record holding a value the request sent (the
//     prompt), directly or in its lists, echoes the request and is skipped whole: the event when the value is at its
//     top, only `request` in `{request: {prompt, …}, result: {…}}`. Citations are never text either: a list of
//     records each holding a link (retrieval `sources` of `{title, snippet, url}`, search results, annotations)
//     quotes documents, not the model (isCitationList). A whole answer (not streamed) whose only text is one field
//     named like text is that text however it looks (a model may answer with a hash).
//  3. Reasoning: text under a key that says so (`reasoning_content`, `thinking`), or text whose record (or a record
//     above it, the nearest, unless one further up already said reasoning: inside reasoning all is reasoning)
//     carries a flag saying so: a boolean or number under a key that says reasoning (`thought: true`,
//     `reasoning: 1`), or a label whose value says reasoning (`type: "thinking_delta"`, `channel: "analysis"`). The
//     flag's field and its values go into the profile, so a value it says answer reads as answer
//     (`type: "response.output_text.delta"`). A path whose text a flag has always marked reasoning competes with no
//     answer path.
//  4. A path is sure once it is named like text (`content`, `delta`, `token`), holds prose (whitespace), or carried
//     varying text in two events; then it is read at once. Among answer paths the one in the most events wins, then
//     the one named like text, then prose. Two paths carrying the same text in every event are one text (the first).
//  5. Two paths left tied (the first events echo a request's tool schema) are held, not guessed, until a later
//     event tells them apart (usually the answer's own path appears); at the end of the run a tie that never
//     carried the answer is dropped, and refused (ContractError naming both) only when the run gave no text at all.
//     Reasoning sure meanwhile is read at once, and the tie dropped. A path neither sure nor tied is read only at the
//     end, alone.
// Work is linear in the event: each value is visited once, each record's fields once for its flag and once more when
// its list is looked at for links (citations); an echo's leaves are taken back, not searched for.

import { keyRole } from './hintWords';
import { compareRanks, contract, isAlternatives, isCitationList, isOpaque, MAX_DEPTH, type Obj } from './answerShape';
import { appendKey } from './profilePath';
import { flagSays } from './streamReader';

/** A flag found on a record: its field, its value, and whether that value says reasoning. */
interface Flag {
  from: string;
  value: unknown;
  says: boolean;
}

/** One string of an event, where it stands. */
export interface Leaf {
  path: string;
  text: string;
  /** A key on the way says reasoning. */
  reasoning: boolean;
  /** Its key says text, or reasoning. */
  named: boolean;
  /** The flag of the nearest record on the way that has one. */
  flag: Flag | undefined;
}

/** The record's flag: the first field that says reasoning, else the first field that could (rule 3). */
function flagOf(o: Obj): Flag | undefined {
  let first: Flag | undefined;
  for (const k of Object.keys(o)) {
    const says = flagSays(k, o[k]);
    if (says === undefined) continue;
    if (says) return { from: k, value: o[k], says };
    first ??= { from: k, value: o[k], says };
  }
  return first;
}

/**
 * Walks `v`, pushing its leaves into `out`; true when a value the request sent (`sent`) was met and no record
 * consumed it yet. A record holding such a value, directly or through lists (`messages: [{role, content}]`), echoes
 * the request: everything it pushed is taken back (rule 2). An item of a list is no record of its own here: the echo
 * is the record that holds the list.
 */
function walk(
  v: unknown,
  path: string,
  key: string,
  depth: number,
  reasoning: boolean,
  flag: Flag | undefined,
  out: Leaf[],
  sent: ReadonlySet<string>,
  item: boolean,
): boolean {
  if (typeof v === 'string') {
    if (v === '') return false;
    if (sent.has(v)) return true;
    const role = key === '' ? undefined : keyRole(key);
    out.push({ path, text: v, reasoning, named: role !== undefined && (role.text || role.reasoning), flag });
    return false;
  }
  if (depth > MAX_DEPTH || typeof v !== 'object' || v === null) return false;
  if (Array.isArray(v)) {
    if (isCitationList(v)) return false;
    if (isAlternatives(v)) return walk(v[0], `${path}[0]`, key, depth + 1, reasoning, flag, out, sent, true);
    const each = `${path}[]`;
    let echo = false;
    for (const x of v) if (walk(x, each, key, depth + 1, reasoning, flag, out, sent, true)) echo = true;
    return echo;
  }
  const start = out.length;
  // A record marked reasoning marks everything in it (an OpenAI `reasoning` item's `summary_text` parts).
  const own = flag?.says ? flag : (flagOf(v as Obj) ?? flag);
  let echo = false;
  for (const k of Object.keys(v)) {
    const x = (v as Obj)[k];
    if (typeof x !== 'string' && (typeof x !== 'object' || x === null)) continue;
    const role = keyRole(k);
    // A key whose words say reasoning holds reasoning, whatever label word is beside it (`model_reasoning`).
    if ((role.label && !role.reasoning) || role.error) continue;
    if (walk(x, appendKey(path, k), k, depth + 1, reasoning || role.reasoning, own, out, sent, false)) echo = true;
  }
  if (!echo || item) return echo;
  out.length = start;
  return false;
}

/**
 * The text of one event, string by string in order (rule 1), without the records that echo what the request sent
 * (`sent`: the prompt): a stream's `{type: "request", request: {prompt, …}}` gives nothing, a non-streamed
 * `{request: {prompt, …}, result: {answer: {text}}}` its result's text.
 */
export function eventLeaves(v: unknown, sent: ReadonlySet<string> = NONE): Leaf[] {
  const out: Leaf[] = [];
  // An echo not held by a record (the event a list or the prompt itself) takes the whole event.
  if (walk(v, '', '', 0, false, undefined, out, sent, false)) out.length = 0;
  return out;
}

const NONE: ReadonlySet<string> = new Set();

/** What the run's events so far say of one path. */
interface PathStat {
  /** Events in which it held text. */
  events: number;
  /** The first event's text, its first FIRST_KEPT characters only (bounded memory), and its length. */
  first: string;
  firstLength: number;
  varies: boolean;
  named: boolean;
  prose: boolean;
  /** Every value so far was opaque (rule 2). */
  opaque: boolean;
  reasoning: boolean;
  /** A flag that said reasoning on its text (rule 3). */
  flag?: { from: string; value: string };
  /** Every text so far was marked reasoning by a flag: it competes with no answer path. */
  flaggedAll: boolean;
  order: number;
}

/** One event's text per path (list items joined), as decide() compares events. */
export type EventTexts = Map<string, string>;

/** Characters of a path's first text kept to tell whether it varies: a long value that repeats, repeats from its start. */
const FIRST_KEPT = 1024;
/** Paths followed per run at most: the rest are not candidates (bounded memory, as the keys come from the service). */
const MAX_PATHS = 512;

/** Candidate paths compared for the same text, at most, of each kind. */
const MAX_COMPARED = 16;

/** What the first events decide (undefined: nothing yet). */
export interface Decision {
  answer?: string;
  /** Text paths whose text a flag has marked reasoning so far: read by the flag, answer or reasoning. */
  flagged: string[];
  reasoning: string[];
  flag?: { from: string; value: string };
}

/** The run's statistics of paths and the decision from them (rules 2, 4 and 5). */
export class StreamInference {
  private readonly stats = new Map<string, PathStat>();

  /**
   * `wholeAnswers`: each event is a whole answer (not streamed), so a lone field named like text is its text even
   * when it looks opaque (a model may answer with a hash); in a stream such a value is an id or a signature (rule 2).
   */
  constructor(private readonly wholeAnswers = false) {}

  /** Adds one event's leaves to the statistics; its text per path. */
  see(leaves: readonly Leaf[]): EventTexts {
    const texts: EventTexts = new Map();
    const parts = new Map<string, string[]>();
    for (const l of leaves) {
      let stat = this.stats.get(l.path);
      if (!stat) {
        if (this.stats.size >= MAX_PATHS) continue;
        stat = {
          events: 0,
          first: '',
          firstLength: 0,
          varies: false,
          named: false,
          prose: false,
          opaque: true,
          reasoning: l.reasoning,
          flaggedAll: true,
          order: this.stats.size,
        };
        this.stats.set(l.path, stat);
      }
      stat.named ||= l.named;
      stat.prose ||= /\s/.test(l.text);
      stat.opaque &&= isOpaque(l.text);
      stat.flaggedAll &&= l.flag?.says === true;
      if (!stat.flag && l.flag?.says) stat.flag = { from: l.flag.from, value: String(l.flag.value) };
      let list = parts.get(l.path);
      if (!list) parts.set(l.path, (list = []));
      list.push(l.text);
    }
    for (const [path, list] of parts) {
      const text = list.length === 1 ? list[0]! : list.join('');
      const stat = this.stats.get(path)!;
      if (stat.events === 0) {
        stat.first = text.length > FIRST_KEPT ? text.slice(0, FIRST_KEPT) : text;
        stat.firstLength = text.length;
      } else if (text.length !== stat.firstLength || !text.startsWith(stat.first)) stat.varies = true;
      stat.events++;
      texts.set(path, text);
    }
    return texts;
  }

  /**
   * Where the held events' text is (rules 4 and 5). `final`: no later event will tell a tie apart. `seenText`: the
   * run already gave text. Throws a ContractError for a tie in a run that gave none.
   */
  decide(held: readonly EventTexts[], final: boolean, seenText: boolean, sample: () => unknown): Decision | undefined {
    const present = new Set<string>();
    for (const h of held) for (const p of h.keys()) present.add(p);
    const sure: string[] = [];
    const sureReasoning: string[] = [];
    const flagged: string[] = [];
    const weak: string[] = [];
    const opaque: string[] = [];
    for (const path of present) {
      const s = this.stats.get(path);
      if (s?.opaque && s.named && !s.reasoning) opaque.push(path);
      if (!s || s.opaque || (s.events >= 2 && !s.varies)) continue;
      const isSure = s.named || s.prose || s.events >= 2;
      if (!isSure) weak.push(path);
      else (s.reasoning ? sureReasoning : s.flaggedAll ? flagged : sure).push(path);
    }
    const rank = (p: string) => {
      const s = this.stats.get(p)!;
      return [s.events, s.named ? 1 : 0, s.prose ? 1 : 0, -s.order];
    };
    // The best few only: comparing every pair of many tied paths would cost their square at each held event.
    const answers = distinct(sure.sort((a, b) => compareRanks(rank(b), rank(a))).slice(0, MAX_COMPARED), held);
    const reasoning = distinct(sureReasoning.slice(0, MAX_COMPARED), held);
    let answer: string | undefined;
    const [top, second] = answers;
    if (top !== undefined && (second === undefined || compareRanks(rank(top).slice(0, 3), rank(second).slice(0, 3)) > 0)) answer = top;
    else if (top !== undefined && second !== undefined) {
      // Reasoning sure now is shown now, however long the tie lasts (a model may think for minutes): the tied events
      // are then dropped, as at the end.
      if (!final && reasoning.length === 0 && flagged.length === 0) return undefined;
      if (!seenText && reasoning.length === 0 && flagged.length === 0) {
        throw contract(`two texts and nothing to tell which one is the answer (${top}, ${second})`, sample());
      }
    } else if (reasoning.length === 0 && flagged.length === 0 && final && weak.length === 1) {
      // A lone field of no telling name, in a run with nothing else: its text (`{"zzq": "Hello"}`).
      const only = weak[0]!;
      if (this.stats.get(only)!.reasoning) reasoning.push(only);
      else answer = only;
    } else if (this.wholeAnswers && final && !seenText && reasoning.length + flagged.length + weak.length === 0 && opaque.length === 1) {
      answer = opaque[0];
    }
    if (answer === undefined && reasoning.length === 0 && flagged.length === 0) return undefined;
    const texts = answer === undefined ? flagged : [answer].concat(flagged);
    const flag = texts.map((p) => this.stats.get(p)!.flag).find((f) => f !== undefined);
    return { ...(answer !== undefined ? { answer } : {}), flagged, reasoning, ...(flag ? { flag } : {}) };
  }
}

/** Rule 4: a path whose text equals an earlier path's in every held event that has it is the same text. */
function distinct(paths: readonly string[], held: readonly EventTexts[]): string[] {
  const kept: string[] = [];
  for (const p of paths) {
    const same = kept.some((k) => held.every((h) => !h.has(p) || h.get(k) === h.get(p)));
    if (!same) kept.push(p);
  }
  return kept;
}
