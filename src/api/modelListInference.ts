// The model list's inference (§4.1): from one answer, *where* its models are, as a profile (profileFormat.ts) that
// modelListReader.ts then reads this answer and the later ones by. It reads the answer by its shape, never by a list
// of key names; words are read only for meaning (a kind, a lineage), in values or in the words of a key. Its rules:
//  1. Every array within MAX_DEPTH levels is a candidate list, of strings or of records.
//  2. A record's fields are its own and, one level down, those of a record it holds (`{model: {id, tier}}`); its own
//     come first.
//  3. A record's name is an identifier-like string (isModelName); the list's name field is the one most records
//     have, then with the most distinct values, then one whose key does not say a parent (base/parent/root/from...),
//     then the first (services put the name first).
//  4. Its kind: fields whose values are kind words (`tier: foundation`) or booleans whose key says a kind
//     (`is_custom: true`), each value mapped by its words (custom before base: "fine_tuned_base" is custom). Every other
//     value such a field takes in the answer is mapped too, to 'unknown' (`owned_by: "system"` beside
//     `owned_by: "org-…"`): the profile must read the very answer it came from, and a value it cannot map would make
//     it refuse that answer. Else a field naming another model under a key that says a parent (custom, with its
//     lineage).
//  5. Beside a list under a key that names models (`models`, `tunedModels`, `yours`), a list under a key that does not
//     (`datasets`, `files`, `jobs`) is another thing's, however like names its items look, and is not searched.
//     Groups: two or more lists of one shape side by side, or lists under keys that say a kind (`foundation_models`,
//     `tunedModels`), or an array of records each holding a list (its record says the kind in a value). The group's
//     word wins. A group whose key says no kind, beside one whose key says custom, and whose items name no parent, is
//     base (`{models, tunedModels}`): the service split its models by kind and named only the custom ones.
//  6. A model is another's parent only if it names a model, not a family: a field is a parent field only when some
//     item's value in it is a name the same answer lists, other than the item's own (`baseModel: "models/x"` beside a
//     listed `models/x`); `baseModelId: "x"` (a family id) or a version tag never makes a model custom.
//  7. The candidate with the most distinct names wins; a tie between two with names is refused (ContractError naming
//     both): the person chooses (modelListChoices), the extension does not guess.
//  8. A name left unsaid is custom when it starts with `ft:` or `custom:`, else 'unknown' (modelListReader.ts);
//     duplicates keep the first.
//  9. A record's other identifiers of the same model (a short id beside an ARN, a display name beside a resource name)
//     are kept: name-like fields under keys that say an identifier of this model, never an owner's or a parent's, no
//     value of which two items share (otherNameColumns).
// No spread or `apply` over what the service sent: they take about 125,000 elements at most, and an answer may hold more.

import { compareRanks, contract, isObj, isTypeValue, isModelName, keyNamesModels, kindOfWords, MAX_DEPTH, type Obj } from './answerShape';
import { IDENTIFIER_QUALIFIERS, IDENTIFIER_WORDS, keySays, LINEAGE_WORDS, wordsOf } from './hintWords';
import { itemsAt, readModelsByProfile } from './modelListReader';
import { EACH, formatPath, valueAt, type Segment } from './profilePath';
import { compiledEntries, type KindSource, type ModelListEntry, type ModelListProfile } from './profileFormat';
import { capText, type ModelKind } from './types';

/** A field of a record: its path from the record (one or two keys) and the key that says what it is. */
interface Column {
  id: string;
  key: string;
}

/** One record as the inference sees it: its name-like fields, what its other fields say of its kind, a date. */
interface Seen {
  names: [Column, string][];
  kinds: [Column, string, ModelKind][];
  /** Every string field, whatever it holds: a kind field's other values are mapped from these (rule 4). */
  strings: [Column, string][];
  created?: Column;
}

const DATE = /^\d{4}-\d\d-\d\dT/;
/** More distinct values than this in one field: it names things, it does not say a kind. */
const MAX_KIND_VALUES = 16;

