// Named presets of playground settings, kept in globalState so every panel and every workspace can reuse them. The
// stored list and its edits are presetList.ts; this store tells every open panel when it changes.
import * as vscode from 'vscode';
import type { Preset } from '../protocol';
import type { StoredState } from '../../../globalStateEdit';
import { clearPresets, deletePreset, readPresets, savePreset } from './presetList';

export class PresetStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<Preset[]>();
  /** Fires with the new list: every open panel shows it. */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly memento: StoredState,
    /** Hears when a change did not stick (see globalStateEdit.ts). */
    private readonly log?: (message: string) => void,
  ) {}

  list(): Preset[] {
    return readPresets(this.memento);
  }

  /** Adds the preset or replaces the one of the same name; refuses a new name past the limit. */
  async save(preset: Preset): Promise<{ saved: boolean; reason?: string }> {
    const result = await savePreset(this.memento, preset, this.log);
    if (!result.saved) return result;
    this.changed.fire(result.list);
    return { saved: true };
  }

  async delete(name: string): Promise<void> {
    const kept = await deletePreset(this.memento, name, this.log);
    if (kept) this.changed.fire(kept);
  }

  /** Forgets every preset (Clear Stored Records…). */
  async clear(): Promise<void> {
    await clearPresets(this.memento, this.log);
    this.changed.fire([]);
  }

  dispose(): void {
    this.changed.dispose();
  }
}
