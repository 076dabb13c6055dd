// A job whose reading does not move while the service's answers do (issue 36, item 8): no job sits "running" for ever
// in silence. When what is read of a job (its state, word, progress, stage, message) stays the same over many answers
// that differ (the service says something moves, the reading does not), the answer is likely misread: the row says so
// and offers Choose How to Read…. Answers that do not change at all are the service's silence (a long queue), not a
// misread, and say nothing. Both bounds must pass: many polls (a short interval makes them quickly) and some minutes (a
// job whose progress moves slowly, one step each few polls, is not stuck).
import { createHash } from 'node:crypto';
import type { EvaluationStatus, FinetuneStatus } from '../api/types';
import { isTerminal } from '../api/types';

/** Answers that changed while the reading did not. */
export const UNMOVED_ANSWERS = 20;
/** Wall time since the reading last moved. */
export const UNMOVED_MS = 3 * 60_000;

export interface UnmovedWatch {
  /** What was read, as text. */
  reading: string;
  /** A digest of the last answer: kept small, as a status answer may be large. */
  answer: string;
  /** Answers that differed from the one before while the reading stayed. */
  changed: number;
  /** Wall time the reading was first read so. */
  since: number;
}

/** The watch after `status`, and since when its reading has not moved when that is long enough to say (see the header). */
export function watchUnmoved(
  watch: UnmovedWatch | undefined,
  status: FinetuneStatus | EvaluationStatus,
  now: number,
): { watch: UnmovedWatch | undefined; unmovedSince: number | undefined } {
  if (isTerminal(status.state)) return { watch: undefined, unmovedSince: undefined };
  const reading = JSON.stringify([
    status.state,
    status.rawState,
    status.progress,
    status.stage,
    'message' in status ? status.message : undefined,
  ]);
  const answer = digest(status.raw);
  if (!watch || watch.reading !== reading) return { watch: { reading, answer, changed: 0, since: now }, unmovedSince: undefined };
  const next = answer === watch.answer ? watch : { ...watch, answer, changed: watch.changed + 1 };
  const unmoved = next.changed >= UNMOVED_ANSWERS && now - next.since >= UNMOVED_MS;
  return { watch: next, unmovedSince: unmoved ? next.since : undefined };
}

function digest(body: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(body) ?? '';
  } catch {
    text = String(body);
  }
  return createHash('sha1').update(text).digest('base64');
}
