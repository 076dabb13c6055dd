// "Create Finetuned Model…" (hostedReasoning.finetune): files -> checks -> wizard -> upload with progress -> job
// record -> Jobs view. The job record is written the moment the service answers with an id, before anything is
// shown, so a reload or a crash right after cannot forget a job the user is paying for. Nothing the user typed is
// lost on a recoverable failure: Retry re-runs the upload with the same answers, "Edit Answers…" reopens the
// wizard filled in.
//
// The command takes from its arguments only what the Explorer passes (the clicked resource and the selection),
// and only resources inside a workspace folder; the wizard and its summary still ask. A link can pass any
// argument, so file paths and answers that would skip the wizard are never read from them.
//
// Programmatic use (the in-editor tests, through the ExtensionApi, never through the command):
//   finetuneWithoutWizard(services, { files: ['/abs/a.pdf'], answers })
// takes the files (absolute paths) and the answers (checked with the wizard's rules) instead of asking for them, and
// resolves with a FinetuneOutcome (the job record on success) that the caller can assert on.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { RequestError, UnansweredError, isCancellation } from '../../api/errors';
import type { JobRecord } from '../../jobs/jobRecord';
import type { Services } from '../../services';
import { VIEW_JOBS } from '../../services';
import { NotConfiguredError, type Connection } from '../../connection/session';
import { formatBytes, formatTransfer } from '../../util/byteSize';
import { answersProblems, type FinetuneAnswers } from './finetuneAnswers';
import { checkFinetuneFiles, type CheckedFile, type FileProblem, type SourcePlace } from './finetuneFiles';
import { expandSelection, explorerSelection, pickSources, sourcePlace } from './finetuneSources';
import { runFinetuneWizard } from './finetuneWizard';
import { preflightRead, type PreflightResult } from './preflight';
import { preflightWarnings } from './preflightWarnings';
import { describeCounts } from './preflightSummary';
import { previewSourceText } from './sourceTextPreview';
import { keepAcceptedName } from '../models/acceptedName';
import { listUnreadable } from '../models/knownModelItems';
import { SourceFileAccess } from './sourceFileAccess';
import { COMMANDS } from '../../contributions';
import { classifyError, FIXES, type ErrorKind } from '../../util/classifyError';
import { showErrorMessage, showInformationMessage, showWarningMessage, withProgress } from '../../util/notify';
import { WALKTHROUGH_CONTEXT } from '../../walkthroughContext';
import { keepUnreadableStart } from '../../jobs/unreadableStarts';
import { markWalkthroughStep } from '../../util/walkthroughStep';
import { pendingModelNames, startedRecord, startFinetuneOnce } from './finetuneStart';

export type { FinetuneAnswers } from './finetuneAnswers';
export { pendingModelNames, startedRecord } from './finetuneStart';

/** What finetuneWithoutWizard takes (see the header comment). */
export interface FinetuneProgrammaticArgs {
  /** Absolute paths of PDF/DOCX files. */
  files: string[];
  answers: FinetuneAnswers;
}

/** What the command resolved with: tests assert on it; the UI has already said it to the user. */
export type FinetuneOutcome =
  | { status: 'started'; job: JobRecord }
  | { status: 'cancelled' }
  /** Files or answers could not be used; each problem names what and why. */
  | { status: 'invalid'; problems: string[] }
  | { status: 'failed'; kind: ErrorKind; message: string };

export function finetuneCommand(services: Services) {
  return {
    [COMMANDS.finetune]: (first?: unknown, second?: unknown) => new FinetuneRun(services).run(first, second),
  };
}

/** Files and answers given by code (the in-editor tests), without the file choice or the wizard. */
export function finetuneWithoutWizard(services: Services, args: FinetuneProgrammaticArgs): Promise<FinetuneOutcome> {
  return new FinetuneRun(services).run(undefined, undefined, args);
}

/**
 * Chat's /finetune: the files a person referenced take the Explorer selection's path (only files inside the workspace,
 * folders searched, the same checks and confirmation, then the wizard). `answers` (the in-editor tests) stand in for
 * the wizard, checked by its rules, as in finetuneWithoutWizard.
 */
export function finetuneFromReferences(services: Services, uris: vscode.Uri[], answers?: FinetuneAnswers): Promise<FinetuneOutcome> {
  return new FinetuneRun(services).run(undefined, uris, undefined, answers);
}

