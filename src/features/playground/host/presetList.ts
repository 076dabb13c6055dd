// The stored list of playground presets: read back (and checked again: globalState outlives versions of this extension
// and may hold older shapes), and edited through editGlobalState, so a preset saved while the poller writes the job
// list, or in two windows at once, is kept. No vscode here, so the edits are tested without an editor; PresetStore
// (presets.ts) tells the open panels.
import { editGlobalState, UNCHANGED, type StoredState } from '../../../globalStateEdit';
import { isPreset, LIMITS, type Preset } from '../protocol';

export const PRESETS_KEY = 'hostedReasoning.playground.presets';
const what = 'The playground presets';

export function readPresets(state: StoredState): Preset[] {
  return presetsOf(state.get<unknown>(PRESETS_KEY));
}

function presetsOf(stored: unknown): Preset[] {
  return Array.isArray(stored) ? stored.filter(isPreset).slice(0, LIMITS.presets) : [];
}

export type SaveResult = { saved: true; list: Preset[] } | { saved: false; reason: string };

/** Adds the preset or replaces the one of the same name; refuses a new name past the limit. */
export async function savePreset(state: StoredState, preset: Preset, log?: (message: string) => void): Promise<SaveResult> {
  const name = preset.name.trim();
  const entry: Preset = { name, settings: { ...preset.settings } };
  let result: SaveResult = { saved: false, reason: '' };
  const kept = await editGlobalState(
    state,
    PRESETS_KEY,
    (stored) => {
      const list = presetsOf(stored);
      const index = list.findIndex((p) => p.name === name);
      if (index < 0 && list.length >= LIMITS.presets) {
        result = { saved: false, reason: `There are already ${LIMITS.presets} presets; delete one first.` };
        return UNCHANGED;
      }
      if (index >= 0) list[index] = entry;
      else list.push(entry);
      list.sort((a, b) => a.name.localeCompare(b.name));
      result = { saved: true, list };
      return list;
    },
    { log, what },
  );
  // Another window kept writing the list over ours: the preset is not there, so it is not said to be.
  if (result.saved && !kept) {
    return { saved: false, reason: 'The preset could not be stored (another window kept changing the presets); try again.' };
  }
  return result;
}

/** The list after the preset of this name is gone, or undefined when there was none. */
export async function deletePreset(state: StoredState, name: string, log?: (message: string) => void): Promise<Preset[] | undefined> {
  let kept: Preset[] | undefined;
  await editGlobalState(
    state,
    PRESETS_KEY,
    (stored) => {
      const list = presetsOf(stored);
      const left = list.filter((p) => p.name !== name);
      kept = left.length === list.length ? undefined : left;
      return kept ?? UNCHANGED;
    },
    { log, what },
  );
  return kept;
}

export async function clearPresets(state: StoredState, log?: (message: string) => void): Promise<void> {
  await editGlobalState(state, PRESETS_KEY, () => [], { log, what });
}
