// The MCP server's tools: the language-model tools' names, descriptions and schemas (toolDefinitions.ts), over the same
// vscode-free pieces the extension's tools run (the checks of input, files and answers; the paid starts with their
// hold; the report's view-model; the comparison's run; the results' words in toolText.ts). What differs is where a
// tool's surroundings come from: the client's roots for the workspace folders, the settings' defaults for the settings,
// McpJobs for the job store, the person's confirmation by elicitation or `confirm: true` for VS Code's dialog.
// Every input field read here is in the tool's schema (test/unit/mcpServer.test.ts holds the two in step).
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { collectInference, type ServiceClient } from '../api/client';
import { ContractError } from '../api/errors';
import { LM_TOOLS, type LmToolName } from '../contributions';
import { isFollowed } from '../jobs/jobRecord';
import { StartRefusedError, type StartingJobs } from '../jobs/startingJobs';
import { formatBytes } from '../util/byteSize';
import { knobsFor, renderConversation } from '../features/chat/chatRequest';
import { SILENT_SERVICE_WAIT_MS } from '../features/chat/chatInference';
import { buildReportView } from '../features/evaluate/report/host/reportView';
import { submitEvaluationOnce } from '../features/evaluate/evaluationStart';
import { ComparisonLog, type ComparisonSpec, type Scoring } from '../features/evaluate/compare/comparisonLog';
import { requestCounts, runComparison } from '../features/evaluate/compare/compareRun';
import { summarize } from '../features/evaluate/compare/compareSummary';
import { DEFAULT_JUDGE_PROMPT, DEFAULT_PAIRWISE_PROMPT } from '../features/evaluate/compare/judging';
import { answersProblems, type FinetuneAnswers } from '../features/finetune/finetuneAnswers';
import { checkFinetuneFiles, nodeByteReader } from '../features/finetune/finetuneFiles';
import { pendingModelNames, startFinetuneOnce } from '../features/finetune/finetuneStart';
import { comparisonLines, readQuestionSetIn, scoringFor, SCORINGS } from '../features/tools/compareCore';
import { fields, optionalBoolean, optionalInteger, optionalString, requiredString, ToolInputProblem } from '../features/tools/toolInput';
import {
  answerLines,
  jobListLines,
  jobStatusLines,
  modelLines,
  reportLines,
  said,
  saidProblem,
  serviceDataLine,
  SERVICE_WORDS,
  startRefusedLines,
} from '../features/tools/toolText';
import { resolveWorkspacePath } from '../features/tools/workspacePath';
import { confirmPaid } from './mcpConfirm';
import type { McpJobs } from './mcpJobs';
import { MCP_DEFAULTS } from './mcpDefaults';
import { clientRoots } from './mcpRoots';

/** What a tool call has to work with. */
export interface ToolContext {
  client: ServiceClient;
  scope: string;
  jobs: McpJobs;
  starting: StartingJobs;
  server: Server;
  signal: AbortSignal;
  /** Where downloads go: the person's choice when starting the server, never the agent's. */
  downloadFolder?: string;
  /** The folders the person gave the server (--root), for a client without roots of its own; never the agent's. */
  roots: readonly string[];
  /** Where comparisons keep their answers (under the server's state folder). */
  comparisonsDir: string;
  log: (line: string) => void;
}

type Tool = (input: unknown, ctx: ToolContext) => Promise<string[]>;

/** The tools that spend compute on the person's account, whose schema gains `confirm`. */
export const PAID_TOOLS: readonly LmToolName[] = [LM_TOOLS.startFinetune, LM_TOOLS.startEvaluation, LM_TOOLS.compareModels];

/** Most paths one call may name, as the extension's tool: the count limit applies after; this bounds a bad call's work. */
const MAX_PATHS = 1000;

/** A start whose answer named no readable job id: the job may exist, and is paid for. */
function mayHaveStarted(what: string): string[] {
  return [
    `${what}: the service answered, but its answer named no job id that could be read, so the job may have started.`,
    'Do not start it again: ask the person to look at their jobs on the service.',
  ];
}

