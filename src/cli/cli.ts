// The command line's entry (bundled as dist/cli.js, `bin` hosted-reasoning): process I/O, Ctrl+C and the exit code.
// A first Ctrl+C aborts what runs (a --wait stops waiting and says how to follow the job, which keeps running); a
// second one ends the process at once.
import { runCli } from './main';
import { EXIT } from './exitCodes';

// The web globals esbuild.mjs's prelude hid while the modules loaded, back before anything runs.
const restore = (globalThis as Record<symbol, unknown>)[Symbol.for('hosted-reasoning.restoreWebGlobals')];
if (typeof restore === 'function') (restore as () => void)();

const controller = new AbortController();
process.on('SIGINT', () => {
  if (controller.signal.aborted) process.exit(EXIT.interrupted);
  controller.abort();
});

runCli(
  process.argv.slice(2),
  { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, cwd: process.cwd() },
  { signal: controller.signal },
).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = EXIT.failed;
  },
);
