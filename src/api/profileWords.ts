// A service profile in words a person follows: "Model names: results.items[].model.id; kind from model.tier:
// foundation → base". The paths and values are the service's: the caller shows these lines as plain text (a read-only
// document, the log), never as markdown, and the values are capped here. English, as the log is: src/api may not
// reach l10n (the layers test); the document around these lines is translated.

import type { ModelListEntry, ModelListProfile, StreamProfile } from './serviceProfile';
import { capText } from './types';

/** Most values of a kind map written out; the rest are counted. */
const MAX_VALUES = 6;
const cap = (s: string) => capText(s, 60);

function entryWords(e: ModelListEntry, samples?: readonly string[]): string {
  const parts = [samples?.length ? `${cap(e.names)} — ${samples.map(cap).join(', ')}` : cap(e.names)];
  if (e.kind) parts.push(e.kind === 'base' ? 'all base models' : 'all custom models');
  for (const k of e.kindFrom ?? []) {
    const values = Object.entries(k.map);
    const shown = values.slice(0, MAX_VALUES).map(([v, kind]) => `${cap(v)} → ${kind}`);
    if (values.length > MAX_VALUES) shown.push(`${values.length - MAX_VALUES} more`);
    parts.push(`kind from ${cap(k.from)}: ${shown.join(', ')}`);
  }
  if (e.parentFrom?.length) parts.push(`made from ${e.parentFrom.map(cap).join(' or ')}`);
  return parts.join('; ');
}

/** One line: each list of the profile, its kinds and lineage. */
export function describeModelListProfile(p: ModelListProfile): string {
  return p.lists.map((e) => entryWords(e)).join(' | ');
}

/** Lines for a document: where the names are, the first ones last read, and where the profile came from. */
export function modelListLines(p: ModelListProfile, samples: readonly string[] | undefined): string[] {
  const from =
    p.by === 'setting'
      ? 'from the setting hostedReasoning.serviceProfile'
      : p.by === 'chosen'
        ? 'as you chose it'
        : 'inferred from the first answer';
  // The first list carries the names last read (a grouped list's names are not told apart per group here).
  return [...p.lists.map((e, i) => `Model names: ${entryWords(e, i === 0 ? samples : undefined)}`), `  (${from})`];
}

/** One line: where a stream's events hold the answer and the reasoning, and the flag that marks reasoning. */
export function describeStreamProfile(p: StreamProfile): string {
  const parts: string[] = [];
  if (p.answer.length) parts.push(`text at ${p.answer.map(cap).join(' or ')}`);
  if (p.reasoning.length) parts.push(`reasoning at ${p.reasoning.map(cap).join(' or ')}`);
  if (p.flag) {
    const values = Object.entries(p.flag.map);
    const shown = values.slice(0, MAX_VALUES).map(([v, kind]) => `${cap(v)} → ${kind}`);
    if (values.length > MAX_VALUES) shown.push(`${values.length - MAX_VALUES} more`);
    parts.push(`reasoning marked by ${cap(p.flag.from)}: ${shown.join(', ')}`);
  }
  return parts.join('; ');
}

/** Lines for a document: where a stream's events (or, `streamed` false, whole answers) are read, and where from. */
export function streamLines(p: StreamProfile, streamed = true): string[] {
  const inferred = streamed ? 'inferred from the first events of a run' : 'inferred from the first answer';
  const from = p.by === 'setting' ? 'from the setting hostedReasoning.serviceProfile' : inferred;
  return [`${streamed ? 'Streamed answers' : 'Answers not streamed'}: ${describeStreamProfile(p)}`, `  (${from})`];
}
