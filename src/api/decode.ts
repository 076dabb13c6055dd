// Readers for every part of the spec marked "not shown": this file is their index and states their rules; each kind
// of answer is read in its own file (named below). A reader reads an answer by its shape,
// not by a list of key names: the next service names its fields differently, but a list of models is still a list of
// named things, a job id the one identifier in the answer, progress a number or a pair of counts. Words are read only
// for meaning (a state, a kind, "total"), in values or in the words of a key, never as whole key names. A body no
// reading fits, or that two readings fit equally well, is a ContractError naming what was found, with a redacted
// excerpt for the log: never a crash, a silent empty result or a guess. Each exported reader is wrapped in answerReader
// (errors.ts): whatever else it meets (a RangeError from a builtin) is a ContractError too. No spread or `apply` over
// what the service sent: they take about 125,000 elements at most, and an answer may hold more.
//
//  §4.1 model list: inferred once per service into a profile (paths and value maps), then read by it:
//      modelListInference.ts (its rules at its top), modelListReader.ts, modelListReading.ts.
//  §4.2 the answer and its reasoning, non-streamed and streamed: answerText.ts (framing: stream.ts). A stream's events
//      are read by a profile inferred once per service from a run's first events, then kept: streamInference.ts (its
//      rules at its top), streamReader.ts, streamReading.ts; a non-streamed answer the same way, as one event.
//  §4.3/§4.5 started job (startedJob.ts): the one identifier in the answer, at any depth, that is no state word and no value the
//      request sent; one with a digit, then a shallower one, wins; a tie is refused. A number only as the whole answer.
//      No id in the body: the `Location` of a 201/202 (its one query value, else its last path segment). An id over
//      256 characters or with control characters is refused (it is stored and sent back in every poll).
//  §3/§4.4/§4.6 status (jobStatus.ts): the state is a value anywhere that is a state word (STATE_WORDS, after folding case, spaces
//      and dashes), under a key saying status/state first, then phase/stage, then the shallowest; a disagreement at
//      one rank is refused. An unknown word under a status key is kept as `rawState` (state 'unknown', polling goes on,
//      shown humanised: `validating_files` -> "Validating files"); an error field makes it 'failed'. Progress: a
//      percent text; a number whose key says percent; one whose key says progress/fraction (above 1 a percentage, 1
//      while not finished 1%); else a done/total pair of counts in one object (a key saying total beside one other, or
//      two keys sharing a word, the larger total winning). Message: the first human text, else a phase word. Error: a
//      key saying error/failure/reason, by errorText. Message, error and state word are capped (capText): they are
//      stored in the job record, rewritten at each poll. The model the job made: readMadeModel.
//  §4.7 download body when not redirected: downloadAnswer.ts.
//  §5 401 and 403 from the API origin both mean "fix the key" (AuthError).  §6 no events: jobs are polled (src/jobs).
//  §7 error bodies (errorBody.ts): FastAPI's `detail` list of `{loc, msg}`, an S3-like XML `<Message>`, else errorText of the body (a
//      string, an object's human text, or a list of them, joined); an HTML page says nothing. Statuses: http.ts.
//  §8 limits: Retry-After, IETF RateLimit and X-RateLimit-Reset (rateLimit.ts), for retries and the poller alike.
//  §9 versioning: no version is sent; unknown fields are ignored. All JSON is parsed by safeJson.ts only (depth 64).

export { parseBody, parseErrorBody } from './answerBody';
export { decodeErrorMessage, errorText } from './errorBody';
// The model list (§4.1) is inferred once per service and read by its profile: modelListInference.ts, modelListReader.ts.
export { decodeModelList } from './modelListReading';
export { decodeStartedJob, type StartAnswer } from './startedJob';
export { decodeEvaluationStatus, decodeFinetuneStatus, normaliseState } from './jobStatus';
export { decodeDownloadMetadata } from './downloadAnswer';
