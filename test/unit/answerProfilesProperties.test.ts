// Property tests of the started job's and the download answer's profile parts (issue 27): services generated from a
// grammar of wrappers and namings (random key words, nesting, ids and opaque blobs beside the planted value, the
// request's values echoed back). A service's style is drawn once; its answers then differ only in their values. The
// planted id / URL (and the download's expiry, size and SHA-256) are read back from the first answer, and a later
// answer of the same service is read the same way by the kept profile alone.
//
// Seeded: HR_PROPERTY_SEED replays a run; a failure names its seed and the path to the shrunk counterexample.
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { type G, bool, checkProperty, int, pick, propertySeed } from './propertyCheck';
import { readStartedJob, type StartAnswer } from '../../src/api/startedJob';
import { readDownloadAnswer } from './readers';

const SEED = propertySeed(20_261_127);
const RUNS = 300;

const check = <T>(name: string, arb: fc.Arbitrary<T>, predicate: (value: T) => void): void =>
  checkProperty(name, arb, predicate, SEED, RUNS);

/** Words no reader knows the meaning of. */
const WORDS = ['zorb', 'quill', 'vex', 'lumen', 'tarn', 'crux', 'fable', 'nimbus', 'orbit', 'plinth', 'rune', 'sable'];

/** A key made of words in one of the usual styles: `zorbTicket`, `zorb_ticket`, `zorb-ticket`, `ZorbTicket`. */
function keyOf(g: G, parts: string[]): string {
  const style = pick(g, ['camel', 'snake', 'kebab', 'pascal']);
  const cap = (w: string) => w[0]!.toUpperCase() + w.slice(1);
  if (style === 'snake') return parts.join('_');
  if (style === 'kebab') return parts.join('-');
  if (style === 'pascal') return parts.map(cap).join('');
  return parts.map((w, i) => (i === 0 ? w : cap(w))).join('');
}
const word = (g: G) => pick(g, WORDS);
const hex = (g: G, n: number) => Array.from({ length: n }, () => '0123456789abcdef'[int(g, 0, 15)]).join('');
/** An opaque value: base64-like, with digits, as tokens and cursors are. */
const blob = (g: G) => `${pick(g, ['eyJ', 'AQID', 'c2Vj'])}${hex(g, int(g, 8, 24))}${pick(g, ['', '==', 'Zk9'])}`;

/** Wrappers drawn once per service: keys, and whether each holds a list of one record. */
function wrappersOf(g: G): { key: string; inArray: boolean }[] {
  return Array.from({ length: int(g, 0, 3) }, () => ({ key: keyOf(g, [word(g)]), inArray: bool(g) }));
}
function wrapIn(wrappers: { key: string; inArray: boolean }[], inner: unknown, extra: () => Record<string, unknown>): unknown {
  let v = inner;
  for (const w of wrappers) {
    const o: Record<string, unknown> = extra();
    o[w.key] = v;
    v = w.inArray ? [o] : o;
  }
  return v;
}

// ------------------------------------------------------------------------------------------------ started jobs

interface StartStyle {
  wrappers: { key: string; inArray: boolean }[];
  idKey: string;
  /** Other ids beside the job's, each under a key saying whose id it is (`zorb_id`), and opaque blobs. */
  foreignKeys: string[];
  blobKeys: string[];
  echoKeys: string[];
  stateKey?: string;
  location: boolean;
}

function startStyle(g: G): StartStyle {
  const idKey = pick(g, [
    'job_id',
    'id',
    keyOf(g, [pick(g, ['job', 'task', 'run', 'operation']), pick(g, ['id', 'ref', 'handle', 'uuid'])]),
    keyOf(g, [pick(g, ['ref', 'ticket', 'handle', 'identifier', 'uid'])]),
  ]);
  const others = WORDS.filter(() => bool(g)).slice(0, 4);
  return {
    wrappers: wrappersOf(g),
    idKey,
    foreignKeys: others.slice(0, 2).map((w) => keyOf(g, [w, pick(g, ['id', 'ref', 'uid'])])),
    blobKeys: others.slice(2).map((w) => keyOf(g, [w])),
    echoKeys: Array.from({ length: int(g, 0, 2) }, (_, i) => keyOf(g, [WORDS[i]!, 'name'])),
    stateKey: bool(g) ? pick(g, ['status', 'state']) : undefined,
    location: int(g, 0, 4) === 0,
  };
}

