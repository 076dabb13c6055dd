// The local runtime's settings (hostedReasoning.local.*), read when the runtime needs them so a change applies to the
// next start; a missing or nonsensical value falls back to the default.
import * as vscode from 'vscode';
import type { LocalRuntimeSettings } from './localRuntime';

export const DEFAULT_LOCAL_SETTINGS: LocalRuntimeSettings = {
  threads: 0,
  contextSize: 4096,
  gpu: 'off',
  idleSeconds: 300,
  loadTimeoutSeconds: 60,
  memoryLimitMB: 0,
};

export function readLocalRuntimeSettings(): LocalRuntimeSettings {
  const c = vscode.workspace.getConfiguration('hostedReasoning.local');
  const num = (key: keyof LocalRuntimeSettings, min: number) => {
    const v = c.get<unknown>(key);
    const fallback = DEFAULT_LOCAL_SETTINGS[key] as number;
    return typeof v === 'number' && Number.isFinite(v) && v >= min ? Math.round(v) : fallback;
  };
  return {
    threads: num('threads', 0),
    contextSize: num('contextSize', 256),
    gpu: c.get<unknown>('gpu') === 'auto' ? 'auto' : 'off',
    idleSeconds: num('idleSeconds', 0),
    loadTimeoutSeconds: num('loadTimeoutSeconds', 1),
    memoryLimitMB: num('memoryLimitMB', 0),
  };
}
