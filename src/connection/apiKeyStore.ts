// The API key lives in SecretStorage only, one per service origin: a key is stored for the origin it was checked
// against and is read back only for that origin, so a service URL that changes (by the user, or by anything else)
// never receives a key that was set for another service. The environment variable is the fallback for headless
// use; it belongs to HOSTED_REASONING_BASE_URL's origin when that is set too.
// SecretStorage.onDidChange fires in every window, so all windows agree on the keys. A key read is kept in memory
// until that event (or this store's own write) says it changed: every request reads the key, and each read of
// SecretStorage is a round trip out of the extension host (8–11 ms per request in benchmark figure 9). A miss is
// never kept: SecretStorage may answer nothing while its keyring is not ready, and is asked again next time.
// SecretStorage cannot list what it holds, so the origins a key was stored for are kept beside it (in globalState,
// never the keys): that is how "Forget API Keys…" finds every key to offer.
import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import { registerSecret } from '../api/redact';
import { originOf } from '../api/urlPolicy';
import { editGlobalState, type StoredState } from '../globalStateEdit';
import { API_KEY_ORIGINS_KEY, ENV_API_KEY } from '../storageKeys';
import { ENV_BASE_URL } from './config';

/** Where keys were kept before they were bound to an origin; read only to offer it again, then removed. */
export const LEGACY_SECRET_KEY = 'hostedReasoning.apiKey';
const SECRET_PREFIX = 'hostedReasoning.apiKey@';

export type KeySource = 'secretStorage' | 'environment';

/** A stable, non-reversible identity of a key: separates persisted jobs per key without storing the key. */
export function keyIdentity(key: string): string {
  return createHash('sha256').update(`hosted-reasoning:${key}`).digest('hex').slice(0, 16);
}

// Kept here for its importers; defined beside normaliseBaseUrl (api/urlPolicy.ts), where code without vscode reaches it.
export { originOf };

export class ApiKeyStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly subscription: vscode.Disposable;
  /** Each secret as last read, until SecretStorage reports a change to it (in any window) or this store writes it. */
  private readonly reads = new Map<string, Promise<string | undefined>>();

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly env: NodeJS.ProcessEnv = process.env,
    /** Where the origins of stored keys are listed (globalState; a stand-in in tests). */
    private readonly index?: StoredState,
  ) {
    this.subscription = secrets.onDidChange((e) => {
      this.reads.delete(e.key);
      if (e.key.startsWith(SECRET_PREFIX)) this.changed.fire();
    });
  }

  /** The key for `origin`: the one stored for it, else the environment's when it belongs to that origin. */
  async get(origin: string): Promise<{ key: string; source: KeySource } | undefined> {
    const stored = (await this.read(SECRET_PREFIX + origin))?.trim();
    if (stored) {
      registerSecret(stored);
      return { key: stored, source: 'secretStorage' };
    }
    const fromEnv = this.env[ENV_API_KEY]?.trim();
    const envUrl = this.env[ENV_BASE_URL]?.trim();
    if (fromEnv && (!envUrl || originOf(envUrl) === origin)) {
      registerSecret(fromEnv);
      return { key: fromEnv, source: 'environment' };
    }
    return undefined;
  }

  async set(origin: string, key: string): Promise<void> {
    registerSecret(key);
    await this.write(SECRET_PREFIX + origin, () => this.secrets.store(SECRET_PREFIX + origin, key.trim()));
    await this.updateIndex((list) => [...list.filter((o) => o !== origin), origin]);
    this.changed.fire();
  }

  async clear(origin: string): Promise<void> {
    // The old value stays registered for redaction: it may still sit in earlier error texts.
    await this.write(SECRET_PREFIX + origin, () => this.secrets.delete(SECRET_PREFIX + origin));
    await this.updateIndex((list) => list.filter((o) => o !== origin));
    this.changed.fire();
  }

  /**
   * The origins that have a stored key, among those the index lists and `candidates` (origins the caller knows of
   * otherwise: the configured service, the services of stored jobs, for keys stored before the index existed).
   */
  async storedOrigins(candidates: Iterable<string> = []): Promise<string[]> {
    const all = new Set([...this.indexed(), ...candidates]);
    const stored = await Promise.all(
      [...all].map(async (origin) => ((await this.read(SECRET_PREFIX + origin))?.trim() ? origin : undefined)),
    );
    return stored.filter((o): o is string => o !== undefined).sort();
  }

  private indexed(): string[] {
    return originsOf(this.index?.get<unknown>(API_KEY_ORIGINS_KEY));
  }

  /** Echo-safe (globalStateEdit.ts): keys stored in two windows at once are both listed. */
  private async updateIndex(edit: (list: string[]) => string[]): Promise<void> {
    if (this.index) {
      await editGlobalState(this.index, API_KEY_ORIGINS_KEY, (stored) => edit(originsOf(stored)), {
        what: 'The list of services with a key',
      });
    }
  }

  /** A key an earlier version stored for no particular service: offered (never sent) until the user stores one. */
  async legacy(): Promise<string | undefined> {
    const key = (await this.read(LEGACY_SECRET_KEY))?.trim() || undefined;
    if (key) registerSecret(key);
    return key;
  }

  async dropLegacy(): Promise<void> {
    await this.write(LEGACY_SECRET_KEY, () => this.secrets.delete(LEGACY_SECRET_KEY)).then(undefined, () => undefined);
  }

  private read(name: string): Promise<string | undefined> {
    const kept = this.reads.get(name);
    if (kept) return kept;
    const forget = () => {
      if (this.reads.get(name) === reading) this.reads.delete(name);
    };
    const reading = Promise.resolve(this.secrets.get(name)).then(
      (value) => {
        // Only a key is kept: an empty answer may be a keyring not ready yet (or one that keeps secrets in memory
        // only), and what is not there costs no request, so the next read asks SecretStorage again.
        if (!value?.trim()) forget();
        return value;
      },
      () => {
        // No keyring (e.g. Linux without a secret service): fall through to the environment, ask again later.
        forget();
        return undefined;
      },
    );
    this.reads.set(name, reading);
    return reading;
  }

  /** A write forgets the value read before it, and whatever a read that overlapped it found. */
  private async write(name: string, change: () => Thenable<void>): Promise<void> {
    this.reads.delete(name);
    try {
      await change();
    } finally {
      this.reads.delete(name);
    }
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}

function originsOf(stored: unknown): string[] {
  return Array.isArray(stored) ? stored.filter((o): o is string => typeof o === 'string') : [];
}
