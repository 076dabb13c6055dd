// One way to tell the user a call failed: `what failed: why`, Retry when it may help, and the action that fixes it.
import * as vscode from 'vscode';
import type { Services } from '../services';
import { classifyError } from './classifyError';
import { showErrorMessage } from './notify';

/** Shows `what failed: why` with the fixing actions; resolves when the user chose (or dismissed). */
export async function showError(services: Services, what: string, error: unknown, retry?: () => Thenable<unknown>): Promise<void> {
  const info = classifyError(error, what);
  if (info.kind === 'cancelled') return; // the user asked for it
  const { fix } = info;
  const actions = [
    ...(info.retryable && retry ? [{ title: vscode.l10n.t('Retry'), run: retry }] : []),
    ...(fix ? [{ title: fix.title, run: () => vscode.commands.executeCommand(fix.command, ...fix.args) }] : []),
  ];
  const text = info.message.startsWith(what) ? info.message : `${what}: ${info.message}`;
  if (info.kind !== 'notConfigured') services.log.error(text, error);
  const choice = await showErrorMessage(text, ...actions.map((a) => a.title));
  await actions.find((a) => a.title === choice)?.run();
}