/** Most problem lines shown in a dialog; the rest go to the log, which the dialog points to. */
const MAX_LISTED = 25;
/** Progress is reported at most this often: thousands of tiny updates would flood the notification. */
const PROGRESS_EVERY_MS = 200;

/** `allSent`: the failure came after the last byte went out, so the service may have created the job anyway. */
/** `readLater`: the answer could not be read and is kept with the start, for Choose How to Read the Started Job…. */
type Attempt = { ok: JobRecord } | { cancelled: true } | { error: unknown; allSent: boolean; readLater?: boolean };
type Recovery = 'retry' | 'edit' | 'stop';

class FinetuneRun {
  constructor(private readonly services: Services) {}

  private get log() {
    return this.services.log;
  }

  async run(first: unknown, second: unknown, given?: FinetuneProgrammaticArgs, answers?: FinetuneAnswers): Promise<FinetuneOutcome> {
    try {
      return await this.runUnguarded(first, second, given, answers);
    } catch (e) {
      // A bug, not a service answer: say so plainly and keep the details in the log.
      const message = e instanceof Error ? e.message : String(e);
      this.log.error(`Finetune: unexpected failure: ${message}`, e);
      this.say('error', vscode.l10n.t('Creating the finetuned model failed: {0}', message), [
        { title: vscode.l10n.t('Show Log'), run: () => this.runCommand(FIXES.showLog.command) },
      ]);
      return { status: 'failed', kind: 'unexpected', message };
    }
  }

  private async runUnguarded(
    first: unknown,
    second: unknown,
    given?: FinetuneProgrammaticArgs,
    givenAnswers?: FinetuneAnswers,
  ): Promise<FinetuneOutcome> {
    // 1. Which files.
    let uris: vscode.Uri[];
    let notes: FileProblem[] = [];
    // Files named by a path of their own (code, the Open dialog) may be outside the workspace; never the others.
    let outsideAllowed = false;
    let answers: FinetuneAnswers | undefined = givenAnswers;
    if (given) {
      // A relative path would silently resolve against the extension host's working directory, not the workspace.
      const relative = given.files.filter((f) => !path.isAbsolute(f));
      if (relative.length > 0) {
        const problems = relative.map((f) => `${f} is not an absolute path.`);
        this.say('error', vscode.l10n.t('Cannot create the model: {0}', problems.join(' ')));
        return { status: 'invalid', problems };
      }
      uris = given.files.map((f) => vscode.Uri.file(f));
      outsideAllowed = true;
      answers = given.answers;
    } else {
      const selection = explorerSelection(first, second);
      if (selection) {
        const inside = selection.filter((uri) => vscode.workspace.getWorkspaceFolder(uri) !== undefined);
        if (inside.length < selection.length) {
          const outside = selection.length - inside.length;
          this.log.warn(`Finetune: ${outside} resource(s) outside the workspace folders were left out of the selection.`);
          if (inside.length === 0) {
            this.say(
              'warning',
              vscode.l10n.t(
                'Only files in this workspace can be used for finetuning: right-click them in the Explorer, or choose them from the list.',
              ),
            );
            return { status: 'invalid', problems: ['The selection is outside the workspace folders.'] };
          }
        }
        ({ files: uris, notes } = await expandSelection(inside));
      } else {
        const picked = await pickSources();
        if (!picked) return { status: 'cancelled' };
        ({ uris, inDialog: outsideAllowed } = picked);
      }
    }
    if (uris.length === 0) {
      // Every note: when all the documents found were links, each skipped one is named.
      const message = notes.length > 0 ? notes.map((n) => n.message).join(' ') : 'No PDF or DOCX files were found in the selection.';
      this.say('warning', message);
      return { status: 'invalid', problems: [message] };
    }

    const access = new SourceFileAccess(uris);
    try {
      // 2. Are they usable.
      const files = await this.checkFiles(access, notes, sourcePlace(outsideAllowed));
      if (!Array.isArray(files)) return files;

      // 3. A connection (the wizard needs the live model list).
      const connection = await this.connect();
      if ('status' in connection) return connection;

      // 4. The answers.
      const pendingNames = this.pendingModelNames(connection.scope);
      if (answers) {
        const problems = answersProblems(answers, pendingNames);
        if (problems.length > 0) {
          this.log.warn(`Finetune: programmatic answers refused: ${problems.join(' ')}`);
          this.say('error', vscode.l10n.t('Cannot create the model: {0}', problems.join(' ')));
          return { status: 'invalid', problems };
        }
      } else {
        // The read stops with the wizard: a person who leaves, or starts before it ends, does not wait on it.
        const stopReading = new AbortController();
        answers = await runFinetuneWizard({
          files,
          defaults: this.services.session.settings().finetune,
          loadModels: () => this.loadModels(),
          keptModels: (failure) => this.keptModels(failure),
          onTyped: (name) => this.services.knownModels.noteTyped(name),
          pendingNames,
          preflight: () => this.preflight(files, access, stopReading.signal),
          previewText: (results) => previewSourceText(this.services.context, results),
        }).finally(() => stopReading.abort());
        if (!answers) {
          this.log.info('Finetune: wizard cancelled.');
          return { status: 'cancelled' };
        }
      }

      // 5. Upload, with recovery that keeps the answers.
      return await this.uploadUntilDone(files, answers, access);
    } finally {
      await access.cleanup();
    }
  }

