// One streamed run's events read by a profile (§4.2, issue 27): the one kept for the service when there is one, read
// at once event by event (streamReader.ts: no buffering to decide), and inferred from the run's first events when
// there is none or an event no longer fits it (streamInference.ts, its rules at its top). An event the profile reads
// nothing from goes to the inference; what it decides is added to the profile and read from then on; events it cannot
// decide yet (tied paths: an echo of the request, retrieval sources) are held until one does, or the run ends.
// At the end, report() gives the profile to keep when the run changed it, with what changed for the log.
// Each event is read through the one routine of every kind of answer (answerReading.ts readAnswer), by the run's
// profile, else the API families (families.ts), else this inference: the stream's events and the whole answers (each
// one event) are two kinds of answer described below (STREAM_KINDS), the run their context.
// A kept profile that was inferred, and whose answer paths are all of no telling name (`note`: kept from an answer
// that had nothing better), is inferred again when one of the run's first events has a field the inference ranks
// above it (named like text: `text`, `answer`), as a first answer that had only a note does not decide how every
// later one is read (issue 35). A profile the person chose or the setting gave is read as it is.
//
// Bounded: at most MAX_HELD_EVENTS events or MAX_HELD_CHARS characters are held; past either the inference decides as
// at the end. Each event is read by the profile at most twice (when read, and when a decision releases it held).

import type { InferencePiece } from './answerText';
import { changeWords, readAnswer, type AnswerKind } from './answerReading';
import { keyRole } from './hintWords';
import { isOpaque } from './answerShape';
import { lastKey, parsePath, type Segment } from './profilePath';
import { describeStreamProfile } from './profileWords';
import type { ProfileSource, StreamProfile } from './profileFormat';
import { readByProfile, type CompiledStream } from './streamReader';
import { eventLeaves, StreamInference, type EventTexts } from './streamInference';

/** What a run that changed the profile reports: the profile to keep, and what changed, in words, for the log. */
export interface StreamReport {
  profile: StreamProfile;
  change: string;
}

const MAX_HELD_EVENTS = 64;
/** A run's first events kept for Choose How to Read… when nothing reads them: enough to see their fields, bounded. */
const MAX_FIRST_EVENTS = 16;
const MAX_FIRST_CHARS = 256 * 1024;
const MAX_HELD_CHARS = 4 * 1024 * 1024;
/** Paths of each kind a profile keeps; the oldest goes first (a service that changed its shape twice). */
const MAX_PATHS_KEPT = 8;
/** A value the request sent is an echo only when long enough that a token never equals it by chance. */
const MIN_ECHO_CHARS = 16;

/** Whether a path's last key is named like text or reasoning, as the inference ranks a leaf (streamInference.ts). */
function isNamed(path: readonly Segment[]): boolean {
  const key = lastKey(path);
  if (key === undefined) return false;
  const role = keyRole(key);
  return role.text || role.reasoning;
}

/** A run's profile as it reads events: its paths parsed (streamReader.ts), and where it came from. */
type RunProfile = CompiledStream & { by: ProfileSource };

function compile(p: StreamProfile): RunProfile {
  return {
    answer: p.answer.map((text) => ({ text, path: parsePath(text)! })),
    reasoning: p.reasoning.map((text) => ({ text, path: parsePath(text)! })),
    ...(p.flag ? { flag: { from: p.flag.from, map: new Map(Object.entries(p.flag.map)) } } : {}),
    by: p.by,
  };
}

function dataOf(p: RunProfile): StreamProfile {
  const profile: StreamProfile = { answer: p.answer.map((a) => a.text), reasoning: p.reasoning.map((r) => r.text), by: p.by };
  if (p.flag) profile.flag = { from: p.flag.from, map: Object.fromEntries(p.flag.map) };
  return profile;
}

/**
 * The stream's events and the whole answers as kinds of answer: an event read by the run's profile (read), else by
 * the run's inference (infer: the run's profile, grown by what its held events decide). Being the run's own, the
 * profile changes in place; what changed is told once, when the run reports.
 */
