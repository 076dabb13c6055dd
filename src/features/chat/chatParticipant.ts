// `@hosted` in VS Code's Chat: the whole extension in one participant. A plain question goes to a model (the one
// picked in Chat when it is ours, else the first base model), its reasoning folded to one line that opens it
// (chatReasoning.ts) and its answer as markdown; /models lists the key's models; /finetune runs the Explorer
// command's flow on the files the person referenced (#file); /evaluate starts an evaluation; /jobs shows the jobs with
// their progress. Buttons open the playground, the evaluation report or the download. Every word of the service
// (answers, names, errors) is made inert before it reaches the response: chat renders markdown, where a link or an
// image would act. Names and messages through src/util/untrustedText.ts; answers are parsed and written again as
// markdown that shows links with their real target and images as their address (src/util/untrustedMarkdown.ts).
import * as vscode from 'vscode';
import { CHAT_PARTICIPANT, CHAT_VENDOR, COMMANDS } from '../../contributions';
import type { ServiceWait } from '../../api/http';
import type { ModelInfo } from '../../api/types';
import { isNamed } from '../../api/modelIdentifiers';
import { isActive, type JobRecord } from '../../jobs/jobRecord';
import { jobDescription, jobTitle } from '../../jobs/jobFormat';
import type { KnownModelName } from '../../connection/knownModelNames';
import { knownSourceWords, listUnreadable } from '../models/knownModelItems';
import type { ModelsTreeProvider } from '../models/modelsTree';
import type { Services } from '../../services';
import { classifyError, FIXES } from '../../util/classifyError';
import { markdownLiteral, untrustedText } from '../../util/untrustedText';
import { UntrustedMarkdown } from '../../util/untrustedMarkdown';
import { retryAtText, serviceWaitText } from '../../util/serviceWaitText';
import { startEvaluation } from '../evaluate/evaluateCommand';
import { finetuneFromReferences, type FinetuneAnswers } from '../finetune/finetuneCommand';
import { askModel } from './chatInference';
import { modelConfigurationOf } from './chatModelConfiguration';
import { answerToolReferences } from './chatToolReferences';
import { referencedFiles, referencedFileTexts } from './chatFileReferences';
import { isFoldedReasoning, type ChatReasoningStore } from './chatReasoning';
import {
  boundReferences,
  MAX_REFERENCES_CHARS,
  renderConversation,
  requestKnobs,
  type BoundedReference,
  type ChatTurn,
  type ReferencedText,
} from './chatRequest';

/** What a response says it did (ChatResult.metadata): the tests read it, and a follow-up could. */
export interface ChatResponseMetadata {
  command: 'ask' | 'models' | 'finetune' | 'evaluate' | 'jobs' | 'tools';
  modelName?: string;
  jobId?: string;
  /** The tools a `#` reference in the prompt called (chatToolReferences.ts), in order. */
  tools?: string[];
}

/** For the in-editor tests: what a person would type into the wizard, instead of the wizard. */
export interface ParticipantTestHooks {
  finetuneAnswers?: FinetuneAnswers;
}

export type ParticipantHandler = (
  request: vscode.ChatRequest,
  context: vscode.ChatContext,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
  hooks?: ParticipantTestHooks,
) => Promise<vscode.ChatResult>;

/** Most jobs /jobs lists (the newest first); the Jobs view has them all. */
const MAX_JOBS = 20;
/** Most buttons one response offers. */
const MAX_BUTTONS = 6;

export function chatParticipantHandler(services: Services, models: ModelsTreeProvider, reasonings: ChatReasoningStore): ParticipantHandler {
  return async (request, context, stream, token, hooks) => {
    const run = new ParticipantRun(services, models, reasonings, stream, token);
    try {
      // `#hostedModels` and the like first: the tools' results, then what the rest of the prompt asks, if anything.
      const tools = await answerToolReferences(request, stream, token);
      if (tools && !request.command && !tools.prompt) {
        return { metadata: { command: 'tools', tools: tools.called } satisfies ChatResponseMetadata };
      }
      const result = await run.command(request, context, tools?.prompt ?? request.prompt, hooks, tools?.texts ?? []);
      const metadata = result.metadata as ChatResponseMetadata | undefined;
      return tools && metadata ? { ...result, metadata: { ...metadata, tools: tools.called } satisfies ChatResponseMetadata } : result;
    } catch (error) {
      if (token.isCancellationRequested) return {};
      return run.failed(error, request.command);
    }
  };
}