const listModels: Tool = async (_input, ctx) => {
  const list = await ctx.client.listModels({ interactive: true, signal: ctx.signal });
  return modelLines(list, ctx.jobs.list(ctx.scope));
};

const listJobs: Tool = async (_input, ctx) => jobListLines(ctx.jobs.list(ctx.scope), Date.now());

const getJob: Tool = async (input, ctx) => {
  const id = requiredString(fields(input), 'jobId');
  const job = ctx.jobs.list(ctx.scope).find((j) => j.id === id);
  if (!job) {
    return [`No job ${said(id, 100)} was started through this server for this service and key. hosted_list_jobs lists the jobs there are.`];
  }
  return jobStatusLines(isFollowed(job) ? await ctx.jobs.refresh(job, ctx.client, ctx.signal) : job, Date.now());
};

const startFinetune: Tool = async (input, ctx) => {
  const f = fields(input);
  const files = f.files;
  if (!Array.isArray(files) || files.length === 0 || !files.every((x) => typeof x === 'string')) {
    throw new ToolInputProblem('"files" is required: a list of paths of PDF or DOCX files in the workspace.');
  }
  if (files.length > MAX_PATHS) throw new ToolInputProblem(`"files" names more than ${MAX_PATHS} paths.`);
  const defaults = MCP_DEFAULTS.finetune;
  const answers: FinetuneAnswers = {
    baseModel: requiredString(f, 'baseModel'),
    modelName: requiredString(f, 'modelName'),
    numQs: optionalInteger(f, 'numQs', 1, 10_000) ?? defaults.numQs,
    mode: optionalString(f, 'mode') ?? defaults.mode,
    useCase: optionalString(f, 'useCase') ?? defaults.useCase,
  };
  const confirm = optionalBoolean(f, 'confirm');
  const roots = await clientRoots(ctx.server, ctx.roots, ctx.signal);
  if ('problem' in roots) return ['Not started: these files cannot be used.', `- ${roots.problem}`];
  // The extension tool's checks, on paths resolved strictly inside the roots; every file's real path inside one too.
  const problems: string[] = [];
  const sources: { id: string; label: string }[] = [];
  for (const given of files) {
    const resolved = resolveWorkspacePath(given, roots);
    if ('problem' in resolved) problems.push(said(resolved.problem, 400));
    else sources.push({ id: resolved.path, label: resolved.label });
  }
  const checked = await checkFinetuneFiles(sources, defaults, { roots: roots.map((r) => r.path), outsideAllowed: false }, nodeByteReader);
  problems.push(...checked.problems.map((p) => saidProblem(p)));
  if (problems.length > 0) {
    return ['Not started: these files cannot be used.', ...problems.map((p) => `- ${p}`), 'Name only the usable files and call again.'];
  }
  const answerProblems = answersProblems(answers, pendingModelNames(ctx, ctx.scope));
  if (answerProblems.length > 0) return ['Not started: the answers cannot be used.', ...answerProblems.map((p) => `- ${said(p, 300)}`)];
  const total = checked.valid.reduce((s, file) => s + file.size, 0);
  const cost =
    `Finetuning ${said(answers.baseModel, 80)} into ${said(answers.modelName, 80)} uploads ${checked.valid.length} file${checked.valid.length === 1 ? '' : 's'} (${formatBytes(total)}: ` +
    `${checked.valid.map((file) => `${said(file.label, 120)} ${formatBytes(file.size)}`).join(', ')}) and has the service generate ${answers.numQs} questions (mode ${said(answers.mode, 80)}); it spends compute on the person's account.`;
  const confirmation = await confirmPaid(ctx.server, cost, confirm, ctx.signal);
  if ('refused' in confirmation) return confirmation.refused;
  let job;
  try {
    job = await startFinetuneOnce(
      ctx,
      ctx,
      checked.valid,
      checked.valid.map((file) => file.id),
      answers,
      { signal: ctx.signal },
    );
  } catch (error) {
    if (error instanceof StartRefusedError) return startRefusedLines(error);
    if (error instanceof ContractError) return mayHaveStarted('Starting the finetune');
    throw error;
  }
  return [
    `Started: job ${said(job.id, 100)} creates ${said(job.modelName)} from ${said(answers.baseModel)} with ${checked.valid.length} file${checked.valid.length === 1 ? '' : 's'} (${formatBytes(total)}).`,
    `Poll with hosted_get_job (jobId ${said(job.id, 100)}): a finetune takes minutes.`,
    serviceDataLine(SERVICE_WORDS.started),
  ];
};

