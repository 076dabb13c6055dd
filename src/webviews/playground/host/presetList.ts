// The stored list of playground presets: read back (and checked again: globalState outlives versions of this extension
// and may hold older shapes), and edited. No vscode here, so the edits are tested without an editor; PresetStore
// (presets.ts) tells the open panels.
import { isPreset, LIMITS, type Preset } from '../protocol';

export const PRESETS_KEY = 'hostedReasoning.playground.presets';

/** The part of globalState the presets need. */
export interface PresetState {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

export function readPresets(state: PresetState): Preset[] {
  return presetsOf(state.get<unknown>(PRESETS_KEY));
}

function presetsOf(stored: unknown): Preset[] {
  return Array.isArray(stored) ? stored.filter(isPreset).slice(0, LIMITS.presets) : [];
}

export type SaveResult = { saved: true; list: Preset[] } | { saved: false; reason: string };

/** Adds the preset or replaces the one of the same name; refuses a new name past the limit. */
export async function savePreset(state: PresetState, preset: Preset): Promise<SaveResult> {
  const name = preset.name.trim();
  const list = readPresets(state);
  const index = list.findIndex((p) => p.name === name);
  if (index < 0 && list.length >= LIMITS.presets) {
    return { saved: false, reason: `There are already ${LIMITS.presets} presets; delete one first.` };
  }
  const entry: Preset = { name, settings: { ...preset.settings } };
  if (index >= 0) list[index] = entry;
  else list.push(entry);
  list.sort((a, b) => a.name.localeCompare(b.name));
  await state.update(PRESETS_KEY, list);
  return { saved: true, list };
}

/** The list after the preset of this name is gone, or undefined when there was none. */
export async function deletePreset(state: PresetState, name: string): Promise<Preset[] | undefined> {
  const list = readPresets(state);
  const kept = list.filter((p) => p.name !== name);
  if (kept.length === list.length) return undefined;
  await state.update(PRESETS_KEY, kept);
  return kept;
}

export async function clearPresets(state: PresetState): Promise<void> {
  await state.update(PRESETS_KEY, []);
}
