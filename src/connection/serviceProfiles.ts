// The service profiles the extension keeps, one per service origin (the origin the key is bound to): inferred from an
// answer or chosen by the person, stored in globalState (SERVICE_PROFILES_KEY) through editGlobalState, and read at
// each use, not at activation. The application-scoped setting `hostedReasoning.serviceProfile` (profiles by origin,
// written by hand or shared by a team) wins over what is kept for its origin; a workspace cannot set it.
// One policy for every part (every kind of answer), through the book's three calls:
//  - A part inferred from an answer is kept (and its change logged) only once a second answer agrees, and at most so
//    many times per window (inferredKeeping.ts says why); a part the person chose is kept at once.
//  - A change is logged once per distinct change of a part: answers read at once by the old profile all report it.
//  - A setting's part that no longer fits: the part inferred instead is read by while the setting stays as it was.
//    The setting is not ours to rewrite, so without that the setting's part was tried, failed, and the same part
//    inferred, logged and kept again at every answer.
//  - A person's choice that no longer fits is inferred again as any kept part is, and replaced once two answers agree.
// In memory only, per origin: the last answer of each part (of each job, for a status), readable or not, for Choose
// How to Read… (which takes no path from its arguments) to show how it is read now; the first names last read (for
// Show How the Service Is Read).
import * as vscode from 'vscode';
import { describePart, PART_WORDS } from '../api/profileWords';
import { learnedPart, originProfile, withOrigin } from '../api/profileBook';
import type { AnswerContext, Learned, PartProfile, ProfileBook, ProfilePart } from '../api/profileBook';
import type { ServiceProfile } from '../api/profileFormat';
import { isRecord } from '../api/strictChecks';
import { editGlobalState, UNCHANGED, type StoredState } from '../globalStateEdit';
import { InferredKeeping } from './inferredKeeping';
import { SERVICE_PROFILES_KEY } from '../storageKeys';
import type { Log } from '../log';
import { SECTION } from './config';

export const PROFILE_SETTING = 'serviceProfile';

/** An answer of one part kept in this window for Choose How to Read…. */
export interface KeptAnswer<P extends ProfilePart = ProfilePart> {
  part: P;
  body: unknown;
  context?: AnswerContext<P>;
  /** Nothing could read it (or two ways could). */
  unreadable: boolean;
  /** The profile that read it (a job's status may be read by one not yet kept): what Choose How to Read… shows. */
  profile?: PartProfile<P>;
}

/** Answers kept in memory, the oldest going first: one per part and origin, one per job for statuses. */
const MAX_ANSWERS = 64;

