// A Memento-like store in one JSON file: what the extension keeps in globalState, kept by the command line under the
// user's config folder. `get` reads what was loaded; `update` re-reads the file, changes one key and writes the whole
// file atomically (a temporary file beside it, then rename), so a reader never sees half a file and a crash leaves the
// old one. Another process's change of another key between two writes is kept (each write re-reads first); two
// processes writing the same key at once: the later wins, as two windows' globalState writes do. Updates of one
// process are made one after another.
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { parseJson } from '../api/safeJson';
import type { StoredState } from '../globalStateEdit';

/** A state file larger than this is not read (the records it holds are bounded far below it). */
const MAX_STATE_BYTES = 16 * 1024 * 1024;

export class FileState implements StoredState {
  private values: Record<string, unknown>;
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    readonly file: string,
    values: Record<string, unknown>,
    /** Why the file on disk was not used (unreadable JSON, too large), for a warning; it is replaced at the next write. */
    readonly problem?: string,
  ) {
    this.values = values;
  }

  static async open(file: string): Promise<FileState> {
    const { values, problem } = await readValues(file);
    return new FileState(file, values, problem);
  }

  /** A state that is never written (tests, and a run that must not touch the config folder). */
  static inMemory(values: Record<string, unknown> = {}): FileState {
    const state = new FileState('', { ...values });
    state.update = async (key, value) => {
      state.values = withKey(state.values, key, value);
    };
    return state;
  }

  get<T>(key: string): T | undefined;
  get<T>(key: string, defaultValue: T): T;
  get<T>(key: string, defaultValue?: T): T | undefined {
    return Object.prototype.hasOwnProperty.call(this.values, key) ? (this.values[key] as T) : defaultValue;
  }

  keys(): readonly string[] {
    return Object.keys(this.values);
  }

  /** Sets `key` (undefined removes it) and writes the file; resolves once the file holds the change. */
  update(key: string, value: unknown): Promise<void> {
    const write = this.queue.then(async () => {
      const { values } = await readValues(this.file);
      this.values = withKey(values, key, value);
      await writeAtomically(this.file, JSON.stringify(this.values, null, 1) + '\n');
    });
    this.queue = write.catch(() => undefined);
    return write;
  }
}

function withKey(values: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const next = { ...values };
  if (value === undefined) delete next[key];
  else next[key] = value;
  return next;
}

async function readValues(file: string): Promise<{ values: Record<string, unknown>; problem?: string }> {
  let text: string;
  try {
    const handle = await fs.open(file, 'r');
    try {
      const { size } = await handle.stat();
      if (size > MAX_STATE_BYTES) return { values: {}, problem: `${file} is larger than ${MAX_STATE_BYTES} bytes` };
      text = await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { values: {} };
    return { values: {}, problem: `${file} cannot be read (${(error as Error).message})` };
  }
  try {
    const parsed = parseJson(text, 'state file');
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return { values: parsed as Record<string, unknown> };
    return { values: {}, problem: `${file} does not hold a JSON object` };
  } catch {
    return { values: {}, problem: `${file} is not valid JSON` };
  }
}

/** The file as a whole or not at all: a temporary file in the same folder (so rename cannot cross devices), then rename. */
async function writeAtomically(file: string, text: string): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    const handle = await fs.open(temporary, 'wx', 0o600);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temporary, file);
  } catch (error) {
    await fs.rm(temporary, { force: true });
    throw error;
  }
}
