// Read-modify-write of one globalState key that keeps its change through VS Code's echoes. A window's globalState is
// its own copy of the extension's whole state (every key in one value): `update` changes the copy at once and flushes
// the whole copy on a 0 ms timer (extHostMemento.ts, 1.104 to 1.139 alike); the workbench stores it, and the store's
// change event sends the whole stored value back to every window, the writer's included, where it replaces the copy
// (`this._value = e.value`), before the writer's `update` is answered (mainThreadStorage.ts). So an echo of a flush
// sent before a write replaces the copy with one without that write, and any flush this window sends until the write's
// own echo is back stores that older copy: a write of another key made then (the job list written again, a service
// profile, a model name) put back what an earlier flush held, after this key's read-back had seen its change held.
// That is the one way found in VS Code's code for the API key index to lose an entry, as it did in CI. A preset saved
// while the poller wrote the job list, and three evaluations started at once, were lost by such echoes before. A window
// that writes before another window's flush has reached it writes over that one's change the same way.
// Hence: one change at a time per state in this window, whatever its key, each awaited until VS Code answered its
// write, which is after that write's echo: with no other flush of ours on its way, no echo can bring back an older
// copy, and the read-back right after the write is final for this window. After each write the key is read back; a
// change that did not stick (another window wrote) is made again, by the same edit, on what is there now (which keeps
// what that window wrote). Every globalState write goes through here: a direct `update` would break this.
// The read-back compares values, so an edit must be idempotent (a list gains or loses an entry, a value is set): then
// a value equal to the one written holds the change whoever wrote it. A counter is not (two windows adding one each
// can both read back the same sum): the dropped-evaluation counts are the one such record, and an off-by-one there is
// harmless.
// Not covered: two windows whose flushes cross on their way (each reads its own change back, the later flush wins).
// That needs a lock outside globalState; no record kept here is worth one.

/** The part of vscode.Memento an edit needs (globalState in the extension, a fake in tests). */
export interface StoredState {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

/** What an edit returns to leave the stored value as it is. */
export const UNCHANGED: unique symbol = Symbol('unchanged');

export interface EditOptions {
  /** Hears when a change did not stick after every attempt (`what` names the record, never its value). */
  log?: (message: string) => void;
  what?: string;
}

/** Writes of one change before giving up until the next change. */
const MAX_WRITE_ATTEMPTS = 3;

/** The change under way per state, whatever its key; the next one waits for it (the header says why). */
const queues = new WeakMap<StoredState, Promise<unknown>>();

/**
 * Sets `key` to `edit(what is stored)` (undefined removes it; UNCHANGED writes nothing), read back and made again when
 * an echo or another window undid it. `edit` may run more than once, each time on what is stored then: it is a
 * function of that value, never changes it in place (it is the window's copy), and does not count on running once.
 * Resolves true when the stored value holds the change.
 */
export function editGlobalState(
  state: StoredState,
  key: string,
  edit: (stored: unknown) => unknown,
  options: EditOptions = {},
): Promise<boolean> {
  const run = async (): Promise<boolean> => {
    for (let attempt = 1; attempt <= MAX_WRITE_ATTEMPTS; attempt++) {
      const stored = state.get<unknown>(key);
      const before = JSON.stringify(stored);
      const next = edit(stored);
      if (next === UNCHANGED) return true;
      const written = JSON.stringify(next);
      // Nothing to write: the value already holds the change (no flush, so nothing to echo either).
      if (written === before) return true;
      await state.update(key, next);
      if (JSON.stringify(state.get<unknown>(key)) === written) return true;
    }
    options.log?.(`${options.what ?? key} did not keep a change after ${MAX_WRITE_ATTEMPTS} writes (another window kept writing it).`);
    return false;
  };
  const done = (queues.get(state) ?? Promise.resolve()).then(run);
  const tail = done.catch(() => undefined);
  queues.set(state, tail);
  void tail.then(() => {
    if (queues.get(state) === tail) queues.delete(state);
  });
  return done;
}
