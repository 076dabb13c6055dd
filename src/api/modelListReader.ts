// The model list (§4.1) read by a known profile: follow its paths, map its values, no search of the answer's structure.
// This is the path every answer but the first takes, so it stays small and linear (test/bench figure 7: within 2x of
// JSON.parse). It also says when the answer no longer fits the profile, so that the inference runs again:
//  - a list the profile names is not there (or is not a list);
//  - more than half of a list's items give no name (a few odd items are skipped, as the inference skips them);
//  - an item says its kind with a value the profile's map does not hold (a word the service started to use);
//  - (an inferred profile) a list beside one it reads, its items named by the same field, is not read: a group the
//    first answer did not hold (Gemini's `tunedModels` is left out while empty, as proto3 JSON leaves empty lists).
// Names are checked as the inference checks them (isModelName): a value that is no usable name is never listed. A
// parent field's value is a parent only when it is a name the same answer lists (a family id or a version tag is not).

import { CUSTOM_NAME_PREFIX, isModelName, isObj, keyNamesModels } from './answerShape';
import { EACH, formatPath, valueAt, type Segment } from './profilePath';
import { compiledEntries, type CompiledEntry, type ModelListProfile } from './profileFormat';
import type { ModelInfo, ModelKind } from './types';

/**
 * The models the profile reads from `body`, or undefined when the answer does not fit it (see the header). `lenient`:
 * items without a name are skipped however many there are (the profile was inferred from this very answer).
 */
export function readModelsByProfile(body: unknown, profile: ModelListProfile, lenient = false): ModelInfo[] | undefined {
  const models: ModelInfo[] = [];
  const listed = new Set<string>();
  const withParents: Parented[] = [];
  for (const entry of compiledEntries(profile)) {
    const items = itemsAt(body, entry.list);
    if (!items) return undefined;
    let unnamed = 0;
    for (const item of items) {
      const read = readItem(item, entry);
      if (read === undefined) unnamed++;
      else if (read === MISFIT) return undefined;
      else if (!listed.has(read.model.name)) {
        listed.add(read.model.name);
        models.push(read.model);
        if (read.parents) withParents.push(read as Parented);
      }
    }
    if (!lenient && unnamed * 2 > items.length) return undefined;
  }
  // A person's choice or the setting's profile is read as given; an inferred one did not see a group that came later.
  if (!lenient && profile.by === 'inferred' && missesSiblingList(body, compiledEntries(profile))) return undefined;
  // A model is another's parent only if it names a model, not a family (modelListInference.ts, rule 6): a name this
  // answer lists. Known only once every list is read, so a model with parent values has its kind settled last.
  for (const { model, said, parents, listKind } of withParents) {
    let parent: string | undefined;
    for (const v of parents) {
      if (listed.has(v)) {
        parent = v;
        break;
      }
    }
    if (parent !== undefined) model.baseModel = parent;
    model.kind = listKind ?? prefixKind(model.name, said === 'unknown' && parent !== undefined ? 'custom' : said);
  }
  return models;
}

const MISFIT = Symbol('misfit');

/** An item read: its model, and when its parent fields hold names, those names and what its own fields said. */
interface ItemRead {
  model: ModelInfo;
  said: ModelKind;
  parents?: string[];
  listKind?: 'base' | 'custom';
}
type Parented = Required<Pick<ItemRead, 'parents'>> & ItemRead;