/** A record's fields (rule 2): names, the kinds its values and booleans say, a date. */
function seeRecord(r: Obj): Seen {
  const seen: Seen = { names: [], kinds: [], strings: [] };
  const visit = (o: Obj, prefix: string | undefined) => {
    for (const k in o) {
      const v = o[k];
      const column = () => ({ id: formatPath(prefix === undefined ? [k] : [prefix, k]), key: k });
      if (typeof v === 'string') {
        seen.strings.push([column(), v]);
        if (isModelName(v)) seen.names.push([column(), v]);
        else if (isTypeValue(v)) seen.kinds.push([column(), v, kindOfWords(wordsOf(v))]);
        else if (seen.created === undefined && DATE.test(v)) seen.created = column();
      } else if (typeof v === 'boolean') {
        const said = kindOfWords(wordsOf(k));
        if (said !== 'unknown') seen.kinds.push([column(), String(v), v ? said : said === 'custom' ? 'base' : 'custom']);
      }
    }
  };
  visit(r, undefined);
  for (const k in r) {
    const v = r[k];
    if (isObj(v)) visit(v, k);
  }
  return seen;
}

interface ColumnStats {
  column: Column;
  covered: number;
  values: Set<string>;
  lineage: boolean;
  order: number;
}

/** The name fields of a list's records, best first (rule 3). */
function nameColumns(seen: Seen[]): ColumnStats[] {
  const columns = new Map<string, ColumnStats>();
  for (const { names } of seen) {
    for (const [column, v] of names) {
      let c = columns.get(column.id);
      if (!c) {
        c = { column, covered: 0, values: new Set(), lineage: keySays(column.key, LINEAGE_WORDS), order: columns.size };
        columns.set(column.id, c);
      }
      c.covered++;
      c.values.add(v);
    }
  }
  const rank = (c: ColumnStats) => [c.covered, c.values.size, c.lineage ? 0 : 1, -c.order];
  return [...columns.values()].sort((a, b) => compareRanks(rank(b), rank(a)));
}

/** What a list's items say beside their names: their kind fields with their value maps, parents, a date (rule 4). */
function itemFields(seen: Seen[], nameId: string | undefined): Omit<ModelListEntry, 'names'> {
  // Maps, not objects, while they are built: a value is the service's ("__proto__" too).
  const kinds = new Map<string, Map<string, ModelKind>>();
  const parents: string[] = [];
  let createdFrom: string | undefined;
  for (const s of seen) {
    for (const [column, value, kind] of s.kinds) {
      let map = kinds.get(column.id);
      if (!map) kinds.set(column.id, (map = new Map<string, ModelKind>()));
      map.set(value, kind);
    }
    for (const [column] of s.names) {
      if (column.id !== nameId && keySays(column.key, LINEAGE_WORDS) && !parents.includes(column.id)) parents.push(column.id);
    }
    createdFrom ??= s.created?.id;
  }
  // Rule 4: the other values of a kind field say no kind, but the profile must know them, or it would not fit this
  // very answer (`owned_by: "org-…"` beside `owned_by: "system"` made the whole list unreadable, and read as []).
  for (const s of seen) {
    for (const [column, value] of s.strings) {
      const map = kinds.get(column.id);
      if (map && !map.has(value)) map.set(value, 'unknown');
    }
  }
  const otherNamesFrom = otherNameColumns(seen, nameId);
  const kindFrom: KindSource[] = [];
  for (const [from, map] of kinds) {
    let said = false;
    for (const k of map.values()) if (k !== 'unknown') said = true;
    if (map.size <= MAX_KIND_VALUES && said) kindFrom.push({ from, map: Object.fromEntries(map) });
  }
  return {
    ...(kindFrom.length > 0 ? { kindFrom } : {}),
    ...(parents.length > 0 ? { parentFrom: parents } : {}),
    ...(createdFrom !== undefined ? { createdFrom } : {}),
    ...(otherNamesFrom.length > 0 ? { otherNamesFrom } : {}),
  };
}

