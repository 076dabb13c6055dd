// The API key lives in SecretStorage only. An environment variable is the fallback for headless use.
// SecretStorage.onDidChange fires in every window, so all windows agree on the key.
import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import { registerSecret } from '../api/redact';

export const SECRET_KEY = 'hostedReasoning.apiKey';
export const ENV_API_KEY = 'HOSTED_REASONING_API_KEY';

export type KeySource = 'secretStorage' | 'environment';

/** A stable, non-reversible identity of a key: separates persisted jobs per key without storing the key. */
export function keyIdentity(key: string): string {
  return createHash('sha256').update(`hosted-reasoning:${key}`).digest('hex').slice(0, 16);
}

export class ApiKeyStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {
    this.subscription = secrets.onDidChange((e) => {
      if (e.key === SECRET_KEY) this.changed.fire();
    });
  }

  async get(): Promise<{ key: string; source: KeySource } | undefined> {
    let stored: string | undefined;
    try {
      stored = await this.secrets.get(SECRET_KEY);
    } catch {
      // No keyring (e.g. Linux without a secret service): fall through to the environment, ask again later.
      stored = undefined;
    }
    const key = stored?.trim() || undefined;
    if (key) {
      registerSecret(key);
      return { key, source: 'secretStorage' };
    }
    const fromEnv = this.env[ENV_API_KEY]?.trim();
    if (fromEnv) {
      registerSecret(fromEnv);
      return { key: fromEnv, source: 'environment' };
    }
    return undefined;
  }

  async set(key: string): Promise<void> {
    registerSecret(key);
    await this.secrets.store(SECRET_KEY, key.trim());
    this.changed.fire();
  }

  async clear(): Promise<void> {
    // The old value stays registered for redaction: it may still sit in earlier error texts.
    await this.secrets.delete(SECRET_KEY);
    this.changed.fire();
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
