// What a client remembers of one status endpoint's answers between polls, for what one answer cannot tell: the last
// answer of each job (jobStatusLearning.ts compares it with the next: which progress moved, which word came last), and
// the places a profile was already grown from (jobStatusReading.ts), so that a profile that reads the answers is not
// inferred again at every poll because they lack a part (issue 36: inferred once means once). In memory only, per
// client: what it learns is kept in the profile, and a window that starts afresh only compares again.

/** Jobs whose last answer is kept: more than a person follows at once; the oldest is dropped first. */
const MAX_JOBS = 128;
/** Places (a state, its word and stage) kept per profile: more than any service says. */
const MAX_PLACES = 256;

export class JobStatusMemory {
  private readonly answers = new Map<string, unknown>();
  private grownFor: string | undefined;
  private readonly grownFrom = new Set<string>();

  /** The job's last answer read here, if any. */
  previous(jobId: string): unknown {
    return this.answers.get(jobId);
  }

  remember(jobId: string, body: unknown): void {
    this.answers.delete(jobId);
    this.answers.set(jobId, body);
    if (this.answers.size > MAX_JOBS) this.answers.delete(this.answers.keys().next().value as string);
  }

  /**
   * Whether the profile read as `profileKey` (its fields, however written) was not yet grown from an answer at `place`;
   * it is marked as grown from now. A changed profile starts afresh: what it lacks now may be elsewhere.
   */
  firstGrowth(profileKey: string, place: string): boolean {
    if (profileKey !== this.grownFor) {
      this.grownFor = profileKey;
      this.grownFrom.clear();
    }
    if (this.grownFrom.has(place)) return false;
    if (this.grownFrom.size >= MAX_PLACES) this.grownFrom.clear();
    this.grownFrom.add(place);
    return true;
  }
}
