// One step of a multi-step QuickInput flow as a promise: resolves once with the step's value, 'back' (the Back
// button) or 'cancel' (Escape, or hidden), and disposes the input and every listener when it does. Shared by the
// wizards so none of them re-implements the settle-once and dispose-everything rules.
import * as vscode from 'vscode';

export type StepResult<T> = { action: 'next'; value: T } | { action: 'back' } | { action: 'cancel' };

/**
 * Shows one QuickInput and settles once: with what `wire` finishes with, 'back' from the Back button, or 'cancel'
 * when it is hidden (Escape). Every listener and the input itself are disposed when it settles.
 */
export function interact<T>(
  input: vscode.QuickPick<vscode.QuickPickItem> | vscode.InputBox,
  options: { back: boolean; buttons?: readonly vscode.QuickInputButton[] },
  wire: (finish: (r: StepResult<T>) => void) => vscode.Disposable[],
): Promise<StepResult<T>> {
  return new Promise<StepResult<T>>((resolve) => {
    const disposables: vscode.Disposable[] = [];
    let settled = false;
    const finish = (r: StepResult<T>): void => {
      if (settled) return;
      settled = true;
      for (const d of disposables) d.dispose();
      input.dispose();
      resolve(r);
    };
    // Other buttons are the caller's: `wire` listens to onDidTriggerButton for them.
    input.buttons = [...(options.back ? [vscode.QuickInputButtons.Back] : []), ...(options.buttons ?? [])];
    disposables.push(
      input.onDidTriggerButton((b) => {
        if (b === vscode.QuickInputButtons.Back) finish({ action: 'back' });
      }),
      input.onDidHide(() => finish({ action: 'cancel' })),
      ...wire(finish),
    );
    input.show();
  });
}