/**
 * Rule 9: the fields holding other identifiers of the same model: a name-like field beside the name, under a key that
 * says an identifier of this model (`modelId`, `displayName`, `model_arn`), not of another thing (`providerName`,
 * `owned_by`) or of a parent (`baseModelId`), no value of which two items share.
 */
function otherNameColumns(seen: Seen[], nameId: string | undefined): string[] {
  const columns = new Map<string, { values: Set<string>; covered: number }>();
  for (const { names } of seen) {
    for (const [column, v] of names) {
      if (column.id === nameId || !keySaysIdentifier(column.key) || keySays(column.key, LINEAGE_WORDS)) continue;
      let c = columns.get(column.id);
      if (!c) columns.set(column.id, (c = { values: new Set(), covered: 0 }));
      c.covered++;
      c.values.add(v);
    }
  }
  return [...columns].filter(([, c]) => c.values.size === c.covered).map(([id]) => id);
}

/** Every word of the key says an identifier or qualifies one, and one says an identifier. */
function keySaysIdentifier(key: string): boolean {
  const said = wordsOf(key);
  return said.some((w) => IDENTIFIER_WORDS.has(w)) && said.every((w) => IDENTIFIER_WORDS.has(w) || IDENTIFIER_QUALIFIERS.has(w));
}

/** One array read: the names it holds, its shape, and the entry that reads it (its `names` relative to the array). */
interface ArrayRead {
  names: string[];
  shape: string;
  /** Entries for each name field, best first ('' when the items are names). */
  entries: (Omit<ModelListEntry, 'names'> & { field: string })[];
}

/** Rule 1-4 for one array; undefined when it names nothing. */
function readArray(list: unknown[]): ArrayRead | undefined {
  const cached = ARRAYS_READ.get(list);
  if (cached !== undefined) return cached ?? undefined;
  const seen: Seen[] = [];
  const strings: string[] = [];
  for (const e of list) {
    if (isObj(e)) seen.push(seeRecord(e));
    else if (isModelName(e)) strings.push(e);
  }
  const columns = nameColumns(seen);
  const best = columns[0];
  const names = [...strings];
  if (best) for (const s of seen) for (const [c, v] of s.names) if (c.id === best.column.id) names.push(v);
  const entries: ArrayRead['entries'] = columns.length
    ? columns.map((c) => ({ field: c.column.id, ...itemFields(seen, c.column.id) }))
    : [{ field: '' }];
  const shape = seen.length > 0 ? `records named by ${best?.column.id}` : 'strings';
  const read = names.length > 0 || list.length === 0 ? { names, shape, entries } : undefined;
  ARRAYS_READ.set(list, read ?? null);
  return read;
}
// An array is read once per answer, though the search for groups and lists meets it more than once.
const ARRAYS_READ = new WeakMap<unknown[], ArrayRead | null>();

/** A candidate: the lists that make it (one, or its groups), the names they hold. */
interface ListCandidate {
  path: Segment[];
  names: string[];
  lists: ModelListEntry[];
  /** The array read, when the candidate is one list (its other name fields are choices too). */
  array?: { path: Segment[]; read: ArrayRead; kind: ModelKind };
  /** When the candidate is groups under keys: the kind each group's own key says, beside `lists` (rule 5). */
  keyKinds?: ModelKind[];
}

function entryFor(path: Segment[], read: ArrayRead, kind: ModelKind, field = 0): ModelListEntry {
  const { field: name, ...rest } = read.entries[field] ?? read.entries[0]!;
  const names = `${formatPath([...path, EACH])}${name === '' ? '' : name.startsWith('[') ? name : `.${name}`}`;
  return { names, ...(kind !== 'unknown' ? { kind } : {}), ...rest };
}

