// The model list (§4.1) read by a known profile: follow its paths, map its values, no search of the answer's structure.
// This is the path every answer but the first takes, so it stays small and linear (test/bench figure 7: within 2x of
// JSON.parse). It also says when the answer no longer fits the profile, so that the inference runs again:
//  - a list the profile names is not there (or is not a list);
//  - more than half of a list's items give no name (a few odd items are skipped, as the inference skips them);
//  - an item says its kind with a value the profile's map does not hold (a word the service started to use).
// Names are checked as the inference checks them (isModelName): a value that is no usable name is never listed.

import { CUSTOM_NAME_PREFIX, isModelName } from './answerShape';
import { EACH, valueAt, type Segment } from './profilePath';
import { compiledEntries, type CompiledEntry, type ModelListProfile } from './serviceProfile';
import type { ModelInfo, ModelKind } from './types';

/**
 * The models the profile reads from `body`, or undefined when the answer does not fit it (see the header). `lenient`:
 * items without a name are skipped however many there are (the profile was inferred from this very answer).
 */
export function readModelsByProfile(body: unknown, profile: ModelListProfile, lenient = false): ModelInfo[] | undefined {
  const models: ModelInfo[] = [];
  const listed = new Set<string>();
  for (const entry of compiledEntries(profile)) {
    const items = itemsAt(body, entry.list);
    if (!items) return undefined;
    let unnamed = 0;
    for (const item of items) {
      const model = readItem(item, entry);
      if (model === undefined) unnamed++;
      else if (model === MISFIT) return undefined;
      else if (!listed.has(model.name)) {
        listed.add(model.name);
        models.push(model);
      }
    }
    if (!lenient && unnamed * 2 > items.length) return undefined;
  }
  return models;
}

const MISFIT = Symbol('misfit');

function readItem(item: unknown, entry: CompiledEntry): ModelInfo | undefined | typeof MISFIT {
  // A name as a list item is a name, whatever field the list's records are named by (lists mix both).
  if (typeof item === 'string') {
    if (!isModelName(item)) return undefined;
    return { name: item, kind: entry.kind ?? prefixKind(item, 'unknown'), raw: item };
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
  let baseModel: string | undefined;
  for (const p of entry.parentFrom) {
    const v = getter(p)(item);
    if (isModelName(v) && v !== name) {
      baseModel = v;
      break;
    }
  }
  if (kind === 'unknown' && baseModel !== undefined) kind = 'custom';
  const created = entry.createdFrom ? getter(entry.createdFrom)(item) : undefined;
  const model: ModelInfo = { name, kind: entry.kind ?? prefixKind(name, kind), raw: item };
  if (baseModel !== undefined) model.baseModel = baseModel;
  if (typeof created === 'string') model.createdAt = created;
  return model;
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
function itemsAt(body: unknown, path: readonly Segment[]): unknown[] | undefined {
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