function streamKind(part: 'stream' | 'answer'): AnswerKind<RunProfile, InferencePiece[], StreamReading> {
  return {
    part,
    adopt: (reading) => compile(reading as StreamProfile),
    read: (v, profile, run) => run.byProfile(v, profile),
    infer: (v, run) => ({ profile: run.profile, value: run.inferEvent(v) }),
    describe: (p) => describeStreamProfile(dataOf(p)),
    same: (a, b) => a === b,
  };
}

export const STREAM_KINDS = { stream: streamKind('stream'), answer: streamKind('answer') };

interface Held {
  v: unknown;
  texts: EventTexts;
  reasoning: boolean;
}

export class StreamReading {
  /** Text came in this run: a closing event that says done then repeats it, and is not read again (answerText.ts). */
  seen = false;
  /** The run's profile: the kept one, grown by what the run infers (or a family's reading it takes). */
  readonly profile: RunProfile;
  private changed = false;
  /** The event being read: its SSE type said reasoning, and its length. */
  private eventReasoning = false;
  private eventChars = 0;
  private readonly inference: StreamInference;
  private held: Held[] = [];
  private heldChars = 0;
  private readonly first: unknown[] = [];
  private firstChars = 0;
  /** The request's values long enough to be told from text: what an echo of the request holds. */
  readonly sent: ReadonlySet<string>;
  /** The kept profile is inferred and its answer paths weak: the first events are looked at for a stronger field. */
  private recheck: boolean;
  private rechecked = 0;

  constructor(
    private readonly known?: StreamProfile,
    sent: readonly (string | undefined)[] = [],
    /** What is read, for the change's words: a stream's events, or non-streamed answers (one event each). */
    private readonly what: 'stream' | 'answer' = 'stream',
  ) {
    this.inference = new StreamInference(what === 'answer');
    this.profile = { answer: [], reasoning: [], by: known?.by ?? 'inferred' };
    if (known) {
      for (const p of known.answer) this.add('answer', p);
      for (const p of known.reasoning) this.add('reasoning', p);
      if (known.flag) this.profile.flag = { from: known.flag.from, map: new Map(Object.entries(known.flag.map)) };
    }
    this.sent = new Set(sent.filter((s): s is string => s !== undefined && s.length >= MIN_ECHO_CHARS));
    this.recheck = known?.by === 'inferred' && this.profile.answer.length > 0 && this.profile.answer.every((a) => !isNamed(a.path));
  }

  /**
   * How the profile reads an event that is exactly `{"<name>": "<string>"}` (the fast path of answerText.ts), or
   * undefined when only the general reading can tell.
   */
  fieldKind(name: string): 'answer' | 'reasoning' | undefined {
    if (this.profile.flag?.from === name || this.held.length > 0) return undefined;
    if (this.profile.reasoning.some((r) => r.text === name)) return 'reasoning';
    return this.profile.answer.some((a) => a.text === name) ? 'answer' : undefined;
  }

  /** The pieces of one parsed event (`reasoning`: its SSE type said so), and of held events it lets be decided. */
  read(v: unknown, reasoning: boolean, chars: number): InferencePiece[] {
    if (this.first.length < MAX_FIRST_EVENTS && this.firstChars + chars <= MAX_FIRST_CHARS) {
      this.first.push(v);
      this.firstChars += chars;
    }
    // A stronger field than the kept answer paths: the event goes to the inference, not read by them first.
    const stronger = this.recheck && this.strongerField(v);
    this.eventReasoning = reasoning;
    this.eventChars = chars;
    const { value, profile } = readAnswer(STREAM_KINDS[this.what], v, stronger ? undefined : this.profile, this);
    // A family's reading (families.ts) read it: taken into the run's profile, as the inference's paths are.
    if (profile !== undefined && profile !== this.profile) this.adopt(profile);
    return value;
  }

  /** The pieces of an event no profile reads, and of held events it lets be decided (STREAM_KINDS's inference). */
  inferEvent(v: unknown): InferencePiece[] {
    // The records echoing what the request sent are left out: none of their text is the answer (streamInference.ts).
    const leaves = eventLeaves(v, this.sent);
    if (leaves.length === 0) return [];
    this.held.push({ v, texts: this.inference.see(leaves), reasoning: this.eventReasoning });
    this.heldChars += this.eventChars;
    return this.decide(this.held.length >= MAX_HELD_EVENTS || this.heldChars >= MAX_HELD_CHARS);
  }

