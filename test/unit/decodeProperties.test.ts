// Property tests of the structural decoder (issue 20, part 1): generators build plausible answers of services written
// apart from this project, with random wrappers at random depths, key names drawn from a vocabulary that the readers do
// not list, groups, noise fields, strings versus records. The decoder must recover what the answer holds (names,
// kinds, lineage, job ids, progress, states) and must refuse rather than invent when it holds none.
//
// Seeded: HR_PROPERTY_SEED replays a run; a failure names its seed and the path to the shrunk counterexample.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { type G, bool, checkProperty, int, pick, propertySeed } from './propertyCheck';
import { ContractError } from '../../src/api/errors';
import type { JobState, ModelKind } from '../../src/api/types';
import { decodeFinetuneStatus, decodeModelList, decodeStartedJob } from './readers';

const SEED = propertySeed(20_261_125);
const RUNS = 300;

const check = <T>(name: string, arb: fc.Arbitrary<T>, predicate: (value: T) => void): void =>
  checkProperty(name, arb, predicate, SEED, RUNS);

const shuffle = <T>(g: G, xs: T[]): T[] => {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = int(g, 0, i);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
};

// ------------------------------------------------------------------------------------------------ vocabulary

const HUMAN_TEXT = ['The model is ready to use', 'Trained on public data', 'Updated last week', 'see the docs', 'no notes yet'];
const NOISE_KEYS = ['description', 'createdOn', 'homepage', 'notes', 'license_url', 'updated', 'blurb', 'meta', 'deprecated', 'pricing'];
const WRAP_KEYS = ['payload', 'catalogue', 'result', 'body', 'envelope', 'content', 'listing', 'response', 'out', 'page', 'inner'];
const LIST_KEYS = ['entries', 'available', 'things', 'records', 'catalog', 'options', 'offerings', 'lineup', 'roster'];
const NAME_KEYS = ['handle', 'slug', 'ident', 'label', 'modelRef', 'key', 'model_identifier', 'title', 'uid', 'designation', 'moniker'];
const KIND_KEYS = ['flavour', 'variety', 'classification', 'tier', 'category_name', 'sort', 'provenance'];
const KIND_VALUES: Record<'base' | 'custom', string[]> = {
  base: ['base', 'Base', 'foundation', 'pretrained', 'built-in', 'system', 'stock'],
  custom: ['custom', 'fine-tuned', 'finetuned', 'Fine Tuned', 'tuned', 'lora', 'user'],
};
const BOOL_KIND_KEYS: Record<'base' | 'custom', string[]> = {
  base: ['is_base', 'builtin', 'isFoundation', 'stock'],
  custom: ['isCustom', 'is_finetuned', 'tuned', 'user_trained'],
};
const PARENT_KEYS = ['parent', 'parentModel', 'based_on', 'derived_from', 'base_model', 'root', 'source_model', 'fromModel', 'upstream'];
const GROUP_KEYS: Record<'base' | 'custom', string[]> = {
  base: ['base', 'baseModels', 'foundation_models', 'pretrained', 'builtin', 'system_models', 'stock_models', 'public'],
  custom: ['custom', 'customModels', 'fine_tuned', 'finetuned', 'tunedModels', 'yourModels', 'my_models', 'lora_adapters', 'private'],
};

/** A plausible model name: a brand, a role, an index that keeps names distinct, sometimes an owner or a version. */
function modelName(g: G, i: number): string {
  const core = `${pick(g, ['acme', 'oss', 'tiny', 'llama', 'qwen', 'mistral', 'phi', 'gemma'])}-${pick(g, ['coder', 'reasoner', 'chat', 'instruct', 'mini'])}-${i}${pick(g, ['b', 'k', 'x', ''])}`;
  return pick(g, [core, `org/${core}`, `${core}:v${int(g, 1, 9)}`, `${core}.q4`]);
}

/** A value that names nothing: text, a date, a URL, a number, a boolean, null, or a small record of those. */
function noise(g: G, depth = 0): unknown {
  const kinds = ['text', 'date', 'url', 'number', 'bool', 'null', 'numbers', 'texts', ...(depth < 1 ? ['record'] : [])] as const;
  switch (pick(g, kinds)) {
    case 'text':
      return pick(g, HUMAN_TEXT);
    case 'date':
      return new Date(Date.UTC(2024, int(g, 0, 11), int(g, 1, 28))).toISOString();
    case 'url':
      return `https://example.test/${pick(g, ['docs', 'models', 'about'])}`;
    case 'number':
      return int(g, 0, 100_000);
    case 'bool':
      return bool(g);
    case 'null':
      return null;
    case 'numbers':
      return [int(g, 0, 9), int(g, 10, 99)];
    case 'texts':
      return [pick(g, HUMAN_TEXT)];
    default:
      return Object.fromEntries(Array.from({ length: int(g, 1, 3) }, () => [pick(g, NOISE_KEYS), noise(g, depth + 1)]));
  }
}