function readItem(item: unknown, entry: CompiledEntry): ItemRead | undefined | typeof MISFIT {
  // A name as a list item is a name, whatever field the list's records are named by (lists mix both).
  if (typeof item === 'string') {
    if (!isModelName(item)) return undefined;
    return { model: { name: item, kind: entry.kind ?? prefixKind(item, 'unknown'), raw: item }, said: 'unknown' };
  }
  if (entry.field.length === 0) return undefined;
  const name = getter(entry.field)(item);
  if (!isModelName(name)) return undefined;
  let kind: ModelKind = 'unknown';
  for (const source of entry.kindFrom) {
    const v = getter(source.path)(item);
    if (typeof v !== 'string' && typeof v !== 'boolean') continue;
    const said = source.map.get(String(v));
    if (said === undefined) return MISFIT;
    if (said !== 'unknown') {
      kind = said;
      break;
    }
  }
  // Values of the parent fields that could name a model; which one does is known once the whole answer is read.
  let parents: string[] | undefined;
  for (const p of entry.parentFrom) {
    const v = getter(p)(item);
    if (isModelName(v) && v !== name) (parents ??= []).push(v);
  }
  const created = entry.createdFrom ? getter(entry.createdFrom)(item) : undefined;
  const model: ModelInfo = { name, kind: entry.kind ?? prefixKind(name, kind), raw: item };
  if (typeof created === 'string') model.createdAt = created;
  // The record's other identifiers of the same model, each once (modelIdentifiers.ts matches a name against them).
  for (const p of entry.otherNamesFrom) {
    const v = getter(p)(item);
    if (isModelName(v) && v !== name && !model.otherNames?.includes(v)) (model.otherNames ??= []).push(v);
  }
  return parents ? { model, said: kind, parents, listKind: entry.kind } : { model, said: kind };
}

/**
 * Whether an object holding a list the profile reads holds another non-empty list, not read, whose first item has a
 * name in the same field: the models of a group the profile was inferred without. Looks at the holders' keys and one
 * item per list, not at every item.
 */
function missesSiblingList(body: unknown, entries: readonly CompiledEntry[]): boolean {
  let read: Set<string> | undefined;
  for (const entry of entries) {
    const last = entry.list.at(-1);
    if (typeof last !== 'string' || entry.field.length === 0 || entry.list.includes(EACH)) continue;
    const holderPath = entry.list.slice(0, -1);
    const holder = valueAt(body, holderPath);
    if (!isObj(holder)) continue;
    for (const k in holder) {
      const v = holder[k];
      if (k === last || !Array.isArray(v) || v.length === 0 || !isModelName(valueAt(v[0], entry.field))) continue;
      // Beside a list under a key naming models, a list under one that does not is another thing's (`datasets`).
      if (keyNamesModels(last) && !keyNamesModels(k)) continue;
      read ??= new Set(entries.map((e) => formatPath(e.list)));
      if (!read.has(formatPath([...holderPath, k]))) return true;
    }
  }
  return false;
}

type Getter = (item: unknown) => unknown;
const GETTERS = new WeakMap<readonly Segment[], Getter>();

/**
 * The value at a path relative to an item, as a function made once per path: most paths are one or two keys, read
 * here without the general walk (figure 7: the reader runs once per listed model).
 */
function getter(path: readonly Segment[]): Getter {
  let get = GETTERS.get(path);
  if (get) return get;
  const [a, b] = path;
  const field = (o: unknown, k: string): unknown =>
    typeof o === 'object' && o !== null && !Array.isArray(o) && Object.hasOwn(o, k) ? (o as Record<string, unknown>)[k] : undefined;
  if (path.length === 1 && typeof a === 'string') get = (o) => field(o, a);
  else if (path.length === 2 && typeof a === 'string' && typeof b === 'string') get = (o) => field(field(o, a), b);
  else get = (o) => valueAt(o, path);
  GETTERS.set(path, get);
  return get;
}

/** What the answer says wins; a name it leaves unsaid is custom when it starts with `ft:` or `custom:`. */
function prefixKind(name: string, kind: ModelKind): ModelKind {
  return kind === 'unknown' && CUSTOM_NAME_PREFIX.test(name) ? 'custom' : kind;
}

/** Every item of the lists at `path` (each `[]` before the last flattens); undefined when one of them is not there. */
export function itemsAt(body: unknown, path: readonly Segment[]): unknown[] | undefined {
  const at = path.indexOf(EACH);
  if (at < 0) {
    const list = valueAt(body, path);
    return Array.isArray(list) ? list : undefined;
  }
  const outer = valueAt(body, path.slice(0, at));
  if (!Array.isArray(outer)) return undefined;
  const out: unknown[] = [];
  for (const x of outer) {
    const inner = itemsAt(x, path.slice(at + 1));
    if (!inner) return undefined;
    for (const y of inner) out.push(y);
  }
  return out;
}