function jobId(g: G): string {
  return pick(g, [
    `${hex(g, 8)}-${hex(g, 4)}-4${hex(g, 3)}-a${hex(g, 3)}-${hex(g, 12)}`,
    `job-${int(g, 1, 99_999)}`,
    `ftjob-${hex(g, 7)}`,
    `run_${hex(g, 6)}`,
  ]);
}

/** One start answer of the service: its id, the request's values, beside what the style puts there. */
function startAnswer(g: G, s: StartStyle): { body: unknown; answer: StartAnswer; id: string } {
  const id = jobId(g);
  const sent = [`acme-model-${int(g, 1, 99)}`, `docs-${int(g, 1, 9)}`];
  if (s.location) {
    const location = pick(g, [`/jobs/${id}`, `/cr/status?job_id=${id}`, `https://svc.test/v1/runs/${id}`]);
    return { body: pick(g, ['', { status: 'accepted' }]), answer: { status: pick(g, [201, 202]), location, sent }, id };
  }
  const record: Record<string, unknown> = {};
  for (const k of s.foreignKeys) record[k] = `${pick(g, ['u', 'org', 'file'])}-${hex(g, 6)}`;
  for (const k of s.blobKeys) record[k] = blob(g);
  s.echoKeys.forEach((k, i) => (record[k] = sent[i % sent.length]));
  if (s.stateKey) record[s.stateKey] = pick(g, ['queued', 'pending', 'accepted']);
  record[s.idKey] = id;
  const extra = () => ({ ok: true, note: 'Accepted for processing' });
  return { body: wrapIn(s.wrappers, record, extra), answer: { status: 200, sent }, id };
}

const startService = fc.gen().map((g) => {
  const s = startStyle(g);
  return { style: s, first: startAnswer(g, s), later: startAnswer(g, s) };
});

describe('answer profile properties: started jobs', () => {
  check('the planted id is read back, and a later answer is read the same way by the profile', startService, ({ first, later }) => {
    const one = readStartedJob(first.body, first.answer, undefined);
    assert.equal(one.job.jobId, first.id, JSON.stringify(first.body));
    // Kept as inferred, as the book keeps it: a later answer of the same style has no stronger place to give way to.
    const two = readStartedJob(later.body, later.answer, one.from, 'inferred');
    assert.equal(two.job.jobId, later.id, JSON.stringify(later.body));
    assert.equal(two.change, undefined, `inferred again: ${two.change}`);
  });
});

// ------------------------------------------------------------------------------------------------ downloads

interface DownloadStyle {
  wrappers: { key: string; inArray: boolean }[];
  urlKey: string;
  /** A link beside the artifact's (documentation, a console page), under a key that says no download. */
  linkKey?: string;
  expiry?: { key: string; form: 'iso' | 'epoch' | 'in' };
  sizeKey?: string;
  sizeAsText: boolean;
  shaKey?: string;
  shaPrefix: string;
  host: 'aws' | 'gcs' | 'azure' | 'plain';
  blobKeys: string[];
}

function downloadStyle(g: G): DownloadStyle {
  // Each role has its own random word, so that no two keys of one answer are the same.
  const ws = [...WORDS];
  for (let i = ws.length - 1; i > 0; i--) {
    const j = int(g, 0, i);
    [ws[i], ws[j]] = [ws[j]!, ws[i]!];
  }
  const hasLink = bool(g);
  const urlKey = hasLink
    ? keyOf(g, [pick(g, ['download', 'signed', 'presigned']), pick(g, ['url', 'uri', 'link', 'href'])])
    : keyOf(g, [ws[0]!, ...(bool(g) ? [pick(g, ['url', 'link', 'location'])] : [])]);
  const expiryForm = pick(g, ['iso', 'epoch', 'in'] as const);
  const expiryKey =
    expiryForm === 'in'
      ? keyOf(g, [pick(g, ['expires', 'ttl', 'expiry']), ...(bool(g) ? [pick(g, ['in', 'seconds'])] : [])])
      : bool(g)
        ? keyOf(g, [pick(g, ['expires', 'expiry', 'expiration']), pick(g, ['at', 'time', 'on'])])
        : keyOf(g, ['valid', 'until']);
  return {
    wrappers: wrappersOf(g),
    urlKey,
    linkKey: hasLink ? keyOf(g, [ws[1]!, pick(g, ['docs', 'console', 'page'])]) : undefined,
    expiry: bool(g) ? { key: expiryKey, form: expiryForm } : undefined,
    sizeKey: bool(g) ? keyOf(g, [...(bool(g) ? [ws[2]!] : []), pick(g, ['size', 'bytes', 'length'])]) : undefined,
    sizeAsText: bool(g),
    shaKey: bool(g) ? keyOf(g, [ws[3]!, ...(bool(g) ? [pick(g, ['sum', 'hash', 'value'])] : [])]) : undefined,
    shaPrefix: pick(g, ['', 'sha256:', 'SHA256=']),
    host: pick(g, ['aws', 'gcs', 'azure', 'plain'] as const),
    blobKeys: ws
      .slice(4)
      .filter(() => int(g, 0, 3) === 0)
      .map((w) => keyOf(g, [w, pick(g, ['token', 'cursor', 'etag'])])),
  };
}

