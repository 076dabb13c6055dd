// The recursive search of a right-clicked folder for PDF/DOCX files. Pure logic over an injected directory lister
// (vscode.workspace.fs in the extension, node fs in tests), so what is followed and what is skipped can be tested on
// real folders with real links without VS Code.

/** The bits of vscode.FileType (a stable API enum), repeated here because this module must not import vscode. */
export const ENTRY_FILE = 1;
export const ENTRY_DIRECTORY = 2;
export const ENTRY_SYMBOLIC_LINK = 64;

export interface DirectoryLister<T> {
  /** `[name, type]` per entry; a link's type is its target's type plus ENTRY_SYMBOLIC_LINK, as VS Code reports it. */
  readDirectory(folder: T): Promise<[string, number][]>;
  join(folder: T, name: string): T;
}

export interface WalkResult<T> {
  /** Documents found, in the search's order. */
  files: T[];
  /** Documents that are symbolic links: not followed (they could point anywhere), and named to the user. */
  skippedLinks: T[];
  /** False when the entry budget or the depth ran out before the end. */
  complete: boolean;
}

/** Folders never searched: dependencies and version control hold no one's source documents. */
const SKIPPED_FOLDERS = new Set(['node_modules', '.git']);
const DOCUMENT_NAME = /\.(pdf|docx)$/i;
const MAX_DEPTH = 32;

/** Searches `folder` for documents, spending at most `budget.entries` directory entries (shared across calls). */
export async function walkFolder<T>(folder: T, lister: DirectoryLister<T>, budget: { entries: number }): Promise<WalkResult<T>> {
  const result: WalkResult<T> = { files: [], skippedLinks: [], complete: true };
  result.complete = await walk(folder, lister, budget, 0, result);
  return result;
}

async function walk<T>(
  folder: T,
  lister: DirectoryLister<T>,
  budget: { entries: number },
  depth: number,
  out: WalkResult<T>,
): Promise<boolean> {
  if (depth > MAX_DEPTH) return false;
  let entries: [string, number][];
  try {
    entries = await lister.readDirectory(folder);
  } catch {
    return true; // an unreadable subfolder is skipped, like a file manager's search does
  }
  let complete = true;
  for (const [name, type] of entries.sort(([a], [b]) => a.localeCompare(b))) {
    if (--budget.entries < 0) return false;
    const child = lister.join(folder, name);
    if (type & ENTRY_DIRECTORY) {
      // Symlinked folders are not followed: a link to a parent would loop until the budget ran out.
      if (type & ENTRY_SYMBOLIC_LINK || SKIPPED_FOLDERS.has(name)) continue;
      complete = (await walk(child, lister, budget, depth + 1, out)) && complete;
      if (budget.entries < 0) return false;
    } else if (type & ENTRY_FILE && DOCUMENT_NAME.test(name)) {
      // A linked file would be uploaded from wherever it points, under this in-workspace name.
      if (type & ENTRY_SYMBOLIC_LINK) out.skippedLinks.push(child);
      else out.files.push(child);
    }
  }
  return complete;
}
