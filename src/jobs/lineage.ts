// Where a custom model came from: the base model, the exact files (by content hash) and the answers of the finetune
// that created it. Recorded with the job when the service accepts it, because only then does the extension know all
// of it at once; the job's finishedAt is its end. Stored in globalState with the job, so it is read back through
// isModelLineage like every other field (storedJobs.ts). Plain functions: no vscode, tested in plain mocha.
import * as path from 'node:path';
import { redact } from '../api/redact';
import { formatBytes } from '../util/byteSize';
import { untrustedText } from '../util/untrustedText';
import type { JobRecord } from './jobRecord';
import { isRecord as isObj } from '../api/strictChecks';

export interface LineageFile {
  /** The base name (never the full path: the record may be synced to another machine). */
  name: string;
  size: number;
  /** SHA-256 of the bytes sent, hex; absent when the service answered before the file's last byte was read. */
  sha256?: string;
}

export interface ModelLineage {
  baseModel: string;
  files: LineageFile[];
  numQs: number;
  mode: string;
  useCase: string;
  jobId: string;
  /** When the service accepted the job (ms since the epoch). */
  startedAt: number;
}

export interface LineageInput {
  jobId: string;
  startedAt: number;
  baseModel: string;
  numQs: number;
  mode: string;
  useCase: string;
  /** The files as uploaded, in order; `sha256` is the client's answer for the same index. */
  files: readonly { label: string; size: number }[];
  sha256: readonly (string | undefined)[];
}

export function buildLineage(input: LineageInput): ModelLineage {
  return {
    baseModel: input.baseModel,
    files: input.files.map((f, i) => {
      const sha256 = input.sha256[i];
      const file: LineageFile = { name: path.basename(f.label), size: f.size };
      if (sha256 !== undefined) file.sha256 = sha256;
      return file;
    }),
    numQs: input.numQs,
    mode: input.mode,
    useCase: input.useCase,
    jobId: input.jobId,
    startedAt: input.startedAt,
  };
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isText = (v: unknown): v is string => typeof v === 'string';
const SHA256_HEX = /^[0-9a-f]{64}$/;

function isLineageFile(v: unknown): v is LineageFile {
  return isObj(v) && isText(v.name) && isCount(v.size) && (v.sha256 === undefined || (isText(v.sha256) && SHA256_HEX.test(v.sha256)));
}

/** What globalState gave back is a whole lineage; a part of one would show a model's origin wrongly, so all or none. */
export function isModelLineage(v: unknown): v is ModelLineage {
  return (
    isObj(v) &&
    isText(v.baseModel) &&
    Array.isArray(v.files) &&
    v.files.every(isLineageFile) &&
    isCount(v.numQs) &&
    isText(v.mode) &&
    isText(v.useCase) &&
    isText(v.jobId) &&
    typeof v.startedAt === 'number' &&
    Number.isFinite(v.startedAt)
  );
}

/** Files listed in a tooltip; the rest are counted. */
const MAX_FILES_SHOWN = 10;

/**
 * The lineage as tooltip lines, each redacted and through untrustedText (names and answers were typed by people or
 * came from the service). `finishedAt` is the job's end, when it has one. Times are ISO 8601 in UTC: the same on every machine.
 */
export function lineageLines(lineage: ModelLineage, finishedAt: number | undefined): string[] {
  const line = (text: string) => untrustedText(redact(text));
  const lines = [
    line(`Base model: ${lineage.baseModel}`),
    line(`Questions: ${lineage.numQs} · mode ${lineage.mode}`),
    ...(lineage.useCase ? [line(`Use case: ${lineage.useCase}`)] : []),
    line(`Finetune job: ${lineage.jobId}`),
    `Started: ${isoTime(lineage.startedAt)}`,
    ...(finishedAt !== undefined ? [`Ended: ${isoTime(finishedAt)}`] : []),
    `Source files (${lineage.files.length}):`,
  ];
  for (const f of lineage.files.slice(0, MAX_FILES_SHOWN)) {
    lines.push(line(`• ${f.name} · ${formatBytes(f.size)} · SHA-256 ${f.sha256 ?? 'not recorded'}`));
  }
  if (lineage.files.length > MAX_FILES_SHOWN) lines.push(`…and ${lineage.files.length - MAX_FILES_SHOWN} more`);
  return lines;
}

function isoTime(ms: number): string {
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? 'unknown' : `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/**
 * The finetune job with a lineage behind each model name: the completed one when there is one (a name freed by a
 * failed job may be taken again), else the newest. `jobs` are newest first, as the store lists them.
 */
export function lineageOrigins(jobs: readonly JobRecord[]): Map<string, JobRecord> {
  const out = new Map<string, JobRecord>();
  for (const j of jobs) {
    if (j.kind !== 'finetune' || !j.lineage) continue;
    const seen = out.get(j.modelName);
    if (!seen || (seen.state !== 'completed' && j.state === 'completed')) out.set(j.modelName, j);
  }
  return out;
}
