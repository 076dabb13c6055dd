// The connection to the service: settings + key -> a ServiceClient, rebuilt when either changes.
// The client module (and axios with it) is loaded on first use, not at activation.
import * as vscode from 'vscode';
import { ServiceClient } from '../api/client';
import { RequestError } from '../api/errors';
import { redact } from '../api/redact';
import { normaliseBaseUrl } from '../api/urlPolicy';
import { readSettings, onDidChangeSettings, type Settings } from './config';
import { ApiKeyStore, keyIdentity, originOf, type KeySource } from './apiKeyStore';
import type { Log } from '../log';
import type { ServiceProfiles } from './serviceProfiles';

/** `<normalised base URL>#<key identity>`: separates persisted jobs per service and per key, without the key. */
function scopeOf(normalisedBaseUrl: string, key: string): string {
  return `${normalisedBaseUrl}#${keyIdentity(key)}`;
}

export class NotConfiguredError extends Error {
  constructor(readonly missing: 'baseUrl' | 'apiKey') {
    super(missing === 'baseUrl' ? 'No service URL is configured.' : 'No API key is set.');
    this.name = 'NotConfiguredError';
  }
}

export interface Connection {
  client: ServiceClient;
  /** `<base URL>#<key identity>`: separates persisted jobs per service and per key, without the key. */
  scope: string;
  keySource: KeySource;
}

export class Session implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when the key or the settings change: views refresh, the poller re-reads its jobs. */
  readonly onDidChange = this.changed.event;
  private cached: { fingerprint: string; connection: Connection } | undefined;
  /** What the last change event announced; a change that leaves it equal fires nothing. */
  private announced: string | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    readonly keys: ApiKeyStore,
    private readonly log: Log,
    /** The service profiles: each client reads its origin's through them. */
    private readonly profiles?: ServiceProfiles,
  ) {
    this.disposables.push(
      this.changed,
      keys.onDidChange(() => this.invalidate()),
      onDidChangeSettings(() => this.invalidate()),
    );
  }

  settings(): Settings {
    return readSettings();
  }

  /** Updates the `hostedReasoning.hasBaseUrl` / `hasApiKey` context keys the welcome views use. */
  async updateContext(): Promise<void> {
    const { baseUrl, key } = await this.current();
    await vscode.commands.executeCommand('setContext', 'hostedReasoning.hasBaseUrl', !!baseUrl);
    await vscode.commands.executeCommand('setContext', 'hostedReasoning.hasApiKey', !!key);
  }

  /**
   * The configured service and the key bound to its origin (see ApiKeyStore): what the views say they talk to.
   * `origin` is undefined when there is no URL or it is unusable; `key` when none is set for that origin.
   */
  async current(): Promise<{ baseUrl?: string; origin?: string; key?: { key: string; source: KeySource } }> {
    const baseUrl = this.settings().baseUrl;
    const origin = baseUrl ? originOf(baseUrl) : undefined;
    const key = origin ? await this.keys.get(origin) : undefined;
    return { baseUrl, origin, key };
  }

  /** The scope without building a client or loading its module (undefined when not configured or the URL is unusable). */
  async scope(): Promise<string | undefined> {
    const { baseUrl, key } = await this.current();
    if (!baseUrl || !key) return undefined;
    const normalised = normaliseBaseUrl(baseUrl);
    return 'url' in normalised ? scopeOf(normalised.url.href, key.key) : undefined;
  }

  /** A client for the current settings and key; throws NotConfiguredError or the client's RequestError (bad URL). */
  async connect(): Promise<Connection> {
    const settings = this.settings();
    if (!settings.baseUrl) throw new NotConfiguredError('baseUrl');
    // An unusable URL is said as the client would say it, and no key is read for it.
    const normalised = normaliseBaseUrl(settings.baseUrl);
    if ('problem' in normalised) throw new RequestError(redact(normalised.problem));
    const key = await this.keys.get(normalised.url.origin);
    if (!key) throw new NotConfiguredError('apiKey');
    const fingerprint = `${settings.baseUrl}\n${keyIdentity(key.key)}\n${settings.requestTimeoutMs}\n${settings.answerWaitMs}`;
    this.announced ??= fingerprint;
    if (this.cached?.fingerprint === fingerprint) return this.cached.connection;
    const client = await this.createClient(settings.baseUrl, key.key, settings.requestTimeoutMs, settings.answerWaitMs);
    const connection = { client, scope: scopeOf(client.baseUrl, key.key), keySource: key.source };
    this.cached = { fingerprint, connection };
    return connection;
  }

  /** A client for a key that is not stored yet (used to check a key before storing it). */
  async createClient(
    baseUrl: string,
    apiKey: string,
    requestTimeoutMs = this.settings().requestTimeoutMs,
    answerWaitMs = this.settings().answerWaitMs,
  ): Promise<ServiceClient> {
    const origin = originOf(baseUrl);
    return new ServiceClient(
      {
        baseUrl,
        apiKey,
        timeouts: { requestMs: requestTimeoutMs, answerWaitMs },
        log: this.log.sink,
        userAgent: `hosted-reasoning-vscode/${vscode.version}`,
      },
      origin && this.profiles ? this.profiles.bookFor(origin) : undefined,
    );
  }

  /** Current (base URL, key identity, timeout): what a connection depends on. */
  private async fingerprint(): Promise<string> {
    const { baseUrl, key } = await this.current();
    const settings = this.settings();
    return `${baseUrl ?? ''}\n${key ? keyIdentity(key.key) : ''}\n${settings.requestTimeoutMs}\n${settings.answerWaitMs}`;
  }

  // One key change reaches us several times (our own store event, SecretStorage's event in every window) and
  // unrelated settings change too: listeners hear only real changes, so views do not reload for nothing.
  private invalidate(): void {
    void (async () => {
      const next = await this.fingerprint();
      if (next === this.announced) return;
      this.announced = next;
      this.cached = undefined;
      await this.updateContext();
      this.changed.fire();
    })();
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
