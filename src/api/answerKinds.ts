// What a person may choose in one answer of each kind the client reads where the spec leaves it "not shown" (the roles
// a field can play, where they are read now, and the part a choice makes); its words are profileWords.ts's.
// The one orchestration (answerReading.ts), the one book's policy (ServiceProfiles) and the one Choose How to Read…
// command (features/reading) take a kind from here and hold nothing else per kind; each kind's own knowledge stays in
// its inference (the *Inference.ts files).

import { answerFields, type AnswerField, type FieldValueType } from './answerFields';
import { eachLeaf } from './answerShape';
import { inferDownloadProfile } from './downloadInference';
import { urlValue } from './downloadValues';
import { ContractError } from './errors';
import { modelListChoices } from './modelListInference';
import type { AnswerContext, PartProfile, ProfilePart } from './profileBook';
import { EACH, formatPath, parsePath, valueAt } from './profilePath';
import { describeModelListProfile } from './profileWords';
import { describeUrl } from './redact';
import type { DownloadProfile, JobStatusProfile, StreamProfile } from './profileFormat';
import { normaliseState } from './stateWords';
import { readStartedJob, type StartAnswer } from './startedJob';
import { isJobIdValue } from './startedJobInference';
import type { JobState, StartedJob } from './types';

/** What a field of an answer may be, for a person choosing how to read it (the picker has words for each). */
export type ChoiceRole =
  | 'list'
  | 'jobId'
  | 'url'
  | 'size'
  | 'sha256'
  | 'expires'
  | 'state'
  | 'progress'
  | 'total'
  | 'madeModel'
  | 'error'
  | 'answer'
  | 'reasoning';

/** One place of an answer a person may choose for a role, with a few of its values to recognise it by. */
export interface ChoiceField {
  /** Where it is, as a profile writes it ('' the answer itself); a model list's way: its lists, joined by " + ". */
  path: string;
  /** Its first values, as text (the service's words: neutralise before showing them). */
  samples: string[];
  types: FieldValueType[];
  /** The models a way to read the list reads. */
  count?: number;
  /** How the part chosen by it reads an answer, in words. */
  says?: string;
}

/** What the choices of an answer are made from: the answer the book kept, and what came with it. */
export interface ChoiceInput<P extends ProfilePart> {
  body: unknown;
  context?: AnswerContext<P>;
  /** A plain http URL may be chosen: the service itself is plain http on this machine (urlPolicy.ts). */
  allowHttp: boolean;
}

/** What a person picked: a field per role (null: none, for a role that may be left out), and what words mean. */
export interface ChoicePicks {
  fields: Partial<Record<ChoiceRole, ChoiceField | null>>;
  /** The state words the person gave a meaning (a status's word no table reads). */
  meanings?: Record<string, Exclude<JobState, 'unknown'>>;
}

export interface KindChoices<P extends ProfilePart> {
  /**
   * The roles a person may choose, in order. `asked`: asked one after another when the answer could not be read (the
   * others only when the person picks them to correct a reading); `optional`: may be left out ("no reasoning");
   * `follows`: asked only after that role (`then`), never picked alone.
   */
  roles: readonly { role: ChoiceRole; asked: boolean; optional?: boolean; follows?: ChoiceRole }[];
  /** The fields of the answer that may hold `role`, the likeliest first. */
  fields(role: ChoiceRole, input: ChoiceInput<P>): ChoiceField[];
  /** Where `profile` reads `role` now, if it does. */
  readAt(role: ChoiceRole, profile: PartProfile<P>, input: ChoiceInput<P>): string | undefined;
  /** The role asked next once `role` is `field` (a count's total). */
  then?(role: ChoiceRole, field: ChoiceField): ChoiceRole | undefined;
  /** A word `field` says that no table reads, for the person to say what it means. */
  unknownWord?(role: ChoiceRole, field: ChoiceField): string | undefined;
  /**
   * The part the picks make over `base` (the part kept, or read by now): undefined when a picked field holds nothing
   * of its role (a place of no job id, of no URL).
   */
  make(picks: ChoicePicks, base: PartProfile<P> | undefined, input: ChoiceInput<P>): PartProfile<P> | undefined;
}

