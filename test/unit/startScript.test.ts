// `npm start` as a person runs it: `--help` answers without building the extension, and a SIGTERM to npm (what a
// process manager or a closing IDE sends) stops VS Code and the emulator like Ctrl+C does, leaving no process behind.
import { strict as assert } from 'node:assert';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { withTemporaryHome } from '../runners/temporaryHome';
import { INSTALL_NOTHING_ENV } from '../runners/hostPrerequisites';
import { isInstalled, NEWEST_HOST, repoRoot } from '../runners/vscodeServerLayout';

const BUILT = ['dist/extension.js', 'dist/main.js', 'dist/webview/playground.js'].map((f) => path.join(repoRoot, f));
const mtimes = (): (number | undefined)[] => BUILT.map((f) => (fs.existsSync(f) ? fs.statSync(f).mtimeMs : undefined));

/** Every process whose parent chain reaches `root` (ps, not /proc: the same on Linux and macOS). */
function descendants(root: number): number[] {
  const table = execFileSync('ps', ['-eo', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
  const found: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    for (const [pid, ppid] of table) {
      if (ppid === parent && !found.includes(pid)) {
        found.push(pid);
        queue.push(pid);
      }
    }
  }
  return found;
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('npm start', () => {
  it('answers --help and -h without building the extension', () => {
    const before = mtimes();
    for (const flag of ['--help', '-h']) {
      const result = spawnSync('npm', ['start', '--silent', '--', flag], { cwd: repoRoot, encoding: 'utf8' });
      assert.equal(result.status, 0, result.stderr);
      assert.match(result.stdout, /^usage: npm start -- \[options\]/m);
      assert.doesNotMatch(result.stdout, /Done in|dist\//, 'esbuild ran');
    }
    assert.deepEqual(mtimes(), before, 'dist/ was rebuilt');
  });

  it('prints the times it measured, never an estimate written in advance', () => {
    const estimates = ['scripts', 'test/runners']
      .flatMap((dir) => fs.readdirSync(path.join(repoRoot, dir)).map((f) => path.join(repoRoot, dir, f)))
      .filter((file) => /\.(ts|mjs)$/.test(file))
      .flatMap((file) =>
        [...fs.readFileSync(file, 'utf8').matchAll(/\b(about|around|roughly|takes?) (a|an|one|\d+)( or two)? (seconds?|minutes?)\b/gi)].map(
          (m) => `${path.relative(repoRoot, file)}: ${m[0]}`,
        ),
      );
    assert.deepEqual(estimates, []);
  });

  it('stops VS Code and the emulator on a SIGTERM to npm, leaving no process', async function () {
    if (process.platform === 'win32') this.skip();
    if (!isInstalled(NEWEST_HOST)) {
      // The server build comes with the in-editor suite's setup (`npm run test:vscode`, .ci/run); not installed here.
      // Checked as `npm start` checks it: a start that found it incomplete would install it (as root, with apt-get).
      this.skip();
    }
    this.timeout(120_000);
    // The demo and the server's home in a temporary folder: a test writes nothing into the checkout or the home folder.
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hr-start-'));
    const demoDir = path.join(tmp, 'demo');
    // A test installs nothing: a start that would have to names what it lacks instead (ensurePrerequisites).
    const env = { ...withTemporaryHome(process.env, path.join(tmp, 'home')), HR_DEMO_DIR: demoDir, [INSTALL_NOTHING_ENV]: '1' };
    const npm = spawn('npm', ['start', '--', '--server'], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    npm.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    npm.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => npm.on('exit', (code) => resolve(code)));
    let started: number[] = [];
    try {
      await new Promise<void>((resolve, reject) => {
        npm.stdout.on('data', () => {
          if (/\[start\] Ready in /.test(output)) resolve();
        });
        void exited.then(() => reject(new Error(`npm start ended before it was ready:\n${output}`)));
      });
      started = descendants(npm.pid!);
      // The VS Code server (with its own children) and the node that runs scripts/start.
      assert.ok(
        started.length >= 2,
        `npm start runs fewer processes than expected:\n${execFileSync('ps', ['-o', 'pid,ppid,args', '-p', started.join(',') || '1'], { encoding: 'utf8' })}`,
      );

      npm.kill('SIGTERM');
      await exited;

      assert.deepEqual(started.filter(alive), [], `left running after npm ended:\n${output.split('\n').slice(-5).join('\n')}`);
      // Also one that left the tree: the server build is the only process given the demo's user-data-dir.
      const marker = spawnSync('pgrep', ['-f', path.join(demoDir, 'vscode-server')], { encoding: 'utf8' });
      assert.equal(marker.stdout.trim(), '', "a process of the demo's VS Code server is left running");
      assert.match(output, /\[start\] Stopped: nothing of this demo is left running\./);
    } finally {
      // A failure must not leave the demo running (nor mocha waiting on its pipes): the orphan stops as on Ctrl+C.
      if (npm.exitCode === null) npm.kill('SIGKILL');
      for (const pid of started.filter(alive)) process.kill(pid, 'SIGTERM');
      fs.rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });
    }
  });
});
