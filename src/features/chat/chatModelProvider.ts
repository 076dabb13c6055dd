// The models of the stored key in VS Code's Chat and `vscode.lm` (the stable LanguageModelChatProvider API). The entry
// module registers a thin provider at activation that forwards here on first use; this holds the behaviour:
// - the list: every model the key allows, base and tuned, from the Models view's list (one request serves both), and
//   an announcement whenever that list changes (a new key or service, a finished finetune, a name the service changed);
// - asked silently (VS Code only ever asks so), it asks the person nothing, but lists the models whenever a key is
//   stored: a provider that lists nothing when silent is invisible to other extensions;
// - when the list cannot be read (an answer the extension cannot read, or no answer), the names kept for the service
//   (typed and accepted before, or made by finetunes: connection/knownModelNames.ts), each saying so in its detail, so
//   Chat and `@hosted` still have a model to send to; a list that was read is the truth and nothing is added to it;
// - a request: one call of the service's streamed inference (chatInference.ts), reasoning reported as a thinking part
//   only where the running VS Code has that class, never as answer text; cancellation aborts the service's stream;
//   failures as vscode.LanguageModelError with the extension's own messages. No tool calling, no image input: the
//   service has neither.
import * as vscode from 'vscode';
import type { ModelInfo } from '../../api/types';
import { CHAT_VENDOR, COMMANDS } from '../../contributions';
import type { ModelsTreeProvider } from '../models/modelsTree';
import type { Services } from '../../services';
import { untrustedText } from '../../util/untrustedText';
import type { KnownModelName } from '../../connection/knownModelNames';
import { knownSourceWords, offeredKnownModels } from '../models/knownModelItems';
import { askModel } from './chatInference';
import { languageModelError } from './chatError';
import { ChatRequestProblem, estimateTokens, renderConversation, requestKnobs, TOKENS_PER_TURN, type ChatTurn } from './chatRequest';
import { modelConfigurationOf, modelConfigurationSchema } from './chatModelConfiguration';

/**
 * The spec shows no context or output limit; VS Code needs numbers to decide how much history a request carries. The
 * input figure is the emulator's prompt limit (100,000 characters) in estimated tokens; the output figure is a bound
 * for pickers to show, not enforced by the extension.
 */
export const MAX_INPUT_TOKENS = 25_000;
export const MAX_OUTPUT_TOKENS = 8_192;

type ThinkingPartClass = new (value: string) => vscode.LanguageModelResponsePart;

export class ChatModelProvider implements vscode.Disposable {
  /** What VS Code was last given (names and kinds), to announce a change only when the list really changed. */
  private given: string | undefined;
  /** The list last compared (the Models view's array). */
  private seen: readonly ModelInfo[] | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  /** Cleared when the running VS Code refuses a thinking part: reasoning is then left out. */
  private thinkingPart: ThinkingPartClass | undefined = (vscode as unknown as { LanguageModelThinkingPart?: ThinkingPartClass })
    .LanguageModelThinkingPart;

  constructor(
    private readonly services: Services,
    private readonly models: ModelsTreeProvider,
    /** Fires the registered provider's onDidChangeLanguageModelChatInformation (it lives in the entry module). */
    private readonly announce: () => void,
  ) {
    this.disposables.push(
      // The Models view's list is the one list: a new key or service (the view refreshes), a finished finetune (the
      // poller refreshes it), a renamed model (its refresh) all pass through here.
      models.onDidChangeTreeData(() => this.listMayHaveChanged()),
      services.session.onDidChange(() => this.listMayHaveChanged()),
      services.knownModels.onDidChange(() => this.keptNamesChanged()),
    );
  }