class ParticipantRun {
  constructor(
    private readonly services: Services,
    private readonly models: ModelsTreeProvider,
    private readonly reasonings: ChatReasoningStore,
    private readonly stream: vscode.ChatResponseStream,
    private readonly token: vscode.CancellationToken,
  ) {}

  command(
    request: vscode.ChatRequest,
    context: vscode.ChatContext,
    prompt: string,
    hooks?: ParticipantTestHooks,
    toolTexts: readonly ReferencedText[] = [],
  ): Promise<vscode.ChatResult> {
    switch (request.command) {
      case 'models':
        return this.listModels();
      case 'finetune':
        return this.finetune(request, hooks?.finetuneAnswers);
      case 'evaluate':
        return this.evaluate(request, prompt);
      case 'jobs':
        return this.jobs();
      default:
        return this.ask(request, context, prompt, toolTexts);
    }
  }

  // ------------------------------------------------------------------------------------------------ a question

  /**
   * `prompt`: the request's, without the `#` references to our tools already answered; `toolTexts`: their results,
   * sent with the question as the files referenced are.
   */
  async ask(
    request: vscode.ChatRequest,
    context: vscode.ChatContext,
    prompt: string,
    toolTexts: readonly ReferencedText[] = [],
  ): Promise<vscode.ChatResult> {
    if (!prompt.trim()) {
      this.stream.markdown(
        vscode.l10n.t(
          'Ask a question, or use /models, /finetune, /evaluate or /jobs. The model picked in Chat answers when it is one of ours.',
        ),
      );
      return { metadata: { command: 'ask' } satisfies ChatResponseMetadata };
    }
    const chosen = await this.chosenModel(request.model);
    if (!chosen) {
      this.stream.markdown(vscode.l10n.t('Your key allows no model to ask. /models lists what it allows.'));
      return { metadata: { command: 'ask' } satisfies ChatResponseMetadata };
    }
    const { name: modelName, kept } = chosen;
    const shownName = untrustedText(modelName, { maxChars: 120 });
    this.stream.progress(
      request.model?.vendor === CHAT_VENDOR
        ? vscode.l10n.t('Asking {0}…', shownName)
        : kept
          ? vscode.l10n.t(
              'Asking {0} ({1}, kept: the model list could not be read; the Chat model picker offers the other kept names)…',
              shownName,
              knownSourceWords(kept),
            )
          : vscode.l10n.t('Asking {0} (pick another of our models in the Chat model picker, or see /models)…', shownName),
    );
    const references = await this.referencedTexts(request, toolTexts);
    const conversation = renderConversation([...historyTurns(context), { role: 'user', text: prompt }], references);
    const controller = new AbortController();
    const cancel = this.token.onCancellationRequested(() => controller.abort());
    const answer = new UntrustedMarkdown();
    let thought = '';
    let thinkingSince: number | undefined;
    // Reasoning is folded once it is over (when the answer starts, or at the end): one line, the text one click away.
    const closeReasoning = () => {
      if (thinkingSince === undefined) return;
      const thinkingMs = performance.now() - thinkingSince;
      thinkingSince = undefined;
      if (thought.trim()) this.stream.markdown(this.reasonings.fold(modelName, thought, thinkingMs));
      thought = '';
    };
    try {
      // The knobs picked for our model in VS Code's model picker, else the settings (another vendor's pick is not ours).
      const configuration = request.model?.vendor === CHAT_VENDOR ? modelConfigurationOf(request) : undefined;
      const knobs = requestKnobs(undefined, configuration, this.services.session.settings().chat);
      // The log is not where the person looks: the service's wait is said in the response's progress line.
      const onServiceWait = (wait: ServiceWait) => this.stream.progress(serviceWaitText(wait, vscode.env.language));
      for await (const piece of askModel(this.services, modelName, conversation, knobs, controller.signal, { onServiceWait })) {
        if (this.token.isCancellationRequested) break;
        if (piece.kind === 'reasoning') {
          if (thinkingSince === undefined) {
            thinkingSince = performance.now();
            this.stream.progress(vscode.l10n.t('Thinking…'));
          }
          thought += piece.text;
          continue;
        }
        closeReasoning();
        this.answerMarkdown(answer.push(piece.text));
      }
      closeReasoning();
      this.answerMarkdown(answer.end());
    } finally {
      cancel.dispose();
    }
    this.stream.button({
      command: COMMANDS.openPlayground,
      arguments: [modelName],
      title: vscode.l10n.t('Open {0} in the Playground', untrustedText(modelName, { maxChars: 60 })),
    });
    return { metadata: { command: 'ask', modelName } satisfies ChatResponseMetadata };
  }

