// The first `npm start` installs VS Code's server build; the built-in extensions' postinstall used to print a
// "Removed …" line per pruned TypeScript file, hundreds of them. The install runs with the arguments the setup uses, in
// a folder whose postinstall prints such a line, and nothing of it may reach the output.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BUILTIN_EXTENSIONS_INSTALL_ARGS } from '../runners/builtinExtensions';

describe("the server build's built-in extensions install", () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hr-builtin-ext-'));
    fs.writeFileSync(
      path.join(dir, 'package.json'),
      JSON.stringify({
        name: 'vscode-extensions',
        version: '0.0.1',
        private: true,
        scripts: { postinstall: 'node -e "console.log(\'Removed node_modules/typescript/README.md\')"' },
      }),
    );
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('prints no "Removed …" line (the pruning postinstall does not run)', () => {
    const result = spawnSync('npm', [...BUILTIN_EXTENSIONS_INSTALL_ARGS, '--prefix', dir, '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: dir,
      encoding: 'utf8',
    });
    assert.equal(result.status, 0, result.stderr);
    assert.doesNotMatch(result.stdout, /Removed/i);
  });
});
