// hosted_ask_model: one question to a hosted or tuned model, through the same single inference call as Chat and the
// playground (askModel in chatInference.ts), with the knobs a caller may set (RAG, the budgets, the temperature; the
// chat settings otherwise, checked by knobsFor). The answer comes back as text; the model's reasoning is left out
// unless asked for (a long reasoning would fill the agent's context); both pass through the markdown neutraliser. The
// caller's cancellation closes the service's stream at once.
import * as vscode from 'vscode';
import type { Services } from '../../services';
import { askModel } from '../chat/chatInference';
import { knobsFor, renderConversation } from '../chat/chatRequest';
import { abortOn, fields, optionalBoolean, requiredString, runTool, said, textResult, ToolInputProblem } from './toolShared';
import { answerLines } from './toolText';

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
        return textResult(answerLines(modelName, answer, reasoning, withReasoning));
      }),
  };
}
