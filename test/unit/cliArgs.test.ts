// The command line's arguments and exit codes, without a process: what each command reads from its arguments, what it
// refuses (exit 2, before anything is sent), how each failure of the client maps to a documented exit code, and that
// README's table says the same codes.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import {
  AuthError,
  ContractError,
  NetworkError,
  ProxyAuthError,
  RequestError,
  ServerError,
  TimeoutError,
  UnansweredError,
  CancelledError,
} from '../../src/api/errors';
import { parseCommand, DEFAULT_QUESTIONS } from '../../src/cli/args';
import { CliError, EXIT, exitCodeFor } from '../../src/cli/exitCodes';
import { shellWord } from '../../src/cli/jsonOutput';

const README = path.resolve(__dirname, '../../../README.md');
const CWD = path.resolve('/work/somewhere');

function refused(argv: string[]): CliError {
  try {
    parseCommand(argv, CWD);
  } catch (error) {
    assert.ok(error instanceof CliError, `a CliError, not ${String(error)}`);
    return error;
  }
  assert.fail(`${argv.join(' ')} was accepted`);
}

describe('command line arguments', () => {
  it('reads each command with its options, files resolved against the working folder', () => {
    assert.deepEqual(parseCommand(['models', '--json'], CWD), { name: 'models', json: true, verbose: false });
    const finetune = parseCommand(
      ['finetune', 'docs/a.pdf', '/abs/b.docx', '--base', 'm8', '--name', 'tuned', '--wait', '--yes', '--interval', '0.5'],
      CWD,
    );
    assert.deepEqual(finetune, {
      name: 'finetune',
      files: [path.join(CWD, 'docs/a.pdf'), path.resolve('/abs/b.docx')],
      base: 'm8',
      modelName: 'tuned',
      questions: DEFAULT_QUESTIONS,
      useCase: '',
      mode: 'pretraining',
      wait: true,
      yes: true,
      intervalMs: 500,
      json: false,
      verbose: false,
    });
    // mcp: the folders for clients without roots (--root, repeated) and the download folder, resolved here too.
    assert.deepEqual(parseCommand(['mcp', '--root', '.', '--root', '/abs/docs', '--download-folder', 'models'], CWD), {
      name: 'mcp',
      roots: [CWD, path.resolve('/abs/docs')],
      downloadFolder: path.join(CWD, 'models'),
      json: false,
      verbose: false,
    });
    assert.deepEqual(parseCommand(['mcp'], CWD), { name: 'mcp', roots: [], json: false, verbose: false });
    assert.deepEqual(parseCommand(['ask', 'm8', '-', '--reasoning'], CWD), {
      name: 'ask',
      model: 'm8',
      prompt: undefined,
      reasoning: true,
      json: false,
      verbose: false,
    });
    assert.equal((parseCommand(['ask', 'm8', 'hi'], CWD) as { prompt: string }).prompt, 'hi');
    assert.deepEqual(parseCommand(['report', 'tuned', '--dataset', 'qa', '--require-better'], CWD), {
      name: 'report',
      model: 'tuned',
      dataset: 'qa',
      requireBetter: true,
      json: false,
      verbose: false,
    });
    assert.deepEqual(parseCommand(['download', 'tuned', '--out', 'models'], CWD), {
      name: 'download',
      model: 'tuned',
      out: path.join(CWD, 'models'),
      overwrite: false,
      json: false,
      verbose: false,
    });
    assert.equal((parseCommand(['status', 'job-1', '--key-file', 'k.txt'], CWD) as { keyFile: string }).keyFile, 'k.txt');
    assert.equal(parseCommand(['--help'], CWD).name, 'help');
    assert.equal(parseCommand(['evaluate', '--help'], CWD).name, 'help');
  });

  it('refuses, as bad input (2), what cannot be meant: unknown commands and options, missing or extra arguments, out-of-range numbers', () => {
    const cases: string[][] = [
      ['bogus'],
      ['models', '--bogus'],
      ['models', 'extra'],
      ['ask'],
      ['finetune', 'a.pdf', '--name', 'x'],
      ['finetune', 'a.pdf', '--base', 'm8'],
      ['finetune', '--base', 'm8', '--name', 'x'],
      ['finetune', 'a.pdf', '--base', 'm8', '--name', 'x', '--questions', '0'],
      ['finetune', 'a.pdf', '--base', 'm8', '--name', 'x', '--questions', '2.5'],
      ['status', 'j', '--interval', 'soon'],
      ['evaluate', 'm8'],
      ['ask', 'm8', 'hi', '--temperature', '3'],
      ['profile', '--keep'],
      ['download', ''],
    ];
    for (const argv of cases) assert.equal(refused(argv).exitCode, EXIT.badInput, argv.join(' '));
  });

  it('never takes the key as an argument', () => {
    assert.equal(refused(['models', '--key', 'secret']).exitCode, EXIT.badInput);
    assert.equal(refused(['models', '--api-key=secret']).exitCode, EXIT.badInput);
  });
});

describe('command line exit codes', () => {
  it('maps each kind of failure to its code', () => {
    assert.equal(exitCodeFor(new AuthError('no')), EXIT.auth);
    assert.equal(exitCodeFor(new ProxyAuthError('407')), EXIT.auth);
    assert.equal(exitCodeFor(new NetworkError('down')), EXIT.unreachable);
    assert.equal(exitCodeFor(new TimeoutError('slow')), EXIT.unreachable);
    assert.equal(exitCodeFor(new RequestError('bad')), EXIT.badInput);
    assert.equal(exitCodeFor(new CancelledError()), EXIT.interrupted);
    assert.equal(exitCodeFor(new ServerError('500')), EXIT.failed);
    assert.equal(exitCodeFor(new ContractError('odd')), EXIT.failed);
    assert.equal(exitCodeFor(new Error('bug')), EXIT.failed);
    // A POST the service may have received though no answer came (a kept-alive connection closed under it): not
    // "unreachable" (4), which a pipeline may retry, starting a paid job twice.
    assert.equal(exitCodeFor(new UnansweredError('closed; not sent again')), EXIT.failed);
    assert.equal(exitCodeFor(new CliError('x', EXIT.auth)), EXIT.auth);
  });

  it('are the codes README documents', () => {
    const readme = readFileSync(README, 'utf8');
    const section = readme.slice(readme.indexOf('## Command line'), readme.indexOf('\n## ', readme.indexOf('## Command line') + 1));
    const rows = [...section.matchAll(/^\| `(\d+)` \|/gm)].map((m) => Number(m[1]));
    assert.deepEqual(
      rows.sort((a, b) => a - b),
      Object.values(EXIT).sort((a, b) => a - b),
    );
  });

  it('follow commands quote a job id a shell would split', () => {
    assert.equal(shellWord('5920de44-d219'), '5920de44-d219');
    assert.equal(shellWord("a b'c"), `'a b'\\''c'`);
    assert.equal(shellWord('$(rm -rf x)'), `'$(rm -rf x)'`);
  });
});
