// What every command is given: where it writes, the client and its state, and the signal Ctrl+C aborts.
import type { EnvironmentClient } from './environment';
import type { JobFile } from './jobFile';
import type { CliIo, Output } from './output';

export interface CommandContext {
  io: CliIo;
  out: Output;
  connection: EnvironmentClient;
  jobs: JobFile;
  /** Aborted by Ctrl+C (SIGINT): a command stops what it does and says what it left. */
  signal: AbortSignal;
}
