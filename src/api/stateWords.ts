// What a state word means: the one table of the words services use for a job's state, and the one rule that maps a
// word to a state. Shared by the status inference and reader, and by the started-job reader (a state word is no id).

import { words } from './hintWords';
import { MAX_STATE_WORD_LENGTH, type JobState } from './types';

const STATE_WORDS: Record<Exclude<JobState, 'unknown'>, string> = {
  queued: 'queued pending waiting submitted created accepted scheduled new enqueued',
  running:
    'running processing in_progress started starting training generating extracting uploading uploaded preparing validating ' +
    'tuning finetuning fine_tuning evaluating active working building generating_questions exporting saving',
  completed: 'completed complete succeeded success successful done finished ready ok',
  failed: 'failed failure error errored crashed rejected timeout timed_out expired',
  cancelled: 'cancelled canceled aborted stopped killed cancelling canceling',
};

const WORD_TO_STATE = new Map<string, JobState>(
  Object.entries(STATE_WORDS).flatMap(([state, said]) => said.split(' ').map((w): [string, JobState] => [w, state as JobState])),
);

/**
 * Words a vendor puts before its state words (`JOB_STATE_RUNNING`, `STATE_SUCCEEDED`, `PIPELINE_STATE_FAILED`): they
 * say what the value is, not which state. Only these are dropped, so that an id such as `run_7f3a_done` stays no state.
 */
const PREFIX_WORDS = words('job state status pipeline task run operation op phase stage tuning training batch model');

/** Said of the model a job made, these mean it is there to use (the job that made it has finished). */
const READY_WORDS = words('ready active available deployed live serving online');

const foldWord = (word: string) =>
  word
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

/**
 * The one mapping rule: lower-case, fold spaces and dashes to `_`, look up; else drop a vendor prefix word by word and
 * look up what is left (its last meaningful words); an unknown word is 'unknown'.
 */
export function normaliseState(word: string): JobState {
  // A text longer than any state word is not one: not folded (an 8 MiB message would be copied twice).
  if (word.length > MAX_STATE_WORD_LENGTH) return 'unknown';
  const folded = foldWord(word);
  const direct = WORD_TO_STATE.get(folded);
  if (direct) return direct;
  const parts = folded.split('_');
  for (let i = 0; i < parts.length - 1 && PREFIX_WORDS.has(parts[i]!); i++) {
    const said = WORD_TO_STATE.get(parts.slice(i + 1).join('_'));
    if (said) return said;
  }
  return 'unknown';
}

/** Whether a word said of a model means it is ready to use (`ACTIVE`, `ready`, `MODEL_STATE_SUCCEEDED`). */
export function saysModelReady(word: string): boolean {
  if (word.length > MAX_STATE_WORD_LENGTH) return false;
  if (normaliseState(word) === 'completed') return true;
  const parts = foldWord(word).split('_');
  for (let i = 0; i < parts.length; i++) {
    if (READY_WORDS.has(parts.slice(i).join('_'))) return true;
    if (!PREFIX_WORDS.has(parts[i]!)) return false;
  }
  return false;
}
