// §4.3/§4.5 where a started job's id is, inferred from one answer (the place is kept as the profile's `startedJob`
// part; startedJob.ts reads later answers by it). Its rules:
//  1. `job_id`, the name the spec documents (§2, §4.5), is read by that name first, at any depth (the shallowest).
//  2. Else every identifier in the answer (isIdentifier) that is no state word, no type word and no value the request
//     sent is a candidate, ranked by the words of its key (never whole key names): a key saying an id (id, ref,
//     ticket, name, arn…) and nothing else but the job (`jobId`, `task_ref`) first; then a key saying no id (`run`,
//     `flavor`); last a key saying whose id it is (`organization_id`, `owner_ref`, `model_name`): the id of another thing.
//     Within a rank a shallower one wins (a record nested in the answer is another thing's: `owner: {id}`), then one
//     with a digit; a tie between two different values is refused.
//  3. A number only as the whole answer: in a record, `{"position": 3}` looks just like `{"id": 3}`.
//  4. No id in the body: the `Location` of a 201/202 (its one query value, else its last path segment).
// No spread or `apply` over what the service sent (answerReading.ts).

import { compareRanks, contract, eachLeaf, isIdentifier, isTypeValue } from './answerShape';
import { normaliseState } from './stateWords';
import { formatPath, lastKey, LOCATION_HEADER, parsePath, type Segment } from './profilePath';

/** What else the client knows of a start answer: its status and Location header, and the values the request sent. */
export interface StartAnswer {
  status?: number;
  location?: string;
  /** Values the request itself sent (model, dataset, mode…): an answer echoing them back does not make them ids. */
  sent?: readonly string[];
}

export { LOCATION_HEADER };

/** The name the spec gives the id (§2, §4.5): read by that name first. */
const SPEC_NAME = 'job_id';
import { ID_WORDS, JOB_WORDS, wordsOf } from './hintWords';

/** The rank the words of a key give the value it holds (rule 2): 3 the spec's name, 2 the job's id, 1 neutral, 0 another's id. */
function keyRank(key: string | undefined): number {
  if (key === undefined) return 1;
  if (key === SPEC_NAME) return 3;
  let id = false;
  let other = false;
  for (const w of wordsOf(key)) {
    if (ID_WORDS.has(w)) id = true;
    else if (!JOB_WORDS.has(w)) other = true;
  }
  return id ? (other ? 0 : 2) : 1;
}

/** A job id the answer can give (trimmed): one token that is no state word, no type word, and nothing the request sent. */
export function isJobIdValue(v: unknown, sent: ReadonlySet<string>): v is string {
  if (typeof v !== 'string') return false;
  const t = v.trim();
  return isIdentifier(t) && !sent.has(t) && normaliseState(t) === 'unknown' && !isTypeValue(t);
}

/** The id and where it was: a path (formatPath; '' the answer itself) or LOCATION_HEADER. */
export interface FoundId {
  id: string;
  from: string;
}

/** The rank the words of a place's key give it (rule 2): what a kept inferred place is compared by (startedJob.ts). */
export function placeRank(from: string): number {
  if (from === LOCATION_HEADER) return keyRank(undefined);
  return keyRank(lastKey(parsePath(from) ?? []));
}

export function inferStartedJobId(body: unknown, answer: StartAnswer): FoundId {
  const sent = new Set(answer.sent ?? []);
  let best: { id: string; rank: number[]; path: Segment[] } | undefined;
  let tie: string | undefined;
  eachLeaf(body, (v, path, key, depth) => {
    const t = typeof v === 'string' ? v.trim() : undefined;
    if (t === undefined || !isJobIdValue(t, sent)) return;
    const rank = [keyRank(key), -depth, /\d/.test(t) ? 1 : 0];
    const order = best ? compareRanks(rank, best.rank) : 1;
    if (order > 0) {
      best = { id: t, rank, path: path.slice() };
      tie = undefined;
    } else if (order === 0 && best && t !== best.id) tie ??= t;
  });
  if (best && tie !== undefined) throw contract(`two values could each be the job id: "${best.id}" and "${tie}"`, body);
  if (best) return { id: best.id, from: formatPath(best.path) };
  if (typeof body === 'number' && Number.isSafeInteger(body)) return { id: String(body), from: '' };
  const located = idFromLocation(answer);
  if (located !== undefined) return { id: located, from: LOCATION_HEADER };
  throw contract('no job id in the answer', body);
}

/** A 201/202 that says where the job is: its one query value, else the last segment of its path. */
export function idFromLocation({ status, location }: StartAnswer): string | undefined {
  if ((status !== 201 && status !== 202) || !location) return undefined;
  try {
    const url = new URL(location, 'http://service.invalid/');
    const values = Array.from(url.searchParams.values()).filter(isIdentifier);
    const id = values.length === 1 ? values[0] : decodeURIComponent(url.pathname.split('/').filter(Boolean).pop() ?? '');
    return isIdentifier(id) ? id : undefined;
  } catch {
    return undefined; // not a URL, or a segment that is not URI-encoded
  }
}
