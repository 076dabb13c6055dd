// The API key's input box, which stays open until the key is accepted: a key the service refuses is shown as the box's
// error (the person corrects it in place instead of starting over), the check runs with the box busy, and Escape
// cancels it. Only an outcome the box cannot settle (the service unreachable) closes it for the caller to ask.
import * as vscode from 'vscode';
import { untrustedText } from '../../util/untrustedText';

export interface KeyBoxOptions {
  title: string;
  prompt: string;
  placeHolder: string;
  value?: string;
}

/** What checking a key came to: accepted or unsettled (the box closes with it), or refused (the box says why). */
export type KeyCheck<T> = { close: T } | { refused: string };

/** Resolves with the key and the check's outcome once one closes the box; undefined when the person cancels. */
export function checkedKeyBox<T>(
  options: KeyBoxOptions,
  check: (key: string, signal: AbortSignal) => Promise<KeyCheck<T>>,
): Promise<{ key: string; outcome: T } | undefined> {
  const box = vscode.window.createInputBox();
  box.title = options.title;
  box.prompt = options.prompt;
  box.placeholder = options.placeHolder;
  box.value = options.value ?? '';
  box.password = true;
  box.ignoreFocusOut = true;
  return new Promise((resolve) => {
    let settled = false;
    let checking: AbortController | undefined;
    const subscriptions: vscode.Disposable[] = [];
    const finish = (result: { key: string; outcome: T } | undefined) => {
      if (settled) return;
      settled = true;
      checking?.abort();
      for (const s of subscriptions) s.dispose();
      box.dispose();
      resolve(result);
    };
    subscriptions.push(
      // Typing again clears the last refusal: it was about the previous key.
      box.onDidChangeValue((v) => (box.validationMessage = v.trim() ? undefined : vscode.l10n.t('The key cannot be empty.'))),
      box.onDidAccept(() => {
        if (box.busy) return;
        const key = box.value.trim();
        if (!key) {
          box.validationMessage = vscode.l10n.t('The key cannot be empty.');
          return;
        }
        const controller = new AbortController();
        checking = controller;
        // Busy, not disabled: a disabled box gives the keyboard focus back to the editor (a playground page would
        // then take the corrected key as its prompt), and VS Code does not return it when the box is enabled again.
        box.busy = true;
        box.validationMessage = undefined;
        void check(key, controller.signal).then(
          (result) => {
            if (settled || controller.signal.aborted) return;
            if ('close' in result) return finish({ key, outcome: result.close });
            box.busy = false;
            // Said only while the box still holds the key it is about.
            if (box.value.trim() === key) box.validationMessage = untrustedText(result.refused);
          },
          (error: unknown) => {
            if (settled) return;
            box.busy = false;
            box.validationMessage = untrustedText(error instanceof Error ? error.message : String(error));
          },
        );
      }),
      box.onDidHide(() => finish(undefined)),
    );
    box.show();
  });
}
