// One question to one model, for the language-model provider and the chat participant alike: a single call of the
// service's streamed inference through the session's client (the playground's path, no second one), as the client's
// typed pieces of reasoning and answer. Leaving the loop or aborting the signal closes the service's stream at once.
import type { InferencePiece } from '../../api/client';
import type { Services } from '../../services';
import type { ChatKnobs, RenderedConversation } from './chatRequest';

export async function* askModel(
  services: Services,
  modelName: string,
  conversation: RenderedConversation,
  knobs: ChatKnobs,
  signal: AbortSignal,
  /** A piece per event of the stream, not per read of the socket (the language-model provider: see ServiceClient.infer). */
  perEvent = false,
): AsyncGenerator<InferencePiece, void, undefined> {
  const { client } = await services.session.connect();
  signal.throwIfAborted();
  for await (const piece of client.infer({ modelName, ...conversation, ...knobs, stream: true }, { signal, perEvent })) {
    if (piece.text) yield piece;
  }
}
