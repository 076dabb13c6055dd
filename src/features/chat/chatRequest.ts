// How a Chat conversation becomes one call of the service's inference (spec 4.2), and how its tokens are estimated.
// The service takes a single `prompt` and a `query_only`, not a list of messages: the conversation is written into the
// prompt as a transcript and the last user message is the query. A conversation of one user message is sent as that
// message alone, so Chat and the playground send the same request for the same question. No `vscode` import: tested
// under plain mocha.

export type ChatRole = 'user' | 'assistant';

/** One message as the provider reads it: its role and its text parts joined. */
export interface ChatTurn {
  role: ChatRole;
  text: string;
}

/** What a request sends besides the model: the knobs of spec 4.2. */
export interface ChatKnobs {
  temperature: number;
  sequentialBudget: number;
  parallelBudget: number;
  useRag: boolean;
}

/** The service's fields for a conversation. */
export interface RenderedConversation {
  prompt: string;
  queryOnly: string;
}

/** Thrown for a request the provider cannot send (no question, a model option of the wrong type). */
export class ChatRequestProblem extends Error {
  readonly kind = 'request';
  constructor(message: string) {
    super(message);
    this.name = 'ChatRequestProblem';
  }
}

/**
 * The conversation as one prompt. Turns are labelled `User:` / `Assistant:` and separated by a blank line; empty turns
 * are left out. A conversation that is a single user turn is sent as that text alone.
 */
export function renderConversation(turns: readonly ChatTurn[]): RenderedConversation {
  const kept = turns.filter((t) => t.text.trim() !== '');
  const lastUser = [...kept].reverse().find((t) => t.role === 'user');
  if (!lastUser) throw new ChatRequestProblem('The request has no question: its last user message holds no text.');
  if (kept.length === 1) return { prompt: lastUser.text, queryOnly: lastUser.text };
  const prompt = kept.map((t) => `${t.role === 'user' ? 'User' : 'Assistant'}: ${t.text}`).join('\n\n');
  return { prompt, queryOnly: lastUser.text };
}

/** The model options a caller of `sendRequest` may set (`modelOptions`), by the names README documents. */
export const MODEL_OPTION_NAMES = ['temperature', 'sequentialBudget', 'parallelBudget', 'useRag'] as const;

/**
 * The knobs of one request: each model option the caller gave, else the setting. An option of the wrong type is
 * refused with a message that names it (a silent fallback would answer with knobs the caller did not ask for); other
 * option names are ignored, as other providers' options may be passed to every model alike.
 */
export function knobsFor(modelOptions: Readonly<Record<string, unknown>> | undefined, settings: ChatKnobs): ChatKnobs {
  const o = modelOptions ?? {};
  const number = (name: 'temperature', fallback: number): number => {
    const v = o[name];
    if (v === undefined || v === null) return fallback;
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new ChatRequestProblem(`The model option ${name} must be a number.`);
    return v;
  };
  const budget = (name: 'sequentialBudget' | 'parallelBudget', fallback: number): number => {
    const v = o[name];
    if (v === undefined || v === null) return fallback;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) {
      throw new ChatRequestProblem(`The model option ${name} must be a whole number of at least 1.`);
    }
    return v;
  };
  const rag = o.useRag;
  if (rag !== undefined && rag !== null && typeof rag !== 'boolean') {
    throw new ChatRequestProblem('The model option useRag must be true or false.');
  }
  return {
    temperature: number('temperature', settings.temperature),
    sequentialBudget: budget('sequentialBudget', settings.sequentialBudget),
    parallelBudget: budget('parallelBudget', settings.parallelBudget),
    useRag: typeof rag === 'boolean' ? rag : settings.useRag,
  };
}

/**
 * An estimate, not a count: the service publishes no tokenizer, and its models are of several families. Roughly four
 * characters per token is what English prose and code come to with the common BPE tokenizers; text in scripts
 * without spaces between words (CJK) comes to about one token per character, so those characters count one each.
 * VS Code uses the figure to decide how much history fits a request, so erring high costs a little context, never
 * a refused request.
 */
export function estimateTokens(text: string): number {
  if (text === '') return 0;
  const wide = text.match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu)?.length ?? 0;
  return wide + Math.ceil((text.length - wide) / 4);
}

/** Tokens a message adds beyond its text (its role label and separator in the rendered prompt). */
export const TOKENS_PER_TURN = 3;
