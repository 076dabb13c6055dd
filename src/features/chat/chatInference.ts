// One question to one model, for the language-model provider and the chat participant alike: a single call of the
// service's streamed inference through the session's client (the playground's path, no second one), read as pieces
// of answer and of reasoning. Leaving the loop or aborting the signal closes the service's stream at once.
import type { Services } from '../../services';
import type { ChatKnobs, RenderedConversation } from './chatRequest';

/** A piece of what the model wrote: the answer, or reasoning that comes before it (never part of the answer). */
export interface AnswerPiece {
  kind: 'answer' | 'reasoning';
  text: string;
}

export async function* askModel(
  services: Services,
  modelName: string,
  conversation: RenderedConversation,
  knobs: ChatKnobs,
  signal: AbortSignal,
): AsyncGenerator<AnswerPiece, void, undefined> {
  const { client } = await services.session.connect();
  signal.throwIfAborted();
  const stream = client.inferStream({ modelName, ...conversation, ...knobs, stream: true }, { signal });
  for await (const delta of stream) {
    const piece = pieceOf(delta);
    if (piece.text) yield piece;
  }
}

/** The client's deltas: plain text is answer; a typed piece says which it is. */
function pieceOf(delta: unknown): AnswerPiece {
  if (typeof delta === 'string') return { kind: 'answer', text: delta };
  const d = delta as { kind?: unknown; text?: unknown };
  return { kind: d.kind === 'reasoning' ? 'reasoning' : 'answer', text: typeof d.text === 'string' ? d.text : '' };
}
