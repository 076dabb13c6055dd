// The datasets chosen lately with a service, one list per scope in globalState (datasetItems.ts reads and orders them
// for the picker), written through editGlobalState: a dataset chosen as the evaluation it starts is written to the job
// list, or in two windows at once, is kept. No vscode here, so the write is tested without an editor.
import { editGlobalState, type StoredState } from '../../globalStateEdit';
import { readRecentDatasets, recentDatasetsKey, withRecentDataset } from './datasetItems';

/** The list before it was kept per scope: its datasets may be another service's, so it is no longer read, and removed. */
const LEGACY_RECENT_DATASETS = 'hostedReasoning.recentDatasets';

/** Puts `name` first in the scope's recent list. */
export async function rememberDataset(state: StoredState, scope: string, name: string, log?: (message: string) => void): Promise<void> {
  const what = 'The recent datasets';
  await editGlobalState(state, recentDatasetsKey(scope), (stored) => withRecentDataset(readRecentDatasets(stored), name), { log, what });
  if (state.get<unknown>(LEGACY_RECENT_DATASETS) !== undefined) {
    await editGlobalState(state, LEGACY_RECENT_DATASETS, () => undefined, { log, what });
  }
}
