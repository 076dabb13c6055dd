// One question to one model, for the language-model provider and the chat participant alike: a single call of the
// service's streamed inference through the session's client (the playground's path, no second one), as the client's
// typed pieces of reasoning and answer. Leaving the loop or aborting the signal closes the service's stream at once.
// A person waits on every such call (a Chat turn, an extension's vscode.lm request): a wait the service asks for is
// slept at most once, told to `onServiceWait` first, and a second refusal is the request's error (CallOptions.interactive).
import type { InferencePiece } from '../../api/client';
import type { ServiceWait } from '../../api/http';
import type { Services } from '../../services';
import type { ChatKnobs, RenderedConversation } from './chatRequest';

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
  for await (const piece of client.infer(request, { signal, interactive: true, onServiceWait })) {
    if (piece.text) yield piece;
  }
}