// ------------------------------------------------------------------------------------------------------ the model list

const listWay = (lists: readonly { names: string }[]) => lists.map((l) => l.names).join(' + ');

const MODEL_LIST_CHOICES: KindChoices<'modelList'> = {
  roles: [{ role: 'list', asked: true }],
  fields: (_role, { body }) =>
    modelListChoices(body).map((c) => ({
      path: listWay(c.profile.lists),
      samples: c.samples,
      types: ['text'],
      count: c.count,
      says: describeModelListProfile(c.profile),
    })),
  readAt: (_role, profile) => listWay(profile.lists),
  make: (picks, _base, { body }) => {
    const way = picks.fields.list?.path;
    return modelListChoices(body).find((c) => listWay(c.profile.lists) === way)?.profile;
  },
};

// ------------------------------------------------------------------------------------------------------ a started job

/** The job a start answer names at `path`, or undefined when nothing there is a job id (the place is then not kept). */
export function startedJobAt(body: unknown, answer: StartAnswer, path: string): StartedJob | undefined {
  try {
    const { job, from } = readStartedJob(body, answer, path);
    // A place that does not fit is inferred again by readStartedJob: only the chosen place's own reading counts here.
    return from === path ? job : undefined;
  } catch (e) {
    if (e instanceof ContractError) return undefined;
    throw e;
  }
}

const STARTED_JOB_CHOICES: KindChoices<'startedJob'> = {
  roles: [{ role: 'jobId', asked: true }],
  // Plain text and numbers, one place each (a list's items are other things): id-like values first (as the inference
  // would judge them: an identifier, no state or type word, nothing the request sent), then numbers, then the rest.
  fields: (_role, { body, context }) => {
    const sent = new Set(context?.answer.sent ?? []);
    // A number's samples are its digits, which are identifiers too: only text is judged by the inference's value rules.
    const order = (f: AnswerField) =>
      f.types.includes('text') && f.samples.some((s) => isJobIdValue(s, sent)) ? 0 : f.types.includes('number') ? 1 : 2;
    return plainFields(body, 'text', 'number')
      .map((f, i) => ({ f, i, o: order(f) }))
      .sort((a, b) => a.o - b.o || a.i - b.i)
      .map(({ f }) => f);
  },
  readAt: (_role, profile, { context }) => (context ? profile[context.kind] : undefined),
  // The other endpoint's place is kept as it is.
  make: (picks, base, { body, context }) => {
    const path = picks.fields.jobId?.path;
    if (!context || path === undefined || !startedJobAt(body, context.answer, path)) return undefined;
    const part: PartProfile<'startedJob'> = { by: 'chosen' };
    if (base?.finetune !== undefined) part.finetune = base.finetune;
    if (base?.evaluation !== undefined) part.evaluation = base.evaluation;
    part[context.kind] = path;
    return part;
  },
};

// ------------------------------------------------------------------------------------------------------- the download

/** URLs looked at in all: an answer holds a few; a hostile one holding millions costs no more than this. */
const MAX_URLS = 40;
const MAX_VISITS = 5_000;

/** The URL a download may come from, or undefined (not absolute, not https, or carrying credentials). */
function usableUrl(v: unknown, allowHttp: boolean): string | undefined {
  const url = urlValue(v, allowHttp);
  if (url === undefined) return undefined;
  const u = new URL(url);
  return u.username || u.password ? undefined : url;
}

/**
 * Each place of `body` holding a URL the client would download from (each item of a list its own place), in the order
 * they appear: absolute https (plain http only as `allowHttp` says), no credentials; shown with its query redacted.
 */
function downloadUrlFields(body: unknown, allowHttp: boolean): ChoiceField[] {
  const out: ChoiceField[] = [];
  eachLeaf(
    body,
    (v, path) => {
      if (usableUrl(v, allowHttp) !== undefined) out.push({ path: formatPath(path), samples: [describeUrl(v as string)], types: ['text'] });
      return out.length < MAX_URLS;
    },
    MAX_VISITS,
  );
  return out;
}

