// Named presets of playground settings, kept in globalState so every panel and every workspace can reuse them.
// What is read back is checked again: globalState outlives versions of this extension and may hold older shapes.
import * as vscode from 'vscode';
import { isPreset, LIMITS, type Preset } from '../protocol';

const STORAGE_KEY = 'hostedReasoning.playground.presets';

export class PresetStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<Preset[]>();
  /** Fires with the new list: every open panel shows it. */
  readonly onDidChange = this.changed.event;

  constructor(private readonly memento: vscode.Memento) {}

  list(): Preset[] {
    const stored = this.memento.get<unknown>(STORAGE_KEY);
    return Array.isArray(stored) ? stored.filter(isPreset).slice(0, LIMITS.presets) : [];
  }

  /** Adds the preset or replaces the one of the same name; refuses a new name past the limit. */
  async save(preset: Preset): Promise<{ saved: boolean; reason?: string }> {
    const name = preset.name.trim();
    const list = this.list();
    const index = list.findIndex((p) => p.name === name);
    if (index < 0 && list.length >= LIMITS.presets) {
      return { saved: false, reason: `There are already ${LIMITS.presets} presets; delete one first.` };
    }
    const entry: Preset = { name, settings: { ...preset.settings } };
    if (index >= 0) list[index] = entry;
    else list.push(entry);
    list.sort((a, b) => a.name.localeCompare(b.name));
    await this.write(list);
    return { saved: true };
  }

  async delete(name: string): Promise<void> {
    const list = this.list();
    const kept = list.filter((p) => p.name !== name);
    if (kept.length !== list.length) await this.write(kept);
  }

  /** Forgets every preset (Clear Stored Records…). */
  async clear(): Promise<void> {
    await this.write([]);
  }

  private async write(list: Preset[]): Promise<void> {
    await this.memento.update(STORAGE_KEY, list);
    this.changed.fire(list);
  }

  dispose(): void {
    this.changed.dispose();
  }
}
