// A failure of a request from Chat or `vscode.lm`, as the API's own error type with the message every other surface
// of the extension shows (src/util/classifyError.ts). Callers tell the cases apart by `code`: NoPermissions (no key or
// a key the service refused), NotFound (the model is not available to the key), Blocked (the service asks to wait);
// anything else keeps VS Code's default code with our message.
// The message goes to another extension, which may show it as markdown (Chat renders a request's error so) or send
// it on (its log, its telemetry). So the service's words in it are made inert as on every surface of ours (untrustedText:
// no link, image, HTML or icon; one line; bounded), and no address is named: the service's address is the person's
// own setting, of no use to the caller and not for it to pass on; the person finds it in our log and notification.
import * as vscode from 'vscode';
import { classifyError, FIXES } from '../../util/classifyError';
import { messageForCallers } from '../../util/callerMessage';

export { messageForCallers };

/** Any absolute URL (the service's address in a "cannot reach" message, or one the service's words hold). */

export function languageModelError(error: unknown): vscode.LanguageModelError {
  if (error instanceof vscode.LanguageModelError) return error;
  const info = classifyError(error, 'The request failed');
  const fix = info.fix && info.fix !== FIXES.showLog ? ` (${info.fix.title})` : '';
  const message = messageForCallers(`${info.message}${fix}`);
  const status = (error as { status?: unknown } | null)?.status;
  if (info.kind === 'notConfigured' || info.kind === 'auth') return vscode.LanguageModelError.NoPermissions(message);
  if (info.kind === 'request' && status === 404) return vscode.LanguageModelError.NotFound(message);
  if (info.kind === 'rateLimit') return vscode.LanguageModelError.Blocked(message);
  return new vscode.LanguageModelError(message);
}
