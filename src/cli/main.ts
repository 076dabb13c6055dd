// The command line: arguments read, the client built from the environment, one command run, and every failure turned
// into a message on stderr (or the --json error document) and its documented exit code. Run in-process by the unit
// tests (argument parsing, exit codes, JSON documents) and as the bundle dist/cli.js by the end-to-end tests.
import { redact } from '../api/redact';
import { ApiError } from '../api/errors';
import { parseCommand, type Command } from './args';
import type { CommandContext } from './context';
import { createClientFromEnvironment, type EnvironmentOptions } from './environment';
import { CliError, EXIT, exitCodeFor } from './exitCodes';
import { StoppedWaitingError } from './followJob';
import { JobFile } from './jobFile';
import { jobJson, type ErrorJson } from './jsonOutput';
import { Output, type CliIo } from './output';
import { USAGE } from './usage';

export const VERSION = '0.1.0';

export interface RunOptions {
  /** Aborted on Ctrl+C. */
  signal?: AbortSignal;
  /** Where the state file is (tests); default the config folder's. */
  stateFile?: string;
}

export async function runCli(argv: readonly string[], io: CliIo, options: RunOptions = {}): Promise<number> {
  let command: Command;
  try {
    command = parseCommand(argv, io.cwd);
  } catch (error) {
    const json = argv.includes('--json');
    return fail(new Output(io, json), error);
  }
  const out = new Output(io, command.json, command.verbose);
  if (command.name === 'help') {
    io.stdout.write(USAGE);
    return EXIT.done;
  }
  if (command.name === 'version') {
    out.result(VERSION, { version: VERSION });
    return EXIT.done;
  }
  const signal = options.signal ?? new AbortController().signal;
  try {
    const environment: EnvironmentOptions = {
      env: io.env,
      ...(command.keyFile !== undefined && { keyFile: command.keyFile }),
      ...(command.profileFile !== undefined && { profileFile: command.profileFile }),
      ...(options.stateFile !== undefined && { stateFile: options.stateFile }),
      log: (level, message) => (level === 'error' || level === 'warn' ? out.note(message) : out.debug(message)),
      note: (message) => out.note(message),
      userAgent: `hosted-reasoning-cli/${VERSION}`,
    };
    const connection = await createClientFromEnvironment(environment);
    const ctx: CommandContext = { io, out, connection, jobs: new JobFile(connection.state, connection.scope), signal };
    try {
      return await run(ctx, command);
    } finally {
      await connection.profiles.settled().catch(() => undefined);
    }
  } catch (error) {
    return fail(out, error, signal.aborted);
  }
}

/**
 * Each command's module is loaded when it runs (esbuild makes each import() a lazy part of the one bundle): a run of
 * `models` does not evaluate the finetune's file checks, the report or the downloader (test/bench figure 14).
 */
async function run(ctx: CommandContext, command: Command): Promise<number> {
  switch (command.name) {
    case 'models':
      return (await import('./commands/models.js')).modelsCommand(ctx);
    case 'ask':
      return (await import('./commands/ask.js')).askCommand(ctx, command);
    case 'finetune':
      return (await import('./commands/finetune.js')).finetuneCommand(ctx, command);
    case 'status':
      return (await import('./commands/status.js')).statusCommand(ctx, command);
    case 'evaluate':
      return (await import('./commands/evaluate.js')).evaluateCommand(ctx, command);
    case 'report':
      return (await import('./commands/report.js')).reportCommand(ctx, command);
    case 'download':
      return (await import('./commands/download.js')).downloadCommand(ctx, command);
    case 'profile':
      return (await import('./commands/profile.js')).profileCommand(ctx, { keep: command.keep, given: command.profileFile !== undefined });
    case 'mcp':
      return (await import('./commands/mcp.js')).mcpCommand(ctx, command);
    default:
      throw new CliError(`Unknown command.`);
  }
}

/** The failure said once: on stderr for people, and with --json as the error document on stdout too. */
function fail(out: Output, error: unknown, interrupted = false): number {
  const code = interrupted && !(error instanceof StoppedWaitingError) ? EXIT.interrupted : exitCodeFor(error);
  const message = redact(error instanceof Error ? error.message : String(error));
  const kind = error instanceof ApiError ? error.kind : error instanceof CliError ? kindOfCode(code) : 'unexpected';
  out.note(code === EXIT.interrupted && !(error instanceof StoppedWaitingError) ? `Interrupted. ${message}` : message);
  if (out.json) {
    const document: ErrorJson & { job?: unknown } = { error: { kind, message, exitCode: code } };
    if (error instanceof StoppedWaitingError) document.job = jobJson(error.job);
    out.result(undefined, document);
  }
  return code;
}

function kindOfCode(code: number): string {
  switch (code) {
    case EXIT.badInput:
      return 'input';
    case EXIT.auth:
      return 'auth';
    case EXIT.interrupted:
      return 'interrupted';
    default:
      return 'failed';
  }
}