/** Rules 1 and 5: the candidates within `v`. */
function findLists(v: unknown, path: Segment[], depth: number, forced: ModelKind, out: ListCandidate[]): void {
  if (depth > MAX_DEPTH) return;
  if (Array.isArray(v)) {
    const read = readArray(v);
    if (read) {
      out.push({ path, names: read.names, lists: [entryFor(path, read, forced)], array: { path, read, kind: forced } });
      return;
    }
    const inner: ListCandidate[] = [];
    v.forEach((e, i) => {
      // A record of a group says its kind in a value ({"kind": "base", "models": [...]}).
      const said = isObj(e) ? Object.values(e).find((x): x is string => typeof x === 'string' && isTypeValue(x)) : undefined;
      const kind = forced !== 'unknown' ? forced : said ? kindOfWords(wordsOf(said)) : 'unknown';
      findLists(e, [...path, i], depth + 1, kind, inner);
    });
    if (inner.length > 0) out.push(merged(path, inner));
    return;
  }
  if (!isObj(v)) return;
  // Beside a list under a key that names models, what other keys hold is another thing's (`datasets`, `files`).
  let fields = Object.entries(v);
  if (fields.some(([k, x]) => Array.isArray(x) && keyNamesModels(k))) fields = fields.filter(([k]) => keyNamesModels(k));
  const lists = fields.filter((e): e is [string, unknown[]] => Array.isArray(e[1]) && readArray(e[1]) !== undefined);
  // Groups hold entries of one shape (all strings, or records named by the same field); `tags: ["fast"]` beside a list
  // of records is not a group of models.
  const shapes = new Set(lists.filter(([, l]) => l.length > 0).map(([, l]) => readArray(l)!.shape));
  const kindKeys = lists.some(([k]) => kindOfWords(wordsOf(k)) !== 'unknown');
  if ((lists.length >= 2 && shapes.size === 1) || (kindKeys && shapes.size > 0)) {
    const groups = lists.map(([k, l]): ListCandidate => {
      const kind = forced !== 'unknown' ? forced : kindOfWords(wordsOf(k));
      const read = readArray(l)!;
      return { path: [...path, k], names: read.names, lists: [entryFor([...path, k], read, kind)] };
    });
    const candidate = merged(path, groups);
    if (forced === 'unknown') candidate.keyKinds = lists.map(([k]) => kindOfWords(wordsOf(k)));
    out.push(candidate);
    return;
  }
  for (const [k, x] of fields) if (typeof x === 'object' && x !== null) findLists(x, [...path, k], depth + 1, forced, out);
}

function merged(path: Segment[], parts: ListCandidate[]): ListCandidate {
  const names: string[] = [];
  const lists: ModelListEntry[] = [];
  for (const p of parts) {
    for (const n of p.names) names.push(n);
    for (const l of p.lists) lists.push(l);
  }
  return { path, names, lists };
}

const distinct = (c: ListCandidate) => new Set(c.names).size;

/**
 * Rule 6: the entry with only the parent fields that name a model: a value of the field, in some item, is one of
 * `listed` and not the item's own name. A family id (`baseModelId: "x"` beside `name: "models/x"`) or a version tag
 * names no listed model: read as a parent, it made every base model custom.
 */
function parentsNamingModels(body: unknown, entry: ModelListEntry, listed: ReadonlySet<string>): ModelListEntry {
  if (!entry.parentFrom?.length) return entry;
  const [compiled] = compiledEntries({ lists: [entry], by: 'inferred' });
  const items = (compiled && itemsAt(body, compiled.list)) ?? [];
  const parentFrom = entry.parentFrom.filter((_, i) =>
    items.some((item) => {
      const v = valueAt(item, compiled!.parentFrom[i]!);
      return typeof v === 'string' && listed.has(v) && v !== valueAt(item, compiled!.field);
    }),
  );
  if (parentFrom.length === entry.parentFrom.length) return entry;
  const { parentFrom: _dropped, ...rest } = entry;
  return parentFrom.length > 0 ? { ...rest, parentFrom } : rest;
}

