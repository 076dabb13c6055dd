// The datasets chosen lately with a service, one list per scope in globalState (datasetItems.ts reads and orders them
// for the picker). No vscode here, so the write is tested without an editor.
import { readRecentDatasets, recentDatasetsKey, withRecentDataset } from './datasetItems';

/** The list before it was kept per scope: its datasets may be another service's, so it is no longer read, and removed. */
const LEGACY_RECENT_DATASETS = 'hostedReasoning.recentDatasets';

/** The part of globalState the recent list needs. */
export interface RecentDatasetsState {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

/** Puts `name` first in the scope's recent list. */
export async function rememberDataset(state: RecentDatasetsState, scope: string, name: string): Promise<void> {
  const key = recentDatasetsKey(scope);
  await state.update(key, withRecentDataset(readRecentDatasets(state.get<unknown>(key)), name));
  if (state.get<unknown>(LEGACY_RECENT_DATASETS) !== undefined) await state.update(LEGACY_RECENT_DATASETS, undefined);
}
