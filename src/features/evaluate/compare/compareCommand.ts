// Compare Models on Questions…: a person's question set from the workspace (the Explorer's selection or a file chosen
// in a dialog: never a path from the command's arguments), two or more models (a tuned model and its base first, from
// the jobs that made them), the scoring, then the count of requests to confirm before anything is sent. The run shows
// done/total and time left, can be cancelled, and keeps each finished request (compareRun.ts); the command offers to
// resume an unfinished comparison first. The result is said in words and shown in the evaluation report of the first
// model (its page writes every answer as text: no markdown is rendered and no link is live); exports on request. The
// models' answers stay inert: notifications go through notify.ts.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { collectInference, type ServiceClient } from '../../../api/client';
import { COMMANDS } from '../../../contributions';
import type { Services } from '../../../services';
import { showErrorMessage, showInformationMessage, showWarningMessage, withProgress } from '../../../util/notify';
import { untrustedText } from '../../../util/untrustedText';
import { explorerSelection } from '../../finetune/finetuneSources';
import type { ModelsTreeProvider } from '../../models/modelsTree';
import type { ReportPanel } from '../report/host/reportPanel';
import { ComparisonLog, type ComparisonSpec, type Scoring } from './comparisonLog';
import { comparisonRunning, ComparisonRunningError } from './comparisonHold';
import { comparisonLeftMs } from './comparisonRuns';
import { timeLeftText } from '../../../jobs/timeLeft';
import { comparisonCsv, comparisonJsonl, comparisonMarkdown } from './compareExport';
import { requestCounts, DEFAULT_COMPARE_CONCURRENCY, type RunResult } from './compareRun';
import { summarize, type ComparisonSummary } from './compareSummary';
import { DEFAULT_JUDGE_PROMPT, DEFAULT_PAIRWISE_PROMPT } from './judging';
import { checkQuestionSetSize, parseQuestionSet, questionSetFormat, QuestionSetError, type QuestionSet } from './questionSet';

export const MAX_COMPARE_CONCURRENCY = 16;

/** Where comparisons are kept: the extension's own global storage, never the workspace. */
export function comparisonsRoot(services: Services): string {
  return path.join(services.context.globalStorageUri.fsPath, 'comparisons');
}

export function compareConcurrency(): number {
  const v = vscode.workspace.getConfiguration('hostedReasoning').get<unknown>('compare.concurrency');
  return typeof v === 'number' && Number.isInteger(v) ? Math.min(MAX_COMPARE_CONCURRENCY, Math.max(1, v)) : DEFAULT_COMPARE_CONCURRENCY;
}

function judgePromptSetting(scoring: Scoring): string {
  const key = scoring === 'pairwise' ? 'compare.pairwisePrompt' : 'compare.judgePrompt';
  const v = vscode.workspace.getConfiguration('hostedReasoning').get<unknown>(key);
  return typeof v === 'string' && v.trim() !== '' ? v : scoring === 'pairwise' ? DEFAULT_PAIRWISE_PROMPT : DEFAULT_JUDGE_PROMPT;
}

export function compareCommand(services: Services, models: ModelsTreeProvider) {
  return {
    [COMMANDS.compareOnQuestions]: (first?: unknown, second?: unknown) => compareOnQuestions(services, models, first, second),
  };
}

async function compareOnQuestions(services: Services, models: ModelsTreeProvider, first: unknown, second: unknown): Promise<void> {
  const selection = explorerSelection(first, second);
  if (!selection) {
    const resumed = await offerResume(services);
    if (resumed !== 'new') return;
  }
  const file = selection ? selection.find((u) => vscode.workspace.getWorkspaceFolder(u) !== undefined) : await chooseFile();
  if (!file) {
    if (selection) void showWarningMessage(vscode.l10n.t('Only a question set inside this workspace can be compared on.'));
    return;
  }
  const label = vscode.workspace.asRelativePath(file);
  const set = await readQuestionSet(file, label);
  if (!set) return;
  const chosen = await chooseModels(services, models, set);
  if (!chosen) return;
  const scoring = await chooseScoring(set);
  if (!scoring) return;
  let judgeModel: string | undefined;
  if (scoring === 'judge' || scoring === 'pairwise') {
    judgeModel = await chooseOne(models, vscode.l10n.t('Which model judges the answers?'));
    if (!judgeModel) return;
  }
  const chat = services.session.settings().chat;
  const scope = await services.session.scope();
  const spec: ComparisonSpec = {
    id: `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`,
    setName: label,
    createdAt: Date.now(),
    ...(scope !== undefined && { scope }),
    models: chosen,
    scoring,
    ...(judgeModel !== undefined && { judgeModel, judgePrompt: judgePromptSetting(scoring) }),
    knobs: {
      useRag: chat.useRag,
      sequentialBudget: chat.sequentialBudget,
      parallelBudget: chat.parallelBudget,
      temperature: chat.temperature,
    },
    items: set.items,
  };
  if (!(await confirm(spec))) return;
  const log = ComparisonLog.create(comparisonsRoot(services), spec);
  await runAndReport(services, log, false);
}