/**
 * Rules 5 and 6 over a whole candidate, once its names are all known: parents only where they name a listed model,
 * then a group whose key says no kind, beside one whose key says custom, and whose items say no kind and name no
 * parent, is base.
 */
function settled(body: unknown, c: ListCandidate): ListCandidate {
  const listed = new Set(c.names);
  const lists = c.lists.map((e) => parentsNamingModels(body, e, listed));
  const keyKinds = c.keyKinds;
  if (keyKinds?.includes('custom')) {
    lists.forEach((e, i) => {
      if (keyKinds[i] === 'unknown' && e.kind === undefined && !e.kindFrom && !e.parentFrom) lists[i] = { ...e, kind: 'base' };
    });
  }
  return { ...c, lists };
}

/** The names an entry reads from the answer (each item's name field, or the items when they are names). */
function namesOf(body: unknown, entry: ModelListEntry): Set<string> {
  const names = new Set<string>();
  const [compiled] = compiledEntries({ lists: [entry], by: 'inferred' });
  for (const item of (compiled && itemsAt(body, compiled.list)) ?? []) {
    const v = compiled!.field.length === 0 ? item : valueAt(item, compiled!.field);
    if (isModelName(v)) names.add(v);
  }
  return names;
}

/** Every candidate of the answer, settled (rules 5 and 6), most names first. */
function candidates(body: unknown): ListCandidate[] {
  const found: ListCandidate[] = [];
  findLists(body, [], 0, 'unknown', found);
  return found.map((c) => settled(body, c)).sort((a, b) => distinct(b) - distinct(a));
}

/** The list's names as the inference found them, the first few, for a message. */
const showNames = (c: ListCandidate) => `${formatPath(c.path) || 'the answer'} (${capText(c.names.join(', '), 80)})`;

/**
 * Rule 7: the profile that reads this answer, and how many distinct names the inference found with it (the reader
 * must then read some: modelListReading.ts). Throws a ContractError when no list is found or two fit equally well.
 */
export function inferModelList(body: unknown): { profile: ModelListProfile; names: number; where: string } {
  const [best, second] = candidates(body);
  if (!best) throw contract('model list: no list of models found', body);
  if (second && distinct(second) === distinct(best) && distinct(best) > 0) {
    throw contract(`model list: two lists fit equally well, ${showNames(best)} and ${showNames(second)}`, body);
  }
  return { profile: { lists: best.lists, by: 'inferred' }, names: distinct(best), where: showNames(best) };
}

/** One way to read the answer the person may choose, with the first names it gives. */
export interface ModelListChoice {
  profile: ModelListProfile;
  samples: string[];
  count: number;
}

/** Most name fields offered per list (the best first). */
const FIELDS_PER_LIST = 3;

/** The ways to read an answer (its candidate lists, and for a list of records its other name fields), most names first. */
export function modelListChoices(body: unknown, max = 20): ModelListChoice[] {
  const out: ModelListChoice[] = [];
  const tried = new Set<string>();
  const offer = (lists: ModelListEntry[]) => {
    const key = JSON.stringify(lists);
    if (tried.has(key) || out.length >= max) return;
    tried.add(key);
    const profile: ModelListProfile = { lists, by: 'chosen' };
    const models = readModelsByProfile(body, profile);
    if (models && models.length > 0) out.push({ profile, samples: models.slice(0, 3).map((m) => m.name), count: models.length });
  };
  for (const c of candidates(body)) {
    offer(c.lists);
    const array = c.array;
    if (!array) continue;
    for (let f = 1; f < Math.min(FIELDS_PER_LIST, array.read.entries.length); f++) {
      const entry = entryFor(array.path, array.read, array.kind, f);
      offer([parentsNamingModels(body, entry, namesOf(body, entry))]);
    }
  }
  return out.sort((a, b) => b.count - a.count);
}
