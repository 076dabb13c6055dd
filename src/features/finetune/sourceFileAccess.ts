// The chosen source files as the checks and the upload need them. Local (`file:`) files are read with node fs:
// ranged reads, so checking a 500 MB PDF reads 1 KB. Files of a virtual workspace (any other scheme) are read
// through vscode.workspace.fs, and copied to a private temp folder for the upload, because the service client
// streams from disk paths (src/api never sees VS Code). The copies are removed by `cleanup()`.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { nodeByteReader, type ByteReader, type CheckedFile, type SourceFile } from './finetuneFiles';

export class SourceFileAccess {
  /** Virtual files by id (`uri.toString()`); local files are not in here, their id is their path. */
  private readonly virtual = new Map<string, vscode.Uri>();
  /** workspace.fs has no ranged read: a virtual file is read whole once and kept for the few reads a check does. */
  private readonly contents = new Map<string, Promise<Uint8Array>>();
  private readonly tempDirs: string[] = [];
  private readonly copies = new Map<string, string>();
  readonly sources: SourceFile[];

  constructor(uris: readonly vscode.Uri[]) {
    const multiRoot = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
    this.sources = uris.map((uri) => {
      const label = vscode.workspace.asRelativePath(uri, multiRoot);
      if (uri.scheme === 'file') return { id: uri.fsPath, label };
      const id = uri.toString();
      this.virtual.set(id, uri);
      return { id, label };
    });
  }

  readonly reader: ByteReader = {
    localPath: (id) => (this.virtual.has(id) ? undefined : id),
    stat: async (id) => {
      const uri = this.virtual.get(id);
      if (!uri) return nodeByteReader.stat(id);
      const s = await vscode.workspace.fs.stat(uri);
      // A remote file system reports a link as the type of its target plus this flag.
      return { size: s.size, isFile: (s.type & vscode.FileType.File) !== 0, isSymbolicLink: (s.type & vscode.FileType.SymbolicLink) !== 0 };
    },
    read: async (id, position, length) => {
      const uri = this.virtual.get(id);
      if (!uri) return nodeByteReader.read(id, position, length);
      const bytes = await this.contentOf(id, uri);
      return Buffer.from(
        bytes.buffer,
        bytes.byteOffset + Math.min(position, bytes.length),
        Math.max(0, Math.min(length, bytes.length - position)),
      );
    },
  };

  /** Disk paths for the upload, in the files' order; virtual files are copied (once) under their own base name. */
  async localPaths(files: readonly CheckedFile[]): Promise<string[]> {
    const out: string[] = [];
    for (const f of files) {
      const uri = this.virtual.get(f.id);
      if (!uri) {
        out.push(f.id);
        continue;
      }
      let copy = this.copies.get(f.id);
      if (!copy) {
        // One folder per file: two files with the same base name from different folders must both keep it,
        // since the service sees only the base name.
        const dir = await mkdtemp(path.join(os.tmpdir(), 'hosted-reasoning-upload-'));
        this.tempDirs.push(dir);
        copy = path.join(dir, safeBaseName(uri));
        await writeFile(copy, await this.contentOf(f.id, uri));
        this.copies.set(f.id, copy);
      }
      out.push(copy);
    }
    return out;
  }

  /** Removes the temp copies and forgets cached contents. Never throws: a leftover temp file is not worth an error. */
  async cleanup(): Promise<void> {
    this.contents.clear();
    this.copies.clear();
    const dirs = this.tempDirs.splice(0);
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }).catch(() => undefined)));
  }

  private contentOf(id: string, uri: vscode.Uri): Promise<Uint8Array> {
    let p = this.contents.get(id);
    if (!p) {
      p = Promise.resolve(vscode.workspace.fs.readFile(uri));
      this.contents.set(id, p);
    }
    return p;
  }
}

/** The URI's last segment, made safe as a file name on any platform (the service only sees this name). */
function safeBaseName(uri: vscode.Uri): string {
  const base = path.posix.basename(uri.path);
  // eslint-disable-next-line no-control-regex -- control characters are exactly what a file name must not carry
  const cleaned = base.replace(/[<>:"/\\|?*\x00-\x1f]/g, '_').replace(/^\.+$/, '_');
  return cleaned || 'document';
}
