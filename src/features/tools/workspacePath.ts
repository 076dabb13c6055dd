// A path a model named in a tool's input, resolved strictly inside a workspace folder. A tool's input is the one place
// a path comes from an argument (a command never takes one), and a prompt the workspace or the service wrote can steer
// the model: so nothing outside the workspace folders is reached, whatever the spelling (`../`, an absolute path, a
// folder's name in a multi-root workspace). This is the spelling's check; the file's real path (every link on the way
// resolved) is checked after it by checkFinetuneFiles (realPlace.ts), and a link as the file itself is refused there
// too. Pure node (no vscode): tested under plain mocha.
import * as path from 'node:path';
import { isNamedInside } from '../finetune/realPlace';

/** A workspace folder on this file system: its name (as a multi-root workspace labels paths) and its absolute path. */
export interface WorkspaceRoot {
  name: string;
  path: string;
}

export type ResolvedPath = { path: string; label: string } | { problem: string };

/**
 * `given` as an absolute path inside one of `roots`, with the label a person knows it by (relative to its folder, the
 * folder's name first in a multi-root workspace); or why it cannot be used. A relative path is taken from the folder
 * its first segment names (multi-root), else from the first folder. `given` is the model's text: the problem quotes it
 * as written, and the caller makes it inert.
 */
export function resolveWorkspacePath(given: string, roots: readonly WorkspaceRoot[]): ResolvedPath {
  if (roots.length === 0) return { problem: 'No workspace folder on this computer is open: open the folder that holds the documents.' };
  // eslint-disable-next-line no-control-regex -- a path with control characters is never what was meant
  if (!given.trim() || /[\x00-\x1f]/.test(given)) return { problem: `"${given}" is not a path.` };
  const text = given.trim();
  let full: string;
  if (path.isAbsolute(text)) {
    full = path.resolve(text);
  } else {
    const [first] = text.split(/[\\/]/);
    const named = roots.length > 1 ? roots.find((r) => r.name === first) : undefined;
    full = named ? path.resolve(named.path, text.slice(first!.length + 1)) : path.resolve(roots[0]!.path, text);
  }
  // A folder's own path (its name alone in a multi-root workspace, `.`, its absolute path) is not inside it, and not
  // outside either: said as what it is.
  const folder = roots.find((r) => path.relative(r.path, full) === '');
  if (folder) return { problem: `${given} is the workspace folder ${folder.name}, a folder, not a file: name the files inside it.` };
  const root = roots.find((r) => isNamedInside(full, [r.path]));
  if (!root) {
    return { problem: `${given} is outside the workspace folders; only files inside them can be used.` };
  }
  const relative = path.relative(root.path, full);
  const label = roots.length > 1 ? `${root.name}/${relative.split(path.sep).join('/')}` : relative.split(path.sep).join('/');
  return { path: full, label };
}
