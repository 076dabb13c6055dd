// Where the finetune command's files come from: the Explorer selection (files and folders, folders searched for
// PDF/DOCX files), or, from the palette or a view, a multi-select list of the workspace's documents, or an Open
// dialog. Everything goes through vscode.workspace.fs / findFiles so remote and virtual workspaces work too.
import * as vscode from 'vscode';
import { formatBytes } from '../../util/byteSize';
import { symlinkMessage, type FileProblem, type SourcePlace } from './finetuneFiles';
import { walkFolder, type DirectoryLister } from './folderWalk';
import { mapLimited } from '../../util/mapLimited';
import { interact } from '../../util/quickInputStep';
import { showInformationMessage } from '../../util/notify';

export interface ChosenSources {
  files: vscode.Uri[];
  /** Things the user should know about the choice itself (a folder not searched to the end, a link skipped). */
  notes: FileProblem[];
}

/** A folder search stops after this many directory entries: a home folder or a monorepo must not hang the command. */
export const MAX_WALK_ENTRIES = 20_000;
const FIND_GLOB = '**/*.{pdf,docx,PDF,DOCX}';
const FIND_EXCLUDE = '**/node_modules/**';
const FIND_MAX = 5000;
const STAT_CONCURRENCY = 32;

const workspaceLister: DirectoryLister<vscode.Uri> = {
  readDirectory: (folder) => Promise.resolve(vscode.workspace.fs.readDirectory(folder)),
  join: (folder, name) => vscode.Uri.joinPath(folder, name),
};

/** The URIs the Explorer passed: `(clicked, selected)`; `selected` holds the whole multi-selection when present. */
export function explorerSelection(clicked: unknown, selected: unknown): vscode.Uri[] | undefined {
  if (Array.isArray(selected) && selected.length > 0 && selected.every((u) => u instanceof vscode.Uri)) {
    return selected;
  }
  if (clicked instanceof vscode.Uri) return [clicked];
  return undefined;
}

/**
 * Files of the selection, folders replaced by the PDF/DOCX files found in them (recursively), sorted by the path the
 * user sees. A file picked explicitly is kept whatever its extension: the checks then say why it cannot be used.
 */
export async function expandSelection(uris: readonly vscode.Uri[]): Promise<ChosenSources> {
  const files: vscode.Uri[] = [];
  const notes: FileProblem[] = [];
  const budget = { entries: MAX_WALK_ENTRIES };
  for (const uri of uris) {
    let type: vscode.FileType;
    try {
      type = (await vscode.workspace.fs.stat(uri)).type;
    } catch {
      files.push(uri); // the checks report it as unreadable, with its name
      continue;
    }
    if (type & vscode.FileType.Directory) {
      const label = vscode.workspace.asRelativePath(uri);
      if (type & vscode.FileType.SymbolicLink) {
        // Its documents would go up under in-workspace names from wherever it points, as a linked file would.
        notes.push({ code: 'symlink', label, message: symlinkMessage(label, 'folder') });
        continue;
      }
      const found = await walkFolder(uri, workspaceLister, budget);
      files.push(...found.files);
      for (const link of found.skippedLinks) {
        const linkLabel = labelOf(link);
        notes.push({ code: 'symlink', label: linkLabel, message: symlinkMessage(linkLabel) });
      }
      if (!found.complete) {
        notes.push({
          code: 'incomplete',
          label,
          message: `${label} was not searched to the end (more than ${MAX_WALK_ENTRIES} entries); choose a smaller folder to include the rest.`,
        });
      }
    } else {
      files.push(uri);
    }
  }
  return { files: sortByLabel(files), notes };
}

type FileItem = vscode.QuickPickItem & { uri: vscode.Uri };

const BROWSE_BUTTON: vscode.QuickInputButton = {
  iconPath: new vscode.ThemeIcon('folder-opened'),
  tooltip: vscode.l10n.t('Choose Files…'),
};

/** What the person picked, and whether in the Open dialog (by a path of their own, which may be outside the workspace). */
export interface PickedSources {
  uris: vscode.Uri[];
  inDialog: boolean;
}

/**
 * Asks which files to use when the command came without a selection: the workspace's PDF/DOCX files in a
 * multi-select list (sizes shown), or an Open dialog. Undefined when the user cancelled.
 */