function withNoise(g: G, o: Record<string, unknown>, max = 3): Record<string, unknown> {
  const out = { ...o };
  for (let i = int(g, 0, max); i > 0; i--) {
    const key = pick(g, NOISE_KEYS);
    if (!(key in out)) out[key] = noise(g);
  }
  return out;
}

/** `inner` under 0..4 levels of objects (each with noise fields), sometimes inside a one-element array. */
function wrap(g: G, inner: unknown, keys = WRAP_KEYS): unknown {
  let v = inner;
  for (let depth = int(g, 0, 4); depth > 0; depth--) {
    const key = pick(g, keys);
    v = bool(g) && depth > 1 ? [{ [key]: v }] : withNoise(g, { [key]: v }, 2);
  }
  return v;
}

// ------------------------------------------------------------------------------------------------ model lists

interface Expected {
  name: string;
  kind: ModelKind;
  baseModel?: string;
}

/**
 * One list's entries and what the decoder must read from them. `baseNames`: what a parent field may hold; only those
 * the answer lists (`listed`) are parents: a model is another's parent only if it names a model, not a family.
 */
function entries(
  g: G,
  names: string[],
  group: 'base' | 'custom' | undefined,
  baseNames: string[],
  listed: readonly string[] = baseNames,
): { list: unknown[]; expected: Expected[] } {
  const asStrings = bool(g);
  const nameKey = pick(g, NAME_KEYS);
  const kindKey = pick(g, KIND_KEYS);
  const parentKey = pick(g, PARENT_KEYS);
  const constant = bool(g) ? pick(g, ['acme', 'openai', 'internal-team']) : undefined;
  const list: unknown[] = [];
  const expected: Expected[] = [];
  for (const name of names) {
    if (asStrings) {
      list.push(name);
      expected.push({ name, kind: group ?? 'unknown' });
      continue;
    }
    const says = group ?? pick(g, ['base', 'custom', 'silent'] as const);
    const fields: [string, unknown][] = [];
    let kind: ModelKind = says === 'silent' ? 'unknown' : says;
    let baseModel: string | undefined;
    const how = pick(g, ['value', 'boolean', 'parent', 'none'] as const);
    if (says !== 'silent' && how === 'value') fields.push([kindKey, pick(g, KIND_VALUES[says])]);
    else if (says !== 'silent' && how === 'boolean') {
      const [key, value] = bool(g)
        ? [pick(g, BOOL_KIND_KEYS[says]), true]
        : [pick(g, BOOL_KIND_KEYS[says === 'base' ? 'custom' : 'base']), false];
      fields.push([key, value]);
    } else if (says !== 'base' && how === 'parent' && baseNames.some((n) => n !== name)) {
      const parent = pick(
        g,
        baseNames.filter((n) => n !== name),
      );
      fields.push([parentKey, parent]);
      if (listed.includes(parent)) {
        baseModel = parent;
        kind = 'custom';
      } else if (!group) kind = 'unknown';
    } else if (!group) kind = 'unknown';
    if (constant) fields.push(['owner', constant]);
    for (let i = int(g, 0, 3); i > 0; i--) fields.push([pick(g, NOISE_KEYS), noise(g)]);
    // The name comes first, as services write it; the rest in any order.
    const record = Object.fromEntries([[nameKey, name], ...shuffle(g, fields).filter(([k]) => k !== nameKey)]);
    list.push(record);
    expected.push({ name, kind: group ?? kind, ...(baseModel !== undefined ? { baseModel } : {}) });
  }
  return { list, expected };
}

const modelAnswer = fc.gen().map((g) => {
  const count = int(g, 1, 8);
  const names = Array.from({ length: count }, (_, i) => modelName(g, i));
  const shape = pick(g, ['flat', 'groups', 'group-records'] as const);
  if (shape === 'flat') {
    // A parent is another model of the list, or a family id it does not list (no parent, then).
    const { list, expected } = entries(g, names, undefined, [...names, `base-${modelName(g, 100)}`], names);
    return { body: wrap(g, bool(g) ? list : withNoise(g, { [pick(g, LIST_KEYS)]: list })), expected };
  }
  const cut = int(g, 0, count);
  const [bases, customs] = [names.slice(0, cut), names.slice(cut)];
  const b = entries(g, bases, 'base', []);
  const c = entries(g, customs, 'custom', bases);
  const expected = [...b.expected, ...c.expected];
  if (shape === 'groups') {
    const groups = { [pick(g, GROUP_KEYS.base)]: b.list, [pick(g, GROUP_KEYS.custom)]: c.list };
    return { body: wrap(g, withNoise(g, groups, 1)), expected };
  }
  const kindKey = pick(g, KIND_KEYS);
  const listKey = pick(g, LIST_KEYS);
  const records = [
    { [kindKey]: pick(g, KIND_VALUES.base), [listKey]: b.list },
    { [kindKey]: pick(g, KIND_VALUES.custom), [listKey]: c.list },
  ];
  return { body: wrap(g, records), expected };
});