  /**
   * What the question points at (the tools' results, the referenced files' text), bounded, and a line that says what
   * goes with it to the model and what was left out: the person sees what the model was given.
   */
  private async referencedTexts(request: vscode.ChatRequest, toolTexts: readonly ReferencedText[]): Promise<BoundedReference[]> {
    const { locations, implicit } = referencedFiles(request.references);
    const files = await referencedFileTexts(locations);
    const references = boundReferences([...toolTexts, ...files.texts]);
    const count = (n: number) => n.toLocaleString('en-US');
    const sent = references.map((r) =>
      r.text.length === r.totalChars
        ? vscode.l10n.t('{0} ({1} characters)', markdownLiteral(r.label, 200), count(r.totalChars))
        : r.text === ''
          ? vscode.l10n.t(
              '{0} (left out: the texts before it fill the bound of {1} characters)',
              markdownLiteral(r.label, 200),
              count(MAX_REFERENCES_CHARS),
            )
          : vscode.l10n.t(
              '{0} (its first {1} of {2} characters)',
              markdownLiteral(r.label, 200),
              count(r.text.length),
              count(r.totalChars),
            ),
    );
    const lines: string[] = [];
    if (sent.length > 0) lines.push(vscode.l10n.t('Sent to the model with your question: {0}.', sent.join(', ')));
    for (const { label, why } of files.leftOut) {
      lines.push(vscode.l10n.t('Not sent: {0}, {1}.', markdownLiteral(label, 200), markdownLiteral(why, 500)));
    }
    if (implicit.length > 0) {
      const names = implicit.map((u) => markdownLiteral(vscode.workspace.asRelativePath(u), 120)).join(', ');
      lines.push(vscode.l10n.t('Not sent: {0}, which Chat attached by itself. To send it, reference it with #file.', names));
    }
    if (lines.length > 0) this.stream.markdown(`*${lines.join('*  \n*')}*\n\n`);
    return references;
  }

  /**
   * The model picked in Chat when it is ours; else the first base model of the list (else its first model). When the
   * list cannot be read, the name kept for the service that was used or made last (knownModelNames.ts): the one a
   * person most likely means, answered at once rather than asked for in a picker of our own in the middle of a
   * request; the progress line says so, and Chat's model picker already offers every kept name to pick another.
   * With no name kept, the list's error, with its fix.
   */
  private async chosenModel(picked: vscode.LanguageModelChat | undefined): Promise<{ name: string; kept?: KnownModelName } | undefined> {
    if (picked?.vendor === CHAT_VENDOR) return { name: picked.id };
    let list: ModelInfo[];
    try {
      list = await this.modelList();
    } catch (error) {
      // By the list's own error, not the view's state: a refresh under way (a new key) has no failure to read yet.
      if (!listUnreadable(error)) throw error;
      const { origin } = await this.services.session.current();
      const [kept] = origin ? this.services.knownModels.list(origin) : [];
      if (!kept) throw error;
      return { name: kept.name, kept };
    }
    const byName = (a: ModelInfo, b: ModelInfo) => a.name.localeCompare(b.name);
    const first = list.filter((m) => m.kind === 'base').sort(byName)[0] ?? [...list].sort(byName)[0];
    return first && { name: first.name };
  }