const startEvaluation: Tool = async (input, ctx) => {
  const f = fields(input);
  const modelName = requiredString(f, 'modelName');
  const datasetName = requiredString(f, 'datasetName');
  const startAnother = optionalBoolean(f, 'startAnother') ?? false;
  const confirm = optionalBoolean(f, 'confirm');
  const cost = `${startAnother ? 'Another evaluation' : 'An evaluation'} of the model ${said(modelName, 80)} on the dataset ${said(datasetName, 80)} has the service answer every question of the dataset${startAnother ? ', even while one is running' : ''}; it spends compute on the person's account.`;
  const confirmation = await confirmPaid(ctx.server, cost, confirm, ctx.signal);
  if ('refused' in confirmation) return confirmation.refused;
  let jobId;
  try {
    jobId = await submitEvaluationOnce(ctx, ctx, modelName, datasetName, { signal: ctx.signal, startAnother });
  } catch (error) {
    if (error instanceof StartRefusedError) return startRefusedLines(error);
    if (error instanceof ContractError) return mayHaveStarted('Starting the evaluation');
    throw error;
  }
  return [
    `Started: job ${said(jobId, 100)} evaluates ${said(modelName)} on ${said(datasetName, 100)}.`,
    `Poll with hosted_get_job (jobId ${said(jobId, 100)}); once it completed, hosted_get_evaluation_report (modelName ${said(modelName)}) compares it with its base.`,
    serviceDataLine(SERVICE_WORDS.started),
  ];
};

const getEvaluationReport: Tool = async (input, ctx) => {
  const modelName = requiredString(fields(input), 'modelName');
  // The base the service lists, for a model tuned elsewhere; a list that cannot be read only leaves that out.
  const listed = await ctx.client.listModels({ signal: ctx.signal }).catch(() => undefined);
  const view = buildReportView({
    records: ctx.jobs.list(ctx.scope),
    modelName,
    listedBase: listed?.find((m) => m.name === modelName)?.baseModel,
  });
  return reportLines(view);
};

const downloadModel: Tool = async (input, ctx) => {
  const modelName = requiredString(fields(input), 'modelName');
  if (!ctx.downloadFolder) {
    return [
      'Not downloaded: this server was started without a download folder, and it never lets a tool choose where files go.',
      'Ask the person to give the server a download folder in its configuration (see the README, "MCP server"), or to download the model themselves.',
    ];
  }
  // The client's download: the part file and its lock (one writer across processes), the resume, the verification.
  const outcome = await ctx.client.download(modelName, { directory: ctx.downloadFolder, signal: ctx.signal });
  return [
    `Downloaded ${said(modelName)}: ${said(outcome.path, 400)} (${formatBytes(outcome.bytes)}, checked by ${outcome.verified}${outcome.resumedFrom > 0 ? `, resumed from ${formatBytes(outcome.resumedFrom)}` : ''}).`,
    serviceDataLine(SERVICE_WORDS.download),
  ];
};

const askModel: Tool = async (input, ctx) => {
  const f = fields(input);
  const modelName = requiredString(f, 'modelName');
  const prompt = requiredString(f, 'prompt');
  const withReasoning = optionalBoolean(f, 'includeReasoning') ?? false;
  let knobs;
  try {
    knobs = knobsFor(f, MCP_DEFAULTS.chat);
  } catch (e) {
    throw new ToolInputProblem(e instanceof Error ? e.message : String(e));
  }
  const request = { modelName, ...renderConversation([{ role: 'user', text: prompt }]), ...knobs, stream: true };
  const { answer, reasoning } = await collectInference(
    ctx.client.infer(request, { signal: ctx.signal, interactive: true, maxServiceWaitMs: SILENT_SERVICE_WAIT_MS }),
  );
  return answerLines(modelName, answer, reasoning, withReasoning);
};

