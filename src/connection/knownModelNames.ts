// The model names known for a service without its model list: names a person typed that the service then accepted (a
// request started with them), and names finetunes made. When the list cannot be read (an answer the extension cannot
// read, or no answer), every model picker and Chat offer these, so one unreadable answer does not leave a person who
// used a model yesterday with nothing to choose. When the list can be read it is the truth and these are not shown.
// Kept per origin (the one the key is bound to: apiKeyStore.ts), not per key: a name is the service's, and another key
// of the same service can be refused it by the service, which then says so. Newest first, at most
// MAX_KNOWN_MODEL_NAMES per origin, one entry per name; every change through editGlobalState (an echo of an earlier
// flush, or another window, must not drop a name), every entry read back through a check.
import { editGlobalState, type StoredState } from '../globalStateEdit';
import { typedModelName } from '../modelNameRule';
import { literal, num, exactFields, str } from '../api/strictChecks';
import { KNOWN_MODELS_KEY_PREFIX } from '../storageKeys';

/** Where a name came from: a person typed it (and the service accepted it), or a finetune made it. */
export type KnownModelSource = 'typed' | 'job';

export interface KnownModelName {
  name: string;
  source: KnownModelSource;
  /** When it was last typed or made (epoch ms). */
  at: number;
}

/** Enough for the models a person works with; a picker of more is not read. */
export const MAX_KNOWN_MODEL_NAMES = 30;

export function knownModelsKey(origin: string): string {
  return `${KNOWN_MODELS_KEY_PREFIX}${origin}`;
}

const isEntry = exactFields({ name: str(1, 256), source: literal('typed', 'job'), at: num(0, Number.MAX_SAFE_INTEGER) });

/** The stored list, each entry checked (anything else is dropped: it is shown in pickers and sent as a model name). */
export function readKnownModelNames(stored: unknown): KnownModelName[] {
  if (!Array.isArray(stored)) return [];
  return stored.filter(
    (e): e is KnownModelName => isEntry(e) === undefined && typedModelName((e as KnownModelName).name) === (e as KnownModelName).name,
  );
}

/**
 * The list with `entry` first and no other entry of its name, at most MAX_KNOWN_MODEL_NAMES. A name a job made stays
 * marked so when it is typed again: that a finetune made it is the surer fact.
 */
export function withKnownModelName(list: readonly KnownModelName[], entry: KnownModelName): KnownModelName[] {
  const before = list.find((k) => k.name === entry.name);
  const source: KnownModelSource = before?.source === 'job' ? 'job' : entry.source;
  return [{ ...entry, source }, ...list.filter((k) => k.name !== entry.name)].slice(0, MAX_KNOWN_MODEL_NAMES);
}

/** The part of vscode.Memento the store needs: StoredState and the list of keys (to clear every origin). */
export interface KnownModelsState extends StoredState {
  keys(): readonly string[];
}

export class KnownModelNames {
  /** Names picked as typed in this window, not yet accepted by the service: kept once a request starts with them. */
  private readonly typed = new Set<string>();
  /** Told after a name was kept or every name forgotten (Chat's model picker offers them and must be told). */
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly state: KnownModelsState,
    private readonly log?: (message: string) => void,
  ) {}

  /** `listener` is called after every change of the names kept; dispose to stop. */
  onDidChange(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** The origin's names, newest first. */
  list(origin: string): KnownModelName[] {
    return readKnownModelNames(this.state.get<unknown>(knownModelsKey(origin)));
  }

  /** The origins that have names kept. */
  origins(): string[] {
    return this.state
      .keys()
      .filter((k) => k.startsWith(KNOWN_MODELS_KEY_PREFIX))
      .map((k) => k.slice(KNOWN_MODELS_KEY_PREFIX.length));
  }

  /** Keeps `name` first for `origin`; a value that cannot be a name is not kept. */
  async remember(origin: string, name: string, source: KnownModelSource, at = Date.now()): Promise<void> {
    const usable = typedModelName(name);
    if (usable === undefined || usable !== name) return;
    await editGlobalState(
      this.state,
      knownModelsKey(origin),
      (stored) => withKnownModelName(readKnownModelNames(stored), { name, source, at }),
      { log: this.log, what: 'The known model names' },
    );
    this.changed();
  }

  /** A person picked `name` as typed (not from a list): it is kept if the service accepts a request with it. */
  noteTyped(name: string): void {
    this.typed.add(name);
  }

  /** A request with `name` was accepted by the service at `origin`: kept when it was typed here. */
  async accepted(origin: string, name: string, at = Date.now()): Promise<void> {
    if (!this.typed.has(name)) return;
    this.typed.delete(name);
    await this.remember(origin, name, 'typed', at);
  }

  /** Clear Stored Records…: every origin's names. */
  async forgetAll(): Promise<void> {
    this.typed.clear();
    for (const origin of this.origins()) {
      await editGlobalState(this.state, knownModelsKey(origin), () => undefined, { log: this.log, what: 'The known model names' });
    }
    this.changed();
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}
