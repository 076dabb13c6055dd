// A model's reasoning in VS Code's Chat, folded to one line: "Thought for 12 s · 3,410 characters · Show reasoning".
// Chat gives a participant no collapsible block: its markdown sanitizer drops <details> and <summary> (they are not in
// VS Code's allowed chat tags, so they showed as literal text), and the thinking part Copilot uses is a proposed API a
// published extension cannot enable. Printing the reasoning whole would bury the answer under minutes of thinking.
// So the reasoning is kept in this window's memory and opened on demand in a read-only plain-text document: the
// service's words are never rendered as markdown there, and the link's argument is an opaque id, never a path.
import * as vscode from 'vscode';
import { COMMANDS, REASONING_SCHEME } from '../../contributions';
import { untrustedText } from '../../util/untrustedText';

/** Most reasonings kept per window; older ones say they are gone. */
const KEPT = 50;
/**
 * Most characters of reasoning kept per window (a model may think at length, and the service is not ours to trust):
 * older reasonings go first; the newest is kept whole unless it alone is longer, then its beginning is kept.
 */
export const KEPT_CHARS = 10_000_000;

interface Kept {
  readonly model: string;
  readonly text: string;
}

export class ChatReasoningStore {
  private readonly kept = new Map<string, Kept>();
  private keptChars = 0;

  constructor(private readonly maxChars = KEPT_CHARS) {}

  /** Keeps a reasoning and returns the one-line markdown that stands for it in the response. */
  fold(model: string, text: string, ms: number): vscode.MarkdownString {
    const id = crypto.randomUUID();
    const kept =
      text.length <= this.maxChars
        ? text
        : `${text.slice(0, this.maxChars)}\n\n${vscode.l10n.t('(The rest, {0} characters, was not kept.)', (text.length - this.maxChars).toLocaleString('en-US'))}`;
    this.kept.set(id, { model, text: kept });
    this.keptChars += kept.length;
    for (const [old, { text: oldText }] of this.kept) {
      if (old === id || (this.kept.size <= KEPT && this.keptChars <= this.maxChars)) break;
      this.kept.delete(old);
      this.keptChars -= oldText.length;
    }
    const seconds = Math.max(1, Math.round(ms / 1000));
    const args = encodeURIComponent(JSON.stringify([id]));
    const md = new vscode.MarkdownString(
      `*${vscode.l10n.t('Thought for {0} s · {1} characters', seconds, text.length.toLocaleString('en-US'))}* · ` +
        `[${vscode.l10n.t('Show reasoning')}](command:${COMMANDS.showChatReasoning}?${args})\n\n`,
    );
    // Only this extension's own words are in this piece; the one command it may run takes the id above.
    md.isTrusted = { enabledCommands: [COMMANDS.showChatReasoning] };
    md.supportHtml = false;
    return md;
  }

  /** Opens a kept reasoning in the active editor group, read-only (a preview tab). */
  async show(id: unknown): Promise<void> {
    if (typeof id !== 'string' || !/^[0-9a-f-]{36}$/.test(id)) return;
    // The tab's title: the model's name reduced to characters a file name shows plainly, and a short id to tell two
    // reasonings of one model apart.
    const model = (this.kept.get(id)?.model ?? '').replace(/[^\w.-]+/g, '-').slice(0, 60);
    const title = model ? `Reasoning ${model} ${id.slice(0, 4)}.txt` : `Reasoning ${id.slice(0, 4)}.txt`;
    const uri = vscode.Uri.from({ scheme: REASONING_SCHEME, path: `/${title}`, query: id });
    // Its own language, plain text whose long lines wrap (package.json); a .txt alone would not wrap.
    const document = await vscode.languages.setTextDocumentLanguage(await vscode.workspace.openTextDocument(uri), REASONING_SCHEME);
    await vscode.window.showTextDocument(document, { preview: true, viewColumn: vscode.ViewColumn.Active });
  }

  /** The document's text: the model's name and its reasoning as plain text, or why it is gone. */
  provideTextDocumentContent(uri: vscode.Uri): string {
    const found = this.kept.get(uri.query);
    if (!found) {
      return vscode.l10n.t(
        'This reasoning is no longer kept: the extension keeps the last {0} reasonings of Chat answers until the window closes.',
        KEPT,
      );
    }
    const model = untrustedText(found.model, { maxChars: 120 });
    return `${vscode.l10n.t('Reasoning of {0} (as the service sent it)', model)}\n\n${found.text}\n`;
  }
}

/** The line fold() writes, whole: its words (in any language), then the link to our command with one id. */
const FOLDED = new RegExp(
  `^\\*[^\\n]+\\* · \\[[^\\n\\]]+\\]\\(command:${COMMANDS.showChatReasoning.replace(/\./g, '\\.')}\\?%5B%22[0-9a-f-]{36}%22%5D\\)\\n\\n$`,
);

/**
 * Whether a markdown part of an earlier response is a folded reasoning (left out of the conversation sent again): the
 * whole part is the one line fold() writes, its link to our command with an id. Chat keeps it a part of its own (its
 * trust differs from an answer's, so it is not merged with one). An answer can never be that line: the neutraliser
 * writes no `[` outside code, and code is fenced or between backticks; an answer that quotes the line, in code or
 * not, is a part that holds more and stays in the conversation.
 */
export function isFoldedReasoning(markdown: string): boolean {
  return FOLDED.test(markdown);
}
