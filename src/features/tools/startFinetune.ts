// hosted_start_finetune: a new tuned model from workspace documents the model names. The wizard's checks, all of them
// (finetuneFiles.ts: real PDF/DOCX by their bytes, size and count limits, a link as the file refused, its real path
// inside a workspace folder), on paths resolved strictly inside the workspace folders (workspacePath.ts); the wizard's
// rules for the answers (finetuneAnswers.ts); the command's upload and job record (startFinetuneJob). It returns the
// job id at once, never waiting for the job: an agent's turn is bounded, a finetune takes minutes.
// Only in a trusted workspace: the documents go to the service, and a Restricted Mode workspace may have put them
// there for that. The manifest hides the tool there (`when: isWorkspaceTrusted`); called anyway, it refuses.
// prepareInvocation reads the files (their sizes and first bytes, no side effect) so that the confirmation names each
// file with its size, the base model and the new name, exactly what will be sent, and the wizard's pre-flight read
// (issue 29: pages or paragraphs, words, the warnings before paying), bounded to a few seconds so that the
// confirmation always shows (preflightConfirmation.ts); invoke checks the files again (they may have changed since).
import * as vscode from 'vscode';
import type { Services } from '../../services';
import { StartRefusedError } from '../../jobs/startingJobs';
import { formatBytes } from '../../util/byteSize';
import { markdownLiteral } from '../../util/untrustedText';
import { answersProblems, type FinetuneAnswers } from '../finetune/finetuneAnswers';
import { checkFinetuneFiles, nodeByteReader, type CheckedFile } from '../finetune/finetuneFiles';
import { confirmationPreflight, readForConfirmation } from '../finetune/preflightConfirmation';
import { keepUnreadableStart } from '../../jobs/unreadableStarts';
import { pendingModelNames, startedRecord, startFinetuneJob } from '../finetune/finetuneCommand';
import {
  fields,
  mayHaveStartedLines,
  optionalInteger,
  optionalString,
  requiredString,
  runTool,
  said,
  saidProblem,
  serviceDataLine,
  SERVICE_WORDS,
  textResult,
  ToolInputProblem,
} from './toolShared';
import { resolveWorkspacePath, type WorkspaceRoot } from './workspacePath';
import { startRefusedLines } from './toolText';

/** Most paths one call may name: the count limit (a setting) applies after; this only bounds the work of a bad call. */
const MAX_PATHS = 1000;

interface Request {
  paths: string[];
  answers: FinetuneAnswers;
}

type Checked = { files: CheckedFile[] } | { problems: string[] };

