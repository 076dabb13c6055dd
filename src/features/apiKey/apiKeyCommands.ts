// Set / clear the API key and configure the service URL. A key is checked by listing models before it is
// stored, for the origin it was checked against; a refused key is never stored (its box stays open, saying
// why). Neither command takes anything from its arguments: a link in a notification or a hover can pass any
// argument, and a URL or a key passed that way would move the service (and the key with it) without the user
// typing it. Both come from an input box.
import * as vscode from 'vscode';
import { isApiError } from '../../api/errors';
import { baseUrlProblem } from '../../api/urlPolicy';
import { SECTION } from '../../connection/config';
import { COMMANDS } from '../../contributions';
import { originOf } from '../../connection/apiKeyStore';
import type { Services } from '../../services';
import { showErrorMessage, showInformationMessage, showWarningMessage } from '../../util/notify';
import { checkedKeyBox } from './checkedKeyBox';
import { keyCheckRefusal } from './keyCheckRefusal';

// Views refresh through Session.onDidChange when the stored key really changes.
export function apiKeyCommands(services: Services) {
  return {
    [COMMANDS.setApiKey]: () => setApiKey(services),
    [COMMANDS.clearApiKey]: () => clearApiKey(services),
    [COMMANDS.configureBaseUrl]: () => configureBaseUrl(services),
    // VS Code's own settings: the extension's requests go through VS Code's proxy support, so that is where a proxy's
    // address and credentials are set (http.proxy, http.proxyAuthorization, http.noProxy, http.proxyStrictSSL).
    [COMMANDS.openProxySettings]: () => vscode.commands.executeCommand('workbench.action.openSettings', 'http.proxy'),
  };
}

/** Returns true when a key was checked and stored. */
async function setApiKey(services: Services): Promise<boolean> {
  let baseUrl = services.session.settings().baseUrl;
  if (!baseUrl) {
    if (!(await configureBaseUrl(services))) return false;
    baseUrl = services.session.settings().baseUrl;
    if (!baseUrl) return false;
  }
  const origin = originOf(baseUrl);
  if (!origin) {
    await showErrorMessage(
      validateBaseUrl(baseUrl) ?? vscode.l10n.t('The service URL cannot be used.'),
      vscode.l10n.t('Configure Service URL'),
    ).then((c) => (c ? configureBaseUrl(services) : undefined));
    return false;
  }
  const host = new URL(origin).host;
  // A key an earlier version kept for no particular service is filled in (hidden): Enter binds it to this service.
  const legacy = await services.session.keys.legacy();
  // `count` undefined: the service accepted the key (a 2xx) but its list of models could not be read.
  type Checked = { ok: true; count?: number } | { ok: false; error: unknown };
  const answer = await checkedKeyBox<Checked>(
    {
      title: 'Hosted Reasoning: API Key',
      prompt: legacy
        ? vscode.l10n.t(
            'The key saved by an earlier version is filled in: press Enter to check it against {0} and keep it for that service only.',
            host,
          )
        : vscode.l10n.t("The key is checked against {0} and kept in VS Code's secret storage for that service only.", host),
      placeHolder: vscode.l10n.t('Paste your API key'),
      value: legacy,
    },
    async (key, signal) => {
      try {
        const client = await services.session.createClient(baseUrl, key);
        const models = await client.listModels({ signal, interactive: true });
        return { close: { ok: true, count: models.length } };
      } catch (error) {
        // A 2xx whose list cannot be read is the service's problem, not the key's: the key is kept, the answer logged.
        if (isApiError(error) && error.kind === 'contract' && error.status === undefined) {
          services.log.warn(
            `The key was accepted, but the list of models could not be read: ${error.message} Answer: ${error.detail ?? '(none)'}`,
          );
          return { close: { ok: true } };
        }
        // The key may be fine when the service cannot be reached: the box closes and the person decides below.
        if (isApiError(error) && (error.kind === 'network' || error.kind === 'timeout')) return { close: { ok: false, error } };
        const refused = keyCheckRefusal(error);
        services.log.warn(`The key was not stored: ${refused}`);
        return { refused };
      }
    },
  );
  if (!answer) return false;
  const { key, outcome: checked } = answer;

  if (!checked.ok) {
    const error = checked.error;
    const store = vscode.l10n.t('Store Anyway');
    const choice = await showWarningMessage(
      vscode.l10n.t('Could not reach the service to check the key: {0}', error instanceof Error ? error.message : String(error)),
      {
        modal: true,
        detail: vscode.l10n.t('Store the key without checking it? You can clear it later with "Hosted Reasoning: Clear API Key".'),
      },
      store,
    );
    if (choice !== store) return false;
  }
  await services.session.keys.set(origin, key);
  if (legacy) await services.session.keys.dropLegacy();
  services.log.info(
    `API key stored for ${origin}${!checked.ok ? ' without a check' : checked.count === undefined ? ' (its model list unreadable)' : ` (${checked.count} models visible)`}.`,
  );
  if (checked.ok && checked.count === undefined) {
    // The list the check read is kept (ServiceProfiles.lastUnreadable): the person can say how to read it right here.
    const choose = vscode.l10n.t('Choose How to Read…');
    const log = vscode.l10n.t('Show Log');
    void showWarningMessage(
      vscode.l10n.t(
        "API key saved: the service accepted it, but its list of models could not be read. Choose how to read it, or type a model's name where one is asked; the service's answer is in the log.",
      ),
      choose,
      log,
    ).then((c) =>
      c === choose
        ? vscode.commands.executeCommand(COMMANDS.chooseHowToRead, { place: 'modelList' })
        : c === log
          ? vscode.commands.executeCommand(COMMANDS.showLog)
          : undefined,
    );
  } else if (checked.ok) void showInformationMessage(vscode.l10n.t('API key saved. {0} models available.', checked.count ?? 0));
  return true;
}

async function clearApiKey(services: Services): Promise<void> {
  const { origin, key: had } = await services.session.current();
  if (!origin) {
    void showInformationMessage(vscode.l10n.t('No service URL is configured, so no key is in use.'));
    return;
  }
  await services.session.keys.clear(origin);
  services.log.info(`API key for ${origin} cleared.`);
  if (had?.source === 'environment') {
    void showInformationMessage(vscode.l10n.t('Stored key cleared. The HOSTED_REASONING_API_KEY environment variable still provides one.'));
  } else {
    void showInformationMessage(vscode.l10n.t('API key cleared.'));
  }
}

/** Returns true when a URL was stored. */
async function configureBaseUrl(services: Services): Promise<boolean> {
  const current = vscode.workspace.getConfiguration(SECTION).get<string>('baseUrl') ?? '';
  const url = (
    await vscode.window.showInputBox({
      title: vscode.l10n.t('Hosted Reasoning: Service URL'),
      prompt: vscode.l10n.t('Base URL of the hosted reasoning service (https; http only for localhost). A key is kept per service.'),
      value: current || 'https://',
      ignoreFocusOut: true,
      validateInput: validateBaseUrl,
    })
  )?.trim();
  if (!url) return false;
  const problem = validateBaseUrl(url);
  if (problem) {
    void showErrorMessage(problem);
    return false;
  }
  await vscode.workspace.getConfiguration(SECTION).update('baseUrl', url.replace(/\/+$/, ''), vscode.ConfigurationTarget.Global);
  services.log.info(`Service URL set to ${url}.`);
  return true;
}

export function validateBaseUrl(value: string): string | undefined {
  let u: URL;
  try {
    u = new URL(value.trim());
  } catch {
    return 'Enter a full URL, e.g. https://api.example.com';
  }
  return baseUrlProblem(u);
}
