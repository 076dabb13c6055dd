// A person's own questions, from a workspace file: JSON Lines, CSV with a header row, or the first Markdown table that
// has a question column. Each item is a question and, optionally, the answer expected. The file is untrusted: every
// refusal names the line, and a file past the bounds is refused before it is read whole or anything is sent. CSV is read
// by csv-parse (quotes, doubled quotes, line breaks inside quotes, CRLF, a BOM: each a hand-written parser's bug), and
// Markdown by markdown-it, already shipped, whose tokens carry the source line of every row. No vscode: plain mocha.
import { parse as parseCsv } from 'csv-parse/sync';
import MarkdownIt from 'markdown-it';
import { l10n } from '../../../l10n';

/** Bigger files are refused before they are read (a question set is text: 50 MB is far past any real one). */
export const MAX_QUESTION_SET_BYTES = 50 * 1024 * 1024;
/** More items than this are refused before anything is sent: each is a request per model, and a judge's on top. */
export const MAX_QUESTIONS = 10_000;

/** Column names, in the order they are preferred, matched without regard to case or surrounding spaces. */
export const QUESTION_COLUMNS = ['question', 'prompt'] as const;
export const EXPECTED_COLUMNS = ['expected', 'answer', 'reference'] as const;

export type QuestionSetFormat = 'jsonl' | 'csv' | 'md';

export interface QuestionItem {
  question: string;
  expected?: string;
  /** 1-based line of the file where the item starts. */
  line: number;
}

export interface QuestionSet {
  format: QuestionSetFormat;
  items: QuestionItem[];
  /** The columns taken, as the file spells them (the picker says which). */
  questionColumn: string;
  expectedColumn?: string;
}

/** Words for the person: what is wrong with the file and where. */
export class QuestionSetError extends Error {
  override name = 'QuestionSetError';
}

export function questionSetFormat(fileName: string): QuestionSetFormat | undefined {
  const lower = fileName.toLowerCase();
  if (lower.endsWith('.jsonl')) return 'jsonl';
  if (lower.endsWith('.csv')) return 'csv';
  if (lower.endsWith('.md') || lower.endsWith('.markdown')) return 'md';
  return undefined;
}

/** Refuses a file by its size alone, before it is read. */
export function checkQuestionSetSize(bytes: number): void {
  if (bytes > MAX_QUESTION_SET_BYTES) {
    throw new QuestionSetError(
      l10n.t(
        'The file is {0} MB; a question set may be at most {1} MB. Split it into smaller sets.',
        Math.ceil(bytes / (1024 * 1024)),
        MAX_QUESTION_SET_BYTES / (1024 * 1024),
      ),
    );
  }
}

export function parseQuestionSet(text: string, format: QuestionSetFormat): QuestionSet {
  const body = text.replace(/^\uFEFF/, '');
  const set = format === 'jsonl' ? parseJsonl(body) : format === 'csv' ? parseCsvSet(body) : parseMarkdown(body);
  if (set.items.length === 0) throw new QuestionSetError(l10n.t('The file holds no questions.'));
  return set;
}

/** The header names taken for the question and the expected answer, or a refusal naming the columns there are. */
function chooseColumns(names: readonly string[], where: string): { question: string; expected?: string } {
  const find = (wanted: readonly string[]) => {
    for (const w of wanted) {
      const hit = names.find((n) => n.trim().toLowerCase() === w);
      if (hit !== undefined) return hit;
    }
    return undefined;
  };
  const question = find(QUESTION_COLUMNS);
  if (question === undefined) {
    throw new QuestionSetError(
      l10n.t(
        '{0} has no question column: name one "question" or "prompt" (it has: {1}).',
        where,
        names.length ? names.map((n) => JSON.stringify(n.slice(0, 40))).join(', ') : l10n.t('none'),
      ),
    );
  }
  const expected = find(EXPECTED_COLUMNS);
  return expected === undefined ? { question } : { question, expected };
}

function tooMany(count: number): void {
  if (count > MAX_QUESTIONS) {
    throw new QuestionSetError(
      l10n.t('The file holds more than {0} questions; a comparison takes at most {0}. Split it into smaller sets.', MAX_QUESTIONS),
    );
  }
}

/** One item from a row's cells: the question must be there and not blank; an absent expected answer stays absent. */
function itemOf(question: unknown, expected: unknown, line: number, columns: { question: string; expected?: string }): QuestionItem {
  if (typeof question !== 'string' && typeof question !== 'number') {
    throw new QuestionSetError(l10n.t('Line {0}: "{1}" should be text.', line, columns.question));
  }
  const q = String(question).trim();
  if (q === '') throw new QuestionSetError(l10n.t('Line {0}: the question is empty.', line));
  const item: QuestionItem = { question: q, line };
  if (expected === undefined || expected === null) return item;
  if (typeof expected !== 'string' && typeof expected !== 'number' && typeof expected !== 'boolean') {
    throw new QuestionSetError(l10n.t('Line {0}: "{1}" should be text.', line, columns.expected ?? ''));
  }
  const e = String(expected).trim();
  return e === '' ? item : { ...item, expected: e };
}

