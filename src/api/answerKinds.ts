// Each kind of answer the client reads where the spec leaves it "not shown", as a small description: its part of the
// service profile, what it is called in words, and how a profile of it is said in words. The one orchestration
// (answerReading.ts), the one book's policy (ServiceProfiles) and the one Choose How to Read… command take a kind from
// here and hold nothing else per kind; each kind's own knowledge stays in its inference (the *Inference.ts files).

import type { PartProfile, ProfilePart } from './profileBook';
import {
  describeDownloadProfile,
  describeJobStatusProfile,
  describeModelListProfile,
  describeStartedJobPlace,
  describeStreamProfile,
} from './profileWords';

export interface KindWords<P extends ProfilePart> {
  /** What the answers of this kind are called in the log: "the model list", "the finetune status". */
  what: string;
  /** How a profile of it reads an answer, in one line. */
  describe(profile: PartProfile<P>): string;
}

export const KIND_WORDS: { [P in ProfilePart]: KindWords<P> } = {
  modelList: { what: 'the model list', describe: describeModelListProfile },
  startedJob: {
    what: "the started job's answer",
    describe: (p) =>
      [
        p.finetune === undefined ? undefined : `finetune: ${describeStartedJobPlace(p.finetune)}`,
        p.evaluation === undefined ? undefined : `evaluation: ${describeStartedJobPlace(p.evaluation)}`,
      ]
        .filter((s) => s !== undefined)
        .join('; '),
  },
  download: { what: 'the download answer', describe: describeDownloadProfile },
  finetuneStatus: { what: 'the finetune status', describe: describeJobStatusProfile },
  evaluationStatus: { what: 'the evaluation status', describe: describeJobStatusProfile },
  stream: { what: "the stream's events", describe: describeStreamProfile },
  answer: { what: 'the answers (not streamed)', describe: describeStreamProfile },
};

/** `part`'s profile in words. */
export function describePart<P extends ProfilePart>(part: P, profile: PartProfile<P>): string {
  return (KIND_WORDS[part] as KindWords<P>).describe(profile);
}
