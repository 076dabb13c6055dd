// Reading the known local models back from globalState. As with the job list (jobs/storedJobs.ts), what is stored
// there may have been written by another version, a settings sync or a hand edit, and the playground turns a record
// into a file path the runtime opens: a record that is not exactly one of ours is dropped, never repaired. The report
// counts reasons, never values (a record holds paths).
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { countedReasons, isRecord as isObj } from '../api/strictChecks';
export { isLocalModelId } from '../features/playground/protocol';

/** A model file this extension knows of: a custom model it downloaded, or a `.gguf` the user chose. */
export interface LocalModelRecord {
  source: 'download' | 'file';
  /** The service's origin a download came from; absent for a chosen file (it belongs to no service). */
  origin?: string;
  /** The custom model's name at that origin; absent for a chosen file. */
  modelName?: string;
  /** Absolute. */
  path: string;
  bytes: number;
  /** Epoch milliseconds. */
  addedAt: number;
}

/** A record as the UI uses it: a stable id the page may send back, and the name it shows. */
export interface LocalModel extends LocalModelRecord {
  id: string;
  label: string;
}

export interface StoredLocalModels {
  models: LocalModel[];
  dropped: string[];
}

/** More than anyone downloads; bounds what a corrupt or hostile state can make every panel list. */
export const MAX_LOCAL_MODELS = 200;

/**
 * The id has the shape of LOCAL_MODEL_ID (protocol.ts). A download is one per model and origin (a new download
 * replaces it); a chosen file is one per path.
 */
export function localModelId(record: Pick<LocalModelRecord, 'source' | 'origin' | 'modelName' | 'path'>): string {
  const key = record.source === 'download' ? `download\n${record.origin ?? ''}\n${record.modelName ?? ''}` : `file\n${record.path}`;
  return `local:${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;
}

export function withId(record: LocalModelRecord): LocalModel {
  return { ...record, id: localModelId(record), label: record.modelName ?? path.basename(record.path) };
}

const isText = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

function problem(v: unknown): string | undefined {
  if (!isObj(v)) return 'an entry that is not a record';
  if (v.source !== 'download' && v.source !== 'file') return 'a record of no known source';
  if (!isText(v.path) || !path.isAbsolute(v.path)) return 'a record without an absolute path';
  if (!isCount(v.bytes) || !isCount(v.addedAt)) return 'a record without its size or time';
  if (v.source === 'download' && (!isText(v.origin) || !isText(v.modelName))) return 'a download without its origin or model';
  if (v.source === 'file' && (v.origin !== undefined || v.modelName !== undefined)) return 'a chosen file with a model';
  return undefined;
}

export function readStoredLocalModels(raw: unknown): StoredLocalModels {
  if (raw === undefined) return { models: [], dropped: [] };
  if (!Array.isArray(raw)) return { models: [], dropped: ['the stored list is not a list'] };
  const models: LocalModel[] = [];
  const dropped: string[] = [];
  const seen = new Set<string>();
  for (const entry of raw as unknown[]) {
    const why = problem(entry);
    if (why) {
      dropped.push(why);
      continue;
    }
    const o = entry as Record<string, unknown>;
    // Only the known fields: anything else stored beside them is not carried on.
    const record: LocalModelRecord = {
      source: o.source as LocalModelRecord['source'],
      ...(o.source === 'download' ? { origin: o.origin as string, modelName: o.modelName as string } : {}),
      path: o.path as string,
      bytes: o.bytes as number,
      addedAt: o.addedAt as number,
    };
    const model = withId(record);
    if (seen.has(model.id)) {
      dropped.push('a second record of the same model');
      continue;
    }
    if (models.length >= MAX_LOCAL_MODELS) {
      dropped.push('a record past the limit');
      continue;
    }
    seen.add(model.id);
    models.push(model);
  }
  return { models, dropped };
}

/** One log line (counts and reasons, no values); undefined when nothing was dropped. */
export function describeDropped(dropped: readonly string[]): string | undefined {
  if (dropped.length === 0) return undefined;
  return `Local models: ignored ${dropped.length} unreadable record(s): ${countedReasons(dropped)}.`;
}

/** What one origin's panel lists: that origin's downloads, then the chosen files, each by name. */
export function visibleLocalModels(models: readonly LocalModel[], origin: string | undefined): LocalModel[] {
  const byLabel = (a: LocalModel, b: LocalModel) => a.label.localeCompare(b.label);
  return [
    ...models.filter((m) => m.source === 'download' && origin !== undefined && m.origin === origin).sort(byLabel),
    ...models.filter((m) => m.source === 'file').sort(byLabel),
  ];
}
