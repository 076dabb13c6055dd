// On a bare Debian machine `npm start` and `npm test` install the system packages they lack when they run as root, as
// .ci/run does. A fake apt-get on PATH stands in for the real one: it records its arguments and "installs" a package
// by creating a marker file the check looks for.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ensurePrerequisites, type MissingPrerequisite } from '../runners/hostPrerequisites';

describe('system packages on a bare machine', () => {
  let dir: string;
  let savedPath: string | undefined;

  beforeEach(function () {
    if (process.getuid?.() !== 0) this.skip(); // the install path is taken only as root
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hr-apt-'));
    const fake = path.join(dir, 'apt-get');
    fs.writeFileSync(fake, `#!/bin/sh\necho "$@" >> "${dir}/calls"\nif [ "$1" = install ]; then touch "${dir}/installed"; fi\n`);
    fs.chmodSync(fake, 0o755);
    savedPath = process.env.PATH;
    process.env.PATH = `${dir}${path.delimiter}${savedPath ?? ''}`;
  });

  afterEach(() => {
    if (savedPath !== undefined) process.env.PATH = savedPath;
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const check = (): MissingPrerequisite[] =>
    fs.existsSync(path.join(dir, 'installed')) ? [] : [{ reason: 'rg for search', aptPackage: 'ripgrep' }];

  it('installs what is missing with apt-get as root, then finds nothing missing', () => {
    assert.equal(ensurePrerequisites(check), undefined);
    assert.deepEqual(fs.readFileSync(path.join(dir, 'calls'), 'utf8').trim().split('\n'), [
      'update',
      'install -y --no-install-recommends ripgrep',
    ]);
  });

  it('names what is still missing and the one command when the install did not provide it', () => {
    const never = (): MissingPrerequisite[] => [{ reason: 'rg for search', aptPackage: 'ripgrep' }];
    const problem = ensurePrerequisites(never, 'run the tests');
    assert.match(
      problem ?? '',
      /Cannot run the tests; this machine lacks:\n {2}- rg for search\nInstall with: apt-get install -y --no-install-recommends ripgrep/,
    );
  });

  it('does not call apt-get when nothing is missing', () => {
    assert.equal(
      ensurePrerequisites(() => []),
      undefined,
    );
    assert.equal(fs.existsSync(path.join(dir, 'calls')), false);
  });
});
