// The models this window can run locally and the runtime that runs them. The record lives in globalState (shared by
// every window): downloads written when one completes, files when the user chooses one; an entry whose file is gone
// is dropped the next time it is looked up, so a deleted model does not linger in the lists.
import { promises as fsp } from 'node:fs';
import * as vscode from 'vscode';
import { editGlobalState } from '../globalStateEdit';
import { LOCAL_MODELS_KEY } from '../storageKeys';
import type { LocalRuntime } from './localRuntime';
import { WorkspaceTrustGate } from './workspaceTrustGate';
import {
  describeDropped,
  MAX_LOCAL_MODELS,
  readStoredLocalModels,
  visibleLocalModels,
  withId,
  type LocalModel,
  type LocalModelRecord,
} from './storedLocalModels';

export class LocalModels implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private reported: string | undefined;
  /** In Restricted Mode, which of these files may run, and the wait for trust of those that may not. */
  readonly trust = new WorkspaceTrustGate();

  constructor(
    private readonly state: vscode.Memento,
    private readonly log: (message: string) => void,
    /** The in-editor tests put a fake that streams in its place, and put it back. */
    public runtime: LocalRuntime,
  ) {}

  /** Every valid record, whatever its origin (unreadable ones are logged once and left out). */
  all(): LocalModel[] {
    const { models, dropped } = readStoredLocalModels(this.state.get<unknown>(LOCAL_MODELS_KEY));
    const report = describeDropped(dropped);
    if (report !== this.reported) {
      this.reported = report;
      if (report) this.log(report);
    }
    return models;
  }

  /** Whether some origin's download of this model is recorded (for the Models view's menu; the command re-checks). */
  hasDownload(modelName: string): boolean {
    return this.all().some((m) => m.source === 'download' && m.modelName === modelName);
  }

  /** What a panel connected to `origin` lists, without the entries whose file is gone (those are dropped). */
  async visible(origin: string | undefined): Promise<LocalModel[]> {
    const list = visibleLocalModels(this.all(), origin);
    const present = await Promise.all(list.map((m) => fileExists(m.path)));
    const gone = list.filter((_, i) => !present[i]);
    if (gone.length) await this.remove(gone.map((m) => m.id));
    return list.filter((_, i) => present[i]);
  }

  /** The model with this id among those `origin` may see, its file still there; the only way from an id to a path. */
  async resolve(id: string, origin: string | undefined): Promise<LocalModel | undefined> {
    const model = visibleLocalModels(this.all(), origin).find((m) => m.id === id);
    if (!model) return undefined;
    if (await fileExists(model.path)) return model;
    await this.remove([model.id]);
    return undefined;
  }

  /** This origin's download of `modelName`, when recorded and its file is still there. */
  async download(origin: string, modelName: string): Promise<LocalModel | undefined> {
    const model = this.all().find((m) => m.source === 'download' && m.origin === origin && m.modelName === modelName);
    return model ? this.resolve(model.id, origin) : undefined;
  }

  recordDownload(origin: string, modelName: string, filePath: string, bytes: number): Promise<LocalModel> {
    return this.put({ source: 'download', origin, modelName, path: filePath, bytes, addedAt: Date.now() });
  }

  addFile(filePath: string, bytes: number): Promise<LocalModel> {
    return this.put({ source: 'file', path: filePath, bytes, addedAt: Date.now() });
  }

  /** Forgets every local model (Clear Stored Records…); the files themselves stay where they are. */
  async clear(): Promise<void> {
    await this.change(() => []);
  }

  private async put(record: LocalModelRecord): Promise<LocalModel> {
    const model = withId(record);
    // Newest first: past the limit, reading drops the oldest.
    await this.change((models) => [model, ...models.filter((m) => m.id !== model.id)].slice(0, MAX_LOCAL_MODELS));
    return model;
  }

  private async remove(ids: readonly string[]): Promise<void> {
    await this.change((models) => models.filter((m) => !ids.includes(m.id)));
  }

  /** Echo-safe (globalStateEdit.ts): a download recorded while another window records one keeps both. */
  private async change(edit: (models: LocalModel[]) => LocalModel[]): Promise<void> {
    await editGlobalState(
      this.state,
      LOCAL_MODELS_KEY,
      // The id and label are derived on every read: only the record itself is stored.
      (stored) => edit(readStoredLocalModels(stored).models).map(({ id: _id, label: _label, ...record }): LocalModelRecord => record),
      { log: this.log, what: 'The list of local models' },
    );
    this.changed.fire();
  }

  dispose(): void {
    this.trust.dispose();
    this.runtime.dispose();
    this.changed.dispose();
  }
}

async function fileExists(file: string): Promise<boolean> {
  return fsp.stat(file).then(
    (s) => s.isFile(),
    () => false,
  );
}
