// `#` references to our tools in an @hosted prompt (`@hosted #hostedModels`): a person without an agent model can still
// use a tool by name (VS Code 1.139 offers the `#` completions in Ask mode; the participant gets them in
// request.toolReferences). Each referenced tool that takes no input is called through vscode.lm.invokeTool with the
// request's toolInvocationToken, the very implementation an agent calls (Chat shows the call in the response), and its
// text is shown; a question beside the references is sent with those texts (chatRequest.ts, referencedPrompt), so the
// model reads what the person pointed at. A tool that needs input (a job id, files, a model name) is not called: only
// an agent model fills its input, and the response says so.
import * as vscode from 'vscode';
import { LM_TOOLS } from '../../contributions';
import { markdownLiteral } from '../../util/untrustedText';
import type { ReferencedText } from './chatRequest';

const OUR_TOOLS: ReadonlySet<string> = new Set(Object.values(LM_TOOLS));

/** Longest line of a tool's result shown (its lines are short; this only bounds a surprise). */
const MAX_LINE_CHARS = 2_000;

export interface ToolReferencesAnswered {
  /** The tools called, in the order referenced. */
  readonly called: string[];
  /** The prompt without the references: a question beside them, or nothing. */
  readonly prompt: string;
  /** Each called tool's text, named as the person typed it, for the question's prompt. */
  readonly texts: ReferencedText[];
}

/** Calls and shows the tools of ours the prompt references; undefined when it references none. */
export async function answerToolReferences(
  request: vscode.ChatRequest,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): Promise<ToolReferencesAnswered | undefined> {
  const references = request.toolReferences.filter((r) => OUR_TOOLS.has(r.name));
  if (references.length === 0) return undefined;
  const called: string[] = [];
  const texts: ReferencedText[] = [];
  for (const reference of references) {
    if (token.isCancellationRequested) break;
    const typedText = referenceText(request.prompt, reference);
    const typed = markdownLiteral(typedText, 120);
    if (needsInput(reference.name)) {
      stream.markdown(
        vscode.l10n.t(
          '{0} needs input that an agent model gives it (Agent mode, with a model that calls tools); here, the commands of @hosted do the same.',
          typed,
        ) + '\n\n',
      );
      continue;
    }
    const result = await vscode.lm.invokeTool(reference.name, { input: {}, toolInvocationToken: request.toolInvocationToken }, token);
    const text = result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
    // The tool's text is meant for a model: shown as it is, every line literal (no markdown of the service's acts).
    stream.markdown(
      text
        .split('\n')
        .map((line) => markdownLiteral(line, MAX_LINE_CHARS))
        .join('  \n') + '\n\n',
    );
    called.push(reference.name);
    texts.push({ label: typedText, text });
  }
  return { called, prompt: withoutReferences(request.prompt, references), texts };
}

/** Whether the tool's schema requires a field: such a tool is an agent's to call, with the input it chooses. */
function needsInput(name: string): boolean {
  const schema = vscode.lm.tools.find((t) => t.name === name)?.inputSchema as { required?: unknown } | undefined;
  return Array.isArray(schema?.required) && schema.required.length > 0;
}

/** The reference as the person typed it (`#hostedJob`), else the tool's name. */
function referenceText(prompt: string, reference: vscode.ChatLanguageModelToolReference): string {
  const [start, end] = reference.range ?? [0, 0];
  return end > start ? prompt.slice(start, end) : reference.name;
}

function withoutReferences(prompt: string, references: readonly vscode.ChatLanguageModelToolReference[]): string {
  let rest = prompt;
  const ranges = references.flatMap((r) => (r.range ? [r.range] : [])).sort((a, b) => b[0] - a[0]);
  for (const [start, end] of ranges) rest = rest.slice(0, start) + rest.slice(end);
  return rest.replace(/\s+/g, ' ').trim();
}
