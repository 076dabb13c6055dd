// The right-clicked folder search on real folders: a linked document (pointing outside the folder) is skipped and
// named, never collected, whatever name it has inside the workspace; linked folders are not entered.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { ENTRY_DIRECTORY, ENTRY_FILE, ENTRY_SYMBOLIC_LINK, walkFolder, type DirectoryLister } from '../../src/features/finetune/folderWalk';

/** Lists a folder the way VS Code's disk provider does: a link gets its target's type plus the link bit. */
const diskLister: DirectoryLister<string> = {
  async readDirectory(folder) {
    const out: [string, number][] = [];
    for (const d of await readdir(folder, { withFileTypes: true })) {
      const typeOf = (s: { isFile(): boolean; isDirectory(): boolean }) =>
        s.isFile() ? ENTRY_FILE : s.isDirectory() ? ENTRY_DIRECTORY : 0;
      if (d.isSymbolicLink()) {
        const target = await stat(path.join(folder, d.name)).catch(() => undefined);
        out.push([d.name, (target ? typeOf(target) : 0) | ENTRY_SYMBOLIC_LINK]);
      } else {
        out.push([d.name, typeOf(d)]);
      }
    }
    return out;
  },
  join: (folder, name) => path.join(folder, name),
};

describe('folder search for documents', function () {
  if (process.platform === 'win32') return; // symlinks need privileges there, FIFOs do not exist
  let root = '';
  before(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'hr-folder-walk-'));
    const outside = path.join(root, 'outside');
    mkdirSync(outside);
    writeFileSync(path.join(outside, 'id_rsa.pdf'), '%PDF-1.4 private');
    const ws = path.join(root, 'ws', 'docs');
    mkdirSync(path.join(ws, 'sub'), { recursive: true });
    writeFileSync(path.join(ws, 'real.pdf'), '%PDF-1.4 real');
    writeFileSync(path.join(ws, 'sub', 'notes.docx'), 'PK');
    symlinkSync(path.join(outside, 'id_rsa.pdf'), path.join(ws, 'report.pdf'));
    symlinkSync(path.join(outside, 'id_rsa.pdf'), path.join(ws, 'sub', 'minutes.pdf'));
    symlinkSync(outside, path.join(ws, 'linked-folder'));
    execFileSync('mkfifo', [path.join(ws, 'pipe.pdf')]);
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('collects regular documents only, and names each linked document it skipped', async () => {
    const ws = path.join(root, 'ws', 'docs');
    const found = await walkFolder(ws, diskLister, { entries: 1000 });
    const rel = (ps: string[]) => ps.map((p) => path.relative(ws, p));
    assert.deepEqual(rel(found.files), ['real.pdf', path.join('sub', 'notes.docx')]);
    assert.deepEqual(rel(found.skippedLinks), ['report.pdf', path.join('sub', 'minutes.pdf')]);
    assert.equal(found.complete, true);
  });

  it('reports an incomplete search when the entry budget runs out', async () => {
    const found = await walkFolder(path.join(root, 'ws'), diskLister, { entries: 2 });
    assert.equal(found.complete, false);
  });
});
