// Evaluate a model on a dataset (spec 4.5-4.6): pick the model and the dataset (recent ones and those with results
// here offered, each with its last result: datasetItems.ts), submit, and hand the job to the poller. The result
// arrives as a notification and in both views.
import * as vscode from 'vscode';
import { COMMANDS } from '../../contributions';
import type { Connection } from '../../connection/session';
import type { Services } from '../../services';
import { VIEW_JOBS } from '../../services';
import type { ModelsTreeProvider } from '../models/modelsTree';
import { modelNameFromArgument, pickModel } from '../models/modelArgument';
import { keepAcceptedName } from '../models/acceptedName';
import { jobKey } from '../../jobs/jobRecord';
import { StartRefusedError } from '../../jobs/startingJobs';
import { untilJobEnds } from '../../jobs/untilJobEnds';
import { untrustedText } from '../../util/untrustedText';
import { showError } from '../../util/showError';
import { showErrorMessage, showInformationMessage } from '../../util/notify';
import { FIXES } from '../../util/classifyError';
import { keepUnreadableStart } from '../../jobs/unreadableStarts';
import { datasetItems, readRecentDatasets, recentDatasetsKey, type DatasetItem } from './datasetItems';
import { rememberDataset } from './recentDatasets';
import { evaluationStartRecord, submitEvaluationOnce } from './evaluationStart';

export { evaluationStartRecord, runningEvaluation } from './evaluationStart';

/** How long the status bar may say "Evaluating…" at most: the jobs item and the Jobs view follow a long evaluation. */
const STARTED_MESSAGE_MS = 5_000;

/**
 * The argument names the model only (a row, `{ modelName }` or a name); the dataset is always the user's choice:
 * a link can pass any argument, and one that names the dataset too would start a paid job with no question asked.
 */
export function evaluateCommand(services: Services, models: ModelsTreeProvider) {
  return {
    [COMMANDS.evaluate]: async (arg?: unknown) => {
      const modelName = modelNameFromArgument(arg) ?? (await pickModel(services, models, vscode.l10n.t('Evaluate which model?')));
      if (!modelName) return undefined;
      const datasetName = await pickDataset(services);
      if (!datasetName) return undefined;
      return startEvaluation(services, modelName, datasetName);
    },
  };
}

/**
 * Returns the job id, or undefined when it could not be started (the user was told why). When the same evaluation is
 * running (or being started), the person is asked first: Follow It resolves with the running job's id and starts
 * nothing, Start Another starts a second one. `revealJobs: false` from the report, which shows the evaluation running
 * itself: the focus stays where the person pressed the button rather than jumping to the Jobs view.
 */
export async function startEvaluation(
  services: Services,
  modelName: string,
  datasetName: string,
  { revealJobs = true, startAnother = false }: { revealJobs?: boolean; startAnother?: boolean } = {},
): Promise<string | undefined> {
  // The scope the start went to: an answer that cannot be read is kept for it.
  let startedIn: string | undefined;
  try {
    const connection = await services.session.connect();
    startedIn = connection.scope;
    const jobId = await submitEvaluation(services, connection, modelName, datasetName, { startAnother });
    if (revealJobs) void vscode.commands.executeCommand(`${VIEW_JOBS}.focus`);
    // Gone when the job ends (a quick evaluation is over before a fixed time would be), at most STARTED_MESSAGE_MS.
    const key = jobKey({ kind: 'evaluation', id: jobId });
    vscode.window.setStatusBarMessage(
      `$(beaker) ${untrustedText(vscode.l10n.t('Evaluating {0} on {1}…', modelName, datasetName))}`,
      untilJobEnds(
        { onDidChange: (listener) => services.jobs.onDidChange(listener), current: () => services.jobs.get(connection.scope, key) },
        STARTED_MESSAGE_MS,
      ),
    );
    return jobId;
  } catch (error) {
    if (error instanceof StartRefusedError) return askAboutTheFirst(services, error, modelName, datasetName);
    if (startedIn !== undefined && (await offerStartedJobChoice(services, startedIn, modelName, datasetName, error))) return undefined;
    await showError(services, vscode.l10n.t('Could not start the evaluation of {0}', modelName), error, () =>
      startEvaluation(services, modelName, datasetName, { revealJobs, startAnother }),
    );
    return undefined;
  }
}

/**
 * The same evaluation is running or being started: Follow It shows it in the Jobs view (resolving with its id, once it
 * has one); Start Another starts a second one, paid for too; dismissing starts nothing.
 */
