// The hint words of the readers of answers the spec leaves "not shown", in one place (issue 36), and the one way a
// key is split into words (keyWords). A reader reads an answer by its shape, and by these words only for meaning: in
// the words of a key or of a short label value, never as whole key names. Each group names the reader that uses it.
// The words of a job's states, and the rule that maps them, are stateWords.ts's.

/** The set of the words of a space-separated list. */
export const words = (list: string) => new Set(list.split(' '));

/** The words of a name: `reasoning_content` → reasoning, content; `thinkingDelta` → thinking, delta. */
export function keyWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '');
}

/**
 * The words of a record's key, each made singular (`tunedModels` → tuned, model): `fineTunedModel`, `fine_tuned-model`
 * and `FINE TUNED MODEL` all give fine, tuned, model. The readers of records use these; an inference answer's keys
 * are read by keyWords as they are (its words hold plurals: `thoughts`, `analysis`).
 */
export function wordsOf(key: string): string[] {
  let said = WORDS_SEEN.get(key);
  if (said) return said;
  said = keyWords(key).map((w) => (w.length > 3 && /[^su]s$/.test(w) ? w.slice(0, -1) : w));
  // Keys repeat in every record of a list: each is split once (the cache is dropped before it grows large).
  if (WORDS_SEEN.size > 2_000) WORDS_SEEN.clear();
  WORDS_SEEN.set(key, said);
  return said;
}
const WORDS_SEEN = new Map<string, string[]>();

/** Whether a word of `key` (wordsOf) is one of `set`. */
export function keySays(key: string, set: ReadonlySet<string>): boolean {
  for (const w of wordsOf(key)) if (set.has(w)) return true;
  return false;
}

function saysAny(set: ReadonlySet<string>, w: readonly string[]): boolean {
  for (const x of w) if (set.has(x)) return true;
  return false;
}

/** Whether a word of `name` (keyWords) is one of `set`. */
export function nameSays(set: ReadonlySet<string>, name: string): boolean {
  return saysAny(set, keyWords(name));
}

// ------------------------------------------------------- inference answers and stream events (answerText.ts, keyRole)

export const REASONING_WORDS = new Set(['think', 'thinking', 'thought', 'thoughts', 'reasoning', 'analysis', 'reflection', 'scratchpad']);
export const TEXT_WORDS = new Set([
  'text',
  'content',
  'contents',
  'response',
  'output',
  'answer',
  'completion',
  'token',
  'delta',
  'message',
  'generated',
  'generation',
  'result',
  'prediction',
  'reply',
  'chunk',
  'body',
]);
export const ANSWER_LABEL_WORDS = new Set([
  'type',
  'kind',
  'object',
  'event',
  'channel',
  'role',
  'id',
  'model',
  'name',
  'status',
  'state',
  'finish',
  'stop',
  'reason',
  'created',
  'at',
  'time',
  'timestamp',
  'date',
  'version',
  'fingerprint',
  'index',
  'lang',
  'language',
  'format',
  'encoding',
  'url',
  'usage',
  'logprobs',
  'metadata',
  'meta',
  'stats',
]);
/** Labels that say what a record is (a discriminator); other labels name things (a model may be "…-thinking"). */
export const KIND_WORDS = new Set([
  'type',
  'kind',
  'channel',
  'event',
  'object',
  'role',
  'category',
  'phase',
  'stage',
  'part',
  'mode',
  'section',
]);
export const ERROR_WORDS = new Set(['error', 'errors']);

export const DONE_WORDS = new Set(['done', 'completed', 'complete', 'finished', 'stop', 'end']);

/** A field name that marks reasoning (`reasoning_content`, `thinking`, `thoughts`). */
export function isReasoningName(name: string): boolean {
  return nameSays(REASONING_WORDS, name);
}

/**
 * A label field never holds the answer (`type`, `role`, `model`, `finish_reason`), unless it names text too. The last
 * word of a key says what its value is (English compounds put the head last): `responseId`, `generation_id` and
 * `message_type` are labels whatever the words before them (a response's id is not the response; Gemini's
 * `responseId` is a random token that may hold no digit and so not look opaque).
 */
function isLabelWords(w: readonly string[]): boolean {
  const last = w[w.length - 1];
  if (last !== undefined && ANSWER_LABEL_WORDS.has(last)) return true;
  return saysAny(ANSWER_LABEL_WORDS, w) && !saysAny(TEXT_WORDS, w);
}

/** What the words of an inference answer's key say of its value (streamInference.ts reads events by them). */
export interface KeyRole {
  /** A label (`type`, `id`, `model`): never text, though it may say what its record is. */
  label: boolean;
  /** Its words say reasoning: text under it is reasoning; a flag under it marks its record. */
  reasoning: boolean;
  /** Named like text (`text`, `content`, `delta`, `token`). */
  text: boolean;
  /** A discriminator (`type`, `channel`, `role`): its value may say the record is reasoning. */
  kind: boolean;
  error: boolean;
}

