// One question to one model, for the language-model provider and the chat participant alike: a single call of the
// service's streamed inference through the session's client (the playground's path, no second one), as the client's
// typed pieces of reasoning and answer. Leaving the loop or aborting the signal closes the service's stream at once.
// A person waits on every such call (a Chat turn, an extension's vscode.lm request): a wait the service asks for is
// slept at most once, told to `onServiceWait` first, and a second refusal is the request's error (CallOptions.interactive).
// A caller with no `onServiceWait` cannot tell anyone it waits (the language-model provider: a vscode.lm caller sees
// only text parts, which would become the answer, and the error; the ask tool: a tool has no progress channel), so it
// sleeps only a short wait, as unseen as a slow first token; a longer one is its error at once, saying the wait, and
// the caller (an agent, an extension, a person in Chat) decides.
import type { InferencePiece } from '../../api/client';
import type { ServiceWait } from '../../api/http';
import type { Services } from '../../services';
import type { ChatKnobs, RenderedConversation } from './chatRequest';

/** The longest wait the service asks for that is slept without a word (see the header). */
export const SILENT_SERVICE_WAIT_MS = 10_000;

export async function* askModel(
  services: Services,
  modelName: string,
  conversation: RenderedConversation,
  knobs: ChatKnobs,
  signal: AbortSignal,
  options: {
    onServiceWait?: (wait: ServiceWait) => void;
  } = {},
): AsyncGenerator<InferencePiece, void, undefined> {
  const { client } = await services.session.connect();
  signal.throwIfAborted();
  const { onServiceWait } = options;
  const request = { modelName, ...conversation, ...knobs, stream: true };
  const maxServiceWaitMs = onServiceWait ? undefined : SILENT_SERVICE_WAIT_MS;
  for await (const piece of client.infer(request, { signal, interactive: true, onServiceWait, maxServiceWaitMs })) {
    if (piece.text) yield piece;
  }
}
