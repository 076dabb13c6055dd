// The VS Code cache is shared by every clone of the machine: installs land whole or not at all, two at once keep the
// first, a crashed one's leftovers go, and a cache folder another user could write to is refused.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { moveIntoPlace, removeAbandonedStaging, stagingFor } from '../runners/stagedInstall';
import { cacheDirProblem } from '../runners/vscodeServerLayout';

describe('installs into the shared VS Code cache', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hr-staged-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  function stageWith(target: string, content: string): string {
    const staging = stagingFor(target);
    fs.mkdirSync(staging, { recursive: true });
    fs.writeFileSync(path.join(staging, 'marker'), content);
    return staging;
  }

  it('moves a complete staging folder into place, and keeps the first when two finish', () => {
    const target = path.join(dir, 'code-server-4.139.1');
    assert.equal(moveIntoPlace(stageWith(target, 'first'), target), true);
    assert.equal(moveIntoPlace(stageWith(target, 'second'), target), false);
    assert.equal(fs.readFileSync(path.join(target, 'marker'), 'utf8'), 'first');
    assert.deepEqual(fs.readdirSync(dir), ['code-server-4.139.1'], 'the second staging folder is removed');
  });

  it("removes a stopped install's staging folder and leaves a running one's", () => {
    const target = path.join(dir, 'node-24.21.0');
    const gone = spawnSync(process.execPath, ['-e', '0']).pid; // a process that has ended
    fs.mkdirSync(`${target}.partial-${gone}`);
    fs.mkdirSync(stagingFor(target)); // this process: alive
    fs.mkdirSync(path.join(dir, 'node-24.21.0.partial-notapid'));
    removeAbandonedStaging(target);
    assert.deepEqual(fs.readdirSync(dir).sort(), [path.basename(stagingFor(target)), 'node-24.21.0.partial-notapid'].sort());
  });

  it('refuses a cache folder other users can write to, or that is not a folder', function () {
    if (process.platform === 'win32') this.skip();
    assert.equal(cacheDirProblem(path.join(dir, 'missing')), undefined, 'made later, with mode 700');
    const own = path.join(dir, 'own');
    fs.mkdirSync(own, { mode: 0o700 });
    assert.equal(cacheDirProblem(own), undefined);
    fs.chmodSync(own, 0o777);
    assert.match(cacheDirProblem(own) ?? '', /can be written by other users \(mode 777\)/);
    fs.writeFileSync(path.join(dir, 'file'), '');
    assert.match(cacheDirProblem(path.join(dir, 'file')) ?? '', /not a folder/);
  });
});
