// The MCP server's own words for an agent, where they differ from the language-model tools' (toolText.ts holds the
// shared ones): a failure's next step names what the person changes in the server's configuration rather than a VS
// Code command. The failure itself is said as the tools say it: classifyError's words, made inert, no address.
import { UnansweredError } from '../api/errors';
import { classifyError } from '../util/classifyError';
import { messageForCallers } from '../util/callerMessage';
import { serviceDataLine, SERVICE_WORDS } from '../features/tools/toolText';

/** A failure as a result an agent can act on: what failed, why in our words, what to do next. */
export function failureLines(what: string, error: unknown): string[] {
  const info = classifyError(error, what);
  const why = messageForCallers(info.message);
  const next: Partial<Record<typeof info.kind, string>> = {
    notConfigured: 'The server has no service URL or API key: ask the person to set them in its configuration and restart it.',
    auth: "The service refused the API key: ask the person to set a valid key in this MCP server's configuration (HOSTED_REASONING_API_KEY) and restart it.",
    proxy: 'A proxy asks for credentials: ask the person to set up the proxy for this server.',
    rateLimit: 'The service asks to wait: try again later, not at once.',
    network:
      'The service could not be reached: try again in a minute; if it keeps failing, ask the person to check the service URL (HOSTED_REASONING_BASE_URL).',
    timeout: 'The service did not answer in time: try again in a minute.',
    server: 'The service failed: try again in a minute.',
    request: 'The service refused the request as given: change what it names and call again.',
    cancelled: 'It was cancelled; nothing more happened.',
  };
  const quotesService = typeof (error as { status?: unknown } | null)?.status === 'number';
  // The service may have received it (and a start is paid for): "try again" could start it twice.
  const mayHaveReached =
    'It may have reached the service: do not start it again; ask the person to look at their jobs on the service first.';
  return [
    `${what} failed: ${why}`,
    error instanceof UnansweredError
      ? mayHaveReached
      : (next[info.kind] ?? "Ask the person to look at the server's log (its standard error) for details."),
    ...(quotesService ? [serviceDataLine(SERVICE_WORDS.failure)] : []),
  ];
}