/** Plain values outside lists, of the types given. */
function plainFields(body: unknown, ...types: FieldValueType[]): AnswerField[] {
  return answerFields(body).filter((f) => !f.segments.includes(EACH) && f.types.some((t) => types.includes(t)));
}

const DOWNLOAD_CHOICES: KindChoices<'download'> = {
  roles: [
    { role: 'url', asked: true },
    { role: 'size', asked: false },
    { role: 'sha256', asked: false },
    { role: 'expires', asked: false },
  ],
  fields: (role, { body, allowHttp }) =>
    role === 'url'
      ? downloadUrlFields(body, allowHttp)
      : role === 'size'
        ? plainFields(body, 'number', 'text').filter((f) => f.samples.some((s) => /^\d+$/.test(s)))
        : role === 'sha256'
          ? // A sample is cut at 60 characters ("…"): a long hex value is enough to recognise.
            plainFields(body, 'text').filter((f) => f.samples.some((s) => /^[0-9a-f]{32,}…?$/i.test(s)))
          : plainFields(body, 'text', 'number'),
  readAt: (role, p) => (role === 'url' ? p.url : role === 'size' ? p.size : role === 'sha256' ? p.sha256 : p.expires),
  // A URL chosen: the values around it inferred again (expiry, size, checksums, file name); another value: set over base.
  make: ({ fields }, base, { body, allowHttp }) => {
    const url = fields.url?.path;
    if (url !== undefined) {
      const segments = parsePath(url);
      if (segments === undefined || usableUrl(valueAt(body, segments), allowHttp) === undefined) return undefined;
      base = { ...inferDownloadProfile(body, allowHttp, Date.now(), formatPath(segments)), by: 'chosen' };
    }
    if (!base) return undefined;
    const part: DownloadProfile = { ...base, by: 'chosen' };
    if (fields.size) part.size = fields.size.path;
    if (fields.sha256) part.sha256 = fields.sha256.path;
    if (fields.expires) part.expires = fields.expires.path;
    return part;
  },
};

// ------------------------------------------------------------------------------------------------------- a job status

const isNumberText = (s: string) => /^-?\d+(\.\d+)?$/.test(s.trim());
const isProgressText = (s: string) => /^-?\d+(\.\d+)?\s*%?$/.test(s.trim());

const JOB_STATUS_CHOICES: KindChoices<'finetuneStatus'> = {
  roles: [
    { role: 'state', asked: true },
    { role: 'progress', asked: false },
    { role: 'total', asked: false, optional: true, follows: 'progress' },
    { role: 'madeModel', asked: false },
    { role: 'error', asked: false },
  ],
  fields: (role, { body }) => {
    const fields = answerFields(body);
    if (role === 'state') return fields.filter((f) => f.types.includes('text') || f.types.includes('boolean'));
    // A percentage, a fraction or a count: a number, or text that is one ("40%", "0.5").
    if (role === 'progress') return fields.filter((f) => f.types.includes('number') || f.samples.some(isProgressText));
    if (role === 'total') return fields.filter((f) => f.types.includes('number') || f.samples.some(isNumberText));
    return fields.filter((f) => f.types.includes('text'));
  },
  readAt: (role, p) => {
    if (role === 'state') return p.state ?? p.finished;
    if (role === 'progress') return p.percent ?? p.fraction ?? p.done;
    if (role === 'total') return p.total;
    if (role === 'madeModel') return p.madeModel?.[0];
    return role === 'error' ? p.error : undefined;
  },
  // A count (not a percentage, a "%" text or a fraction of 1) asks what it counts toward.
  then: (role, f) => {
    if (role !== 'progress' || f.samples.some((s) => s.includes('%'))) return undefined;
    const numbers = f.samples.filter(isNumberText).map(Number);
    return numbers.length > 0 && numbers.every((n) => n <= 1) ? undefined : 'total';
  },
  unknownWord: (role, f) =>
    role === 'state' && f.types.includes('text') ? f.samples.find((w) => normaliseState(w) === 'unknown') : undefined,
  // The parts the person did not choose stay as they were (and are still grown from the answers).
  make: ({ fields, meanings }, base) => {
    const p: JobStatusProfile = { ...(base ?? {}), by: 'chosen' };
    const { state, progress, total, madeModel, error } = fields;
    if (state) {
      if (state.types.includes('boolean') && !state.types.includes('text')) p.finished = state.path;
      else p.state = state.path;
    }
    const states = { ...(base?.states ?? {}), ...(meanings ?? {}) };
    if (Object.keys(states).length > 0) p.states = states;
    if (progress) {
      delete p.percent;
      delete p.fraction;
      delete p.done;
      delete p.total;
      const numbers = progress.samples.filter(isNumberText).map(Number);
      if (total) {
        p.done = progress.path;
        p.total = total.path;
      } else if (!progress.samples.some((s) => s.includes('%')) && numbers.length > 0 && numbers.every((n) => n <= 1)) {
        p.fraction = progress.path;
      } else p.percent = progress.path;
    }
    if (madeModel) p.madeModel = [madeModel.path, ...(base?.madeModel ?? []).filter((m) => m !== madeModel.path)].slice(0, 8);
    if (error) p.error = error.path;
    return p;
  },
};

