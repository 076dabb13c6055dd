// §4.3/§4.5 the answer to a started job: its id (rules in decode.ts's header).

import { answerReader } from './errors';
import { compareRanks, contract, isIdentifier, isObj, isTypeValue, MAX_DEPTH } from './answerShape';
import { normaliseState } from './stateWords';
import { isUsableJobId, MAX_JOB_ID_LENGTH, type StartedJob } from './types';

type Json = unknown;

/** What else the client knows of a start answer: its status and Location header, and the values the request sent. */
export interface StartAnswer {
  status?: number;
  location?: string;
  /** Values the request itself sent (model, dataset, mode…): an answer echoing them back does not make them ids. */
  sent?: readonly string[];
}

export const decodeStartedJob = answerReader(function decodeStartedJob(body: Json, answer: StartAnswer = {}): StartedJob {
  const sent = new Set(answer.sent ?? []);
  const strings: { id: string; rank: number[] }[] = [];
  const visit = (v: unknown, depth: number): void => {
    if (depth > MAX_DEPTH) return;
    if (typeof v === 'string') {
      const t = v.trim();
      if (isIdentifier(t) && !sent.has(t) && normaliseState(t) === 'unknown' && !isTypeValue(t)) {
        strings.push({ id: t, rank: [/\d/.test(t) ? 1 : 0, -depth] });
      }
    } else if (Array.isArray(v)) v.forEach((x) => visit(x, depth + 1));
    else if (isObj(v)) for (const x of Object.values(v)) visit(x, depth + 1);
  };
  visit(body, 0);
  strings.sort((a, b) => compareRanks(b.rank, a.rank));
  const [best, next] = strings;
  if (best && next && compareRanks(best.rank, next.rank) === 0 && best.id !== next.id) {
    throw contract(`two values could each be the job id: "${best.id}" and "${next.id}"`, body);
  }
  // A number is an id only when it is the whole answer: in a record, `{"position": 3}` looks just like `{"id": 3}`.
  const id = best?.id ?? (typeof body === 'number' && Number.isSafeInteger(body) ? String(body) : undefined) ?? idFromLocation(answer);
  if (id === undefined) throw contract('no job id in the answer', body);
  // An id that cannot be stored and sent back safely is refused now, not discovered by the poller or the views later.
  if (!isUsableJobId(id)) {
    throw contract(`the job id is longer than ${MAX_JOB_ID_LENGTH} characters or holds control characters`, body);
  }
  return { jobId: id, raw: body };
});

/** A 201/202 that says where the job is: its one query value, else the last segment of its path. */
function idFromLocation({ status, location }: StartAnswer): string | undefined {
  if ((status !== 201 && status !== 202) || !location) return undefined;
  try {
    const url = new URL(location, 'http://service.invalid/');
    const values = [...url.searchParams.values()].filter(isIdentifier);
    const id = values.length === 1 ? values[0] : decodeURIComponent(url.pathname.split('/').filter(Boolean).pop() ?? '');
    return isIdentifier(id) ? id : undefined;
  } catch {
    return undefined; // not a URL, or a segment that is not URI-encoded
  }
}
