// On a bare Debian machine `npm start` and `npm test` install the system packages they lack when they run as root, as
// .ci/run does. The test hands ensurePrerequisites an installer of its own that records the apt-get calls and
// "installs" by flipping a flag: a test installs nothing on the machine (one with a fake apt-get on PATH ran the real
// one where the fake could not be executed).
import { strict as assert } from 'node:assert';
import {
  ensurePrerequisites,
  INSTALL_NOTHING_ENV,
  systemInstaller,
  type Installer,
  type MissingPrerequisite,
} from '../runners/hostPrerequisites';

describe('system packages on a bare machine', () => {
  let installed: boolean;
  let calls: string[];
  let said: string[];
  const installer = (mayInstall: boolean, succeeds = true): Installer => ({
    mayInstall,
    aptGet: (args) => {
      calls.push(args.join(' '));
      if (args[0] === 'install' && succeeds) installed = true;
      return succeeds;
    },
    say: (line) => said.push(line),
  });
  const check = (): MissingPrerequisite[] => (installed ? [] : [{ reason: 'rg for search', aptPackage: 'ripgrep' }]);
  const never = (): MissingPrerequisite[] => [{ reason: 'rg for search', aptPackage: 'ripgrep' }];
  const NAMED =
    /Cannot run the tests; this machine lacks:\n {2}- rg for search\nInstall with: apt-get install -y --no-install-recommends ripgrep/;

  beforeEach(() => {
    installed = false;
    calls = [];
    said = [];
  });

  it('installs what is missing with apt-get when it may (root), then finds nothing missing', () => {
    assert.equal(ensurePrerequisites(check, 'run the tests', installer(true)), undefined);
    assert.deepEqual(calls, ['update', 'install -y --no-install-recommends ripgrep']);
    assert.deepEqual(said, ['Installing the missing system packages (ripgrep) with apt-get ...']);
  });

  it('names what is still missing and the one command when the install did not provide it', () => {
    assert.match(ensurePrerequisites(never, 'run the tests', installer(true)) ?? '', NAMED);
  });

  it('names what is missing when apt-get fails, and says which step failed', () => {
    assert.match(ensurePrerequisites(check, 'run the tests', installer(true, false)) ?? '', /\(apt-get update failed: see above\)$/);
    assert.deepEqual(calls, ['update']);
  });

  it('only names what is missing when it may not install (not root, or told to install nothing)', () => {
    assert.match(ensurePrerequisites(check, 'run the tests', installer(false)) ?? '', NAMED);
    assert.deepEqual(calls, []);
  });

  it('does not call apt-get when nothing is missing', () => {
    assert.equal(
      ensurePrerequisites(() => [], 'run the tests', installer(true)),
      undefined,
    );
    assert.deepEqual(calls, []);
  });

  it(`may not install on this machine while ${INSTALL_NOTHING_ENV} is set, even as root`, () => {
    const saved = process.env[INSTALL_NOTHING_ENV];
    process.env[INSTALL_NOTHING_ENV] = '1';
    try {
      // Asked, not run: a broken guard must not make this test the one that installs.
      assert.equal(systemInstaller().mayInstall, false);
    } finally {
      if (saved === undefined) delete process.env[INSTALL_NOTHING_ENV];
      else process.env[INSTALL_NOTHING_ENV] = saved;
    }
  });
});
