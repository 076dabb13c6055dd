// *Ask in Chat*: VS Code's Chat view with `@hosted ` already in its input, in Ask mode, one of our models picked. A
// prompt without `@hosted` goes to Copilot's agent, which asks for a Copilot sign-in whatever model is picked (VS Code
// 1.139): every place that sends a person to Chat (the walkthrough, a model's menu, the demo's start) opens it this way,
// so a plain question typed after it reaches our models. Ask mode: Agent mode hides models that cannot call tools
// (ours), and a participant runs only with a model picked. `workbench.action.chat.open` takes the query, whether it is
// partial (left in the input, not sent), the mode and a model selector (IChatViewOpenOptions in VS Code's source, read
// for 1.139): not a public API, so a VS Code that has no Chat view (1.104's server build opens none) is told in words.
import * as vscode from 'vscode';
import { CHAT_PARTICIPANT_NAME, CHAT_VENDOR, COMMANDS } from '../../contributions';
import { showWarningMessage } from '../../util/notify';
import { modelNameFromArgument } from '../models/modelArgument';

/** What the input holds when Chat opens: the mention, and a space so the question follows it. */
export const CHAT_INPUT = `@${CHAT_PARTICIPANT_NAME} `;

/** The command `workbench.action.chat.open` runs, with its options (exported for the in-editor test). */
export interface ChatOpenOptions {
  query: string;
  isPartialQuery: true;
  mode: 'ask';
  modelSelector?: { vendor: string; id: string };
}

/**
 * The options that open Chat for `@hosted`: the model given (a Models-view row, a name), else one of ours that
 * `vscode.lm` lists (asking it also puts our models in Chat's picker: the workbench does not ask by itself), else none
 * (Chat keeps its pick; with no key there is no model of ours to pick).
 */
export async function chatOpenOptions(arg: unknown): Promise<ChatOpenOptions> {
  const named = modelNameFromArgument(arg);
  const ours = await vscode.lm.selectChatModels({ vendor: CHAT_VENDOR }).then(
    (models) => models,
    () => [] as vscode.LanguageModelChat[],
  );
  const id = named ?? ours[0]?.id;
  return { query: CHAT_INPUT, isPartialQuery: true, mode: 'ask', ...(id ? { modelSelector: { vendor: CHAT_VENDOR, id } } : {}) };
}

export function askInChatCommand(): Record<typeof COMMANDS.askInChat, (arg?: unknown) => Promise<void>> {
  return {
    [COMMANDS.askInChat]: async (arg?: unknown) => {
      try {
        await vscode.commands.executeCommand('workbench.action.chat.open', await chatOpenOptions(arg));
      } catch (error) {
        void showWarningMessage(
          vscode.l10n.t(
            'This VS Code could not open its Chat view ({0}). The models are still offered to other extensions (vscode.lm) and the playground asks them.',
            error instanceof Error ? error.message : String(error),
          ),
        );
      }
    },
  };
}
