// Clear what the extension keeps about past work, from the palette: the records of finetuning and evaluation jobs
// (their results and the lineage of the models made here) of every service and key, the recently used datasets, the
// model names kept for when a model list cannot be read (typed or made by jobs), the playground's history and presets,
// the list of models to run locally (the files stay), the folders last saved to and how each service's answers are
// read (its profile: inferred again at the next answer), and the comparisons on the person's questions kept for Resume
// (but one running now). The person picks which (all are picked at first) and confirms
// in a modal dialog that names each. Stored keys (Forget API Keys…) and partial downloads (Discard Partial Downloads…)
// have their own commands.
import * as vscode from 'vscode';
import { COMMANDS } from '../../contributions';
import { editGlobalState } from '../../globalStateEdit';
import { isActive } from '../../jobs/jobRecord';
import type { Services } from '../../services';
import { DROPPED_EVALUATIONS_KEY_PREFIX, JOBS_KEY_PREFIX, RECENT_DATASETS_KEY_PREFIX } from '../../storageKeys';
import { showInformationMessage, showWarningMessage } from '../../util/notify';
import type { PlaygroundManager } from '../playground/host/playgroundManager';
import { comparisonsRoot } from '../evaluate/compare/compareCommand';
import { ComparisonLog } from '../evaluate/compare/comparisonLog';
import { removeComparisons } from '../evaluate/compare/comparisonHold';

/** What can be cleared; the in-editor tests name them. */
export type RecordKind =
  'jobs' | 'datasets' | 'knownModels' | 'playgroundHistory' | 'presets' | 'localModels' | 'folders' | 'profiles' | 'comparisons';

/** The folders the save dialogs start in (download, report export). */
const FOLDER_KEYS = ['hostedReasoning.lastDownloadFolder', 'hostedReasoning.report.lastExportFolder'];

interface Item extends vscode.QuickPickItem {
  record: RecordKind;
}

export function clearRecordsCommand(services: Services, playground: PlaygroundManager) {
  return { [COMMANDS.clearStoredRecords]: () => clearStoredRecords(services, playground) };
}

/** The scopes (`<base URL>#<key identity>`) that globalState holds under `prefix`. */
function scopesUnder(services: Services, prefix: string): string[] {
  return services.context.globalState
    .keys()
    .filter((k) => k.startsWith(prefix))
    .map((k) => k.slice(prefix.length));
}

/** Returns what was cleared. */
async function clearStoredRecords(services: Services, playground: PlaygroundManager): Promise<RecordKind[]> {
  const jobScopes = [...new Set([...scopesUnder(services, JOBS_KEY_PREFIX), ...scopesUnder(services, DROPPED_EVALUATIONS_KEY_PREFIX)])];
  const jobs = jobScopes.flatMap((scope) => services.jobs.list(scope));
  const running = jobs.filter(isActive).length;
  const datasetKeys = services.context.globalState.keys().filter((k) => k.startsWith(RECENT_DATASETS_KEY_PREFIX));
  const comparisons = ComparisonLog.list(comparisonsRoot(services)).length;
  const items: Item[] = (
    [
      {
        record: 'jobs',
        label: vscode.l10n.t('Jobs and evaluations'),
        description: vscode.l10n.t('{0} records, every service and key', jobs.length),
        detail:
          running > 0
            ? vscode.l10n.t(
                'Results, lineage of the models made here. {0} running jobs are not cancelled on the service, only no longer followed.',
                running,
              )
            : vscode.l10n.t('Results, and the lineage of the models made here (the models stay on the service).'),
      },
      {
        record: 'datasets',
        label: vscode.l10n.t('Recently used datasets'),
        description: vscode.l10n.t('{0} services', datasetKeys.length),
      },
      {
        record: 'knownModels',
        label: vscode.l10n.t('Model names typed or made by jobs'),
        description: vscode.l10n.t('{0} services', services.knownModels.origins().length),
        detail: vscode.l10n.t('Offered when a model list cannot be read.'),
      },
      {
        record: 'playgroundHistory',
        label: vscode.l10n.t('Playground history'),
        description: vscode.l10n.t('{0} open playgrounds; closed ones keep none', playground.panels.length),
      },
      {
        record: 'presets',
        label: vscode.l10n.t('Playground presets'),
        description: vscode.l10n.t('{0} presets', playground.presets.list().length),
      },
      {
        record: 'localModels',
        label: vscode.l10n.t('Models to run locally'),
        description: vscode.l10n.t('{0} entries; the .gguf files stay', services.local.all().length),
      },
      { record: 'folders', label: vscode.l10n.t('Folders last saved to'), description: vscode.l10n.t('where the save dialogs start') },
      {
        record: 'profiles',
        label: vscode.l10n.t('How services are read'),
        description: vscode.l10n.t('inferred again at the next answer'),
      },
      {
        record: 'comparisons',
        label: vscode.l10n.t('Comparisons on your questions'),
        description: vscode.l10n.t('{0} kept', comparisons),
        detail: vscode.l10n.t('The questions, answers and verdicts kept for Resume; one running now is kept. Your question files stay.'),
      },
    ] satisfies Omit<Item, 'picked'>[]
  ).map((item) => ({ ...item, picked: true }));
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Clear Stored Records'),
    placeHolder: vscode.l10n.t('What to clear (the models on the service, downloaded files and API keys stay)'),
    canPickMany: true,
  });
  if (!picked?.length) return [];
  const clear = vscode.l10n.t('Clear');
  const answer = await showWarningMessage(
    vscode.l10n.t('Clear {0} kinds of stored records?', picked.length),
    {
      modal: true,
      detail: [
        ...picked.map((i) => `• ${i.label}${i.description ? ` (${i.description})` : ''}`),
        '',
        running > 0 && picked.some((i) => i.record === 'jobs')
          ? vscode.l10n.t('{0} jobs are still running: they go on on the service, but you will not be told when they end.', running)
          : vscode.l10n.t('This cannot be undone.'),
      ].join('\n'),
    },
    clear,
  );
  if (answer !== clear) return [];
  const kinds = picked.map((i) => i.record);
  const state = services.context.globalState;
  const log = (m: string) => services.log.warn(m);
  let runningComparisons = 0;
  for (const kind of kinds) {
    switch (kind) {
      case 'jobs':
        await services.jobs.clear(jobScopes);
        break;
      case 'datasets':
        for (const key of datasetKeys) await editGlobalState(state, key, () => undefined, { log, what: 'The recent datasets' });
        break;
      case 'knownModels':
        await services.knownModels.forgetAll();
        break;
      case 'playgroundHistory':
        await playground.clearHistory();
        break;
      case 'presets':
        await playground.presets.clear();
        break;
      case 'localModels':
        await services.local.clear();
        break;
      case 'folders':
        for (const key of FOLDER_KEYS) await editGlobalState(state, key, () => undefined, { log, what: 'The last folders' });
        break;
      case 'profiles':
        await services.profiles.forgetAll();
        break;
      case 'comparisons':
        runningComparisons = (await removeComparisons(comparisonsRoot(services))).kept;
        break;
    }
  }
  services.log.info(`Cleared stored records: ${kinds.join(', ')}.`);
  const cleared = vscode.l10n.t('Cleared: {0}.', picked.map((i) => i.label).join(', '));
  void showInformationMessage(
    runningComparisons > 0 ? `${cleared} ${vscode.l10n.t('{0} comparisons running now were kept.', runningComparisons)}` : cleared,
  );
  return kinds;
}