/** "240 requests to the service: 120 questions × 2 models, plus 240 judge requests". */
export function requestCountWords(spec: Pick<ComparisonSpec, 'items' | 'models' | 'scoring'>): string {
  const { answers, judge } = requestCounts(spec);
  const base = vscode.l10n.t(
    '{0} requests to the service: {1} questions × {2} models',
    answers + judge,
    spec.items.length,
    spec.models.length,
  );
  return judge > 0 ? `${base}${vscode.l10n.t(', plus {0} judge requests', judge)}` : base;
}

async function confirm(spec: ComparisonSpec): Promise<boolean> {
  const send = vscode.l10n.t('Send');
  const detail = vscode.l10n.t(
    'Models: {0}. Temperature {1}, budgets {2} sequential × {3} parallel, RAG {4} (the Chat settings). At most {5} at once.',
    spec.models.join(', '),
    spec.knobs.temperature,
    spec.knobs.sequentialBudget,
    spec.knobs.parallelBudget,
    spec.knobs.useRag ? vscode.l10n.t('on') : vscode.l10n.t('off'),
    compareConcurrency(),
  );
  const choice = await showWarningMessage(`${requestCountWords(spec)}.`, { modal: true, detail: untrustedText(detail) }, send);
  return choice === send;
}

async function chooseFile(): Promise<vscode.Uri | undefined> {
  const picked = await vscode.window.showOpenDialog({
    canSelectMany: false,
    openLabel: vscode.l10n.t('Compare on These Questions'),
    filters: { [vscode.l10n.t('Question sets')]: ['jsonl', 'csv', 'md'] },
    ...(vscode.workspace.workspaceFolders?.[0] && { defaultUri: vscode.workspace.workspaceFolders[0].uri }),
  });
  return picked?.[0];
}

export async function readQuestionSet(file: vscode.Uri, label: string): Promise<QuestionSet | undefined> {
  const format = questionSetFormat(file.path);
  try {
    if (!format) throw new QuestionSetError(vscode.l10n.t('A question set is a .jsonl, .csv or .md file.'));
    checkQuestionSetSize((await vscode.workspace.fs.stat(file)).size);
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
    return parseQuestionSet(text, format);
  } catch (error) {
    const words = error instanceof Error ? error.message : String(error);
    void showErrorMessage(vscode.l10n.t('Cannot compare on {0}: {1}', label, words));
    return undefined;
  }
}

/** The tuned model the newest finished finetune here made, with its base, when both are listed. */
function tunedAndBase(services: Services, scope: string | undefined, listed: readonly string[]): string[] {
  const made = (scope ? services.jobs.list(scope) : [])
    .filter((j) => j.kind === 'finetune' && j.state === 'completed' && j.baseModel !== undefined && listed.includes(j.modelName))
    .sort((a, b) => b.createdAt - a.createdAt)[0];
  return made ? [made.modelName, made.baseModel!] : [];
}

