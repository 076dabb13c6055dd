// The one file of src/local that reads VS Code: the `hostedReasoning.local.*` settings, read afresh on every run so a
// change applies to the next one (a GPU change restarts the runtime; threads or context size reload the model).
import { totalmem } from 'node:os';
import * as vscode from 'vscode';
import type { LocalRuntimeSettings } from './localRuntime';
import { localRuntimeSettingsFrom } from './runtimeSettingsValues';

export function readLocalRuntimeSettings(): LocalRuntimeSettings {
  const config = vscode.workspace.getConfiguration('hostedReasoning.local');
  return localRuntimeSettingsFrom((key) => config.get<unknown>(key), totalmem());
}