  // ------------------------------------------------------------------------------------------------ checks

  private async checkFiles(access: SourceFileAccess, notes: FileProblem[], place: SourcePlace): Promise<CheckedFile[] | FinetuneOutcome> {
    const limits = this.services.session.settings().finetune;
    const check = await withProgress(
      { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Checking {0} files for finetuning', access.sources.length) },
      () => checkFinetuneFiles(access.sources, limits, place, access.reader),
    );
    const problems = [...notes, ...check.problems];
    const chosen = access.sources.length - check.duplicates;
    this.log.info(
      `Finetune: ${chosen} file(s) chosen, ${check.valid.length} usable, ${check.problems.length} refused` +
        (check.duplicates > 0 ? `, ${check.duplicates} duplicate(s) removed` : '') +
        '.',
    );
    for (const p of problems) this.log.info(`Finetune: ${p.message}`);
    if (problems.length === 0) return check.valid;

    const detail = problemList(problems, limits.maxFileBytes, limits.maxFiles);
    if (check.valid.length === 0) {
      const message =
        chosen === 1
          ? vscode.l10n.t('This file cannot be used for finetuning.')
          : vscode.l10n.t('None of the {0} files can be used for finetuning.', chosen);
      await showErrorMessage(message, { modal: true, detail });
      return { status: 'invalid', problems: problems.map((p) => p.message) };
    }
    const n = check.valid.length;
    const go = n === 1 ? vscode.l10n.t('Continue with 1 valid file') : vscode.l10n.t('Continue with {0} valid files', n);
    // Notes (a skipped link, a folder not searched to the end) were never among the chosen files.
    const refused = check.problems.length;
    const headline =
      refused > 0
        ? vscode.l10n.t('{0} of the {1} files cannot be used for finetuning.', refused, chosen)
        : vscode.l10n.t('Not every file of the selection could be included.');
    const choice = await showWarningMessage(headline, { modal: true, detail }, go);
    if (choice !== go) {
      this.log.info('Finetune: cancelled after the file check.');
      return { status: 'cancelled' };
    }
    return check.valid;
  }

  // ------------------------------------------------------------------------------------------------ pre-flight

  /** What the service will read from each file, read here in a child process before anything is uploaded (issue 29). */
  private async preflight(files: CheckedFile[], access: SourceFileAccess, signal: AbortSignal): Promise<PreflightResult[]> {
    const paths = await access.localPaths(files);
    const results = await preflightRead(
      files.map((f, i) => ({ path: paths[i]!, kind: f.kind, label: f.label })),
      { signal },
    );
    if (signal.aborted) return results;
    for (const r of results) {
      this.log.info(`Finetune: pre-flight: ${r.label}: ${describeCounts(r)}${r.unreadable ? ` (${r.unreadable})` : ''}.`);
    }
    for (const w of preflightWarnings(results)) this.log.info(`Finetune: pre-flight warning: ${w.message}`);
    return results;
  }

  // ------------------------------------------------------------------------------------------------ connection

  /** The session's connection, offering the fix (and retrying once after it) when something is not configured. */
  private async connect(): Promise<Connection | FinetuneOutcome> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.services.session.connect();
      } catch (e) {
        if (!(e instanceof NotConfiguredError) && !(e instanceof RequestError)) throw e;
        // RequestError from connect() is an unusable base URL.
        const fix = classifyError(e).fix ?? FIXES.configureBaseUrl;
        const message =
          e instanceof NotConfiguredError ? vscode.l10n.t('{0} It is needed to create a finetuned model.', e.message) : e.message;
        this.log.warn(`Finetune: not connected: ${message}`);
        const outcome: FinetuneOutcome = { status: 'failed', kind: 'notConfigured', message };
        if (attempt > 0) {
          this.say('error', message, [{ title: fix.title, run: () => vscode.commands.executeCommand(fix.command, ...fix.args) }]);
          return outcome;
        }
        const picked = await showErrorMessage(message, fix.title);
        if (picked !== fix.title) return outcome;
        await vscode.commands.executeCommand(fix.command, ...fix.args);
      }
    }
  }

  private async loadModels() {
    const { client } = await this.services.session.connect();
    const models = await client.listModels({ interactive: true });
    this.log.debug(`Finetune: ${models.length} model(s) listed for the wizard.`);
    return models;
  }

  /** The names kept for this service when the list failed in a way they get around (see knownModelItems.ts). */
  private async keptModels(failure: unknown) {
    if (!listUnreadable(failure)) return [];
    const { origin } = await this.services.session.current();
    return origin ? this.services.knownModels.list(origin) : [];
  }

  private pendingModelNames(scope: string): string[] {
    return pendingModelNames(this.services, scope);
  }

  // ------------------------------------------------------------------------------------------------ upload

  private async uploadUntilDone(files: CheckedFile[], first: FinetuneAnswers, access: SourceFileAccess): Promise<FinetuneOutcome> {
    let answers = first;
    for (;;) {
      const connection = await this.connect();
      if ('status' in connection) return connection;
      const attempt = await this.upload(connection, files, answers, access);
      if ('ok' in attempt) return this.started(attempt.ok, files);
      if ('cancelled' in attempt) {
        this.log.info('Finetune: upload cancelled by the user; no job was created.');
        this.say('info', vscode.l10n.t('Upload cancelled; no job was created.'));
        return { status: 'cancelled' };
      }
      const recovery = await this.offerRecovery(attempt.error, attempt.allSent, answers, attempt.readLater === true);
      if (recovery === 'stop') return failed(attempt.error);
      if (recovery === 'edit') {
        const edited = await runFinetuneWizard({
          files,
          defaults: this.services.session.settings().finetune,
          loadModels: () => this.loadModels(),
          keptModels: (failure) => this.keptModels(failure),
          onTyped: (name) => this.services.knownModels.noteTyped(name),
          pendingNames: this.pendingModelNames(connection.scope),
          initial: answers,
          startAt: 'summary',
        });
        if (!edited) return failed(attempt.error);
        answers = edited;
      }
      this.log.info('Finetune: retrying the upload with the same files.');
    }
  }

  private async upload(connection: Connection, files: CheckedFile[], a: FinetuneAnswers, access: SourceFileAccess): Promise<Attempt> {
    const total = files.reduce((s, f) => s + f.size, 0);
    const n = files.length;
    this.log.info(
      `Finetune: uploading ${n} file(s) (${formatBytes(total)}) to create ${a.modelName} from ${a.baseModel} ` +
        `(numQs ${a.numQs}, mode ${a.mode}, use case ${a.useCase ? `${a.useCase.length} chars` : 'empty'}).`,
    );
    const paths = await access.localPaths(files);
    const title =
      n === 1
        ? vscode.l10n.t('Uploading 1 file to create {0}', a.modelName)
        : vscode.l10n.t('Uploading {0} files to create {1}', n, a.modelName);
    let lateCancel: Promise<unknown> | undefined;
    const attempt = await withProgress<Attempt>(
      { location: vscode.ProgressLocation.Notification, cancellable: true, title },
      async (progress, token) => {
        const controller = new AbortController();
        let allSent = false;
        let reported = 0;
        let lastReport = 0;
        const waiting = new Deferred();
        const onCancel = token.onCancellationRequested(() => {
          if (!allSent) {
            controller.abort();
            return;
          }
          // Every byte is out: the service may be creating the job right now. Aborting would lose its id and
          // leave a paid job nobody polls, so wait for the answer and record it.
          this.log.info('Finetune: cancel requested after the upload finished; waiting for the job id so it is not lost.');
          lateCancel = waiting.promise;
          vscode.window.setStatusBarMessage(
            vscode.l10n.t('$(sync~spin) Upload finished; waiting for the service to confirm the finetuning job…'),
            waiting.promise,
          );
        });
        try {
          const job = await startFinetuneJob(this.services, connection, files, paths, a, {
            signal: controller.signal,
            onProgress: ({ sent, total: bodyTotal }) => {
              const now = Date.now();
              const percent = bodyTotal > 0 ? Math.floor((sent / bodyTotal) * 100) : 0;
              if (sent >= bodyTotal) allSent = true;
              if (!allSent && now - lastReport < PROGRESS_EVERY_MS) return;
              lastReport = now;
              progress.report({
                increment: Math.max(0, percent - reported),
                message: allSent
                  ? 'Uploaded; waiting for the service to accept the job…'
                  : `${percent}% — ${formatTransfer(sent, bodyTotal)}`,
              });
              reported = Math.max(reported, percent);
            },
          });
          return { ok: job };
        } catch (e) {
          if (isCancellation(e) && token.isCancellationRequested && !allSent) return { cancelled: true };
          // An answer with no readable job id: the job may exist. What was started is kept with the answer, so the
          // job can be followed once the person says where its id is (nothing is uploaded again).
          // The files' digests went with the error: the lineage names the files without them.
          const readLater = await keepUnreadableStart(this.services, e, {
            kind: 'finetune',
            scope: connection.scope,
            ...startedRecord(connection.scope, a, files, Date.now()),
          });
          return { error: e, allSent, readLater };
        } finally {
          onCancel.dispose();
          waiting.resolve();
        }
      },
    );
    if (lateCancel && 'ok' in attempt) {
      this.say(
        'info',
        vscode.l10n.t(
          'The upload had already finished when you cancelled, so the service created the job for {0}. It is in the Jobs view.',
          a.modelName,
        ),
      );
    }
    return attempt;
  }

  private async started(job: JobRecord, files: CheckedFile[]): Promise<FinetuneOutcome> {
    this.log.info(`Finetune: job ${job.id} started: creating ${job.modelName} from ${job.baseModel ?? '?'} with ${files.length} file(s).`);
    try {
      await vscode.commands.executeCommand(`${VIEW_JOBS}.focus`);
    } catch (e) {
      // The job is stored and will show; a view that cannot be revealed (e.g. hidden container) is not a failure.
      this.log.debug(`Finetune: could not reveal the Jobs view: ${e instanceof Error ? e.message : String(e)}`);
    }
    this.say(
      'info',
      files.length === 1
        ? vscode.l10n.t('Finetuning started: {0} is being created from 1 file. You will be notified when it is ready.', job.modelName)
        : vscode.l10n.t(
            'Finetuning started: {0} is being created from {1} files. You will be notified when it is ready.',
            job.modelName,
            files.length,
          ),
    );
    return { status: 'started', job };
  }

  // ------------------------------------------------------------------------------------------------ failures

  /** Tells the user what failed and what they can do; waits for their choice. */
  private async offerRecovery(error: unknown, allSent: boolean, a: FinetuneAnswers, readLater: boolean): Promise<Recovery> {
    const info = classifyError(error);
    this.log.error(`Finetune: upload to create ${a.modelName} failed: ${info.message}`, error);
    const retry = { title: vscode.l10n.t('Retry'), recovery: 'retry' as const };
    let text = info.kind === 'unexpected' ? vscode.l10n.t('Creating the finetuned model failed: {0}', info.message) : info.message;
    // Setting a key or a URL is followed by a retry with the same answers; after the log there is nothing to retry.
    let actions: { title: string; recovery: Recovery; command?: string; args?: readonly unknown[] }[] = [
      ...(info.retryable ? [retry] : []),
      ...(info.fix
        ? [
            {
              title: info.fix.title,
              recovery: info.fix === FIXES.showLog ? ('stop' as const) : ('retry' as const),
              command: info.fix.command,
              args: info.fix.args,
            },
          ]
        : []),
    ];
    if (info.kind === 'request') {
      // The service's own words (a refused file, a taken name, a bad field): fix the answers or the files, retry.
      actions = [{ title: vscode.l10n.t('Edit Answers…'), recovery: 'edit' }, retry];
    } else if (info.kind === 'contract' && readLater) {
      // The answer is kept: the person says where the id is and the job is followed, without uploading again.
      text = vscode.l10n.t(
        "{0} The job may have started: Choose How to Read… to say where its id is in the service's answer, and it is followed; the answer is in the log.",
        text,
      );
      actions = [
        {
          title: vscode.l10n.t('Choose How to Read…'),
          recovery: 'stop',
          command: COMMANDS.chooseHowToRead,
          args: [{ place: 'startedJob' }],
        },
        { title: FIXES.showLog.title, recovery: 'stop', command: FIXES.showLog.command },
      ];
    } else if (info.kind === 'contract') {
      // A 2xx whose job id we could not read: the job probably exists. A retry would likely duplicate it.
      text = vscode.l10n.t("{0} The job may have been created; the service's answer is in the log.", text);
    } else if (error instanceof UnansweredError) {
      // Its words already say the service may have received the upload (http.ts): what to do about it.
      text = vscode.l10n.t('{0} Check the Models view before retrying, or the job may run twice.', text);
    } else if (allSent && (info.kind === 'timeout' || info.kind === 'network')) {
      text = vscode.l10n.t(
        '{0} The files had been sent, so the service may have created the job anyway: check the Models view before retrying, or it may run twice.',
        text,
      );
    }

    const picked = await showErrorMessage(text, ...actions.map((x) => x.title));
    const action = actions.find((x) => x.title === picked);
    if (!action) return 'stop';
    if (action.command) await vscode.commands.executeCommand(action.command, ...(action.args ?? []));
    return action.recovery;
  }

  // ------------------------------------------------------------------------------------------------ helpers

  /** Shows a message without waiting for it; an action, if any, runs when clicked. */
  private say(level: 'info' | 'warning' | 'error', message: string, actions: { title: string; run: () => unknown }[] = []): void {
    const titles = actions.map((a) => a.title);
    const shown =
      level === 'info'
        ? showInformationMessage(message, ...titles)
        : level === 'warning'
          ? showWarningMessage(message, ...titles)
          : showErrorMessage(message, ...titles);
    void Promise.resolve(shown).then((picked) => actions.find((a) => a.title === picked)?.run());
  }

  private runCommand(command: string): Thenable<unknown> {
    return vscode.commands.executeCommand(command);
  }
}

