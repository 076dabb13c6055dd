// Where a chosen source file really is (src/features/finetune/realPlace.ts), on real folders with real symbolic links:
// a workspace folder, a folder outside it, and links between them. The file's real path must lie under a workspace
// folder's real path, whatever links the names go through.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isNamedInside, isReallyInside } from '../../src/features/finetune/realPlace';

describe('finetune sources: the real place of a file', function () {
  let base = '';
  let workspace = '';
  let outside = '';
  const inWs = (...parts: string[]) => path.join(workspace, ...parts);

  before(function () {
    if (process.platform === 'win32') this.skip(); // links need privileges there
  });

  beforeEach(() => {
    base = mkdtempSync(path.join(os.tmpdir(), 'hr-real-place-'));
    workspace = path.join(base, 'workspace');
    outside = path.join(base, 'private');
    mkdirSync(path.join(workspace, 'docs'), { recursive: true });
    mkdirSync(outside, { recursive: true });
    writeFileSync(inWs('docs', 'guide.pdf'), '%PDF-1.4');
    writeFileSync(path.join(outside, 'secret.pdf'), '%PDF-1.4');
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it('a plain file inside the workspace is inside', async () => {
    assert.equal(await isReallyInside(inWs('docs', 'guide.pdf'), [workspace]), true);
  });

  it('a file reached through a linked folder that leads outside is outside, though its name is inside', async () => {
    symlinkSync(outside, inWs('docs-link'));
    const file = inWs('docs-link', 'secret.pdf');
    assert.equal(isNamedInside(file, [workspace]), true);
    assert.equal(await isReallyInside(file, [workspace]), false);
  });

  it('a linked file that leads outside is outside', async () => {
    symlinkSync(path.join(outside, 'secret.pdf'), inWs('docs', 'secret.pdf'));
    assert.equal(await isReallyInside(inWs('docs', 'secret.pdf'), [workspace]), false);
  });

  it('a linked folder inside that points inside is inside', async () => {
    symlinkSync(inWs('docs'), inWs('docs-alias'));
    assert.equal(await isReallyInside(inWs('docs-alias', 'guide.pdf'), [workspace]), true);
  });

  it('a workspace folder opened through a link: its files are inside, by either spelling; files beside it are not', async () => {
    const linkedRoot = path.join(base, 'workspace-link');
    symlinkSync(workspace, linkedRoot);
    assert.equal(await isReallyInside(path.join(linkedRoot, 'docs', 'guide.pdf'), [linkedRoot]), true);
    assert.equal(await isReallyInside(inWs('docs', 'guide.pdf'), [linkedRoot]), true);
    assert.equal(await isReallyInside(path.join(outside, 'secret.pdf'), [linkedRoot]), false);
  });

  it('a folder whose name starts like the workspace is not inside it, nor is the workspace folder itself a file in it', async () => {
    const sibling = `${workspace}-old`;
    mkdirSync(sibling);
    writeFileSync(path.join(sibling, 'a.pdf'), '%PDF-1.4');
    assert.equal(await isReallyInside(path.join(sibling, 'a.pdf'), [workspace]), false);
    assert.equal(await isReallyInside(workspace, [workspace]), false);
  });

  it('any of several workspace folders will do; a missing file or a missing folder is not inside', async () => {
    assert.equal(await isReallyInside(path.join(outside, 'secret.pdf'), [workspace, outside]), true);
    assert.equal(await isReallyInside(inWs('docs', 'gone.pdf'), [workspace]), false);
    assert.equal(await isReallyInside(inWs('docs', 'guide.pdf'), [path.join(base, 'gone')]), false);
  });
});
