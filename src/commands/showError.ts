// One way to tell the user a call failed: the message, and the action that fixes it for that kind of error.
import * as vscode from 'vscode';
import { isApiError } from '../api/errors';
import { COMMANDS } from '../contributions';
import { NotConfiguredError } from '../session';
import type { Services } from '../services';
import { showErrorMessage } from '../util/notify';

interface Fix {
  title: string;
  run: () => Thenable<unknown>;
}

/** Shows `what failed: why` with the fixing actions; resolves when the user chose (or dismissed). */
export async function showError(services: Services, what: string, error: unknown, retry?: () => Thenable<unknown>): Promise<void> {
  const fixes: Fix[] = [];
  const cmd = (title: string, command: string) => fixes.push({ title, run: () => vscode.commands.executeCommand(command) });
  let message: string;
  if (error instanceof NotConfiguredError) {
    message = error.message;
    if (error.missing === 'baseUrl') cmd('Configure Service URL', COMMANDS.configureBaseUrl);
    else cmd('Set API Key', COMMANDS.setApiKey);
  } else if (isApiError(error)) {
    if (error.kind === 'cancelled') return; // the user asked for it
    message = error.message;
    if (error.kind === 'auth') cmd('Set API Key', COMMANDS.setApiKey);
    if ((error.kind === 'network' || error.kind === 'timeout' || error.kind === 'server' || error.kind === 'rateLimit') && retry) {
      fixes.push({ title: 'Retry', run: retry });
    }
    if (error.kind === 'network') cmd('Configure Service URL', COMMANDS.configureBaseUrl);
    if (error.kind === 'contract' || error.kind === 'server' || error.kind === 'integrity') cmd('Show Log', COMMANDS.showLog);
    services.log.error(`${what}: ${error.message}`, error);
  } else {
    message = error instanceof Error ? error.message : String(error);
    services.log.error(`${what}: ${message}`);
    cmd('Show Log', COMMANDS.showLog);
  }
  const text = message.startsWith(what) ? message : `${what}: ${message}`;
  const choice = await showErrorMessage(text, ...fixes.map((f) => f.title));
  await fixes.find((f) => f.title === choice)?.run();
}
