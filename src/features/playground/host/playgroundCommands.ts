// The playground's entry points: "Open Playground" (palette, a model's context menu, the "Try in Playground" of a
// finished finetune) and "Ask About Selection" (the editor's selection becomes the context of a question the page
// focuses). The serializer that brings
// panels back after a reload is registered by the entry module (extension.ts) and hands them to the same manager.
import * as vscode from 'vscode';
import { COMMANDS } from '../../../contributions';
import type { PlaygroundManager } from './playgroundManager';
import { LIMITS } from '../protocol';
import { modelNameFromArgument } from '../../models/modelArgument';
import { showInformationMessage, showWarningMessage } from '../../../util/notify';

export function playgroundCommands(manager: PlaygroundManager) {
  return {
    // Accepts a Models-view row, `{ modelName }` or a model name; returns the panel (for tests and other commands).
    [COMMANDS.openPlayground]: (arg?: unknown) => manager.openPanel({ modelName: modelNameFromArgument(arg) }),
    [COMMANDS.askAboutSelection]: () => askAboutSelection(manager),
  };
}

async function askAboutSelection(manager: PlaygroundManager) {
  const editor = vscode.window.activeTextEditor;
  const text = editor
    ? editor.selections
        .map((s) => editor.document.getText(s))
        .filter((t) => t.trim())
        .join('\n\n')
    : '';
  if (!text.trim()) {
    void showInformationMessage(vscode.l10n.t('Select some text in an editor to ask about it in the playground.'));
    return undefined;
  }
  if (text.length + defaultQuestion().length > LIMITS.promptChars) {
    void showWarningMessage(
      vscode.l10n.t('The selection is too long for a prompt (over {0} characters).', LIMITS.promptChars.toLocaleString('en-US')),
    );
    return undefined;
  }
  // Beside the editor, so the code and the answer are both in view.
  return manager.openPanel({ context: text, prompt: defaultQuestion(), viewColumn: vscode.ViewColumn.Beside });
}

/** A start the person can run as is or type over (the page selects it): a selection alone is not a question. */
function defaultQuestion(): string {
  return vscode.l10n.t('Explain this code.');
}