// ------------------------------------------------------------------------------------------------- an inference answer

/**
 * The text fields of an inference answer, as paths a part of `part` reads: a non-streamed answer is one record; a
 * stream is handed over as its first events (a list), and a stream profile's paths are relative to one event, so the
 * list's own `[]` is left out. Only text: numbers and flags are never the answer.
 */
function textFields(part: 'answer' | 'stream', body: unknown): ChoiceField[] {
  if (part === 'stream' && !Array.isArray(body)) return [];
  const out: ChoiceField[] = [];
  for (const f of answerFields(body).filter((a) => a.types.includes('text'))) {
    const segments = part === 'stream' ? f.segments.slice(1) : f.segments;
    // The answer itself as a string is read without any profile: nothing to choose.
    if (segments.length === 0 || (part === 'stream' && f.segments[0] !== EACH)) continue;
    out.push({ ...f, path: formatPath(segments) });
  }
  return out;
}

function inferenceChoices(part: 'answer' | 'stream'): KindChoices<'answer' | 'stream'> {
  return {
    roles: [
      { role: 'answer', asked: true },
      { role: 'reasoning', asked: true, optional: true },
    ],
    fields: (_role, { body }) => textFields(part, body),
    readAt: (role, p) => (role === 'answer' ? p.answer[0] : p.reasoning[0]),
    make: ({ fields }, base) => {
      const answer = fields.answer?.path ?? base?.answer[0];
      if (answer === undefined) return undefined;
      const reasoning = fields.reasoning === null ? [] : fields.reasoning ? [fields.reasoning.path] : (base?.reasoning ?? []);
      const p: StreamProfile = { answer: [answer], reasoning: reasoning.filter((r) => r !== answer), by: 'chosen' };
      // A flag that told reasoning from answer in one field is kept only while the fields are as they were.
      if (base?.flag && fields.answer === undefined && fields.reasoning === undefined) p.flag = base.flag;
      return p;
    },
  };
}

/** What a person may choose in one answer of each part (Choose How to Read…). */
export const KIND_CHOICES: { [P in ProfilePart]: KindChoices<P> } = {
  modelList: MODEL_LIST_CHOICES,
  startedJob: STARTED_JOB_CHOICES,
  download: DOWNLOAD_CHOICES,
  finetuneStatus: JOB_STATUS_CHOICES,
  // The two status parts read alike (one format, one context): the same choices, typed for each.
  evaluationStatus: JOB_STATUS_CHOICES as unknown as KindChoices<'evaluationStatus'>,
  stream: inferenceChoices('stream') as KindChoices<'stream'>,
  answer: inferenceChoices('answer') as KindChoices<'answer'>,
};

/** What a person may choose in an answer of `part`. */
export function choicesOf<P extends ProfilePart>(part: P): KindChoices<P> {
  return KIND_CHOICES[part];
}
