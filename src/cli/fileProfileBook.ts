// The service profile outside VS Code: how this service's answers are read, kept per origin in the state file under
// the same key and shape as the extension's globalState (SERVICE_PROFILES_KEY), by the same policy as ServiceProfiles
// (src/connection/serviceProfiles.ts) without its VS Code parts: a profile given with `--profile <file>` wins (as the
// `hostedReasoning.serviceProfile` setting does); a part inferred from an answer is kept once a second answer agrees
// (inferredKeeping.ts). A command-line run reads one or two answers, so the agreement is kept in the state file too:
// `models` twice keeps the model list's reading, as two lists in one window do.
import { describePart } from '../api/profileWords';
import { learnedPart, originProfile, withOrigin } from '../api/profileBook';
import type { AnswerContext, Learned, PartProfile, ProfileBook, ProfilePart } from '../api/profileBook';
import type { ServiceProfile } from '../api/profileFormat';
import { isRecord } from '../api/strictChecks';
import { SERVICE_PROFILES_KEY } from '../storageKeys';
import type { FileState } from './fileState';

/** The inferred parts offered once and not yet kept, by `origin part`: the agreement inferredKeeping.ts asks for. */
export const PROFILE_OFFERS_KEY = 'hostedReasoning.cli.profileOffers';

export interface ProfileBookNotes {
  /** A line for stderr (a change of how answers are read, a kept profile not used). */
  note(message: string): void;
}

export class FileProfileBook implements ProfileBook {
  /** An answer nothing could read, by part: `profile` shows it and says how to give a profile. */
  readonly unreadableParts = new Map<ProfilePart, { body: unknown; context?: unknown }>();
  private readonly writes: Promise<void>[] = [];

  constructor(
    private readonly state: FileState,
    readonly origin: string,
    /** From `--profile <file>`: read by before anything kept. */
    private readonly given: ServiceProfile | undefined,
    private readonly notes: ProfileBookNotes,
  ) {}

  profile<P extends ProfilePart>(part: P): PartProfile<P> | undefined {
    return (this.given?.[part] ?? this.kept()?.[part]) as PartProfile<P> | undefined;
  }

  learned<P extends ProfilePart>(part: P, reading: Learned<P>): void {
    const { profile, change } = reading;
    if (change === undefined || profile.by === 'setting' || this.given?.[part]) return;
    const { place, value } = learnedPart(part, reading, () => this.kept());
    this.writes.push(this.offer(place, part, value, change));
  }

  unreadable<P extends ProfilePart>(part: P, body: unknown, context?: AnswerContext<P>): void {
    this.unreadableParts.set(part, { body, context });
  }

  /** Every part as read now: the given one, else the one kept, with the words profileWords.ts says it in. */
  describe(): { part: ProfilePart; by: string; reading: string }[] {
    const kept = this.kept() ?? {};
    const parts = new Set<ProfilePart>([...(Object.keys(kept) as ProfilePart[]), ...(Object.keys(this.given ?? {}) as ProfilePart[])]);
    return [...parts].flatMap((part) => {
      const profile = this.profile(part);
      return profile ? [{ part, by: this.given?.[part] ? 'given' : profile.by, reading: describePart(part, profile) }] : [];
    });
  }

  /** The profile kept for this origin, as the extension would store it. */
  kept(): ServiceProfile | undefined {
    const checked = originProfile(this.state.get<unknown>(SERVICE_PROFILES_KEY), this.origin);
    if (checked && 'problem' in checked) this.notes.note(`The kept profile of ${this.origin} is not used: ${checked.problem}.`);
    return checked && 'value' in checked ? checked.value : undefined;
  }

  /** Keeps `profile` as this origin's whole profile (`profile --profile <file> --keep`), marked as chosen. */
  async keepAll(profile: ServiceProfile): Promise<void> {
    const chosen = Object.fromEntries(Object.entries(profile).map(([part, p]) => [part, { ...p, by: 'chosen' }])) as ServiceProfile;
    await this.writeOrigin(() => chosen);
  }

  /** Resolves once every write this run's answers asked for is in the file. */
  async settled(): Promise<void> {
    await Promise.all(this.writes);
  }

  private async offer<P extends ProfilePart>(place: string, part: P, value: PartProfile<P>, change: string): Promise<void> {
    const key = `${this.origin} ${place}`;
    const text = JSON.stringify(value);
    const offers = this.state.get<Record<string, string>>(PROFILE_OFFERS_KEY);
    const previous = isRecord(offers) ? offers[key] : undefined;
    const rest = isRecord(offers) ? Object.fromEntries(Object.entries(offers).filter(([k]) => k !== key)) : {};
    if (previous !== text) {
      // The first answer of this reading: kept once the next one agrees.
      await this.state.update(PROFILE_OFFERS_KEY, { ...rest, [key]: text });
      return;
    }
    await this.state.update(PROFILE_OFFERS_KEY, Object.keys(rest).length > 0 ? rest : undefined);
    this.notes.note(`${this.origin}: ${change}`);
    await this.writeOrigin((kept) => ({ ...kept, [part]: value }));
  }

  private async writeOrigin(edit: (kept: ServiceProfile | undefined) => ServiceProfile): Promise<void> {
    // On what the file holds when written: another run may have kept another origin's profile, or this one's, since.
    await this.state.edit(SERVICE_PROFILES_KEY, (stored) => {
      const checked = originProfile(stored, this.origin);
      return withOrigin(stored, this.origin, edit(checked && 'value' in checked ? checked.value : undefined));
    });
  }
}