  /** The run's first events (bounded), as parsed: what a person chooses from when nothing could read them. */
  firstEvents(): unknown[] {
    return this.first.slice();
  }

  /** The end of the run: held events decided (a tie dropped, or refused in a run that gave no text). */
  end(): InferencePiece[] {
    return this.held.length === 0 ? [] : this.decide(true);
  }

  /** The profile to keep when this run inferred or changed it; undefined when the known one read every event. */
  report(): StreamReport | undefined {
    const p = this.profile;
    if (!this.changed || p.answer.length + p.reasoning.length === 0) return undefined;
    const profile = { ...dataOf(p), by: 'inferred' as const };
    return { profile, change: changeWords({ part: this.what, describe: describeStreamProfile }, this.known, profile) };
  }

  private decide(final: boolean): InferencePiece[] {
    const decision = this.inference.decide(
      this.held.map((h) => h.texts),
      final,
      this.seen,
      () => this.held[0]?.v,
    );
    if (decision) {
      if (decision.answer !== undefined) this.add('answer', decision.answer);
      for (const f of decision.flagged) this.add('answer', f);
      for (const r of decision.reasoning) this.add('reasoning', r);
      const flag = decision.flag;
      if (flag && !this.profile.flag) {
        this.profile.flag = { from: flag.from, map: new Map([[flag.value, 'reasoning']]) };
        this.changed = true;
      }
    } else if (!final) return [];
    // Decided (or the end, when nothing more will tell): the held events are read by the profile, then dropped.
    const held = this.held;
    this.held = [];
    this.heldChars = 0;
    const out: InferencePiece[] = [];
    for (const h of held) for (const p of this.byProfile(h.v, this.profile, h.reasoning) ?? []) out.push(p);
    return out;
  }

  /**
   * Whether the event has an answer field the inference ranks above every kept answer path (named like text, where
   * they are not: streamInference.ts rule 4); then those paths are dropped, for the inference to decide again. Looked
   * at in the run's first events only (what the inference itself decides from), then no more.
   */
  private strongerField(v: unknown): boolean {
    if (++this.rechecked >= MAX_FIRST_EVENTS) this.recheck = false;
    const kept = new Set(this.profile.answer.map((a) => a.text));
    const found = eventLeaves(v, this.sent).some(
      (l) => l.named && !l.reasoning && l.flag?.says !== true && !kept.has(l.path) && !isOpaque(l.text),
    );
    if (!found) return false;
    this.recheck = false;
    this.profile.answer.length = 0;
    this.changed = true;
    return true;
  }

  /** The pieces of an event by `profile` (the run's, or a family's tried), or undefined when it reads none. */
  byProfile(v: unknown, profile: CompiledStream, reasoning = this.eventReasoning): InferencePiece[] | undefined {
    if (profile.answer.length + profile.reasoning.length === 0) return undefined;
    const pieces = readByProfile(v, profile, () => {
      if (profile === this.profile) this.changed = true;
    });
    if (pieces.length === 0) return undefined;
    this.seen = true;
    if (reasoning) for (const p of pieces) p.kind = 'reasoning';
    return pieces;
  }

  /** The paths of a family's reading that read an event (families.ts), taken as the inference's would be. */
  private adopt(family: CompiledStream): void {
    for (const p of family.answer) this.add('answer', p.text);
    for (const p of family.reasoning) this.add('reasoning', p.text);
    if (family.flag && !this.profile.flag) {
      this.profile.flag = family.flag;
      this.changed = true;
    }
  }

  private add(kind: 'answer' | 'reasoning', text: string): void {
    const list = this.profile[kind];
    if (list.some((x) => x.text === text)) return;
    const path = parsePath(text);
    if (!path) return;
    list.push({ text, path });
    if (list.length > MAX_PATHS_KEPT) list.shift();
    if (this.known === undefined || !this.known[kind].includes(text)) this.changed = true;
  }
}
