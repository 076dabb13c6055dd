// A path a model names in a tool's input is resolved strictly inside a workspace folder (src/features/tools/
// workspacePath.ts): by its spelling here, whatever it is (`..`, absolute, a folder's name in a multi-root workspace);
// the real path is checked after it by the finetune's file check (realPlace.test.ts, and in the editor).
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { resolveWorkspacePath, type WorkspaceRoot } from '../../src/features/tools/workspacePath';

const ws = path.resolve('/work/ws');
const other = path.resolve('/work/other');
const one: WorkspaceRoot[] = [{ name: 'ws', path: ws }];
const two: WorkspaceRoot[] = [...one, { name: 'other', path: other }];

describe('tools: a path from a tool input, inside the workspace', () => {
  it('takes a relative path from the workspace folder, with the label a person knows', () => {
    assert.deepEqual(resolveWorkspacePath('docs/handbook.pdf', one), {
      path: path.join(ws, 'docs', 'handbook.pdf'),
      label: 'docs/handbook.pdf',
    });
    assert.deepEqual(resolveWorkspacePath('./docs/../handbook.pdf', one), { path: path.join(ws, 'handbook.pdf'), label: 'handbook.pdf' });
  });

  it('takes an absolute path inside the folder', () => {
    assert.deepEqual(resolveWorkspacePath(path.join(ws, 'a.pdf'), one), { path: path.join(ws, 'a.pdf'), label: 'a.pdf' });
  });

  it('refuses every spelling that leaves the folder', () => {
    for (const given of ['../secret.pdf', 'docs/../../secret.pdf', path.join(other, 'a.pdf'), path.resolve('/etc/passwd'), '..']) {
      const r = resolveWorkspacePath(given, one);
      assert.ok('problem' in r, `${given}: ${JSON.stringify(r)}`);
    }
    const r = resolveWorkspacePath('../secret.pdf', one);
    assert.ok('problem' in r && r.problem === '../secret.pdf is outside the workspace folders; only files inside them can be used.');
  });

  it('refuses a folder that only starts like the workspace folder', () => {
    assert.ok('problem' in resolveWorkspacePath(`${ws}-evil/a.pdf`, one));
    assert.ok('problem' in resolveWorkspacePath(`../ws-evil/a.pdf`, one));
  });

  it('in a multi-root workspace, a first segment naming a folder picks that folder; the label starts with its name', () => {
    assert.deepEqual(resolveWorkspacePath('other/notes.docx', two), { path: path.join(other, 'notes.docx'), label: 'other/notes.docx' });
    assert.deepEqual(resolveWorkspacePath('notes.docx', two), { path: path.join(ws, 'notes.docx'), label: 'ws/notes.docx' });
    assert.ok('problem' in resolveWorkspacePath('other/../../x.pdf', two));
  });

  it('says a workspace folder named by itself is a folder, not a file (not that it is outside)', () => {
    const docs = path.resolve('/work/docs');
    const withDocs: WorkspaceRoot[] = [...one, { name: 'docs', path: docs }];
    for (const given of ['docs', 'docs/', `${docs}`, 'docs/.', 'docs/sub/..']) {
      assert.deepEqual(resolveWorkspacePath(given, withDocs), {
        problem: `${given} is the workspace folder docs, a folder, not a file: name the files inside it.`,
      });
    }
    // One folder: its own path, or a path leading back to it, is that folder too.
    for (const given of ['.', ws, 'docs/..']) {
      assert.deepEqual(resolveWorkspacePath(given, one), {
        problem: `${given} is the workspace folder ws, a folder, not a file: name the files inside it.`,
      });
    }
  });

  it('refuses empty text, control characters and no workspace at all', () => {
    assert.ok('problem' in resolveWorkspacePath('  ', one));
    assert.ok('problem' in resolveWorkspacePath('a\u0000.pdf', one));
    assert.ok('problem' in resolveWorkspacePath('a\n.pdf', one));
    const none = resolveWorkspacePath('a.pdf', []);
    assert.ok('problem' in none && /No workspace folder/.test(none.problem));
  });
});