export function startFinetuneTool(services: Services): vscode.LanguageModelTool<unknown> {
  const request = (input: unknown): Request => {
    const f = fields(input);
    const files = f.files;
    if (!Array.isArray(files) || files.length === 0 || !files.every((x) => typeof x === 'string')) {
      throw new ToolInputProblem('"files" is required: a list of paths of PDF or DOCX files in the workspace.');
    }
    if (files.length > MAX_PATHS) throw new ToolInputProblem(`"files" names more than ${MAX_PATHS} paths.`);
    const defaults = services.session.settings().finetune;
    return {
      paths: files,
      answers: {
        baseModel: requiredString(f, 'baseModel'),
        modelName: requiredString(f, 'modelName'),
        numQs: optionalInteger(f, 'numQs', 1, 10_000) ?? defaults.numQs,
        mode: optionalString(f, 'mode') ?? defaults.mode,
        useCase: optionalString(f, 'useCase') ?? defaults.useCase,
      },
    };
  };

  /** The named files, resolved inside the workspace and checked as the wizard checks them. */
  const check = async (paths: readonly string[]): Promise<Checked> => {
    const roots: WorkspaceRoot[] = (vscode.workspace.workspaceFolders ?? [])
      .filter((w) => w.uri.scheme === 'file')
      .map((w) => ({ name: w.name, path: w.uri.fsPath }));
    const problems: string[] = [];
    const sources: { id: string; label: string }[] = [];
    for (const given of paths) {
      const resolved = resolveWorkspacePath(given, roots);
      if ('problem' in resolved) problems.push(said(resolved.problem, 400));
      else sources.push({ id: resolved.path, label: resolved.label });
    }
    const limits = services.session.settings().finetune;
    // Not outsideAllowed: every file's real path must be inside a workspace folder.
    const result = await checkFinetuneFiles(sources, limits, { roots: roots.map((r) => r.path), outsideAllowed: false }, nodeByteReader);
    problems.push(...result.problems.map((p) => saidProblem(p)));
    if (problems.length > 0) return { problems };
    return { files: result.valid };
  };

  const untrusted = () =>
    textResult([
      'Not started: this workspace is in Restricted Mode, and its documents are not sent to the service from there.',
      'Ask the person to trust the workspace (Manage Workspace Trust) if they mean to finetune on its files.',
    ]);

  return {
    prepareInvocation: async (options, token) => {
      if (!vscode.workspace.isTrusted) return { invocationMessage: vscode.l10n.t('Refusing to finetune in Restricted Mode') };
      let req: Request;
      try {
        req = request(options.input);
      } catch {
        return { invocationMessage: vscode.l10n.t('Checking the finetune request') };
      }
      const checked = await check(req.paths);
      if ('problems' in checked) return { invocationMessage: vscode.l10n.t('Checking the files to finetune on') };
      const total = checked.files.reduce((s, f) => s + f.size, 0);
      const a = req.answers;
      // The wizard's pre-flight read (a child process), bounded: the confirmation shows whatever the read does.
      const stop = new AbortController();
      const cancelled = token.onCancellationRequested(() => stop.abort());
      let read;
      try {
        read = await readForConfirmation(
          checked.files.map((f) => ({ path: f.id, kind: f.kind, label: f.label })),
          { signal: stop.signal },
        );
      } finally {
        cancelled.dispose();
      }
      // Markdown (lists): each name the workspace or the model wrote is shown as exactly its characters.
      const shown = confirmationPreflight(checked.files, read, a.numQs);
      const details = [
        shown.list.join('\n'),
        ...(shown.warnings.length > 0
          ? [vscode.l10n.t('Before you pay, {0} to check:', shown.warnings.length), shown.warnings.join('\n')]
          : []),
        ...(shown.note !== undefined ? [shown.note] : []),
      ].join('\n\n');
      return {
        invocationMessage: vscode.l10n.t('Uploading {0} files to create {1}', checked.files.length, said(a.modelName, 80)),
        confirmationMessages: {
          title: vscode.l10n.t('Finetune {0} into {1}?', said(a.baseModel, 80), said(a.modelName, 80)),
          message: new vscode.MarkdownString(
            vscode.l10n.t(
              'Uploads these {0} files ({1}) to the service, which creates the model {2} from the base model {3} ({4} questions, mode {5}). The finetune spends compute on your account.\n\n{6}',
              checked.files.length,
              formatBytes(total),
              markdownLiteral(a.modelName, 80),
              markdownLiteral(a.baseModel, 80),
              a.numQs,
              markdownLiteral(a.mode, 80),
              details,
            ),
          ),
        },
      };
    },
    invoke: (options, token) =>
      runTool('Starting the finetune', async () => {
        if (!vscode.workspace.isTrusted) return untrusted();
        const req = request(options.input);
        const checked = await check(req.paths);
        if ('problems' in checked) {
          return textResult([
            'Not started: these files cannot be used.',
            ...checked.problems.map((p) => `- ${p}`),
            'Name only the usable files and call again.',
          ]);
        }
        const connection = await services.session.connect();
        const problems = answersProblems(req.answers, pendingModelNames(services, connection.scope));
        if (problems.length > 0) {
          return textResult(['Not started: the answers cannot be used.', ...problems.map((p) => `- ${said(p, 300)}`)]);
        }
        // Every byte out, the service may be creating the job: aborting then would lose its id (a paid job nobody
        // follows), so a late cancellation waits for the answer and the job is recorded.
        const controller = new AbortController();
        let allSent = false;
        const cancel = token.onCancellationRequested(() => {
          if (!allSent) controller.abort();
        });
        if (token.isCancellationRequested) controller.abort();
        let job;
        try {
          job = await startFinetuneJob(
            services,
            connection,
            checked.files,
            checked.files.map((f) => f.id),
            req.answers,
            {
              signal: controller.signal,
              onProgress: ({ sent, total }) => {
                if (sent >= total) allSent = true;
              },
            },
          );
        } catch (error) {
          // The same finetune is being started (another call, the wizard, another window): nothing was sent.
          if (error instanceof StartRefusedError) return textResult(startRefusedLines(error));
          if (controller.signal.aborted) return textResult(['Cancelled: the upload was stopped and no job was created.']);
          const kept = {
            kind: 'finetune' as const,
            scope: connection.scope,
            ...startedRecord(connection.scope, req.answers, checked.files, Date.now()),
          };
          if (await keepUnreadableStart(services, error, kept)) return textResult(mayHaveStartedLines('Starting the finetune'));
          throw error;
        } finally {
          cancel.dispose();
        }
        services.log.info(`Tool: finetune job ${job.id} started: creating ${job.modelName} from ${req.answers.baseModel}.`);
        const total = checked.files.reduce((s, f) => s + f.size, 0);
        return textResult([
          `Started: job ${said(job.id, 100)} creates ${said(job.modelName)} from ${said(req.answers.baseModel)} with ${checked.files.length} file${checked.files.length === 1 ? '' : 's'} (${formatBytes(total)}).`,
          `Poll with hosted_get_job (jobId ${said(job.id, 100)}): a finetune takes minutes; the person is notified when it is ready.`,
          serviceDataLine(SERVICE_WORDS.started),
        ]);
      }),
  };
}