  /** The key's models; a missing key or service throws the session's error (shown with its fix). */
  private async modelList(fresh = false): Promise<ModelInfo[]> {
    await this.services.session.connect();
    await (fresh ? this.models.refresh() : this.models.load());
    if (this.models.models) return this.models.models;
    // The list failed: ask once more to have its error in words.
    const { client } = await this.services.session.connect();
    return client.listModels({ interactive: true });
  }

  private answerMarkdown(text: string): void {
    if (!text) return;
    const md = new vscode.MarkdownString(text);
    md.isTrusted = false;
    md.supportHtml = false;
    md.supportThemeIcons = false;
    this.stream.markdown(md);
  }

  // ------------------------------------------------------------------------------------------------ /models

  async listModels(): Promise<vscode.ChatResult> {
    this.stream.progress(vscode.l10n.t('Listing the models your key allows…'));
    const list = await this.modelList(true);
    if (list.length === 0) {
      this.stream.markdown(vscode.l10n.t('Your key allows no model yet.'));
      return { metadata: { command: 'models' } satisfies ChatResponseMetadata };
    }
    const line = (m: ModelInfo) =>
      m.kind === 'custom' && m.baseModel
        ? vscode.l10n.t('- {0}: tuned from {1}', markdownLiteral(m.name), markdownLiteral(m.baseModel))
        : `- ${markdownLiteral(m.name)}`;
    const byName = (a: ModelInfo, b: ModelInfo) => a.name.localeCompare(b.name);
    const tuned = list.filter((m) => m.kind === 'custom').sort(byName);
    const others = list.filter((m) => m.kind !== 'custom').sort(byName);
    const parts: string[] = [];
    // Lines are added in a loop, not push(...list): the service's list may hold more than a call takes (RangeError).
    const group = (title: string, models: ModelInfo[]) => {
      if (models.length === 0) return;
      parts.push(`**${title}** (${models.length})`, '');
      for (const m of models) parts.push(line(m));
      parts.push('');
    };
    group(vscode.l10n.t('Base models'), others);
    group(vscode.l10n.t('Tuned models'), tuned);
    parts.push(vscode.l10n.t('Pick one in the Chat model picker and ask @hosted, or open it in the Playground.'));
    this.stream.markdown(parts.join('\n'));
    this.stream.button({ command: COMMANDS.openPlayground, title: vscode.l10n.t('Open the Playground') });
    return { metadata: { command: 'models' } satisfies ChatResponseMetadata };
  }

  // ------------------------------------------------------------------------------------------------ /finetune

  async finetune(request: vscode.ChatRequest, answers?: FinetuneAnswers): Promise<vscode.ChatResult> {
    const { uris, implicit } = referencedFiles(request.references);
    if (implicit.length > 0) {
      // Said first, so the person knows why the open file is not among the documents (nor the job's files).
      const names = implicit.map((u) => markdownLiteral(vscode.workspace.asRelativePath(u), 120)).join(', ');
      this.stream.markdown(
        vscode.l10n.t(
          'Left out: {0}, which Chat attached by itself (the file open in the editor). To learn from it, reference it with #file.',
          names,
        ) + '\n\n',
      );
    }
    if (uris.length === 0) {
      this.stream.markdown(
        vscode.l10n.t(
          'Reference the PDF or DOCX files to learn from, for example `/finetune #file:handbook.pdf #file:notes.docx` (a folder reference takes the documents in it). The same checks and questions as **Create Finetuned Model…** in the Explorer follow.',
        ),
      );
      return { metadata: { command: 'finetune' } satisfies ChatResponseMetadata };
    }
    this.stream.progress(vscode.l10n.t('Checking {0} referenced files…', uris.length));
    const outcome = await finetuneFromReferences(this.services, uris, answers);
    switch (outcome.status) {
      case 'started':
        this.stream.markdown(
          vscode.l10n.t(
            'Finetuning started: {0} is being created from {1}. /jobs shows its progress; you are notified when it is ready.',
            markdownLiteral(outcome.job.modelName),
            (outcome.job.files ?? []).map((f) => markdownLiteral(f, 120, { path: true })).join(', '),
          ),
        );
        this.stream.button({ command: COMMANDS.showJobs, title: vscode.l10n.t('Show Jobs') });
        return {
          metadata: { command: 'finetune', modelName: outcome.job.modelName, jobId: outcome.job.id } satisfies ChatResponseMetadata,
        };
      case 'cancelled':
        this.stream.markdown(vscode.l10n.t('Cancelled: no job was started.'));
        break;
      case 'invalid':
        this.stream.markdown(
          [vscode.l10n.t('No job was started:'), '', ...outcome.problems.map((p) => `- ${markdownLiteral(p, 500)}`)].join('\n'),
        );
        break;
      case 'failed':
        this.stream.markdown(vscode.l10n.t('No job was started: {0}', markdownLiteral(outcome.message, 2000)));
        break;
    }
    return { metadata: { command: 'finetune' } satisfies ChatResponseMetadata };
  }

