// What the language-model tools share: their results as short plain text (names and numbers first, a few lines), a
// failure said in our words with the next step a model can take or ask the person to take, the service's words made
// inert and bounded, the caller's cancellation as an AbortSignal, and the checks of a tool's input (VS Code does not
// check it against the schema for us: a caller of vscode.lm.invokeTool can pass anything).
// A tool's result goes to a model, which may quote it to the person in Chat (rendered as markdown): every word of the
// service goes through untrustedText (no link, image, HTML or icon; one line) and the key is redacted by the client's
// errors already; no address is named (messageForCallers), as in the errors the language-model provider hands on.
import * as vscode from 'vscode';
import { UnansweredError } from '../../api/errors';
import type { LmToolName } from '../../contributions';
import { COMMANDS } from '../../contributions';
import { classifyError } from '../../util/classifyError';
import { messageForCallers } from '../chat/chatError';

export { said, saidPath, saidProblem, serviceDataLine, SERVICE_WORDS } from './toolText';
export { fields, optionalBoolean, optionalInteger, optionalString, requiredString, ToolInputProblem } from './toolInput';
import { ToolInputProblem } from './toolInput';
import { serviceDataLine, SERVICE_WORDS } from './toolText';

/** What the main module hands the entry: one tool per contributed name. */
export type ToolTable = Record<LmToolName, vscode.LanguageModelTool<unknown>>;

/** A tool's result: its lines as one text part. */
export function textResult(lines: readonly string[]): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(lines.join('\n'))]);
}

/** The palette title of a command a person runs to fix something, as the model should name it to them. */
function commandTitle(command: string): string {
  const titles: Record<string, string> = {
    [COMMANDS.setApiKey]: 'Hosted Reasoning: Set API Key…',
    [COMMANDS.configureBaseUrl]: 'Hosted Reasoning: Configure Service URL…',
    [COMMANDS.openProxySettings]: 'Hosted Reasoning: Open Proxy Settings',
    [COMMANDS.showLog]: 'Hosted Reasoning: Show Log',
  };
  return titles[command] ?? command;
}

/**
 * A failure as a result a model can act on: what failed, why in our words (the service's own when it gave any), and
 * what to do next. Never a stack, the key or the service's address.
 */
/**
 * A start whose answer named no job that could be read: the job may exist (and costs money), so the agent is told not
 * to start it again, and the person can follow it by Choose How to Read the Started Job… (what was started is kept).
 */
export function mayHaveStartedLines(what: string): string[] {
  return [
    `${what}: the service answered, but its answer named no job id that could be read, so the job may have started.`,
    'Do not start it again. Ask the person to run "Hosted Reasoning: Choose How to Read the Started Job…", which follows the job once they say where its id is.',
  ];
}

export function failureLines(what: string, error: unknown): string[] {
  const info = classifyError(error, what);
  const missing = (error as { missing?: unknown } | null)?.missing;
  const why = messageForCallers(info.message);
  let next: string;
  switch (info.kind) {
    case 'notConfigured':
      next =
        missing === 'baseUrl'
          ? `No service URL is set: ask the person to run "${commandTitle(COMMANDS.configureBaseUrl)}", then call this tool again.`
          : `No API key is set: ask the person to run "${commandTitle(COMMANDS.setApiKey)}", then call this tool again.`;
      break;
    case 'auth':
      next = `The service refused the API key: ask the person to run "${commandTitle(COMMANDS.setApiKey)}" with a valid key.`;
      break;
    case 'proxy':
      next = `A proxy asks for credentials: ask the person to run "${commandTitle(COMMANDS.openProxySettings)}".`;
      break;
    case 'rateLimit':
      next = 'The service asks to wait: try again later, not at once.';
      break;
    case 'network':
    case 'timeout':
    case 'server':
      next = `The service could not answer now: try again in a minute; if it keeps failing, ask the person to check "${commandTitle(COMMANDS.configureBaseUrl)}" or "${commandTitle(COMMANDS.showLog)}".`;
      break;
    case 'request':
      next = 'The service refused the request as given: change what it names and call again.';
      break;
    case 'cancelled':
      next = 'It was cancelled; nothing more happened.';
      break;
    default:
      next = `Ask the person to look at "${commandTitle(COMMANDS.showLog)}" for details.`;
  }
  // The service may have received it (and a start is paid for): "try again" could start it twice.
  if (error instanceof UnansweredError) {
    next = 'It may have reached the service: do not start it again; ask the person to look at their jobs in the Jobs view first.';
  }
  // An answer of the service (a status) may carry its words into the message.
  const quotesService = typeof (error as { status?: unknown } | null)?.status === 'number';
  return [`${what} failed: ${why}`, next, ...(quotesService ? [serviceDataLine(SERVICE_WORDS.failure)] : [])];
}

/** The caller's cancellation as an AbortSignal for the client; dispose when the call is over. */
export function abortOn(token: vscode.CancellationToken): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  const listening = token.onCancellationRequested(() => {
    controller.abort();
  });
  return {
    signal: controller.signal,
    dispose: () => {
      listening.dispose();
    },
  };
}

/**
 * Runs a tool's work: an input problem or a failure becomes a result in words (what failed, what to do next); the
 * model reads it and can change its call. Only a bug of ours would throw, and it is said in the same way.
 */
export async function runTool(what: string, work: () => Promise<vscode.LanguageModelToolResult>): Promise<vscode.LanguageModelToolResult> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ToolInputProblem) return textResult([`${what}: the input was not usable: ${error.message}`]);
    return textResult(failureLines(what, error));
  }
}