async function chooseModels(services: Services, models: ModelsTreeProvider, set: QuestionSet): Promise<string[] | undefined> {
  await models.load();
  const listed = (models.models ?? []).map((m) => m.name);
  if (listed.length < 2) {
    void showErrorMessage(vscode.l10n.t('A comparison needs two models listed by the service; the list has {0}.', listed.length));
    return undefined;
  }
  const first = tunedAndBase(services, await services.session.scope(), listed);
  const ordered = [...first, ...listed.filter((n) => !first.includes(n))];
  type Item = vscode.QuickPickItem & { name: string };
  const items: Item[] = ordered.map((name, i) => ({
    name,
    label: untrustedText(name),
    ...(i < first.length && { description: i === 0 ? vscode.l10n.t('tuned') : vscode.l10n.t('its base'), picked: true }),
  }));
  const columns = set.expectedColumn
    ? vscode.l10n.t('{0} questions ("{1}"), expected answers ("{2}")', set.items.length, set.questionColumn, set.expectedColumn)
    : vscode.l10n.t('{0} questions ("{1}"), no expected answers', set.items.length, set.questionColumn);
  const picked = await vscode.window.showQuickPick(items, {
    canPickMany: true,
    title: vscode.l10n.t('Compare which models? The first is compared with each other one.'),
    placeHolder: untrustedText(columns),
    ignoreFocusOut: true,
  });
  if (!picked) return undefined;
  if (picked.length < 2) {
    void showWarningMessage(vscode.l10n.t('Choose two models or more.'));
    return undefined;
  }
  return ordered.filter((n) => picked.some((p) => p.name === n));
}

async function chooseScoring(set: QuestionSet): Promise<Scoring | undefined> {
  type Item = vscode.QuickPickItem & { scoring: Scoring };
  const items: Item[] = set.expectedColumn
    ? [
        {
          scoring: 'normalized',
          label: vscode.l10n.t('Normalized match'),
          description: vscode.l10n.t('case, spacing, punctuation and number formats ignored'),
        },
        { scoring: 'exact', label: vscode.l10n.t('Exact match'), description: vscode.l10n.t('the whole answer as written') },
        {
          scoring: 'judge',
          label: vscode.l10n.t('Judge model'),
          description: vscode.l10n.t('a model says whether each answer means the expected one'),
        },
      ]
    : [
        {
          scoring: 'pairwise',
          label: vscode.l10n.t('Pairwise judge'),
          description: vscode.l10n.t('no expected answers: a model says which answer is better, asked in both orders'),
        },
      ];
  const picked = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('How are the answers scored?'), ignoreFocusOut: true });
  return picked?.scoring;
}

async function chooseOne(models: ModelsTreeProvider, title: string): Promise<string | undefined> {
  const names = (models.models ?? []).map((m) => m.name);
  const picked = await vscode.window.showQuickPick(
    names.map((name) => ({ label: untrustedText(name), name })),
    { title, ignoreFocusOut: true },
  );
  return picked?.name;
}

/** Offers the unfinished comparisons kept here; 'new' when the person starts another (or there is none). */
async function offerResume(services: Services): Promise<'new' | 'done' | undefined> {
  const unfinished: { log: ComparisonLog; s: ComparisonSummary }[] = [];
  for (const log of ComparisonLog.list(comparisonsRoot(services))) {
    // One running now (here or in another window) is not unfinished: resuming it would send its requests twice.
    if (await comparisonRunning(log.dir)) continue;
    const s = summarize(log.spec, log.entries());
    if (s.missing > 0 || s.failed > 0) unfinished.push({ log, s });
  }
  if (unfinished.length === 0) return 'new';
  type Item = vscode.QuickPickItem & { log?: ComparisonLog; retry?: boolean };
  const items: Item[] = [
    { label: vscode.l10n.t('$(add) A new comparison…') },
    ...unfinished.map(({ log, s }) => ({
      log,
      retry: s.missing === 0,
      label: untrustedText(
        s.missing > 0 ? vscode.l10n.t('Resume {0}', log.spec.setName) : vscode.l10n.t('Retry the failed requests of {0}', log.spec.setName),
      ),
      description: untrustedText(vscode.l10n.t('{0}; {1} requests missing, {2} failed', log.spec.models.join(' vs '), s.missing, s.failed)),
    })),
  ];
  const picked = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Compare Models on Questions'), ignoreFocusOut: true });
  if (!picked) return undefined;
  if (!picked.log) return 'new';
  await runAndReport(services, picked.log, picked.retry === true);
  return 'done';
}