const keyRoles = new Map<string, KeyRole>();
/** Names remembered at most (keyRole): they come from the service. */
const MAX_REMEMBERED_NAMES = 256;

/** keyRole, remembered per name (a stream names its fields alike in every event); bounded, as names come from the service. */
export function keyRole(name: string): KeyRole {
  let role = keyRoles.get(name);
  if (role === undefined) {
    // Split once: an answer may hold many more names than are remembered (a record of 200,000 fields).
    const w = keyWords(name);
    role = {
      label: isLabelWords(w),
      reasoning: saysAny(REASONING_WORDS, w),
      text: saysAny(TEXT_WORDS, w),
      kind: saysAny(KIND_WORDS, w),
      error: saysAny(ERROR_WORDS, w),
    };
    if (keyRoles.size < MAX_REMEMBERED_NAMES) keyRoles.set(name, role);
  }
  return role;
}

const LABEL_VALUE = /^\S{1,64}$/;

/** A short label value (`thinking_delta`, `analysis`): what a discriminator holds, as opposed to text. */
export function isLabelValue(v: string): boolean {
  return LABEL_VALUE.test(v);
}

// ---------------------------------------------------------------- a model's kind and lineage (answerShape.ts)

export const CUSTOM_WORDS = words('custom finetuned finetune tuned ft lora adapter user your my own private trained derived');
export const BASE_WORDS = words('base built builtin foundation pretrained system public stock standard official shared');
/** Words that say what a value is, never which one: `{"object": "model"}` names nothing. */
export const TYPE_WORDS = new Set([...CUSTOM_WORDS, ...BASE_WORDS, ...words('fine in model list object type kind')]);
export const LINEAGE_WORDS = words('base parent root from source origin upstream based');
/** A key with one of these words names models (answerShape.ts keyNamesModels), as does one made only of TYPE_WORDS. */
export const MODELS_KEY_WORDS = words('model');
/** Words saying a record's field identifies it (modelListInference.ts), and the words that may qualify them. */
export const IDENTIFIER_WORDS = words('name id identifier arn slug alias handle ref uri urn');
export const IDENTIFIER_QUALIFIERS = words('model display short full long resource canonical friendly public unique qualified api');

// ----------------------------------------------------------------------- a started job's id (startedJobInference.ts)

/** Words saying a key holds an identifier. */
export const ID_WORDS = words('id ids ident identifier ref reference ticket handle uid uuid guid name arn');
/** Words saying the thing is the job itself: `jobId`, `TrainingJobArn`, `operation_name`. */
export const JOB_WORDS = words('job task run operation op work execution process training finetune tuning evaluation eval generation');

// ------------------------------------------------------------------------------ a job's status (jobStatusInference.ts)

export const STATUS_KEY = words('status state');
export const PHASE_KEY = words('phase stage step');
export const ERROR_KEY = words('error failure reason err');
export const FINISHED_KEY = words('done finished complete completed ended terminal');
export const RESULT_KEY = words('result response');
export const TYPE_KEY = words('type kind object');
export const PERCENT_KEY = words('percent pct percentage');
export const PROGRESS_KEY = words('progress fraction ratio completion');
export const TOTAL_KEY = words('total max of count num all target expected');
export const MADE_WORDS = words('fine tuned trained finetuned output result response made new created custom');
export const NAMING_WORDS = words('model name id');
export const STATUS_LABEL_WORDS = words('display label title description');

// ----------------------------------------------------------------------- a download answer's values (downloadValues.ts)

/** Words saying a key holds a checksum: a 64-hex value needs none of them, a base64 SHA-256 needs `sha256`. */
export const CHECKSUM_WORDS = words('sha sha256 256 checksum digest hash integrity');
/** Words saying a key holds the artifact's size in bytes. */
export const SIZE_WORDS = words('size byte length');
/** Words saying a key holds when the URL stops working, or how long it works. */
export const EXPIRY_WORDS = words('expire expiry expiration ttl until lifetime');
/** Words saying a key holds a URL; a key saying only these holds *the* URL. */
export const URL_WORDS = words('url uri href link location');
/** Words saying a URL is the artifact's (`download_url`, `signedUri`, GCS's `mediaLink`). */
export const DOWNLOAD_WORDS = words('download signed presigned media artifact file content');
/** Words a file name's key is made of (`filename`, `file_name`, `name`): `model_name` names the model, not the file. */
export const FILE_NAME_WORDS = words('file filename name');
/** Of those, the words saying a file (`filename` over `name`). */
export const FILE_WORDS = words('file filename');
