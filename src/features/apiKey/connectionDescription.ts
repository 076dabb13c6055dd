// The Models view says which service it is talking to and where the key came from, next to its title
// ("api.example.com · key stored"): the list under it belongs to that service, and a changed URL shows at once.
import type * as vscode from 'vscode';
import type { KeySource } from '../../connection/apiKeyStore';
import type { Session } from '../../connection/session';
import { untrustedText } from '../../util/untrustedText';

/** "host · key stored" / "host · key from environment" / "host · no key"; undefined without a usable URL. */
export function connectionDescription(origin: string | undefined, source: KeySource | undefined): string | undefined {
  if (!origin) return undefined;
  const key = source === 'secretStorage' ? 'key stored' : source === 'environment' ? 'key from environment' : 'no key';
  return `${untrustedText(new URL(origin).host)} · ${key}`;
}

/** Keeps `view.description` in step with the session. */
export function showConnection(session: Session, view: vscode.TreeView<unknown>): vscode.Disposable {
  let generation = 0;
  const update = async () => {
    const mine = ++generation;
    const { origin, key } = await session.current();
    if (mine === generation) view.description = connectionDescription(origin, key?.source);
  };
  void update();
  return session.onDidChange(() => void update());
}