/** Bodies that hold no model: wrappers and noise only (texts, numbers, dates, URLs; no list of names). */
const noModels = fc
  .gen()
  .map((g) => wrap(g, withNoise(g, { [pick(g, NOISE_KEYS)]: pick(g, [...HUMAN_TEXT, 'https://example.test/x']) }, 4)));

describe('decode properties: model lists', () => {
  check('recovers every name, its kind and its lineage, in order', modelAnswer, ({ body, expected }) => {
    const models = decodeModelList(body).map((m) => ({
      name: m.name,
      kind: m.kind,
      ...(m.baseModel !== undefined ? { baseModel: m.baseModel } : {}),
    }));
    assert.deepEqual(models, expected, JSON.stringify(body));
  });

  check('refuses an answer that holds no model, rather than inventing one', noModels, (body) => {
    assert.throws(() => decodeModelList(body), ContractError, JSON.stringify(body));
  });
});

// ------------------------------------------------------------------------------------------------ job ids

const ID_KEYS = ['ticket', 'handle', 'ref', 'token_id', 'run', 'workId', 'reference', 'queue_ticket', 'identifier'];
const SENT_KEYS = ['model', 'target', 'dataset', 'about', 'on'];

function jobId(g: G): string {
  const hex = (n: number) => Array.from({ length: n }, () => '0123456789abcdef'[int(g, 0, 15)]).join('');
  const idForms = [
    `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`,
    `job-${pick(g, ['q', 'gen', 'ft'])}-${int(g, 1, 99_999)}`,
    `ftjob-${hex(6)}${int(g, 0, 9)}`,
    `eval_${int(g, 1, 1e6)}`,
  ];
  return pick(g, idForms);
}

/** Noise a start answer may hold: a state, the request's own values echoed back, text, dates, numbers. */
function startNoise(g: G, sent: string[]): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  if (bool(g)) o[pick(g, ['status', 'state', 'phase'])] = pick(g, ['queued', 'pending', 'accepted', 'submitted', 'created']);
  for (const v of sent) if (bool(g)) o[pick(g, SENT_KEYS)] = v;
  return withNoise(g, o, 3);
}

const startAnswer = fc.gen().map((g) => {
  const id = jobId(g);
  const sent = [modelName(g, 1), `${pick(g, ['squad', 'gsm', 'docs'])}-${int(g, 1, 9)}`];
  const holder = { ...startNoise(g, sent), [pick(g, ID_KEYS)]: id };
  return { body: wrap(g, bool(g) ? holder : { ...startNoise(g, sent), [pick(g, WRAP_KEYS)]: holder }), id, sent };
});

const locationOnly = fc.gen().map((g) => {
  const id = jobId(g);
  const location = pick(g, [
    `/jobs/${id}`,
    `/v1/runs/${encodeURIComponent(id)}/`,
    `https://svc.test/status?job_id=${id}`,
    `/cr/q?ticket=${id}`,
  ]);
  const body = pick(g, ['', { status: 'accepted' }, { message: 'Accepted for processing' }, 'Accepted']);
  return { body, id, answer: { status: pick(g, [201, 202]), location } };
});

const noId = fc.gen().map((g) => {
  const sent = [modelName(g, 2), 'squad-1'];
  return { body: wrap(g, startNoise(g, sent)), sent };
});

describe('decode properties: started jobs', () => {
  check('finds the one id wherever it is nested, past echoes of the request', startAnswer, ({ body, id, sent }) => {
    assert.equal(decodeStartedJob(body, { status: 200, sent }).jobId, id, JSON.stringify(body));
  });

  check('reads the id from the Location header of a 201/202 when the body has none', locationOnly, ({ body, id, answer }) => {
    assert.equal(decodeStartedJob(body, answer).jobId, id);
  });

  check('refuses an answer that holds no id', noId, ({ body, sent }) => {
    assert.throws(() => decodeStartedJob(body, { status: 200, sent }), ContractError, JSON.stringify(body));
  });
});

// ------------------------------------------------------------------------------------------------ status, progress

const STATUS_KEYS = ['status', 'state', 'jobStatus', 'current_state', 'runState'];
const RUNNING = ['running', 'training', 'processing', 'in_progress', 'generating', 'In Progress'];
const TERMINAL: [string, JobState][] = [
  ['succeeded', 'completed'],
  ['COMPLETED', 'completed'],
  ['done', 'completed'],
  ['failed', 'failed'],
  ['errored', 'failed'],
  ['cancelled', 'cancelled'],
  ['Canceled', 'cancelled'],
];
const STEMS = ['step', 'epoch', 'batch', 'chunk', 'question', 'document', 'page', 'sample', 'shard'];
const STATUS_NOISE_KEYS = ['note', 'created_at', 'createdTs', 'gpu', 'attempt', 'priority', 'ref', 'region'];