/** Runs (or resumes) a comparison with a cancellable progress notification, then says what it found. */
export async function runAndReport(services: Services, log: ComparisonLog, retryFailed: boolean): Promise<RunResult | undefined> {
  let connection;
  try {
    connection = await services.session.connect();
  } catch (error) {
    void showErrorMessage(vscode.l10n.t('Cannot compare: {0}', error instanceof Error ? error.message : String(error)));
    return undefined;
  }
  const { client } = connection;
  let result: RunResult;
  try {
    result = await runWithProgress(services, log, retryFailed, client);
  } catch (error) {
    if (!(error instanceof ComparisonRunningError)) throw error;
    void showWarningMessage(error.message);
    return undefined;
  }
  await sayResult(services, log, summarize(log.spec, log.entries()), result);
  return result;
}

function runWithProgress(services: Services, log: ComparisonLog, retryFailed: boolean, client: ServiceClient): Thenable<RunResult> {
  const knobs = log.spec.knobs;
  return withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: vscode.l10n.t('Comparing on {0}', log.spec.setName),
      cancellable: true,
    },
    async (progress, token) => {
      const stop = new AbortController();
      const cancel = token.onCancellationRequested(() => stop.abort());
      let shown = 0;
      try {
        // A run of this window's registry: the Jobs view and the status bar show it, and a row's Cancel stops it too.
        return await services.comparisons.run(log, {
          concurrency: compareConcurrency(),
          signal: stop.signal,
          retryFailed,
          warn: (m) => services.log.warn(m),
          infer: (r, signal) => collectInference(client.infer({ ...r, ...knobs, stream: false }, { signal })),
          onProgress: (done, total) => {
            const share = total ? (done / total) * 100 : 100;
            const run = services.comparisons.get(log.dir);
            const leftMs = run && comparisonLeftMs(run, Date.now());
            progress.report({
              increment: share - shown,
              message:
                leftMs === undefined
                  ? vscode.l10n.t('{0} of {1}', done, total)
                  : vscode.l10n.t('{0} of {1}, {2}', done, total, timeLeftText({ lowMs: leftMs, highMs: leftMs })),
            });
            shown = share;
          },
        });
      } finally {
        cancel.dispose();
      }
    },
  );
}

async function sayResult(services: Services, log: ComparisonLog, summary: ComparisonSummary, result: RunResult): Promise<void> {
  const open = vscode.l10n.t('Open Result');
  const exportAs = vscode.l10n.t('Export…');
  const retry = vscode.l10n.t('Retry Failed');
  const resume = vscode.l10n.t('Resume');
  const head = result.cancelled
    ? vscode.l10n.t('Comparison cancelled: {0} requests missing, kept for Resume.', summary.missing)
    : summary.failed > 0
      ? vscode.l10n.t("Comparison done with {0} failed requests (kept with the service's words).", summary.failed)
      : vscode.l10n.t('Comparison done.');
  const text = [head, ...summary.pairs.map((p) => p.sentence)].join(' ');
  const buttons = [open, exportAs, ...(summary.failed > 0 ? [retry] : []), ...(summary.missing > 0 ? [resume] : [])];
  const choice = await showInformationMessage(text, ...buttons);
  if (choice === open) await openResult(log);
  else if (choice === exportAs) await exportResult(log, summary);
  else if (choice === retry) await runAndReport(services, log, true);
  else if (choice === resume) await runAndReport(services, log, false);
}

/** The evaluation report of the comparison's first model, which shows the comparisons that name it. */
export async function openResult(log: ComparisonLog): Promise<void> {
  const panel = await vscode.commands.executeCommand<ReportPanel | undefined>(COMMANDS.openEvaluationReport, log.spec.models[0]);
  // A report already open shows the comparison once it renders again.
  await panel?.render();
}

async function exportResult(log: ComparisonLog, summary: ComparisonSummary): Promise<void> {
  const target = await vscode.window.showSaveDialog({
    filters: { CSV: ['csv'], [vscode.l10n.t('JSON Lines')]: ['jsonl'], Markdown: ['md'] },
    saveLabel: vscode.l10n.t('Export'),
  });
  if (!target) return;
  const ext = path.extname(target.path).toLowerCase();
  const text =
    ext === '.csv' ? comparisonCsv(log.spec, summary) : ext === '.jsonl' ? comparisonJsonl(summary) : comparisonMarkdown(log.spec, summary);
  await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(text));
}
