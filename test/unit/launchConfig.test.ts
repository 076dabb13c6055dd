// F5 in this repository runs the extension against the emulator, and the in-editor suite, under the debugger; the
// configuration never ships in the .vsix.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';

const root = path.resolve(__dirname, '../../..');

/** A JSON-with-comments file of .vscode/, read as VS Code reads it. */
function jsonc<T>(file: string): T {
  const parsed = ts.parseConfigFileTextToJson(file, fs.readFileSync(path.join(root, file), 'utf8'));
  const config: unknown = parsed.config;
  const error = parsed.error;
  assert.equal(error, undefined, `${file} does not parse`);
  return config as T;
}

interface Launch {
  configurations: { name: string; type: string; args: string[]; env?: Record<string, string>; preLaunchTask?: string }[];
}
interface Tasks {
  tasks: { label: string; script?: string; args?: string[]; dependsOn?: string[] }[];
}

describe('the launch configuration', () => {
  const launch = jsonc<Launch>('.vscode/launch.json');
  const tasks = jsonc<Tasks>('.vscode/tasks.json');
  const task = (label: string) => tasks.tasks.find((t) => t.label === label);
  const scripts = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

  it('runs the extension connected to the emulator the task starts', () => {
    const run = launch.configurations.find(
      (c) => c.args.some((a) => a.startsWith('--extensionDevelopmentPath=')) && !c.args.some((a) => a.startsWith('--extensionTestsPath=')),
    );
    assert.ok(run, 'no configuration that runs the extension');
    assert.equal(run.type, 'extensionHost');
    const emulator = task('emulator');
    assert.ok(emulator?.script && emulator.script in scripts);
    const port = emulator.args?.[emulator.args.indexOf('--port') + 1];
    assert.equal(run.env?.['HOSTED_REASONING_BASE_URL'], `http://127.0.0.1:${port}`);
    assert.equal(run.env?.['HOSTED_REASONING_API_KEY'], 'demo-key');
    assert.ok(task(run.preLaunchTask ?? '')?.dependsOn?.includes('emulator'));
  });

  it('runs the in-editor suite from its compiled entry', () => {
    const suite = launch.configurations.find((c) => c.args.some((a) => a.startsWith('--extensionTestsPath=')));
    assert.ok(suite, 'no configuration that runs the in-editor tests');
    assert.ok(suite.args.includes('--extensionTestsPath=${workspaceFolder}/out/test/suite/index'));
    assert.ok(fs.existsSync(path.join(root, 'test', 'suite', 'index.ts')));
    const pre = task(suite.preLaunchTask ?? '');
    assert.ok(pre?.dependsOn?.every((label) => task(label)?.script && task(label)!.script! in scripts));
    assert.ok(pre?.dependsOn?.some((label) => task(label)?.script === 'compile-tests'));
  });

  it('is not shipped: .vscodeignore excludes everything it does not name, and names nothing under .vscode/', () => {
    const lines = fs
      .readFileSync(path.join(root, '.vscodeignore'), 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    assert.equal(lines[0], '**');
    assert.deepEqual(
      lines.filter((l) => l.startsWith('!') && l.includes('.vscode')),
      [],
    );
  });
});
