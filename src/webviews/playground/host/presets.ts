// Named presets of playground settings, kept in globalState so every panel and every workspace can reuse them. The
// stored list and its edits are presetList.ts; this store tells every open panel when it changes.
import * as vscode from 'vscode';
import type { Preset } from '../protocol';
import { clearPresets, deletePreset, readPresets, savePreset, type PresetState } from './presetList';

export class PresetStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<Preset[]>();
  /** Fires with the new list: every open panel shows it. */
  readonly onDidChange = this.changed.event;

  constructor(private readonly memento: PresetState) {}

  list(): Preset[] {
    return readPresets(this.memento);
  }

  /** Adds the preset or replaces the one of the same name; refuses a new name past the limit. */
  async save(preset: Preset): Promise<{ saved: boolean; reason?: string }> {
    const result = await savePreset(this.memento, preset);
    if (!result.saved) return result;
    this.changed.fire(result.list);
    return { saved: true };
  }

  async delete(name: string): Promise<void> {
    const kept = await deletePreset(this.memento, name);
    if (kept) this.changed.fire(kept);
  }

  /** Forgets every preset (Clear Stored Records…). */
  async clear(): Promise<void> {
    await clearPresets(this.memento);
    this.changed.fire([]);
  }

  dispose(): void {
    this.changed.dispose();
  }
}
