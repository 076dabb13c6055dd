// `ask <model> [prompt|-]`: one run, the answer streamed to stdout as it comes; with --reasoning the reasoning goes to
// stderr, apart from the answer, so `> answer.txt` keeps the answer alone. The prompt comes from the argument, else
// from stdin (`-`, or a pipe).
import { text } from 'node:stream/consumers';
import { CliError } from '../exitCodes';
import type { CommandContext } from '../context';
import { terminalText } from '../output';

/** The largest prompt the service takes (spec 4.2). */
const MAX_PROMPT_CHARS = 100_000;

export interface AskOptions {
  model: string;
  prompt: string | undefined;
  reasoning: boolean;
  temperature?: number;
}

export async function askCommand(ctx: CommandContext, options: AskOptions): Promise<number> {
  const prompt = options.prompt ?? (await promptFromStdin(ctx));
  if (prompt.trim() === '') throw new CliError('The prompt is empty.');
  if (prompt.length > MAX_PROMPT_CHARS) {
    throw new CliError(`The prompt is ${prompt.length} characters; the service takes at most ${MAX_PROMPT_CHARS}.`);
  }
  const pieces = ctx.connection.client.infer(
    {
      prompt,
      modelName: options.model,
      stream: true,
      useRag: false,
      sequentialBudget: 8,
      parallelBudget: 1,
      temperature: options.temperature ?? 0.7,
    },
    { signal: ctx.signal, interactive: true },
  );
  let answer = '';
  let reasoning = '';
  let reasoningOpen = false;
  for await (const piece of pieces) {
    if (piece.kind === 'reasoning') {
      reasoning += piece.text;
      if (options.reasoning && !ctx.out.json) {
        ctx.io.stderr.write(terminalText(piece.text));
        reasoningOpen = true;
      }
      continue;
    }
    answer += piece.text;
    if (reasoningOpen) {
      ctx.io.stderr.write('\n');
      reasoningOpen = false;
    }
    if (!ctx.out.json) ctx.out.stream(piece.text);
  }
  if (reasoningOpen) ctx.io.stderr.write('\n');
  if (ctx.out.json) ctx.out.result(undefined, { model: options.model, answer, reasoning });
  else if (!answer.endsWith('\n')) ctx.out.stream('\n');
  return 0;
}

async function promptFromStdin(ctx: CommandContext): Promise<string> {
  if (ctx.io.stdin.isTTY) throw new CliError('Give the prompt as an argument, or "-" and pipe it in.');
  return text(ctx.io.stdin);
}