  // ------------------------------------------------------------------------------------------------ /evaluate

  /** `prompt`: the request's, without the `#` references to our tools already answered (they are not names). */
  async evaluate(request: vscode.ChatRequest, prompt = request.prompt): Promise<vscode.ChatResult> {
    const words = prompt.trim().split(/\s+/).filter(Boolean);
    const list = await this.modelList();
    let modelName: string | undefined;
    let dataset: string | undefined;
    // A model is found by any of its identifiers (a short name beside the resource name the list leads with), as a
    // finished job finds its made model (findMadeModel); the name asked for is what the request sends.
    if (words[0] && list.some((m) => isNamed(m, words[0]!))) {
      modelName = words[0];
      dataset = words.slice(1).join(' ') || undefined;
    } else if (request.model?.vendor === CHAT_VENDOR) {
      modelName = request.model.id;
      dataset = words.join(' ') || undefined;
    }
    let jobId: string | undefined;
    // A job recorded before this request is the one already running that the person chose to follow (Follow It).
    const asked = Date.now();
    if (modelName && dataset) {
      this.stream.progress(vscode.l10n.t('Starting the evaluation…'));
      jobId = await startEvaluation(this.services, modelName, dataset);
    } else {
      // What was not said is asked for, as the command asks.
      jobId = (await vscode.commands.executeCommand<string | undefined>(COMMANDS.evaluate, modelName)) ?? undefined;
    }
    const job = jobId ? await this.findJob('evaluation', jobId) : undefined;
    if (!jobId || !job) {
      this.stream.markdown(vscode.l10n.t('No evaluation was started. Type `/evaluate <model> <dataset>`, or answer the pickers.'));
      return { metadata: { command: 'evaluate' } satisfies ChatResponseMetadata };
    }
    const shownModel = markdownLiteral(job.modelName);
    const shownDataset = markdownLiteral(job.datasetName ?? '');
    this.stream.markdown(
      job.createdAt < asked
        ? vscode.l10n.t(
            'An evaluation of {0} on {1} is already running, so no other was started. /jobs shows its progress; the report opens once it is done.',
            shownModel,
            shownDataset,
          )
        : vscode.l10n.t(
            'Evaluation started: {0} on {1}. /jobs shows its progress; the report opens once it is done.',
            shownModel,
            shownDataset,
          ),
    );
    this.stream.button({ command: COMMANDS.showJobs, title: vscode.l10n.t('Show Jobs') });
    return { metadata: { command: 'evaluate', modelName: job.modelName, jobId } satisfies ChatResponseMetadata };
  }

  private async findJob(kind: JobRecord['kind'], id: string): Promise<JobRecord | undefined> {
    const scope = await this.services.session.scope();
    return scope ? this.services.jobs.list(scope).find((j) => j.kind === kind && j.id === id) : undefined;
  }

  // ------------------------------------------------------------------------------------------------ /jobs