async function askAboutTheFirst(
  services: Services,
  refused: StartRefusedError,
  modelName: string,
  datasetName: string,
): Promise<string | undefined> {
  const follow = vscode.l10n.t('Follow It');
  const another = vscode.l10n.t('Start Another');
  const choice = await showInformationMessage(
    refused.message,
    { modal: true, detail: vscode.l10n.t('Starting another runs the same evaluation again, and it is paid for again.') },
    follow,
    another,
  );
  if (choice === another) return startEvaluation(services, modelName, datasetName, { startAnother: true });
  if (choice !== follow) return undefined;
  const running = refused.refusal.running;
  await vscode.commands.executeCommand(COMMANDS.showJobs, running ? { key: jobKey(running) } : undefined);
  return running?.id;
}

/**
 * An evaluation whose start answer named no job the extension could read: it may have started, so what was started is
 * kept with the answer and the message offers Choose How to Read… (the job is then followed, nothing is sent again).
 * Resolves false when the failure was another one (the caller says it as usual).
 */
async function offerStartedJobChoice(
  services: Services,
  scope: string,
  modelName: string,
  datasetName: string,
  error: unknown,
): Promise<boolean> {
  const job = evaluationStartRecord(scope, modelName, datasetName, Date.now());
  if (!(await keepUnreadableStart(services, error, { kind: 'evaluation', scope, job }))) return false;
  const text = vscode.l10n.t(
    "Could not read the answer to the evaluation of {0} on {1}: it may have started. Choose How to Read… to say where its id is in the service's answer, and it is followed; the answer is in the log.",
    modelName,
    datasetName,
  );
  services.log.error(text, error);
  const choose = vscode.l10n.t('Choose How to Read…');
  const choice = await showErrorMessage(text, choose, FIXES.showLog.title);
  if (choice === choose) await vscode.commands.executeCommand(COMMANDS.chooseHowToRead, { place: 'startedJob' });
  else if (choice === FIXES.showLog.title) await vscode.commands.executeCommand(FIXES.showLog.command);
  return true;
}

/**
 * The request and what must follow it at once, for every entry point of the extension (the command, Chat, the
 * language-model tool): submitEvaluationOnce (evaluationStart.ts, shared with the MCP server) refuses a second start
 * of a running or starting evaluation unless `startAnother`, and writes the job record before anything is reported;
 * then the dataset is remembered and the model kept as a name the service took. Throws the client's error.
 */
export async function submitEvaluation(
  services: Services,
  connection: Connection,
  modelName: string,
  datasetName: string,
  options: { signal?: AbortSignal; startAnother?: boolean } = {},
): Promise<string> {
  return submitEvaluationOnce(
    { starting: services.starting, jobs: services.jobs, log: (line) => services.log.info(line) },
    connection,
    modelName,
    datasetName,
    {
      ...options,
      recorded: async () => {
        await rememberDataset(services.context.globalState, connection.scope, datasetName, (m) => services.log.warn(m));
        keepAcceptedName(services, connection.client.baseUrl, modelName);
      },
    },
  );
}

async function pickDataset(services: Services): Promise<string | undefined> {
  const scope = await services.session.scope();
  const recent = scope ? readRecentDatasets(services.context.globalState.get<unknown>(recentDatasetsKey(scope))) : [];
  const known = datasetItems(scope ? services.jobs.list(scope) : [], recent, Date.now());
  const pick = vscode.window.createQuickPick<DatasetItem>();
  pick.title = vscode.l10n.t('Evaluate on which dataset?');
  pick.placeholder = known.length
    ? vscode.l10n.t('Type a dataset id or choose one used before')
    : vscode.l10n.t('Type a dataset id (e.g. demo-qa)');
  pick.ignoreFocusOut = true;
  // Descriptions are matched too, so typing a model's name finds the datasets it was evaluated on.
  pick.matchOnDescription = true;
  pick.items = known;
  try {
    const update = pick.onDidChangeValue((value) => {
      const v = value.trim();
      const typed: DatasetItem = { dataset: v, label: untrustedText(v), description: vscode.l10n.t('dataset id') };
      pick.items = v && !known.some((k) => k.dataset === v) ? [typed, ...known] : known;
    });
    pick.show();
    const chosen = await new Promise<string | undefined>((resolve) => {
      pick.onDidAccept(() => resolve((pick.selectedItems[0]?.dataset ?? pick.value).trim() || undefined));
      pick.onDidHide(() => resolve(undefined));
    });
    update.dispose();
    return chosen;
  } finally {
    pick.dispose();
  }
}
