// Forget stored API keys: every service's, or the ones picked, after a modal confirmation. What the extension keeps
// about the jobs of those services stays (Clear Stored Records… removes it); the environment's key is not stored and
// stays too. The origins come from the key store's index and, for keys stored before it existed, from the services
// that have stored records (their scope starts with the service's URL): SecretStorage cannot list its keys.
import * as vscode from 'vscode';
import { originOf } from '../../connection/apiKeyStore';
import { COMMANDS } from '../../contributions';
import type { Services } from '../../services';
import { DROPPED_EVALUATIONS_KEY_PREFIX, JOBS_KEY_PREFIX, RECENT_DATASETS_KEY_PREFIX } from '../../storageKeys';
import { showInformationMessage, showWarningMessage } from '../../util/notify';
import { untrustedText } from '../../util/untrustedText';

const SCOPED_PREFIXES = [JOBS_KEY_PREFIX, DROPPED_EVALUATIONS_KEY_PREFIX, RECENT_DATASETS_KEY_PREFIX];

/** The origins of the services that globalState holds records of (keys `<prefix><base URL>#<key identity>`). */
export function originsOfStoredRecords(keys: readonly string[]): string[] {
  const origins = new Set<string>();
  for (const key of keys) {
    const prefix = SCOPED_PREFIXES.find((p) => key.startsWith(p));
    if (!prefix) continue;
    const scope = key.slice(prefix.length);
    const cut = scope.lastIndexOf('#');
    const origin = originOf(cut < 0 ? scope : scope.slice(0, cut));
    if (origin) origins.add(origin);
  }
  return [...origins];
}

export function forgetApiKeysCommand(services: Services) {
  return { [COMMANDS.forgetApiKeys]: () => forgetApiKeys(services) };
}

/** Returns the origins whose keys were forgotten. */
async function forgetApiKeys(services: Services): Promise<string[]> {
  const keys = services.session.keys;
  const { origin: current } = await services.session.current();
  const candidates = [...originsOfStoredRecords(services.context.globalState.keys()), ...(current ? [current] : [])];
  const stored = await keys.storedOrigins(candidates);
  const legacy = await keys.legacy();
  if (stored.length === 0 && !legacy) {
    void showInformationMessage(vscode.l10n.t('No API key is stored.'));
    return [];
  }
  let chosen = stored;
  if (stored.length === 0) {
    await forgetLegacy(services);
    return [];
  }
  if (stored.length > 1) {
    const everyItem = {
      label: vscode.l10n.t('Every stored key ({0} services)', stored.length),
      origins: stored,
    };
    const items = [
      everyItem,
      ...stored.map((origin) => ({
        label: untrustedText(new URL(origin).host),
        description: origin === current ? vscode.l10n.t('the configured service') : undefined,
        detail: untrustedText(origin),
        origins: [origin],
      })),
    ];
    const picked = await vscode.window.showQuickPick(items, {
      title: vscode.l10n.t('Forget API Keys'),
      placeHolder: vscode.l10n.t('Whose stored key to forget'),
    });
    if (!picked) return [];
    chosen = picked.origins;
  }
  const forget = vscode.l10n.t('Forget');
  const answer = await showWarningMessage(
    chosen.length === 1
      ? vscode.l10n.t('Forget the API key stored for {0}?', new URL(chosen[0]!).host)
      : vscode.l10n.t('Forget the API keys stored for {0} services?', chosen.length),
    {
      modal: true,
      detail: [
        ...chosen,
        '',
        vscode.l10n.t(
          "The keys are removed from VS Code's secret storage; to use a service again, set its key with Set API Key…. The records of its jobs and evaluations stay until you clear them (Clear Stored Records…).",
        ),
      ].join('\n'),
    },
    forget,
  );
  if (answer !== forget) return [];
  for (const origin of chosen) await keys.clear(origin);
  // A key saved by an earlier version belongs to no service: forgetting every key forgets it too.
  if (legacy && chosen.length === stored.length) await keys.dropLegacy();
  services.log.info(`API keys forgotten for ${chosen.join(', ') || 'no service'}.`);
  const env = (await services.session.current()).key?.source === 'environment';
  void showInformationMessage(
    env
      ? vscode.l10n.t('Forgot {0} stored API keys. The HOSTED_REASONING_API_KEY environment variable still provides one.', chosen.length)
      : vscode.l10n.t('Forgot {0} stored API keys.', chosen.length),
  );
  return chosen;
}

/** Only a key an earlier version saved for no particular service is left: offered alone. Returns whether it went. */
async function forgetLegacy(services: Services): Promise<boolean> {
  const forget = vscode.l10n.t('Forget');
  const answer = await showWarningMessage(
    vscode.l10n.t('Forget the API key saved by an earlier version?'),
    { modal: true, detail: vscode.l10n.t("It belongs to no service and is never sent; it is removed from VS Code's secret storage.") },
    forget,
  );
  if (answer !== forget) return false;
  await services.session.keys.dropLegacy();
  void showInformationMessage(vscode.l10n.t('The key saved by an earlier version is forgotten.'));
  return true;
}
