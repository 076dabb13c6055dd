// Families of public APIs whose answers the client knows before it sees them (issue 36 item 6), as data: for a part of
// the profile, the marks by which an answer shows it is of the family (a value at a path, or only a value there) and
// the reading (that part of a profile, in the format of profileFormat.ts) that reads it. Tried on an answer before
// anything is inferred (each kind's inference asks familyFor first); a family that does not read the answer leaves it
// to the inference. Where a family's answers differ per service (OpenAI's `owned_by` names the organization), the
// family says nothing and the inference learns it. Checked at load like any profile someone else wrote.

import { checkPart, PROFILE_PARTS, type PartName, type PartProfile } from './profileFormat';
import { parsePath, valueAt } from './profilePath';
import { exactFields, literal, recordOf, refine, str, type Check, type Infer } from './strictChecks';

/** A mark's value: the text the answer holds at its path, or `true`: the answer holds some value there. */
const MARK: Check<string | true> = (v) => (v === true ? undefined : str(1, 200)(v));

const FAMILY_READING = exactFields({
  family: str(1, 60),
  part: literal(...PROFILE_PARTS),
  marks: refine(recordOf(8, MARK), (m) => {
    const paths = Object.keys(m);
    if (paths.length === 0) return 'has no mark';
    const bad = paths.find((p) => !parsePath(p));
    return bad === undefined ? undefined : `has "${bad}", which is not a path`;
  }),
  reading: (v: unknown) => (typeof v === 'object' && v !== null ? undefined : 'not an object'),
});

type FamilyReading = Infer<typeof FAMILY_READING>;

const OPENAI_JOB = { object: 'fine_tuning.job' };
const GOOGLE_TUNING = { 'metadata["@type"]': 'type.googleapis.com/google.ai.generativelanguage.v1beta.CreateTunedModelMetadata' };

/** generateContent's candidates: a part's text, its `thought` flag saying it is reasoning (the same in a stream). */
const GOOGLE_CONTENT = { 'candidates[0].content.role': 'model' };
const GOOGLE_PARTS = {
  answer: ['candidates[].content.parts[].text'],
  reasoning: [],
  flag: { from: 'thought', map: { true: 'reasoning' } },
};

/** The readings, in the order they are tried (a fuller reading of a part before a smaller one of the same family). */
export const FAMILY_DATA: readonly FamilyReading[] = [
  // OpenAI: fine_tuning.job, chat.completion(.chunk) with `reasoning_content` (the OpenAI-compatible servers' field).
  { family: 'OpenAI', part: 'startedJob', marks: OPENAI_JOB, reading: { finetune: 'id' } },
  {
    family: 'OpenAI',
    part: 'finetuneStatus',
    marks: OPENAI_JOB,
    reading: { state: 'status', error: 'error', madeModel: ['fine_tuned_model'] },
  },
  {
    family: 'OpenAI',
    part: 'answer',
    marks: { object: 'chat.completion' },
    reading: { answer: ['choices[].message.content'], reasoning: ['choices[].message.reasoning_content'] },
  },
  {
    family: 'OpenAI',
    part: 'stream',
    marks: { object: 'chat.completion.chunk' },
    reading: { answer: ['choices[].delta.content'], reasoning: ['choices[].delta.reasoning_content'] },
  },
  {
    family: 'OpenAI',
    part: 'download',
    marks: { object: 'model.artifact' },
    reading: { url: 'content_url', expires: 'expires_at', size: 'bytes', fileName: 'filename' },
  },
  // Google (Gemini API): models and tunedModels (proto3 JSON leaves an empty list out), long-running operations of
  // createTunedModel, Cloud Storage object resources.
  {
    family: 'Google',
    part: 'modelList',
    marks: { 'models[0].supportedGenerationMethods': true, 'tunedModels[0].name': true },
    reading: {
      lists: [
        { names: 'models[].name', kind: 'base' },
        { names: 'tunedModels[].name', kind: 'custom', parentFrom: ['baseModel'], createdFrom: 'createTime' },
      ],
    },
  },
  {
    family: 'Google',
    part: 'modelList',
    marks: { 'models[0].supportedGenerationMethods': true },
    reading: { lists: [{ names: 'models[].name', kind: 'base' }] },
  },
  { family: 'Google', part: 'startedJob', marks: GOOGLE_TUNING, reading: { finetune: 'name' } },
  {
    family: 'Google',
    part: 'finetuneStatus',
    marks: GOOGLE_TUNING,
    reading: {
      state: 'metadata.state',
      finished: 'done',
      percent: 'metadata.completedPercent',
      done: 'metadata.completedSteps',
      total: 'metadata.totalSteps',
      error: 'error',
      madeModel: ['metadata.tunedModel', 'response.name'],
      modelState: 'response.state',
      result: 'response',
    },
  },
  { family: 'Google', part: 'answer', marks: GOOGLE_CONTENT, reading: GOOGLE_PARTS },
  { family: 'Google', part: 'stream', marks: GOOGLE_CONTENT, reading: GOOGLE_PARTS },
  {
    family: 'Google',
    part: 'download',
    marks: { kind: 'storage#object' },
    reading: { url: 'mediaLink', expires: 'expireTime', size: 'size', md5: 'md5Hash', crc32c: 'crc32c' },
  },
];

/** Why a family reading cannot be used (its row, or its reading in the profile's format), or undefined. */
export function familyProblem(row: unknown): string | undefined {
  const why = FAMILY_READING(row);
  if (why) return why;
  const { part, reading } = row as FamilyReading;
  const checked = checkPart(part, reading, 'inferred');
  return 'problem' in checked ? checked.problem : undefined;
}

/** The readings tried (those the format refuses are left out: test/unit/families.test.ts checks there are none). */
export const FAMILY_READINGS: FamilyReading[] = FAMILY_DATA.filter((r) => familyProblem(r) === undefined);

function marked(body: unknown, marks: Record<string, string | true>): boolean {
  return Object.entries(marks).every(([path, mark]) => {
    const v = valueAt(body, parsePath(path)!);
    return mark === true ? v !== undefined && v !== null : (typeof v === 'string' || typeof v === 'number') && String(v) === mark;
  });
}

/**
 * The first family reading of `part` whose marks the answer carries and that reads it (`reads`: the kind's reader
 * says so), as a profile of its own (inferred: the answer decided it); undefined when no family knows the answer.
 */
export function familyFor<P extends PartName>(
  part: P,
  body: unknown,
  reads: (profile: PartProfile<P>) => boolean,
): { family: string; profile: PartProfile<P> } | undefined {
  for (const r of FAMILY_READINGS) {
    if (r.part !== part || !marked(body, r.marks)) continue;
    // A copy of its own: a reader may change the profile it was given (a job status part grows).
    const checked = checkPart(part, structuredClone(r.reading), 'inferred');
    if ('value' in checked && reads(checked.value)) return { family: r.family, profile: checked.value };
  }
  return undefined;
}
