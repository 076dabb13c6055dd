// *Preview the Text*: the text the pre-flight read found in each source file, in a read-only virtual document (a
// content provider on a scheme of our own: nothing is written to disk, and VS Code offers no way to edit or save it),
// so the person sees what the service will be trained on before paying for it.
import * as vscode from 'vscode';
import type { PreflightResult } from './preflight';
import { describeCounts } from './preflightSummary';

export const SOURCE_TEXT_SCHEME = 'hosted-reasoning-source-text';
/**
 * Previews whose text is kept: a review's text can be hundreds of MB of PDF text, and a person compares at most a few;
 * an older one reopened says it is no longer available.
 */
const KEPT_PREVIEWS = 3;

class SourceTextDocuments implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private next = 1;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.path) ?? vscode.l10n.t('This preview is no longer available: open the finetune review again.');
  }

  /** A new document for one review (each review its own, so an open preview never changes under the reader). */
  add(text: string, files: number): vscode.Uri {
    const name = files === 1 ? vscode.l10n.t('Text of 1 source file') : vscode.l10n.t('Text of {0} source files', files);
    const uri = vscode.Uri.from({ scheme: SOURCE_TEXT_SCHEME, path: `/${this.next++}/${name}.txt` });
    this.texts.set(uri.path, text);
    // Map order is insertion order: the first key is the oldest preview.
    while (this.texts.size > KEPT_PREVIEWS) this.texts.delete(this.texts.keys().next().value as string);
    return uri;
  }
}

let documents: SourceTextDocuments | undefined;

/** Opens the preview; the provider is registered on first use and lives as long as the extension. */
export async function previewSourceText(context: vscode.ExtensionContext, results: readonly PreflightResult[]): Promise<vscode.TextEditor> {
  if (!documents) {
    documents = new SourceTextDocuments();
    context.subscriptions.push(vscode.workspace.registerTextDocumentContentProvider(SOURCE_TEXT_SCHEME, documents), {
      dispose: () => (documents = undefined),
    });
  }
  const text = results
    .map((r) => {
      const heading = `==== ${r.label} (${describeCounts(r)}) ====`;
      const body =
        r.unreadable !== undefined ? vscode.l10n.t('(Nothing read: {0}.)', r.unreadable) : r.text || vscode.l10n.t('(No text found.)');
      return `${heading}\n\n${body}\n`;
    })
    .join('\n');
  const doc = await vscode.workspace.openTextDocument(documents.add(text, results.length));
  return vscode.window.showTextDocument(doc, { preview: false, preserveFocus: false });
}