  async jobs(): Promise<vscode.ChatResult> {
    const scope = await this.services.session.scope();
    if (!scope) {
      await this.services.session.connect(); // says what is missing
      return { metadata: { command: 'jobs' } satisfies ChatResponseMetadata };
    }
    const all = [...this.services.jobs.list(scope)].sort((a, b) => b.createdAt - a.createdAt);
    if (all.length === 0) {
      this.stream.markdown(vscode.l10n.t('No jobs yet. /finetune creates a model from your documents; /evaluate measures one.'));
      return { metadata: { command: 'jobs' } satisfies ChatResponseMetadata };
    }
    const now = Date.now();
    const shown = all.slice(0, MAX_JOBS);
    const lines = shown.map((j) => `- ${markdownLiteral(jobTitle(j))}: ${markdownLiteral(jobDescription(j, now), 300)}`);
    if (all.length > shown.length) lines.push('', vscode.l10n.t('…and {0} older jobs in the Jobs view.', all.length - shown.length));
    const running = all.filter(isActive).length;
    if (running > 0) lines.push('', vscode.l10n.t('{0} running: ask /jobs again for their progress, or watch the Jobs view.', running));
    this.stream.markdown(lines.join('\n'));
    for (const button of jobButtons(shown).slice(0, MAX_BUTTONS)) this.stream.button(button);
    return { metadata: { command: 'jobs' } satisfies ChatResponseMetadata };
  }

  // ------------------------------------------------------------------------------------------------ failures

  failed(error: unknown, command: string | undefined): vscode.ChatResult {
    const info = classifyError(error, vscode.l10n.t('The request failed'));
    this.services.log.warn(`Chat: @hosted ${command ? `/${command}` : 'question'} failed: ${info.message}`);
    if (info.fix) this.stream.button({ command: info.fix.command, title: info.fix.title, arguments: [...info.fix.args] });
    else if (info.kind !== 'request') this.stream.button({ command: FIXES.showLog.command, title: FIXES.showLog.title });
    // Refused again after the one wait (a second 429): when to ask again, on the clock. The error comes at once, so
    // its wait runs from now.
    const retryAfterMs = (error as { retryAfterMs?: unknown } | null)?.retryAfterMs;
    const when =
      info.kind === 'rateLimit' && typeof retryAfterMs === 'number' ? ` ${retryAtText(retryAfterMs, Date.now(), vscode.env.language)}` : '';
    return { errorDetails: { message: untrustedText(`${info.message}${when}`, { maxChars: 2000 }) } };
  }
}

/** The buttons a list of jobs offers: a finished evaluation's report, a finished model's playground and download. */
function jobButtons(jobs: readonly JobRecord[]): vscode.Command[] {
  const buttons: vscode.Command[] = [];
  const seen = new Set<string>();
  for (const j of jobs) {
    if (j.state !== 'completed') continue;
    const name = untrustedText(j.modelName, { maxChars: 60 });
    const add = (command: string, title: string) => {
      if (seen.has(`${command}\n${j.modelName}`)) return;
      seen.add(`${command}\n${j.modelName}`);
      buttons.push({ command, title, arguments: [j.modelName] });
    };
    if (j.kind === 'evaluation') add(COMMANDS.openEvaluationReport, vscode.l10n.t('Evaluation Report: {0}', name));
    else {
      add(COMMANDS.openPlayground, vscode.l10n.t('Open {0} in the Playground', name));
      add(COMMANDS.download, vscode.l10n.t('Download {0}', name));
    }
  }
  return buttons;
}

/** Earlier questions to @hosted and its answers (reasoning and notes left out), for the conversation's prompt. */
function historyTurns(context: vscode.ChatContext): ChatTurn[] {
  const turns: ChatTurn[] = [];
  for (const turn of context.history) {
    if (turn.participant !== CHAT_PARTICIPANT || turn.command) continue;
    if (turn instanceof vscode.ChatRequestTurn) turns.push({ role: 'user', text: turn.prompt });
    else if (turn instanceof vscode.ChatResponseTurn) {
      const text = turn.response
        .map((part) => (part instanceof vscode.ChatResponseMarkdownPart ? part.value.value : ''))
        .filter((t) => !isFoldedReasoning(t))
        .join('');
      turns.push({ role: 'assistant', text });
    }
  }
  return turns;
}
