// Which model of the service's list a finetune made, for a finetune whose status does not say it ended (unreadable, or
// still "running"): the service lists the model it made, so its appearance ends the job (issue 27). Pure: the poller
// hands in the list it fetched once for all its running finetunes.
//
// The rule is conservative, because adopting a model that is not the job's would announce a model nobody made, while
// missing one only leaves the job to its status, to Refresh, or to Stop Following:
//  - the name asked for, exactly (case-sensitive, as the service compares names);
//  - or a name the service derived from it: the name asked for whole, with before it nothing or a namespace that ends
//    in `:` or `/` (`ft:<base>:`, `acme/`, `accounts/acme/models/`), and after it nothing or a separator (`:` `@` `-`
//    `_` `.` `+`) and a tag that names a version, a date or an id (it holds a digit, or is a hex run of 6 or more):
//    `ft:oss-reasoner-8b:support-bot:3f9a1c2e`, `support-bot-20261126`, `support-bot@v2`. A word added without a digit
//    (`support-large`) is a family or another model, not a derivation, and so is a shorter name the one asked for
//    starts with (`oss-reasoner-8b` for `oss-reasoner-8b-support`);
//  - never a model the list says is a base model, the job's own base model, or a name another job of this service
//    already made (`claimed`);
//  - the exact name before a derived one; two derived names and no exact one: neither (it cannot tell which).
// A model record may carry other identifiers beside the name it leads with (modelIdentifiers.ts): each rule holds for
// any of them, and the model found is named as the list leads with it.
import { identifiersOf, isNamed } from '../api/modelIdentifiers';
import type { ModelInfo } from '../api/types';

export interface MadeModelQuery {
  /** The name asked for when the job started. */
  requested: string;
  baseModel?: string;
  /** Names other finetune jobs of the same service made or are making. */
  claimed: ReadonlySet<string>;
}

const NAMESPACE_END = new Set([':', '/']);
const TAG_START = new Set([':', '@', '-', '_', '.', '+']);

/** The listed name the job made, or undefined when none can be told for sure. */
export function findMadeModel(
  query: MadeModelQuery,
  listed: readonly Pick<ModelInfo, 'name' | 'kind' | 'otherNames'>[],
): string | undefined {
  const { requested } = query;
  if (requested === '') return undefined;
  const candidates = listed.filter(
    (m) => m.kind !== 'base' && !identifiersOf(m).some((n) => n === query.baseModel || query.claimed.has(n)),
  );
  const exact = candidates.find((m) => isNamed(m, requested));
  if (exact) return exact.name;
  const derived = new Set(candidates.filter((m) => identifiersOf(m).some((n) => isDerivedName(n, requested))).map((m) => m.name));
  return derived.size === 1 ? [...derived][0] : undefined;
}

/** Whether `name` is `requested` with a namespace before it and/or a version, date or id tag after it (see above). */
export function isDerivedName(name: string, requested: string): boolean {
  if (name === requested || requested === '') return false;
  for (let at = name.indexOf(requested); at >= 0; at = name.indexOf(requested, at + 1)) {
    const prefix = name.slice(0, at);
    const suffix = name.slice(at + requested.length);
    if (prefix !== '' && !NAMESPACE_END.has(prefix.at(-1)!)) continue;
    if (suffix !== '' && !(TAG_START.has(suffix[0]!) && isTag(suffix.slice(1)))) continue;
    return true;
  }
  return false;
}

function isTag(text: string): boolean {
  return /\d/.test(text) || /^[0-9a-f]{6,}$/i.test(text);
}
