// When a profile part inferred from an answer is written (issue 35, info). ServiceProfiles asks at each inferred
// change it hears of, per origin and part:
//  - Kept only once a second answer agrees: the same part inferred from two answers, one after the other (answers
//    read by the kept part in between change nothing). Until then the kept part stays as it was and each answer is
//    read by inference, so one odd answer (`{"note": …}` before `{"text": …, "note": …}`) does not decide how every
//    later one is read. A job's status grown at its end agrees with the next job's end.
//  - At most MAX_KEEPS_PER_PART writes per part in a window's life: a service whose answers keep changing shape is
//    read by inference at each answer, as it would have to be anyway, instead of costing a globalState write per
//    answer. A shape that changes at every call never agrees, so it costs none; one that changes every second call
//    costs at most this bound. A count, not a clock: nothing to time, and a window reloaded starts again.
// What the person chooses is kept at once and does not go through here. The stored size is bounded elsewhere: one
// part per kind per origin (each bounded by its checker in profileFormat.ts), MAX_ORIGINS origins.

export type Offer = 'keep' | 'wait' | 'spent';

/** Writes of one part of one origin per window: a first inference, the status parts grown one by one, a few changes. */
export const MAX_KEEPS_PER_PART = 16;

export class InferredKeeping {
  /** The last part offered and not kept, as text, by key. */
  private readonly offered = new Map<string, string>();
  /** The last part kept, as text, by key: offered again (a setting's part that no longer fits) it is kept as it is. */
  private readonly kept = new Map<string, string>();
  private readonly keeps = new Map<string, number>();

  /**
   * Whether the part inferred now (`key`: its origin and part) is to be written: 'keep' when the last one offered
   * was the same (or it is the one kept), 'wait' when it is the first of its kind, 'spent' when this part was written
   * too often already.
   */
  offer(key: string, value: unknown): Offer {
    const text = JSON.stringify(value);
    if (this.kept.get(key) === text) return 'keep';
    if (this.offered.get(key) !== text) {
      this.offered.set(key, text);
      return 'wait';
    }
    const keeps = this.keeps.get(key) ?? 0;
    if (keeps >= MAX_KEEPS_PER_PART) return 'spent';
    this.offered.delete(key);
    this.kept.set(key, text);
    this.keeps.set(key, keeps + 1);
    return 'keep';
  }
}
