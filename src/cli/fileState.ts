// A Memento-like store in one JSON file: what the extension keeps in globalState, kept by the command line under the
// user's config folder. `get` reads what was loaded; `update` re-reads the file, changes one key and writes the whole
// file atomically (a temporary file beside it, then rename), so a reader never sees half a file and a crash leaves the
// old one. Another process's change of another key between two writes is kept (each write re-reads first); two
// processes writing the same key at once: the later wins, as two windows' globalState writes do. Updates of one
// process are made one after another.
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { lockFile, LOCK_STALE_MS, type FileLock, type LockHolder } from '../api/partLock';
import { RequestError } from '../api/errors';
import { parseJson } from '../api/safeJson';
import type { StoredState } from '../globalStateEdit';

/** A state file larger than this is not read (the records it holds are bounded far below it). */
const MAX_STATE_BYTES = 16 * 1024 * 1024;

/**
 * How long a write waits for the lock: past the time a lock whose holder stopped goes stale (and is taken over), so only
 * a holder that keeps its heartbeat and never releases (none of ours: a write holds it for milliseconds) fails a write.
 */
const LOCK_WAIT_MS = LOCK_STALE_MS + 10_000;

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
    state.edit = async (key, change) => {
      state.values = withKey(state.values, key, change(state.values[key]));
    };
    state.reload = async () => undefined;
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
    return this.edit(key, () => value);
  }

  /**
   * Sets `key` to `change(the value the file holds now)` (undefined removes it), read and written under the file's lock;
   * resolves once the file holds the change. `change` is a function of what it is given (it may be another process's
   * newer value than `get` returns).
   */
  edit(key: string, change: (current: unknown) => unknown): Promise<void> {
    const write = this.queue.then(async () => {
      await fs.mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
      const lock = await waitForLock(`${this.file}.lock`);
      try {
        const { values } = await readValues(this.file);
        this.values = withKey(values, key, change(values[key]));
        await writeAtomically(this.file, JSON.stringify(this.values, null, 1) + '\n');
      } finally {
        await lock.release();
      }
    });
    this.queue = write.catch(() => undefined);
    return write;
  }

  /** Loads the file again (what another run or server wrote since); a file that cannot be used leaves what was loaded. */
  reload(): Promise<void> {
    const read = this.queue.then(async () => {
      const { values, problem } = await readValues(this.file);
      if (!problem) this.values = values;
    });
    this.queue = read.catch(() => undefined);
    return read;
  }
}

/** Another process writes the state file now (internal: waited for). */
class StateBusy extends Error {
  constructor(readonly holder: LockHolder) {
    super('the state file is being written');
  }
}

/** The state file's lock, waited for: a write holds it for milliseconds; a holder that is gone is taken over. */
async function waitForLock(file: string): Promise<FileLock> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (let pause = 2; ; pause = Math.min(pause * 2, 100)) {
    try {
      return await lockFile(file, { busy: (holder) => new StateBusy(holder), again: 'run the command again' });
    } catch (error) {
      if (!(error instanceof StateBusy)) throw error;
      if (Date.now() > deadline) {
        throw new RequestError(
          `${file} has been held by process ${error.holder.pid ?? '?'}${error.holder.host ? ` on ${error.holder.host}` : ''} for over ${Math.round(LOCK_WAIT_MS / 1000)} s: if no hosted-reasoning command or MCP server runs, remove it and run the command again.`,
        );
      }
    }
    await new Promise((resolve) => setTimeout(resolve, pause + Math.random() * pause));
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