  /** The models of the stored key; with no key, none (and, when VS Code may ask the person, the key setup opens). */
  async provideLanguageModelChatInformation(options: { silent: boolean }): Promise<vscode.LanguageModelChatInformation[]> {
    const { key } = await this.services.session.current();
    if (!key) {
      this.given = '';
      if (!options.silent) void vscode.commands.executeCommand(COMMANDS.setApiKey);
      return [];
    }
    await this.models.load();
    const list = this.models.models;
    if (list === undefined) {
      // Counted as no list for announcing changes: a job poll re-renders the view, and announcing the kept names
      // again each time would have VS Code ask again each time.
      this.given = '';
      return (await offeredKnownModels(this.services, this.models)).map(keptModelInformation);
    }
    this.given = signature(list);
    return list.map(chatModelInformation);
  }

  async provideLanguageModelChatResponse(
    model: vscode.LanguageModelChatInformation,
    messages: readonly vscode.LanguageModelChatRequestMessage[],
    options: vscode.ProvideLanguageModelChatResponseOptions,
    progress: vscode.Progress<vscode.LanguageModelResponsePart>,
    token: vscode.CancellationToken,
  ): Promise<void> {
    const controller = new AbortController();
    const cancel = token.onCancellationRequested(() => controller.abort());
    const started = performance.now();
    let chars = 0;
    try {
      if (token.isCancellationRequested) return;
      const conversation = renderConversation(messages.map(turnOf));
      const knobs = requestKnobs(options.modelOptions, modelConfigurationOf(options), this.services.session.settings().chat);
      // A part per event of the stream (the client's pieces): VS Code forwards a provider's parts once 31 have gathered
      // (or after 30 ms without one), so a part of several tokens would hold the first token back longer.
      for await (const piece of askModel(this.services, model.id, conversation, knobs, controller.signal)) {
        if (token.isCancellationRequested) break;
        if (piece.kind === 'answer') {
          chars += piece.text.length;
          progress.report(new vscode.LanguageModelTextPart(piece.text));
        } else this.reportThinking(progress, piece.text);
      }
      this.services.log.info(`Chat: ${model.id} answered ${chars} characters in ${Math.round(performance.now() - started)} ms.`);
    } catch (error) {
      // The caller cancelled: the request ends quietly, as VS Code's own providers end.
      if (token.isCancellationRequested) return;
      this.services.log.warn(`Chat: the request to ${model.id} failed: ${error instanceof Error ? error.message : String(error)}`);
      throw languageModelError(error);
    } finally {
      cancel.dispose();
      if (token.isCancellationRequested) this.services.log.info(`Chat: the request to ${model.id} was cancelled; its stream was closed.`);
    }
  }

  /** An estimate (see estimateTokens): the service publishes no tokenizer. */
  provideTokenCount(_model: vscode.LanguageModelChatInformation, text: string | vscode.LanguageModelChatRequestMessage): Promise<number> {
    return Promise.resolve(typeof text === 'string' ? estimateTokens(text) : estimateTokens(turnOf(text).text) + TOKENS_PER_TURN);
  }

  private reportThinking(progress: vscode.Progress<vscode.LanguageModelResponsePart>, text: string): void {
    if (!this.thinkingPart) return;
    try {
      progress.report(new this.thinkingPart(text));
    } catch (error) {
      this.thinkingPart = undefined;
      this.services.log.info(`Chat: this VS Code does not take reasoning parts; reasoning is left out (${String(error)}).`);
    }
  }

  private listMayHaveChanged(): void {
    // A refresh under way (a finished finetune refreshes the list) says nothing yet: announcing it had VS Code drop our
    // models until it asked again, and a request made meanwhile failed ("Chat provider … is not registered", seen in
    // CI on 1.104). The list it loads, or its failure, is compared when it comes.
    if (this.models.loading) return;
    const now = this.models.models;
    // The view changes with every job poll; the list itself is a new array only when it was loaded again.
    if (now !== undefined && now === this.seen) return;
    this.seen = now;
    // Not loaded (the refresh failed): VS Code asks again.
    const next = now ? signature(now) : '';
    // Never asked: VS Code's Chat shows a provider's models only once something has asked `vscode.lm` for them, so
    // the first list loaded (a key given, the Models view opened) is offered by asking on its behalf.
    if (this.given === undefined) {
      if (now && now.length > 0) void vscode.lm.selectChatModels({ vendor: CHAT_VENDOR }).then(undefined, () => undefined);
      return;
    }
    if (next === this.given) return;
    this.given = next;
    this.services.log.info('Chat: the list of models changed; VS Code is told.');
    this.announce();
  }

