// hosted_compare_models: a comparison of two or more models on a question set in the workspace, through the command's
// own pieces (questionSet.ts, compareRun.ts, compareSummary.ts), for an agent. The path is the model's text: resolved
// strictly inside the workspace folders (workspacePath.ts) and by its real path (no link out), read only in a trusted
// workspace, as the finetune tool reads its files. The confirmation says the count of requests before anything is
// sent. The run is kept as the command keeps it, so a cancelled one is resumed by Compare Models on Questions….
import * as vscode from 'vscode';
import { collectInference } from '../../api/client';
import type { Services } from '../../services';
import { markdownLiteral } from '../../util/untrustedText';
import { comparisonsRoot, compareConcurrency, requestCountWords } from '../evaluate/compare/compareCommand';
import { ComparisonLog, type ComparisonSpec, type Scoring } from '../evaluate/compare/comparisonLog';
import { summarize } from '../evaluate/compare/compareSummary';
import { DEFAULT_JUDGE_PROMPT, DEFAULT_PAIRWISE_PROMPT } from '../evaluate/compare/judging';
import type { QuestionSet } from '../evaluate/compare/questionSet';
import { abortOn, fields, optionalString, requiredString, runTool, said, textResult, ToolInputProblem } from './toolShared';
import type { WorkspaceRoot } from './workspacePath';
import { comparisonLines, readQuestionSetIn, scoringFor, SCORINGS } from './compareCore';

interface Request {
  file: string;
  models: string[];
  scoring?: Scoring;
  judgeModel?: string;
}

function request(input: unknown): Request {
  const f = fields(input);
  const file = requiredString(f, 'file');
  const models = f.models;
  if (!Array.isArray(models) || models.length < 2 || !models.every((m) => typeof m === 'string' && m.trim() !== '')) {
    throw new ToolInputProblem('models must be two or more model names, the model to judge first (the tuned one, then its base).');
  }
  const scoring = optionalString(f, 'scoring');
  if (scoring !== undefined && !SCORINGS.includes(scoring as Scoring)) {
    throw new ToolInputProblem(`scoring must be one of ${SCORINGS.join(', ')}.`);
  }
  const judgeModel = optionalString(f, 'judgeModel');
  return {
    file,
    models: [...new Set(models as string[])],
    ...(scoring && { scoring: scoring as Scoring }),
    ...(judgeModel && { judgeModel }),
  };
}

/** The set the path names, inside the workspace folders, read after its checks; or why not. */
function readSet(given: string): Promise<{ set: QuestionSet; label: string } | { problem: string }> {
  const roots: WorkspaceRoot[] = (vscode.workspace.workspaceFolders ?? [])
    .filter((w) => w.uri.scheme === 'file')
    .map((w) => ({ name: w.name, path: w.uri.fsPath }));
  return readQuestionSetIn(given, roots);
}

export function compareModelsTool(services: Services): vscode.LanguageModelTool<unknown> {
  const untrusted = () =>
    textResult([
      'Not started: this workspace is in Restricted Mode, and its files are not read for the service from there.',
      'Ask the person to trust the workspace (Manage Workspace Trust) if they mean to compare on its questions.',
    ]);
  return {
    prepareInvocation: async (options) => {
      if (!vscode.workspace.isTrusted) return { invocationMessage: vscode.l10n.t('Refusing to read workspace files in Restricted Mode') };
      let req: Request;
      try {
        req = request(options.input);
      } catch {
        return { invocationMessage: vscode.l10n.t('Checking the comparison request') };
      }
      const read = await readSet(req.file);
      if ('problem' in read) return { invocationMessage: vscode.l10n.t('Checking the question set') };
      const scoring = scoringFor(req, read.set);
      if (typeof scoring !== 'string') return { invocationMessage: vscode.l10n.t('Checking the comparison request') };
      const count = requestCountWords({ items: read.set.items, models: req.models, scoring });
      return {
        invocationMessage: vscode.l10n.t('Comparing {0} models on {1} questions', req.models.length, read.set.items.length),
        confirmationMessages: {
          title: vscode.l10n.t('Compare {0} on {1}?', said(req.models.join(', '), 200), said(read.label, 120)),
          message: new vscode.MarkdownString(
            vscode.l10n.t(
              '{0}. Models: {1}. Scoring: {2}{3}. Each answer spends compute on your account.',
              count,
              req.models.map((m) => markdownLiteral(m, 80)).join(', '),
              scoring,
              req.judgeModel ? vscode.l10n.t(' by {0}', markdownLiteral(req.judgeModel, 80)) : '',
            ),
          ),
        },
      };
    },
    invoke: (options, token) =>
      runTool('Comparing the models', async () => {
        if (!vscode.workspace.isTrusted) return untrusted();
        const req = request(options.input);
        const read = await readSet(req.file);
        if ('problem' in read) return textResult(['Not started: the question set cannot be used.', `- ${said(read.problem, 600)}`]);
        const scoring = scoringFor(req, read.set);
        if (typeof scoring !== 'string') return textResult([`Not started: ${scoring.problem}`]);
        const { client } = await services.session.connect();
        const chat = services.session.settings().chat;
        const scope = await services.session.scope();
        const spec: ComparisonSpec = {
          id: `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`,
          setName: read.label,
          createdAt: Date.now(),
          ...(scope !== undefined && { scope }),
          models: req.models,
          scoring,
          ...(req.judgeModel !== undefined && {
            judgeModel: req.judgeModel,
            judgePrompt: scoring === 'pairwise' ? DEFAULT_PAIRWISE_PROMPT : DEFAULT_JUDGE_PROMPT,
          }),
          knobs: {
            useRag: chat.useRag,
            sequentialBudget: chat.sequentialBudget,
            parallelBudget: chat.parallelBudget,
            temperature: chat.temperature,
          },
          items: read.set.items,
        };
        const log = ComparisonLog.create(comparisonsRoot(services), spec);
        const cancel = abortOn(token);
        let result;
        try {
          // A run of this window's registry: the Jobs view and the status bar show it while it runs.
          result = await services.comparisons.run(log, {
            concurrency: compareConcurrency(),
            signal: cancel.signal,
            infer: (r, signal) => collectInference(client.infer({ ...r, ...spec.knobs, stream: false }, { signal })),
          });
        } finally {
          cancel.dispose();
        }
        const lines = comparisonLines(spec, read.label, summarize(spec, log.entries()), result.cancelled, 'Compare Models on Questions…');
        return textResult(lines);
      }),
  };
}
