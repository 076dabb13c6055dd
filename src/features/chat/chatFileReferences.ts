// The files a person referenced in an @hosted prompt (#file, a selection, a folder, an attachment they added), and the
// text of those a question sends with it (chatRequest.ts, referencedPrompt). Only what the person asked for by name:
// what Chat attached by itself (the file open in the editor) is never sent nor uploaded, and the response says so. A
// file's text is the workspace's, untrusted: it is read up to a bound, sent as data, and a file that is not text (a
// PDF, an image: NUL bytes) or a folder is left out, with the reason said.
import * as vscode from 'vscode';
import type { ReferencedText } from './chatRequest';

/** The id prefix of the references Chat adds by itself (seen in the workbench of VS Code 1.104 and 1.139). */
const IMPLICIT_REFERENCE = 'vscode.implicit';
/** Largest file whose text a question reads (its beginning is sent: MAX_REFERENCE_CHARS). */
const MAX_FILE_BYTES = 4 * 1024 * 1024;
/** Bytes looked at for a NUL, the sign of a file that is not text. */
const SNIFF_BYTES = 8192;

/**
 * The files and folders the person referenced; other references are not files. `implicit`: what Chat attached by
 * itself, the file open in the editor (ids `vscode.implicit.file`, `.viewport`, `.selection` in VS Code 1.104 and
 * 1.139; on by default in 1.104, a suggestion the person may click in 1.139). A file referenced both ways was asked for.
 */
export function referencedFiles(references: readonly vscode.ChatPromptReference[]): {
  uris: vscode.Uri[];
  locations: (vscode.Uri | vscode.Location)[];
  implicit: vscode.Uri[];
} {
  const asked = new Map<string, vscode.Uri | vscode.Location>();
  const uris = new Map<string, vscode.Uri>();
  const implicit = new Map<string, vscode.Uri>();
  for (const r of references) {
    const value = r.value instanceof vscode.Uri || r.value instanceof vscode.Location ? r.value : undefined;
    if (!value) continue;
    const uri = value instanceof vscode.Uri ? value : value.uri;
    if (r.id.startsWith(IMPLICIT_REFERENCE)) implicit.set(uri.toString(), uri);
    else {
      uris.set(uri.toString(), uri);
      asked.set(value instanceof vscode.Uri ? uri.toString() : `${uri.toString()}#${rangeText(value.range)}`, value);
    }
  }
  for (const key of uris.keys()) implicit.delete(key);
  return { uris: [...uris.values()], locations: [...asked.values()], implicit: [...implicit.values()] };
}

export interface FileTexts {
  readonly texts: ReferencedText[];
  /** Referenced but not sent, each with why. */
  readonly leftOut: { readonly label: string; readonly why: string }[];
}

/** The text of each referenced file or selection, whole (the caller bounds it), in the order referenced. */
export async function referencedFileTexts(locations: readonly (vscode.Uri | vscode.Location)[]): Promise<FileTexts> {
  const texts: ReferencedText[] = [];
  const leftOut: { label: string; why: string }[] = [];
  for (const where of locations) {
    const uri = where instanceof vscode.Uri ? where : where.uri;
    const range = where instanceof vscode.Location ? where.range : undefined;
    const label = vscode.workspace.asRelativePath(uri) + (range ? `:${rangeText(range)}` : '');
    try {
      const read = await fileText(uri, range);
      if (typeof read === 'string') texts.push({ label, text: read });
      else leftOut.push({ label, why: read.why });
    } catch (error) {
      leftOut.push({ label, why: vscode.l10n.t('it could not be read ({0})', error instanceof Error ? error.message : String(error)) });
    }
  }
  return { texts, leftOut };
}

/** The file's text (what the editor holds when it is open, unsaved changes included), or why it is not sent. */
async function fileText(uri: vscode.Uri, range: vscode.Range | undefined): Promise<string | { why: string }> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) return open.getText(range);
  const stat = await vscode.workspace.fs.stat(uri);
  if (stat.type & vscode.FileType.Directory) return { why: vscode.l10n.t('a folder (/finetune takes folders)') };
  if (stat.size > MAX_FILE_BYTES) return { why: vscode.l10n.t('larger than {0} MB', MAX_FILE_BYTES / 1024 / 1024) };
  const bytes = await vscode.workspace.fs.readFile(uri);
  if (bytes.subarray(0, SNIFF_BYTES).includes(0)) return { why: vscode.l10n.t('not a text file (/finetune reads PDF and DOCX)') };
  const text = new TextDecoder().decode(bytes);
  if (!range) return text;
  // A selection of a file not open: its lines, from the start line to the end line.
  const lines = text.split(/\r?\n/);
  return lines.slice(range.start.line, range.end.line + 1).join('\n');
}

function rangeText(range: vscode.Range): string {
  return range.start.line === range.end.line ? `${range.start.line + 1}` : `${range.start.line + 1}-${range.end.line + 1}`;
}
