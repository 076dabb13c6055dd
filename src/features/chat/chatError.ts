// A failure of a request from Chat or `vscode.lm`, as the API's own error type with the message every other surface
// of the extension shows (src/util/classifyError.ts). Callers tell the cases apart by `code`: NoPermissions (no key or
// a key the service refused), NotFound (the model is not available to the key), Blocked (the service asks to wait);
// anything else keeps VS Code's default code with our message.
import * as vscode from 'vscode';
import { classifyError, FIXES } from '../../util/classifyError';

export function languageModelError(error: unknown): vscode.LanguageModelError {
  if (error instanceof vscode.LanguageModelError) return error;
  const info = classifyError(error, 'The request failed');
  const fix = info.fix && info.fix !== FIXES.showLog ? ` (${info.fix.title})` : '';
  const message = `${info.message}${fix}`;
  const status = (error as { status?: unknown } | null)?.status;
  if (info.kind === 'notConfigured' || info.kind === 'auth') return vscode.LanguageModelError.NoPermissions(message);
  if (info.kind === 'request' && status === 404) return vscode.LanguageModelError.NotFound(message);
  if (info.kind === 'rateLimit') return vscode.LanguageModelError.Blocked(message);
  return new vscode.LanguageModelError(message);
}
