// Where a comparison keeps what it did, so a reload, a crash or a cancel loses nothing and Resume sends only what is
// missing: one folder per comparison under the extension's global storage, `spec.json` (what was asked: the questions,
// the models, the knobs, the scoring) written once, and `entries.jsonl`, one line appended as each request ends (an
// answer, a judge's verdict, or a failure with the service's words). A file, not globalState: 10,000 questions × a few
// models is megabytes, which globalState would rewrite whole on each change. Appending a line is all a finished item
// costs; a line cut by a crash is skipped on reading, and only its item is asked again. Each answer is kept to
// MAX_KEPT_CHARS (a comparison is of answers, not essays), so a set's log is bounded by its items. No vscode.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { exactFields, isRecord, num, str, type Check } from '../../../api/strictChecks';
import type { QuestionItem } from './questionSet';

/** Most characters kept of an answer or a reasoning (the rest is cut and said to be). */
export const MAX_KEPT_CHARS = 8_000;

export type Scoring = 'exact' | 'normalized' | 'judge' | 'pairwise';

export interface InferenceKnobs {
  useRag: boolean;
  sequentialBudget: number;
  parallelBudget: number;
  temperature: number;
}

export interface ComparisonSpec {
  id: string;
  /** The question set as the person named it (a workspace-relative path), shown only. */
  setName: string;
  createdAt: number;
  /** The service and key it was run with (Session.scope: no key in it); absent in comparisons kept before it was. */
  scope?: string;
  /** The subject first (the tuned model), then the reference (its base), then any others. */
  models: string[];
  scoring: Scoring;
  judgeModel?: string;
  judgePrompt?: string;
  knobs: InferenceKnobs;
  items: QuestionItem[];
}

/** One request's end. `order` tells a pairwise judge's two asks apart: the subject's answer shown first, or second. */
export interface Entry {
  kind: 'answer' | 'judge';
  item: number;
  model: string;
  order?: 'first' | 'second';
  text?: string;
  reasoning?: string;
  /** The service's words when the request failed (kept; retried only on request). */
  error?: string;
  at: number;
}

export function entryKey(e: Pick<Entry, 'kind' | 'item' | 'model' | 'order'>): string {
  return `${e.kind}|${e.item}|${e.model}|${e.order ?? ''}`;
}

const text: Check = str(0, MAX_KEPT_CHARS + 100);
const checkEntry = exactFields(
  {
    kind: (v) => (v === 'answer' || v === 'judge' ? undefined : 'unknown kind'),
    item: num(0, 1e6, true),
    model: str(1, 500),
    at: num(0, 1e15),
  },
  { order: (v) => (v === 'first' || v === 'second' ? undefined : 'unknown order'), text, reasoning: text, error: str(0, 2_000) },
);

export function kept(s: string): string {
  return s.length > MAX_KEPT_CHARS ? `${s.slice(0, MAX_KEPT_CHARS)}… (cut: ${s.length} characters in all)` : s;
}

export class ComparisonLog {
  private constructor(
    readonly dir: string,
    readonly spec: ComparisonSpec,
  ) {}

  /** A new comparison's folder under `root`, its spec written before any request is sent. */
  static create(root: string, spec: ComparisonSpec): ComparisonLog {
    const dir = path.join(root, spec.id);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'spec.json'), JSON.stringify(spec));
    fs.writeFileSync(path.join(dir, 'entries.jsonl'), '');
    return new ComparisonLog(dir, spec);
  }

  /** A comparison kept earlier; undefined when its spec is missing or not one (a folder from elsewhere). */
  static open(dir: string): ComparisonLog | undefined {
    try {
      const spec: unknown = JSON.parse(fs.readFileSync(path.join(dir, 'spec.json'), 'utf8'));
      if (!isRecord(spec) || typeof spec.id !== 'string' || !Array.isArray(spec.models) || !Array.isArray(spec.items)) return undefined;
      return new ComparisonLog(dir, spec as unknown as ComparisonSpec);
    } catch {
      return undefined;
    }
  }

  /** Every comparison kept under `root`, newest first. */
  static list(root: string): ComparisonLog[] {
    let names: string[];
    try {
      names = fs.readdirSync(root);
    } catch {
      return [];
    }
    return names.flatMap((n) => ComparisonLog.open(path.join(root, n)) ?? []).sort((a, b) => b.spec.createdAt - a.spec.createdAt);
  }

  private tailChecked = false;

  /** Appends one finished request at once (a sync append: the line is on disk before the next request is counted). */
  append(entry: Entry): void {
    const file = path.join(this.dir, 'entries.jsonl');
    // A line cut by a crash has no line break: the first line of this run starts on a line of its own, not glued to it.
    const start = this.tailChecked || endsWithBreak(file) ? '' : '\n';
    this.tailChecked = true;
    fs.appendFileSync(file, `${start}${JSON.stringify(entry)}\n`);
  }

  /**
   * What was done, by entry key: the last line of a key wins, so a retried failure's answer replaces its error. A line
   * that does not read (cut by a crash, or edited) is left out: its request is simply missing and asked again. The log
   * is read line by line (never whole: a 10,000-question set's log is megabytes, held twice as one string and its
   * lines); `texts: false` leaves out the answers and reasonings, for a reader that needs only what was done.
   */
  entries(options: { texts?: boolean } = {}): Map<string, Entry> {
    const out = new Map<string, Entry>();
    const texts = options.texts ?? true;
    forEachLine(path.join(this.dir, 'entries.jsonl'), (line) => {
      if (line.trim() === '') return;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        return;
      }
      if (checkEntry(value) !== undefined) return;
      const entry = value as Entry;
      if (entry.item >= this.spec.items.length || !this.spec.models.includes(entry.model)) return;
      out.set(entryKey(entry), texts ? entry : withoutTexts(entry));
    });
    return out;
  }

  remove(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The entry without its answer and reasoning (what was done, and the service's words when it failed). */
export function withoutTexts(entry: Entry): Entry {
  const { text: _text, reasoning: _reasoning, ...rest } = entry;
  return rest;
}

/** Each line of a file, read in chunks; nothing when it cannot be read. */
function forEachLine(file: string, each: (line: string) => void): void {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return;
  }
  try {
    const chunk = Buffer.alloc(64 * 1024);
    const decoder = new StringDecoder('utf8');
    let rest = '';
    for (let n: number; (n = fs.readSync(fd, chunk, 0, chunk.length, null)) > 0;) {
      const lines = (rest + decoder.write(chunk.subarray(0, n))).split('\n');
      rest = lines.pop() ?? '';
      lines.forEach((line) => each(line));
    }
    each(rest + decoder.end());
  } finally {
    fs.closeSync(fd);
  }
}

function endsWithBreak(file: string): boolean {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, 'r');
    const size = fs.fstatSync(fd).size;
    if (size === 0) return true;
    const last = Buffer.alloc(1);
    fs.readSync(fd, last, 0, 1, size - 1);
    return last[0] === 0x0a;
  } catch {
    return true;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
