// The hint words of the readers of answers the spec leaves "not shown", in one place (issue 36). A reader reads an
// answer by its shape, and by these words only for meaning: in the words of a key (split by answerShape.ts wordsOf,
// or answerText.ts for an inference answer's keys) or of a short label value, never as whole key names. Each group
// names the reader that uses it. The words of a job's states, and the rule that maps them, are stateWords.ts's.

/** The set of the words of a space-separated list. */
export const words = (list: string) => new Set(list.split(' '));

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

// ---------------------------------------------------------------- a model's kind and lineage (answerShape.ts)

export const CUSTOM_WORDS = words('custom finetuned finetune tuned ft lora adapter user your my own private trained derived');
export const BASE_WORDS = words('base built builtin foundation pretrained system public stock standard official shared');
/** Words that say what a value is, never which one: `{"object": "model"}` names nothing. */
export const TYPE_WORDS = new Set([...CUSTOM_WORDS, ...BASE_WORDS, ...words('fine in model list object type kind')]);
export const LINEAGE_WORDS = words('base parent root from source origin upstream based');

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
