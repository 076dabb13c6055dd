// The progress readings a running job's record keeps for its time left (timeLeft.ts): when the service first said each
// progress, and in which stage. Kept in globalState with the record, so small and bounded: a reading is added only
// when the progress or the stage changed (a poll that says the same adds nothing, and writes nothing), the newest
// MAX_READINGS stay, and a finished job drops them (statusPatch.ts). Read back through readingsProblem: another version
// or a hand-edited state may have written anything there.
import { MAX_STATE_WORD_LENGTH } from '../api/types';
import { arrayOf, num, exactFields, str } from '../api/strictChecks';

export interface ProgressReading {
  /** Wall time (ms) the service first said this progress. */
  at: number;
  /** 0..100 */
  progress: number;
  /** The service's stage or state word (`training`), when it said one: a new stage starts the rate again. */
  stage?: string;
}

/** Enough for the rate of the current stage over several polls; a few hundred bytes per running job. */
export const MAX_READINGS = 8;

/** `readings` with `next` when it says something new (see the header); the same array when it does not. */
export function appendReading(readings: readonly ProgressReading[] | undefined, next: ProgressReading): ProgressReading[] {
  const last = readings?.at(-1);
  if (readings && last && last.progress === next.progress && last.stage === next.stage) return readings as ProgressReading[];
  return [...(readings ?? []), next].slice(-MAX_READINGS);
}

const checkReadings = arrayOf(
  MAX_READINGS,
  exactFields({ at: num(0, Number.MAX_SAFE_INTEGER), progress: num(0, 100) }, { stage: str(1, MAX_STATE_WORD_LENGTH) }),
);

/** Why a stored value is not a list of readings, or undefined when it is one. */
export function readingsProblem(v: unknown): string | undefined {
  return checkReadings(v);
}
