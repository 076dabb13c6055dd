// A service profile in words a person follows: "Model names: results.items[].model.id; kind from model.tier:
// foundation → base". The paths and values are the service's: the caller shows these lines as plain text (a read-only
// document, the log), never as markdown, and the values are capped here. English, as the log is: src/api may not
// reach l10n (the layers test); the document around these lines is translated.

import type { JobStatusProfile, PartName, PartProfile } from './profileFormat';
import type { DownloadProfile, ModelListEntry, ModelListProfile, StartedJobProfile, StreamProfile } from './profileFormat';
import { LOCATION_HEADER } from './startedJobInference';
import { capText } from './types';

/**
 * Each part's answers in words: `title` heads the line of a first profile ("Model list: …"), `name` says them in a
 * sentence ("the model list no longer fits…"; `plural`: they no longer fit), and `describe` says how a profile reads.
 */
export const PART_WORDS: { [P in PartName]: { title: string; name: string; plural?: true; describe(p: PartProfile<P>): string } } = {
  modelList: { title: 'Model list', name: 'the model list', describe: describeModelListProfile },
  startedJob: { title: 'Started job', name: "the started job's answer", describe: describeStartedJobProfile },
  download: { title: 'Download answer', name: 'the download answer', describe: describeDownloadProfile },
  finetuneStatus: { title: 'Finetune status', name: 'the finetune status', describe: describeJobStatusProfile },
  evaluationStatus: { title: 'Evaluation status', name: 'the evaluation status', describe: describeJobStatusProfile },
  stream: { title: 'Stream events', name: "the stream's events", plural: true, describe: describeStreamProfile },
  answer: { title: 'Answers (not streamed)', name: 'the answers (not streamed)', plural: true, describe: describeStreamProfile },
};

/** `part`'s profile in words. */
export function describePart<P extends PartName>(part: P, profile: PartProfile<P>): string {
  return PART_WORDS[part].describe(profile);
}

/** `words` as the start of a sentence. */
export const sentenceStart = (words: string) => `${words.charAt(0).toUpperCase()}${words.slice(1)}`;

/** Most values of a kind map written out; the rest are counted. */
const MAX_VALUES = 6;
const cap = (s: string) => capText(s, 60);

/** A map of values, as `value → meaning`, its first few written out, the rest counted. */
function mapWords(map: Record<string, string>): string {
  const values = Object.entries(map);
  const shown = values.slice(0, MAX_VALUES).map(([v, meaning]) => `${cap(v)} → ${meaning}`);
  if (values.length > MAX_VALUES) shown.push(`${values.length - MAX_VALUES} more`);
  return shown.join(', ');
}

function entryWords(e: ModelListEntry, samples?: readonly string[]): string {
  const parts = [samples?.length ? `${cap(e.names)} — ${samples.map(cap).join(', ')}` : cap(e.names)];
  if (e.kind) parts.push(e.kind === 'base' ? 'all base models' : 'all custom models');
  for (const k of e.kindFrom ?? []) parts.push(`kind from ${cap(k.from)}: ${mapWords(k.map)}`);
  if (e.parentFrom?.length) parts.push(`made from ${e.parentFrom.map(cap).join(' or ')}`);
  if (e.otherNamesFrom?.length) parts.push(`also named by ${e.otherNamesFrom.map(cap).join(', ')}`);
  return parts.join('; ');
}

/** One line: each list of the profile, its kinds and lineage. */
export function describeModelListProfile(p: ModelListProfile): string {
  return p.lists.map((e) => entryWords(e)).join(' | ');
}

/** Where a start answer's id is, in words: "the id at result.job.ref", "the id in the Location header". */
export function describeStartedJobPlace(from: string): string {
  if (from === LOCATION_HEADER) return 'the id in the Location header';
  return from === '' ? 'the id is the whole answer' : `the id at ${at(from)}`;
}

const ENDPOINTS = [
  ['finetune', 'Started finetuning job'],
  ['evaluation', 'Started evaluation'],
] as const;

/** Each endpoint's place of the id, with the words `label` gives the endpoint. */
const places = (p: StartedJobProfile, label: (endpoint: (typeof ENDPOINTS)[number]) => string) =>
  ENDPOINTS.filter(([e]) => p[e] !== undefined).map((endpoint) => `${label(endpoint)}: ${describeStartedJobPlace(p[endpoint[0]]!)}`);

