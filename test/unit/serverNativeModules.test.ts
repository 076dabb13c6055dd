// The server installer builds only the native modules the server loads for what we run (serverNativeModules.ts): a
// fake node_modules tree stands in for code-server's.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { findNativeModules, planNativeModules } from '../runners/serverNativeModules';

function writePackage(dir: string, manifest: object, files: readonly string[] = []): void {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest));
  for (const file of files) fs.writeFileSync(path.join(dir, file), '');
}

describe('native modules of the VS Code server build', () => {
  let dir: string;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hr-native-'));
  });

  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('finds what npm rebuild would build: a binding.gyp or an install script, scoped and nested packages included', () => {
    const modules = path.join(dir, 'node_modules');
    writePackage(path.join(modules, 'kerberos'), { name: 'kerberos', scripts: { install: 'node-gyp rebuild' } });
    writePackage(path.join(modules, '@vscode', 'spdlog'), { name: '@vscode/spdlog' }, ['binding.gyp']);
    writePackage(path.join(modules, 'plain'), { name: 'plain', scripts: { test: 'mocha' } });
    writePackage(path.join(modules, 'sdk', 'node_modules', 'koffi'), { name: 'koffi', scripts: { postinstall: 'x' } });
    writePackage(path.join(modules, 'sdk'), { name: 'sdk' });
    fs.mkdirSync(path.join(modules, '.bin'));

    assert.deepEqual(findNativeModules(modules), ['@vscode/spdlog', 'kerberos', 'koffi']);
  });

  it('builds what the server loads here and skips the rest, each with its reason', () => {
    const plan = planNativeModules(
      ['kerberos', '@vscode/spdlog', '@vscode/sqlite3', 'node-pty', '@vscode/windows-registry', '@vscode/native-watchdog'],
      'linux',
    );
    assert.deepEqual(plan.build, ['@vscode/native-watchdog', '@vscode/spdlog', '@vscode/sqlite3', 'node-pty']);
    assert.deepEqual(
      plan.skip.map((s) => s.name),
      ['@vscode/windows-registry', 'kerberos'],
    );
    assert.ok(plan.skip.every((s) => s.why.length > 0));
    assert.deepEqual(plan.unknown, []);
  });

  it("builds sqlite3 against the system's SQLite on Linux only, and passes no option when it is not built", () => {
    assert.deepEqual(planNativeModules(['@vscode/sqlite3', 'node-pty'], 'linux').flags, ['--sqlite=/usr']);
    assert.deepEqual(planNativeModules(['@vscode/sqlite3'], 'darwin').flags, []);
    assert.deepEqual(planNativeModules(['node-pty', 'kerberos'], 'linux').flags, []);
  });

  it('builds the Windows-only modules on Windows', () => {
    assert.deepEqual(planNativeModules(['@vscode/windows-registry', 'kerberos'], 'win32').build, ['@vscode/windows-registry']);
  });

  it('builds a module it does not know, as a plain npm rebuild would, and names it', () => {
    const plan = planNativeModules(['new-native', 'kerberos'], 'linux');
    assert.deepEqual(plan.build, ['new-native']);
    assert.deepEqual(plan.unknown, ['new-native']);
  });

  it('does not take an inherited property name for a known module', () => {
    assert.deepEqual(planNativeModules(['constructor', 'toString'], 'linux').unknown, ['constructor', 'toString']);
  });
});