  /**
   * A name was kept (typed and accepted, or made by a finetune) while VS Code was given the kept names in place of an
   * unreadable list: it is told, so its model picker asks again and offers the new name (seen in the UI tests: a name
   * typed in Evaluate Model… was missing from Chat's picker until the window was reloaded).
   */
  private keptNamesChanged(): void {
    if (this.given !== '' || this.models.loading || this.models.models !== undefined) return;
    this.services.log.info('Chat: the kept model names changed; VS Code is told.');
    this.announce();
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

/** A model as VS Code shows it; the name and lineage are the service's words, made inert. */
export function chatModelInformation(m: ModelInfo): vscode.LanguageModelChatInformation {
  const base = m.baseModel ? untrustedText(m.baseModel, { maxChars: 120 }) : undefined;
  const detail =
    m.kind === 'custom'
      ? base
        ? vscode.l10n.t('tuned from {0}', base)
        : vscode.l10n.t('tuned')
      : m.kind === 'base'
        ? vscode.l10n.t('base')
        : undefined;
  const name = untrustedText(m.name, { maxChars: 120 });
  return {
    id: m.name,
    name,
    family: base ?? name,
    version: m.createdAt ?? '1',
    detail,
    tooltip: detail ? vscode.l10n.t('{0} ({1}), Hosted Reasoning', name, detail) : vscode.l10n.t('{0}, Hosted Reasoning', name),
    maxInputTokens: MAX_INPUT_TOKENS,
    maxOutputTokens: MAX_OUTPUT_TOKENS,
    capabilities: { imageInput: false, toolCalling: false },
    ...pickerKnobs(),
  };
}

/**
 * The service's knobs in VS Code's model picker (chatModelConfiguration.ts): a field @types/vscode 1.104 does not
 * know, and that VS Code 1.104 leaves out when it copies the information.
 */
function pickerKnobs(): Record<string, unknown> {
  return { configurationSchema: modelConfigurationSchema() };
}

/** A kept name while the list cannot be read: its detail says it was typed or made by a job, and kept. */
export function keptModelInformation(known: KnownModelName): vscode.LanguageModelChatInformation {
  const name = untrustedText(known.name, { maxChars: 120 });
  const detail = vscode.l10n.t('{0}, kept: the model list could not be read', knownSourceWords(known));
  return {
    id: known.name,
    name,
    family: name,
    version: '1',
    detail,
    tooltip: vscode.l10n.t('{0} ({1}), Hosted Reasoning', name, detail),
    maxInputTokens: MAX_INPUT_TOKENS,
    maxOutputTokens: MAX_OUTPUT_TOKENS,
    capabilities: { imageInput: false, toolCalling: false },
    ...pickerKnobs(),
  };
}

function signature(models: readonly ModelInfo[]): string {
  return JSON.stringify(models.map((m) => [m.name, m.kind, m.baseModel ?? '']).sort());
}

/** A message's text; an image is refused in words (the models read text only), tool parts have no text to send. */
function turnOf(message: vscode.LanguageModelChatRequestMessage): ChatTurn {
  const texts: string[] = [];
  for (const part of message.content) {
    if (part instanceof vscode.LanguageModelTextPart) texts.push(part.value);
    else if (isImage(part)) throw new ChatRequestProblem('These models read text only: remove the image and ask again.');
  }
  return { role: message.role === vscode.LanguageModelChatMessageRole.Assistant ? 'assistant' : 'user', text: texts.join('') };
}

function isImage(part: unknown): boolean {
  const mime = (part as { mimeType?: unknown } | null)?.mimeType;
  return typeof mime === 'string' && mime.startsWith('image/');
}
