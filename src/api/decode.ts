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
// "Inferred once per service" below: the place found is kept (ServiceProfiles) once a second answer agrees, at most
// MAX_KEEPS_PER_PART times per part in a window (src/connection/inferredKeeping.ts says why); until then each answer
// is read by inference. A place kept by inference gives way when a later answer has one the kind's inference ranks
// above it (its own scoring, no list of names): the answer and stream (streamReading.ts), the started job
// (startedJob.ts), the download URL (downloadAnswer.ts), the status's state (jobStatusReading.ts); the model list only
// when it no longer fits. A place chosen by the person or the setting's is read as given.
//
//  §4.1 model list: inferred once per service into a profile (paths and value maps), then read by it:
//      modelListInference.ts (its rules at its top), modelListReader.ts, modelListReading.ts. A parent only when it is
//      a name the answer lists; an answer holding names that reads as none is refused, never [].
//  §4.2 the answer and its reasoning, non-streamed and streamed: answerText.ts (framing: stream.ts). A stream's events
//      are read by a profile inferred once per service from a run's first events, then kept: streamInference.ts (its
//      rules at its top), streamReader.ts, streamReading.ts; a non-streamed answer the same way, as one event.
//  §4.3/§4.5 started job: inferred once per service and endpoint into the profile's `startedJob` part (the id's path, or
//      the Location header), then read by it: startedJobInference.ts (its rules at its top), startedJob.ts. `job_id`,
//      the spec's name, first; else the one identifier, at any depth, that is no state word and no value the request
//      sent, ranked by the words of its key (`id`, `jobId` over `run`, over `organization_id`: another thing's id), then
//      a shallower one, then one with a digit; a tie is refused. A number only as the whole answer, or at a place the
//      person chose (or the setting names). No id in the body: the `Location` of a 201/202. An id over 256 characters
//      or with control characters is refused (it is stored and sent back in every poll). An answer nothing reads goes
//      to the profile book, for the person to choose where its id is (its kind's choices, answerKinds.ts).
//  §3/§4.4/§4.6 status: inferred once per service and endpoint into a profile (paths and a map of state words), kept,
//      then read by it; inferred again when an answer no longer fits, grown while the first answers lack a part:
//      jobStatusInference.ts (its rules at its top), jobStatusReader.ts, jobStatusReading.ts; the state words and the
//      one mapping rule (a vendor prefix dropped) in stateWords.ts; typed statuses and an evaluation's result (by the
//      spec's names, §2) in jobStatus.ts. A job ends when the answer says so: by a state word, a finished flag, a
//      result, a made model that is ready, or counts reaching their total; an evaluation said completed whose result
//      cannot be read ends failed, saying why, instead of being asked about forever.
//  §4.7 download body when not redirected: inferred once per service into the profile's `download` part (paths), then
//      read by it: downloadInference.ts (its rules at its top), downloadValues.ts, downloadAnswer.ts. The URL is the
//      answer's absolute https URL whatever its key; a 64-hex value is a SHA-256 whatever its key; an MD5 (16 bytes) and
//      a CRC32C (4 bytes), hex or base64, under a key saying md5 / crc32c; expiry, size and file name by the words of
//      their keys and the shape of their values. The downloader verifies the strongest checksum announced (checksum.ts).
//  §5 401 and 403 from the API origin both mean "fix the key" (AuthError).  §6 no events: jobs are polled (src/jobs).
//  §7 error bodies (errorBody.ts): FastAPI's `detail` list of `{loc, msg}`, an S3-like XML `<Message>`, else errorText of the body (a
//      string, an object's human text, or a list of them, joined); an HTML page says nothing; read by shape at each
//      answer, no profile part (errorBody.ts says why). Statuses: http.ts.
//  §8 limits: Retry-After, IETF RateLimit and X-RateLimit-Reset (rateLimit.ts), for retries and the poller alike.
//  §9 versioning: no version is sent; unknown fields are ignored. All JSON is parsed by safeJson.ts only (depth 64).

export { parseBody, parseErrorBody } from './answerBody';
export { decodeErrorMessage, errorText } from './errorBody';
// The model list (§4.1) is inferred once per service and read by its profile: modelListInference.ts, modelListReader.ts.
export { decodeModelList } from './modelListReading';
export { decodeStartedJob, readStartedJob, type StartAnswer } from './startedJob';
export { decodeEvaluationStatus, decodeFinetuneStatus, normaliseState } from './jobStatus';
// A job status (§3/§4.4/§4.6) is inferred once per service and read by its profile: jobStatusInference.ts, jobStatusReader.ts.
export { decodeDownloadMetadata, readDownloadAnswer } from './downloadAnswer';