function parseJsonl(text: string): QuestionSet {
  const items: QuestionItem[] = [];
  let columns: { question: string; expected?: string } | undefined;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.trim();
    if (raw === '') continue;
    const line = i + 1;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (e) {
      throw new QuestionSetError(l10n.t('Line {0} is not valid JSON ({1}).', line, e instanceof Error ? e.message.slice(0, 120) : ''));
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new QuestionSetError(l10n.t('Line {0} should be one JSON object, like {"question": "…", "expected": "…"}.', line));
    }
    const record = value as Record<string, unknown>;
    // The columns are those of the first item: a set whose lines name them differently is a mistake worth saying.
    columns ??= chooseColumns(Object.keys(record), l10n.t('Line {0}', line));
    if (!(columns.question in record)) {
      throw new QuestionSetError(l10n.t('Line {0} has no "{1}", which the first line has.', line, columns.question));
    }
    items.push(itemOf(record[columns.question], columns.expected && record[columns.expected], line, columns));
    tooMany(items.length);
  }
  return { format: 'jsonl', items, questionColumn: columns?.question ?? QUESTION_COLUMNS[0], ...expectedOf(columns) };
}

function expectedOf(columns: { expected?: string } | undefined): { expectedColumn?: string } {
  return columns?.expected === undefined ? {} : { expectedColumn: columns.expected };
}

interface CsvRecord {
  record: string[];
  info: { lines: number };
}

function parseCsvSet(text: string): QuestionSet {
  let rows: CsvRecord[];
  try {
    // Line breaks made one, so a record's line count is right whatever the file's endings (csv-parse counts a CRLF
    // inside quotes differently from one outside).
    rows = parseCsv(text.replace(/\r\n?/g, '\n'), { info: true, skip_empty_lines: true }) as unknown as CsvRecord[];
  } catch (e) {
    const line = (e as { lines?: unknown }).lines;
    const why = e instanceof Error ? e.message.replace(/ on line \d+$/, '').slice(0, 160) : String(e);
    throw new QuestionSetError(
      typeof line === 'number' ? l10n.t('Line {0} is not valid CSV ({1}).', line, why) : l10n.t('The file is not valid CSV ({0}).', why),
    );
  }
  const [header, ...data] = rows;
  if (!header) return { format: 'csv', items: [], questionColumn: QUESTION_COLUMNS[0] };
  const columns = chooseColumns(header.record, l10n.t('The header row'));
  const q = header.record.indexOf(columns.question);
  const x = columns.expected === undefined ? -1 : header.record.indexOf(columns.expected);
  tooMany(data.length);
  const items = data.map(({ record, info }) => {
    // info.lines is the line the record ends on; a quoted cell may span lines, so its start is that less its breaks.
    const line = info.lines - record.reduce((breaks, cell) => breaks + (cell.match(/\n/g)?.length ?? 0), 0);
    return itemOf(record[q], x < 0 ? undefined : record[x], line, columns);
  });
  return { format: 'csv', items, questionColumn: columns.question, ...expectedOf(columns) };
}

function parseMarkdown(text: string): QuestionSet {
  const tokens = new MarkdownIt('commonmark').enable('table').parse(text, {});
  let sawTable = false;
  let firstRefusal: QuestionSetError | undefined;
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i]!.type !== 'table_open') continue;
    sawTable = true;
    const rows: { cells: string[]; line: number }[] = [];
    for (i++; i < tokens.length && tokens[i]!.type !== 'table_close'; i++) {
      const t = tokens[i]!;
      if (t.type === 'tr_open') rows.push({ cells: [], line: (t.map?.[0] ?? 0) + 1 });
      else if (t.type === 'inline') rows[rows.length - 1]?.cells.push(t.content);
    }
    const [header, ...data] = rows;
    if (!header) continue;
    let columns;
    try {
      columns = chooseColumns(header.cells, l10n.t('The table on line {0}', header.line));
    } catch (e) {
      // A document may hold other tables before its questions: the first with a question column is the set.
      firstRefusal ??= e as QuestionSetError;
      continue;
    }
    tooMany(data.length);
    const q = header.cells.indexOf(columns.question);
    const x = columns.expected === undefined ? -1 : header.cells.indexOf(columns.expected);
    const items = data.map(({ cells, line }) => itemOf(cells[q] ?? '', x < 0 ? undefined : cells[x], line, columns));
    return { format: 'md', items, questionColumn: columns.question, ...expectedOf(columns) };
  }
  if (firstRefusal) throw firstRefusal;
  throw new QuestionSetError(
    sawTable
      ? l10n.t('The file holds no questions.')
      : l10n.t('The file has no table: write the questions as a Markdown table with a "question" column.'),
  );
}