/**
 * The upload and what must follow it at once, for every entry point of the extension (the command, Chat, the
 * language-model tool): startFinetuneOnce (finetuneStart.ts, shared with the MCP server) holds the start, uploads and
 * writes the job record the moment the service answers with an id; then, still held, the base model is kept as a name
 * the service took and the walkthrough's step is marked. Throws the client's error or a StartRefusedError; `signal`
 * aborts the upload.
 */
export async function startFinetuneJob(
  services: Services,
  connection: Connection,
  files: readonly CheckedFile[],
  paths: readonly string[],
  a: FinetuneAnswers,
  options: { signal?: AbortSignal; onProgress?: (p: { sent: number; total: number }) => void } = {},
): Promise<JobRecord> {
  return startFinetuneOnce(
    { starting: services.starting, jobs: services.jobs, log: (line) => services.log.info(line) },
    connection,
    files,
    paths,
    a,
    {
      ...options,
      recorded: () => {
        // The service took the base model: a typed one is kept for when the list cannot be read.
        keepAcceptedName(services, connection.client.baseUrl, a.baseModel);
        markWalkthroughStep(WALKTHROUGH_CONTEXT.finetuneStarted);
      },
    },
  );
}

function failed(error: unknown): FinetuneOutcome {
  const { kind, message } = classifyError(error);
  return { status: 'failed', kind, message };
}

/** The dialog's detail: one line per problem (capped), then the limits that apply when a limit was hit. */
function problemList(problems: readonly FileProblem[], maxFileBytes: number, maxFiles: number): string {
  const lines = problems.slice(0, MAX_LISTED).map((p) => `• ${p.message}`);
  if (problems.length > MAX_LISTED) {
    lines.push(vscode.l10n.t('…and {0} more (all are listed in the log: Hosted Reasoning: Show Log).', problems.length - MAX_LISTED));
  }
  if (problems.some((p) => p.code === 'tooLarge')) {
    lines.push(
      '',
      vscode.l10n.t('Files up to {0} are accepted (setting hostedReasoning.finetune.maxFileSizeMB).', formatBytes(maxFileBytes)),
    );
  }
  if (problems.some((p) => p.code === 'tooMany')) {
    lines.push('', vscode.l10n.t('At most {0} files go into one job (setting hostedReasoning.finetune.maxFiles).', maxFiles));
  }
  return lines.join('\n');
}

class Deferred {
  resolve!: () => void;
  readonly promise = new Promise<void>((r) => (this.resolve = r));
}
