// The command line's exit codes, stated once: README's "Command line" table is this list (test/unit/cliArgs.test.ts
// holds the two equal). A pipeline branches on them, so a code never changes meaning.
import { ApiError, UnansweredError } from '../api/errors';

export const EXIT = {
  /** Done: the command did what it was asked (a job waited for completed). */
  done: 0,
  /**
   * Failed: a job ended failed or cancelled, `report --require-better` found the model not better, the service failed
   * the request, or a start got no answer after the service may have received it (UnansweredError).
   */
  failed: 1,
  /** Bad input: a wrong argument, a file that cannot be used, no service URL, a paid job not confirmed. */
  badInput: 2,
  /** The key: none given, or the service refused it (401/403), or the proxy asked for credentials (407). */
  auth: 3,
  /** The service could not be reached, or did not answer in time. */
  unreachable: 4,
  /** Interrupted (Ctrl+C): a job being waited for keeps running on the service. */
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A refusal of the command line itself (an argument, a file, a missing confirmation), with its exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode = EXIT.badInput,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** The exit code of a command that failed with `error`. */
export function exitCodeFor(error: unknown): ExitCode {
  if (error instanceof CliError) return error.exitCode;
  // The service may have received it (a start no answer came back to): not "unreachable", which a pipeline may retry.
  if (error instanceof UnansweredError) return EXIT.failed;
  if (error instanceof ApiError) {
    switch (error.kind) {
      case 'auth':
      case 'proxy':
        return EXIT.auth;
      case 'network':
      case 'timeout':
        return EXIT.unreachable;
      case 'request':
        return EXIT.badInput;
      case 'cancelled':
        return EXIT.interrupted;
      default:
        return EXIT.failed;
    }
  }
  return EXIT.failed;
}
