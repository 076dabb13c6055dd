// Marks a walkthrough step done. VS Code remembers a completed step, so this only ever completes, and once per window:
// the Models view asks for rows on every refresh.
//
// The context key alone is not enough: VS Code's walkthrough service counts an `onContext:` event only when it sees
// the key change while it runs, and it starts only when a Welcome page or walkthrough first opens. A step done before
// then (the usual case: the person connects, then looks at Get Started) stayed unchecked for ever (seen in the UI
// step). `welcome.markStepComplete` (VS Code's own command, not part of the extension API) records the step whenever
// the service starts; where a VS Code lacks it, the context key still completes steps done while a Welcome page is open.
import * as vscode from 'vscode';
import { WALKTHROUGH_ID, WALKTHROUGH_STEP_OF, type WalkthroughContextKey } from '../walkthroughContext';

const done = new Set<string>();

export function markWalkthroughStep(key: WalkthroughContextKey): void {
  if (done.has(key)) return;
  void vscode.commands.executeCommand('setContext', key, true);
  completeWalkthroughStep(key);
}

/** Records the step that completes on `key` as done, without setting the key (the session owns hasApiKey). */
export function completeWalkthroughStep(key: WalkthroughContextKey): void {
  if (done.has(key)) return;
  done.add(key);
  const step = `${WALKTHROUGH_ID}#${WALKTHROUGH_STEP_OF[key]}`;
  // Rejects when the service has not registered the walkthrough yet, after it stored the step as done.
  void Promise.resolve(vscode.commands.executeCommand('welcome.markStepComplete', step)).catch(() => undefined);
}