const compareModels: Tool = async (input, ctx) => {
  const f = fields(input);
  const file = requiredString(f, 'file');
  const models = f.models;
  if (!Array.isArray(models) || models.length < 2 || !models.every((m) => typeof m === 'string' && m.trim() !== '')) {
    throw new ToolInputProblem('models must be two or more model names, the model to judge first (the tuned one, then its base).');
  }
  const scoringAsked = optionalString(f, 'scoring');
  if (scoringAsked !== undefined && !SCORINGS.includes(scoringAsked as Scoring)) {
    throw new ToolInputProblem(`scoring must be one of ${SCORINGS.join(', ')}.`);
  }
  const judgeModel = optionalString(f, 'judgeModel');
  const confirm = optionalBoolean(f, 'confirm');
  const req = {
    models: [...new Set(models as string[])],
    ...(scoringAsked && { scoring: scoringAsked as Scoring }),
    ...(judgeModel && { judgeModel }),
  };
  const roots = await clientRoots(ctx.server, ctx.roots, ctx.signal);
  if ('problem' in roots) return ['Not started: the question set cannot be used.', `- ${said(roots.problem, 600)}`];
  const read = await readQuestionSetIn(file, roots);
  if ('problem' in read) return ['Not started: the question set cannot be used.', `- ${said(read.problem, 600)}`];
  const scoring = scoringFor(req, read.set);
  if (typeof scoring !== 'string') return [`Not started: ${scoring.problem}`];
  const { answers, judge } = requestCounts({ items: read.set.items, models: req.models, scoring });
  const cost = `Comparing ${req.models.map((m) => said(m, 80)).join(', ')} on ${said(read.label, 120)} sends ${answers + judge} requests to the service (${read.set.items.length} questions × ${req.models.length} models${judge > 0 ? `, plus ${judge} judge requests` : ''}); each answer spends compute on the person's account.`;
  const confirmation = await confirmPaid(ctx.server, cost, confirm, ctx.signal);
  if ('refused' in confirmation) return confirmation.refused;
  const knobs = MCP_DEFAULTS.chat;
  const spec: ComparisonSpec = {
    id: `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`,
    setName: read.label,
    createdAt: Date.now(),
    scope: ctx.scope,
    models: req.models,
    scoring,
    ...(req.judgeModel !== undefined && {
      judgeModel: req.judgeModel,
      judgePrompt: scoring === 'pairwise' ? DEFAULT_PAIRWISE_PROMPT : DEFAULT_JUDGE_PROMPT,
    }),
    knobs,
    items: read.set.items,
  };
  const log = ComparisonLog.create(ctx.comparisonsDir, spec);
  const result = await runComparison({
    log,
    concurrency: MCP_DEFAULTS.compareConcurrency,
    signal: ctx.signal,
    warn: ctx.log,
    infer: (r, signal) => collectInference(ctx.client.infer({ ...r, ...knobs, stream: false }, { signal })),
  });
  return comparisonLines(spec, read.label, summarize(spec, log.entries()), result.cancelled);
};

export const MCP_TOOLS: Readonly<Record<LmToolName, Tool>> = {
  [LM_TOOLS.listModels]: listModels,
  [LM_TOOLS.listJobs]: listJobs,
  [LM_TOOLS.getJob]: getJob,
  [LM_TOOLS.startFinetune]: startFinetune,
  [LM_TOOLS.startEvaluation]: startEvaluation,
  [LM_TOOLS.getEvaluationReport]: getEvaluationReport,
  [LM_TOOLS.downloadModel]: downloadModel,
  [LM_TOOLS.askModel]: askModel,
  [LM_TOOLS.compareModels]: compareModels,
};