function statusNoise(g: G): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (const key of STATUS_NOISE_KEYS) {
    if (!bool(g)) continue;
    if (key === 'note') o[key] = pick(g, HUMAN_TEXT);
    else if (key === 'created_at') o[key] = new Date(Date.UTC(2025, 0, int(g, 1, 28))).toISOString();
    else if (key === 'createdTs') o[key] = int(g, 1_600_000_000, 1_900_000_000);
    else if (key === 'gpu') o[key] = bool(g);
    else if (key === 'ref') o[key] = `ftjob-${int(g, 1, 9999)}`;
    else if (key === 'region') o[key] = pick(g, ['eu-west', 'us-east']);
    else o[key] = int(g, 0, 20);
  }
  return o;
}

/** A running job's status with its progress in one of the forms services use, and that progress in percent. */
const progressAnswer = fc.gen().map((g) => {
  const record: Record<string, unknown> = { ...statusNoise(g), [pick(g, STATUS_KEYS)]: pick(g, RUNNING) };
  let expected: number;
  switch (pick(g, ['percent-text', 'percent', 'fraction', 'counts', 'stem-counts'] as const)) {
    case 'percent-text': {
      expected = int(g, 0, 1000) / 10;
      record[pick(g, ['progressText', 'howFar', 'completion_label', 'shown'])] = `${expected}${pick(g, ['%', ' %'])}`;
      break;
    }
    case 'percent':
      expected = int(g, 0, 100);
      record[pick(g, ['percentDone', 'pct_complete', 'percentage', 'percent', 'progressPct'])] = expected;
      break;
    case 'fraction': {
      const f = int(g, 0, 99) / 100;
      expected = f * 100;
      record[pick(g, ['progress', 'completionRatio', 'fraction_done', 'ratio', 'progressFraction'])] = f;
      break;
    }
    case 'counts': {
      const total = int(g, 1, 100_000);
      const done = int(g, 0, total);
      expected = (done / total) * 100;
      const pair = shuffle(g, [
        [pick(g, ['done', 'completed', 'processed', 'current', 'finished', 'handled']), done],
        [pick(g, ['total', 'totalItems', 'of', 'max', 'count', 'num_items', 'expected', 'target_count']), total],
      ]);
      record[pick(g, ['counts', 'advance', 'work', 'items'])] = Object.fromEntries(pair);
      break;
    }
    case 'stem-counts': {
      const stem = pick(g, STEMS);
      const total = int(g, 1, 5_000);
      const done = int(g, 0, total);
      expected = (done / total) * 100;
      const pair = shuffle(g, [
        [pick(g, [stem, `current_${stem}`, `${stem}s_done`, `completed_${stem}s`]), done],
        [pick(g, [`total_${stem}s`, `num_${stem}s`, `max_${stem}s`, `${stem}_count`]), total],
      ]);
      for (const [k, v] of pair) record[k as string] = v;
      break;
    }
  }
  return { body: wrap(g, record, ['job', 'data', 'run', 'task', 'payload']), expected };
});

const noProgress = fc.gen().map((g) => wrap(g, { ...statusNoise(g), [pick(g, STATUS_KEYS)]: pick(g, RUNNING) }, ['job', 'data']));

const terminalAnswer = fc.gen().map((g) => {
  const [word, state] = pick(g, TERMINAL);
  const record = { ...statusNoise(g), [pick(g, STATUS_KEYS)]: word };
  return { body: wrap(g, record, ['job', 'data', 'run', 'task', 'payload']), state };
});

describe('decode properties: status and progress', () => {
  check(
    'reads progress from a percent text, a percentage, a fraction or any done/total pair of counts',
    progressAnswer,
    ({ body, expected }) => {
      const s = decodeFinetuneStatus('j', body);
      assert.equal(s.state, 'running', JSON.stringify(body));
      assert.ok(
        s.progress !== undefined && Math.abs(s.progress - expected) < 1e-9,
        `read ${s.progress}, expected ${expected}: ${JSON.stringify(body)}`,
      );
    },
  );

  check('invents no progress where the answer gives none', noProgress, (body) => {
    assert.equal(decodeFinetuneStatus('j', body).progress, undefined, JSON.stringify(body));
  });

  check('reads terminal states by meaning, wherever the record is wrapped', terminalAnswer, ({ body, state }) => {
    const s = decodeFinetuneStatus('j', body);
    assert.equal(s.state, state, JSON.stringify(body));
    if (state === 'completed') assert.equal(s.progress, 100);
  });
});
