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
import { askCommand } from './commands/ask';
import { downloadCommand } from './commands/download';
import { evaluateCommand } from './commands/evaluate';
import { finetuneCommand } from './commands/finetune';
import { mcpCommand } from './commands/mcp';
import { modelsCommand } from './commands/models';
import { profileCommand } from './commands/profile';
import { reportCommand } from './commands/report';
import { statusCommand } from './commands/status';

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

function run(ctx: CommandContext, command: Command): Promise<number> {
  switch (command.name) {
    case 'models':
      return modelsCommand(ctx);
    case 'ask':
      return askCommand(ctx, command);
    case 'finetune':
      return finetuneCommand(ctx, command);
    case 'status':
      return statusCommand(ctx, command);
    case 'evaluate':
      return evaluateCommand(ctx, command);
    case 'report':
      return reportCommand(ctx, command);
    case 'download':
      return downloadCommand(ctx, command);
    case 'profile':
      return profileCommand(ctx, { keep: command.keep, given: command.profileFile !== undefined });
    case 'mcp':
      return mcpCommand(ctx);
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