/** One line: where each endpoint's start answer has its id. */
function describeStartedJobProfile(p: StartedJobProfile): string {
  return places(p, ([e]) => e).join('; ');
}

/** A path as shown: '' is the answer itself. */
const at = (path: string) => (path === '' ? 'the whole answer' : cap(path));

/** One line: where a download answer's URL, expiry, size, checksums and file name are. */
export function describeDownloadProfile(p: DownloadProfile): string {
  const parts = [`URL at ${at(p.url)}`];
  if (p.expires !== undefined) parts.push(`expiry at ${at(p.expires)}`);
  if (p.size !== undefined) parts.push(`size at ${at(p.size)}`);
  if (p.sha256 !== undefined) parts.push(`SHA-256 at ${at(p.sha256)}`);
  if (p.md5 !== undefined) parts.push(`MD5 at ${at(p.md5)}`);
  if (p.crc32c !== undefined) parts.push(`CRC32C at ${at(p.crc32c)}`);
  if (p.fileName !== undefined) parts.push(`file name at ${at(p.fileName)}`);
  return parts.join('; ');
}

/** One line: where a job status keeps its state, progress, message, error, made model and result. */
export function describeJobStatusProfile(p: JobStatusProfile): string {
  const parts: string[] = [];
  if (p.state) parts.push(`state from ${cap(p.state)}`);
  if (p.states && Object.keys(p.states).length > 0) parts.push(`words ${mapWords(p.states)}`);
  if (p.finished) parts.push(`finished when ${cap(p.finished)} is true`);
  if (p.percent) parts.push(`progress (percent) from ${cap(p.percent)}`);
  if (p.fraction) parts.push(`progress from ${cap(p.fraction)}`);
  if (p.done && p.total) parts.push(`counts from ${cap(p.done)} of ${cap(p.total)}`);
  if (p.message) parts.push(`message from ${cap(p.message)}`);
  if (p.error) parts.push(`error from ${cap(p.error)}`);
  if (p.madeModel?.length) parts.push(`model made from ${p.madeModel.map(cap).join(' or ')}`);
  if (p.modelState) parts.push(`the made model's state from ${cap(p.modelState)}`);
  if (p.result) parts.push(`result from ${cap(p.result)}`);
  return parts.join('; ');
}

/** One line: where a stream's events hold the answer and the reasoning, and the flag that marks reasoning. */
export function describeStreamProfile(p: StreamProfile): string {
  const parts: string[] = [];
  if (p.answer.length) parts.push(`text at ${p.answer.map(cap).join(' or ')}`);
  if (p.reasoning.length) parts.push(`reasoning at ${p.reasoning.map(cap).join(' or ')}`);
  if (p.flag) parts.push(`reasoning marked by ${cap(p.flag.from)}: ${mapWords(p.flag.map)}`);
  return parts.join('; ');
}

/** A document's heading of a part's line, where it is not the part's title; and what an inferred one came from. */
const HEADINGS: Partial<Record<PartName, string>> = {
  modelList: 'Model names',
  stream: 'Streamed answers',
  answer: 'Answers not streamed',
};
const INFERRED_FROM: Partial<Record<PartName, string>> = {
  finetuneStatus: 'the first answers',
  evaluationStatus: 'the first answers',
  stream: 'the first events of a run',
};

/**
 * Lines for a document (Show How the Service Is Read): how `part`'s answers are read, a line per list of a model list
 * (the first with the names last read: a grouped list's are not told apart per group) and per endpoint of a started
 * job, then where that came from.
 */
export function partLines<P extends PartName>(part: P, profile: PartProfile<P>, samples?: readonly string[]): string[] {
  const heading = HEADINGS[part] ?? PART_WORDS[part].title;
  const lines =
    part === 'modelList'
      ? (profile as ModelListProfile).lists.map((e, i) => `${heading}: ${entryWords(e, i === 0 ? samples : undefined)}`)
      : part === 'startedJob'
        ? places(profile, ([, words]) => words)
        : [`${heading}: ${describePart(part, profile)}`];
  const from =
    profile.by === 'setting'
      ? 'from the setting hostedReasoning.serviceProfile'
      : profile.by === 'chosen'
        ? 'as you chose it'
        : `inferred from ${INFERRED_FROM[part] ?? 'the first answer'}`;
  return [...lines, `  (${from})`];
}