export async function pickSources(): Promise<PickedSources | undefined> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 0) {
    const open = vscode.l10n.t('Open Folder');
    const choose = vscode.l10n.t('Choose Files…');
    const picked = await showInformationMessage(
      vscode.l10n.t('No folder is open. Open a folder with PDF or DOCX files, or choose the files to finetune on.'),
      choose,
      open,
    );
    if (picked === choose) return chooseWithDialog();
    if (picked === open) await vscode.commands.executeCommand('vscode.openFolder');
    return undefined;
  }

  const qp = vscode.window.createQuickPick<FileItem>();
  qp.title = vscode.l10n.t('Create Finetuned Model: choose source files');
  qp.placeholder = vscode.l10n.t('Looking for PDF and DOCX files in the workspace…');
  qp.canSelectMany = true;
  qp.matchOnDescription = true;
  qp.ignoreFocusOut = true;
  qp.busy = true;
  let closed = false;
  let found: FileItem[] | undefined;

  const load = async (): Promise<void> => {
    const uris = await vscode.workspace.findFiles(FIND_GLOB, FIND_EXCLUDE, FIND_MAX);
    const sorted = sortByLabel(uris);
    const sizes = await mapLimited(sorted, STAT_CONCURRENCY, async (uri) => {
      try {
        return (await vscode.workspace.fs.stat(uri)).size;
      } catch {
        return undefined;
      }
    });
    if (closed) return;
    found = sorted.map((uri, i) => ({
      label: labelOf(uri),
      description: sizes[i] === undefined ? vscode.l10n.t('cannot be read') : formatBytes(sizes[i]),
      uri,
    }));
    qp.items = found;
    qp.busy = false;
    qp.placeholder =
      found.length === 0
        ? vscode.l10n.t('No PDF or DOCX files in this workspace: use the folder button to choose files elsewhere')
        : found.length >= FIND_MAX
          ? vscode.l10n.t(
              'Choose the files to finetune on ({0}, the first {1}); the folder button chooses files elsewhere',
              found.length,
              FIND_MAX,
            )
          : vscode.l10n.t('Choose the files to finetune on ({0}); the folder button chooses files elsewhere', found.length);
  };

  const result = await interact<vscode.Uri[] | 'browse' | 'none'>(qp, { back: false, buttons: [BROWSE_BUTTON] }, (finish) => {
    load().catch((e: unknown) => {
      if (closed) return;
      qp.busy = false;
      qp.placeholder = vscode.l10n.t("Cannot list the workspace's files: {0}", e instanceof Error ? e.message : String(e));
    });
    return [
      { dispose: () => (closed = true) },
      qp.onDidTriggerButton((b) => {
        if (b === BROWSE_BUTTON) finish({ action: 'next', value: 'browse' });
      }),
      qp.onDidAccept(() => {
        if (found?.length === 0) return finish({ action: 'next', value: 'none' });
        // Enter without ticking anything means the highlighted file: the common single-file case needs no Space.
        const picked = qp.selectedItems.length > 0 ? qp.selectedItems : qp.activeItems;
        if (picked.length > 0) finish({ action: 'next', value: picked.map((i) => i.uri) });
      }),
    ];
  });
  if (result.action !== 'next') return undefined;
  if (result.value === 'browse') return chooseWithDialog();
  if (result.value === 'none') {
    const choose = vscode.l10n.t('Choose Files…');
    const picked = await showInformationMessage(vscode.l10n.t('No PDF or DOCX files in this workspace.'), choose);
    return picked === choose ? chooseWithDialog() : undefined;
  }
  return { uris: result.value, inDialog: false };
}

async function chooseWithDialog(): Promise<PickedSources | undefined> {
  const uris = await vscode.window.showOpenDialog({
    title: vscode.l10n.t('Choose PDF or DOCX files to finetune on'),
    openLabel: vscode.l10n.t('Use for Finetuning'),
    canSelectFiles: true,
    canSelectFolders: false,
    canSelectMany: true,
    filters: { [vscode.l10n.t('PDF and Word documents')]: ['pdf', 'docx'], [vscode.l10n.t('All files')]: ['*'] },
    defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
  });
  return uris && uris.length > 0 ? { uris: sortByLabel(uris), inDialog: true } : undefined;
}

/**
 * Where the chosen files may really be (realPlace.ts): inside the workspace folders on this file system, or, for files
 * named by their own path (`outsideAllowed`: the Open dialog, code), also outside them.
 */
export function sourcePlace(outsideAllowed: boolean): SourcePlace {
  const roots = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
  return { roots, outsideAllowed };
}

function labelOf(uri: vscode.Uri): string {
  return vscode.workspace.asRelativePath(uri, (vscode.workspace.workspaceFolders?.length ?? 0) > 1);
}

function sortByLabel(uris: readonly vscode.Uri[]): vscode.Uri[] {
  return uris
    .map((uri) => ({ uri, label: labelOf(uri) }))
    .sort((a, b) => a.label.localeCompare(b.label, undefined, { numeric: true, sensitivity: 'base' }))
    .map((x) => x.uri);
}
