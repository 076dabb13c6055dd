// hosted_ask_model: one question to a hosted or tuned model, through the same single inference call as Chat and the
// playground (askModel in chatInference.ts), with the knobs a caller may set (RAG, the budgets, the temperature; the
// chat settings otherwise, checked by knobsFor). The answer comes back as text; the model's reasoning is left out
// unless asked for (a long reasoning would fill the agent's context); both pass through the markdown neutraliser. The
// caller's cancellation closes the service's stream at once.
import * as vscode from 'vscode';
import type { Services } from '../../services';
import { redact } from '../../api/redact';
import { untrustedMarkdown } from '../../util/untrustedMarkdown';
import { askModel } from '../chat/chatInference';
import { knobsFor, renderConversation } from '../chat/chatRequest';
import {
  abortOn,
  fields,
  optionalBoolean,
  requiredString,
  runTool,
  said,
  serviceDataLine,
  SERVICE_WORDS,
  textResult,
  ToolInputProblem,
} from './toolShared';

/** Most characters of an answer (and of a reasoning) a result carries; the rest is cut and said to be. */
const MAX_ANSWER_CHARS = 20_000;

export function askModelTool(services: Services): vscode.LanguageModelTool<unknown> {
  return {
    prepareInvocation: (options) => {
      const model = (options.input as { modelName?: unknown } | undefined)?.modelName;
      return {
        invocationMessage:
          typeof model === 'string' ? vscode.l10n.t('Asking {0}', said(model, 80)) : vscode.l10n.t('Asking a hosted model'),
      };
    },
    invoke: (options, token) =>
      runTool('Asking the model', async () => {
        const f = fields(options.input);
        const modelName = requiredString(f, 'modelName');
        const prompt = requiredString(f, 'prompt');
        const withReasoning = optionalBoolean(f, 'includeReasoning') ?? false;
        let knobs;
        try {
          knobs = knobsFor(f, services.session.settings().chat);
        } catch (e) {
          throw new ToolInputProblem(e instanceof Error ? e.message : String(e));
        }
        const cancel = abortOn(token);
        let answer = '';
        let reasoning = '';
        try {
          for await (const piece of askModel(
            services,
            modelName,
            renderConversation([{ role: 'user', text: prompt }]),
            knobs,
            cancel.signal,
          )) {
            if (piece.kind === 'reasoning') reasoning += piece.text;
            else answer += piece.text;
          }
        } catch (error) {
          if (token.isCancellationRequested) {
            return textResult(['Cancelled: the question was withdrawn and the service stopped answering.']);
          }
          throw error;
        } finally {
          cancel.dispose();
        }
        const lines = [`Answer of ${said(modelName)}:`, bounded(answer.trim() || '(empty answer)')];
        if (withReasoning) lines.push('', 'Its reasoning:', bounded(reasoning.trim() || '(none given)'));
        else if (reasoning.trim()) {
          lines.push(
            '',
            `(It reasoned for ${reasoning.length} characters before answering; call again with includeReasoning true to read it.)`,
          );
        }
        lines.push('', serviceDataLine(SERVICE_WORDS.answer));
        return textResult(lines);
      }),
  };
}

/**
 * A model's text, inert as every word of the service in a result: it may be quoted to the person in Chat, which renders
 * markdown, so it goes through the markdown neutraliser Chat's answers go through (no live link, image or HTML; code
 * kept as written), then bounded.
 */
function bounded(text: string): string {
  const safe = untrustedMarkdown(redact(text));
  return safe.length > MAX_ANSWER_CHARS ? `${safe.slice(0, MAX_ANSWER_CHARS)}… (cut: ${safe.length} characters in all)` : safe;
}