export class ServiceProfiles implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<string | undefined>();
  /** Fires with the origin whose profile a person chose, or undefined when the setting changed. */
  readonly onDidChange = this.changed.event;
  /** The last answer of each place, by `origin part[ jobId]`: map order is recency (an answer kept again goes last). */
  private readonly answers = new Map<string, KeptAnswer>();
  private readonly samples = new Map<string, string[]>();
  private readonly disposables: vscode.Disposable[] = [this.changed];
  /** The setting's text last found wrong, so that it is logged once, not at every list. */
  private reported: string | undefined;
  /** Per `origin part`, the last change logged: each distinct change is told once, not at every answer. */
  private readonly told = new Map<string, string>();
  /** Per `origin part`, the setting's part (as text) the answers no longer fit, and the one inferred instead. */
  private readonly settingMisfits = new Map<string, { setting: string; inferred: unknown }>();
  private readonly keeping = new InferredKeeping();
  /** The parts (`origin part`) said to change too often to keep: said once. */
  private readonly spent = new Set<string>();

  constructor(
    private readonly state: StoredState,
    private readonly log: Log,
  ) {
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(`${SECTION}.${PROFILE_SETTING}`)) this.changed.fire(undefined);
      }),
    );
  }

  /** What the client of `origin` reads and reports through. */
  bookFor(origin: string): ProfileBook {
    return {
      profile: (part) => this.profile(origin, part),
      learned: (part, reading) => this.learned(origin, part, reading),
      unreadable: (part, body, context) => this.remember(origin, { part, body, context, unreadable: true }),
    };
  }

  /**
   * The profile `part` of `origin` is read by: the setting's (or, once the answers no longer fit it, the one inferred
   * instead while the setting stays as it was), else the one kept.
   */
  profile<P extends ProfilePart>(origin: string, part: P): PartProfile<P> | undefined {
    const setting = this.fromSetting(origin)?.[part];
    if (!setting) return this.stored(origin)?.[part] as PartProfile<P> | undefined;
    const misfit = this.settingMisfits.get(`${origin} ${part}`);
    return misfit?.setting === JSON.stringify(setting) ? (misfit.inferred as PartProfile<P>) : setting;
  }

  /** The last answer of `part` of `origin` in this window (of the job `jobId`, for a status). */
  lastAnswer<P extends ProfilePart>(origin: string, part: P, jobId?: string): KeptAnswer<P> | undefined {
    return this.answers.get(answerKey(origin, part, jobId)) as KeptAnswer<P> | undefined;
  }

  /** The latest answer of `origin` in this window: of any part or of one of `parts`; with `unreadable`, nothing could read it. */
  latest(origin: string, which: { parts?: readonly ProfilePart[]; unreadable?: boolean } = {}): KeptAnswer | undefined {
    let last: KeptAnswer | undefined;
    for (const [key, answer] of this.answers) {
      if (!key.startsWith(`${origin} `) || (which.unreadable && !answer.unreadable)) continue;
      if (!which.parts || which.parts.includes(answer.part)) last = answer;
    }
    return last;
  }

  /** Forgets the answer of a place (a start's answer, once its job is followed). */
  forgetAnswer(origin: string, part: ProfilePart, jobId?: string): void {
    this.answers.delete(answerKey(origin, part, jobId));
  }

  /** The first names the last list of `origin` gave, in this window. */
  lastSamples(origin: string): string[] | undefined {
    return this.samples.get(origin);
  }

  /**
   * Keeps how to read `part` of `origin` as the person chose it (by: 'chosen'): read by it from the next answer on;
   * the place's answer is no longer unreadable.
   */
  async choose<P extends ProfilePart>(origin: string, part: P, profile: PartProfile<P>, jobId?: string): Promise<void> {
    const chosen = { ...profile, by: 'chosen' } as PartProfile<P>;
    this.log.info(`${origin}: ${PART_WORDS[part].name} is read as chosen: ${describePart(part, chosen)}`);
    this.told.delete(`${origin} ${part}`);
    await this.keep(origin, part, chosen);
    const answer = this.answers.get(answerKey(origin, part, jobId));
    if (answer) answer.unreadable = false;
    this.changed.fire(origin);
  }

  /** The part as kept for `origin` (not the setting's): what a person's choice of one field is added to. */
  kept<P extends ProfilePart>(origin: string, part: P): PartProfile<P> | undefined {
    return this.stored(origin)?.[part] as PartProfile<P> | undefined;
  }

  private learned<P extends ProfilePart>(origin: string, part: P, reading: Learned<P>): void {
    const { profile, change, body, context, samples } = reading;
    if (samples) this.samples.set(origin, samples);
    const { place, value } = learnedPart(part, reading, () => this.stored(origin));
    if (body !== undefined) this.remember(origin, { part, body, context, unreadable: false, profile: value });
    if (change === undefined || profile.by === 'setting') return;
    if (!this.agreed(origin, place, profile)) return;
    const key = `${origin} ${part}`;
    const setting = this.fromSetting(origin)?.[part];
    if (setting) this.settingMisfits.set(key, { setting: JSON.stringify(setting), inferred: value });
    if (this.told.get(key) !== change) this.log.info(`${origin}: ${change}`);
    this.told.set(key, change);
    void this.keep(origin, part, value);
  }

  private remember(origin: string, answer: KeptAnswer): void {
    const jobId = (answer.context as { jobId?: string } | undefined)?.jobId;
    const key = answerKey(origin, answer.part, jobId);
    // Deleted first, so the latest answer is the last of the map (lastUnreadable).
    this.answers.delete(key);
    this.answers.set(key, answer);
    if (this.answers.size > MAX_ANSWERS) this.answers.delete(this.answers.keys().next().value!);
  }

  /** Forgets every kept profile (Clear Stored Records). */
  async forgetAll(): Promise<void> {
    await editGlobalState(this.state, SERVICE_PROFILES_KEY, () => undefined);
  }

  /** Whether a part inferred now is to be kept (inferredKeeping.ts); a part that changes too often is said so once. */
  private agreed(origin: string, part: string, value: unknown): boolean {
    const key = `${origin} ${part}`;
    const offer = this.keeping.offer(key, value);
    if (offer === 'spent' && !this.spent.has(key)) {
      this.spent.add(key);
      this.log.info(`${origin}: the ${part} part changed too often in this window to be kept again; each answer is read as it comes`);
    }
    return offer === 'keep';
  }

  /** Keeps one part of `origin`'s profile, the other parts as they are. */
  private keep<K extends keyof ServiceProfile>(origin: string, part: K, value: NonNullable<ServiceProfile[K]>): Promise<boolean> {
    return editGlobalState(
      this.state,
      SERVICE_PROFILES_KEY,
      (stored) => {
        const kept = isRecord(stored) && isRecord(stored[origin]) ? stored[origin] : undefined;
        // The same part again is no change: no write (re-inserting it last would be one).
        if (kept && JSON.stringify(kept[part]) === JSON.stringify(value)) return UNCHANGED;
        return withOrigin(stored, origin, { ...kept, [part]: value });
      },
      { log: (m) => this.log.warn(m), what: 'The service profiles' },
    );
  }

  private stored(origin: string): ServiceProfile | undefined {
    const checked = originProfile(this.state.get<unknown>(SERVICE_PROFILES_KEY), origin);
    if (checked && 'problem' in checked) this.log.warn(`The kept profile of ${origin} is not used: ${checked.problem}.`);
    return checked && 'value' in checked ? checked.value : undefined;
  }

  private fromSetting(origin: string): ServiceProfile | undefined {
    const all = vscode.workspace.getConfiguration(SECTION).inspect<unknown>(PROFILE_SETTING)?.globalValue;
    const checked = originProfile(all, origin, 'setting');
    if (!checked || 'value' in checked) return checked?.value;
    const text = JSON.stringify((all as Record<string, unknown>)[origin]);
    if (this.reported !== text) this.log.warn(`The setting ${SECTION}.${PROFILE_SETTING} for ${origin} is not used: ${checked.problem}.`);
    this.reported = text;
    return undefined;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

function answerKey(origin: string, part: ProfilePart, jobId: string | undefined): string {
  return jobId === undefined ? `${origin} ${part}` : `${origin} ${part} ${jobId}`;
}