const NOW = Date.parse('2026-11-27T03:00:00Z');

function signedUrl(g: G, s: DownloadStyle): string {
  const file = `${word(g)}-${int(g, 1, 999)}.gguf`;
  const sig = hex(g, 64);
  if (s.host === 'aws') {
    return `https://${word(g)}.s3.eu-west-1.amazonaws.com/m/${file}?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=20261127T030000Z&X-Amz-Expires=${int(g, 60, 3600)}&X-Amz-SignedHeaders=host&X-Amz-Signature=${sig}`;
  }
  if (s.host === 'gcs') {
    return `https://storage.googleapis.com/${word(g)}/${file}?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Expires=900&X-Goog-Signature=${sig}`;
  }
  if (s.host === 'azure') return `https://${word(g)}.blob.core.windows.net/models/${file}?se=2026-11-27T04%3A00%3A00Z&sp=r&sig=${sig}`;
  return `https://cdn.${word(g)}.example/${file}`;
}

interface Planted {
  url: string;
  expiresAt?: number;
  size?: number;
  sha256?: string;
}

function downloadAnswer(g: G, s: DownloadStyle): { body: unknown; planted: Planted } {
  const record: Record<string, unknown> = {};
  const planted: Planted = { url: signedUrl(g, s) };
  for (const k of s.blobKeys) record[k] = blob(g);
  if (s.linkKey) record[s.linkKey] = `https://docs.${word(g)}.example/${word(g)}`;
  record.model_name = `acme-model-${int(g, 1, 99)}`;
  record[s.urlKey] = planted.url;
  if (s.expiry) {
    const seconds = int(g, 60, 86_400);
    planted.expiresAt = NOW + seconds * 1000;
    record[s.expiry.key] =
      s.expiry.form === 'iso' ? new Date(planted.expiresAt).toISOString() : s.expiry.form === 'epoch' ? planted.expiresAt / 1000 : seconds;
  }
  if (s.sizeKey) {
    planted.size = int(g, 1, 2 ** 40);
    record[s.sizeKey] = s.sizeAsText ? String(planted.size) : planted.size;
  }
  if (s.shaKey) {
    planted.sha256 = createHash('sha256')
      .update(String(int(g, 0, 1e9)))
      .digest('hex');
    record[s.shaKey] = `${s.shaPrefix}${planted.sha256}`;
  }
  record.count = int(g, 0, 100);
  return { body: wrapIn(s.wrappers, record, () => ({ ok: true })), planted };
}

const downloadService = fc.gen().map((g) => {
  const s = downloadStyle(g);
  return { style: s, first: downloadAnswer(g, s), later: downloadAnswer(g, s) };
});

function assertPlanted(target: Planted, planted: Planted, body: unknown): void {
  const got = { url: target.url, expiresAt: target.expiresAt, size: target.size, sha256: target.sha256 };
  const want = { url: planted.url, expiresAt: planted.expiresAt, size: planted.size, sha256: planted.sha256 };
  assert.deepEqual(got, want, JSON.stringify(body));
}

describe('answer profile properties: download answers', () => {
  check(
    'the planted URL, expiry, size and SHA-256 are read back, and a later answer the same way by the profile',
    downloadService,
    ({ first, later }) => {
      const one = readDownloadAnswer(first.body, { now: NOW });
      assertPlanted(one.target as Planted, first.planted, first.body);
      const two = readDownloadAnswer(later.body, { now: NOW, known: one.profile });
      assertPlanted(two.target as Planted, later.planted, later.body);
      assert.equal(two.change, undefined, `inferred again: ${two.change}`);
      assert.equal(two.profile, one.profile);
    },
  );
});
