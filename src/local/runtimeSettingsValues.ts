// The local runtime's settings from raw values (user or workspace settings may hold anything): each is clamped to the
// range package.json declares, and a memory limit of 0 becomes three quarters of this machine's memory.
import type { LocalRuntimeSettings } from './localRuntime';

function int(value: unknown, fallback: number, min: number, max: number): number {
  const n = typeof value === 'number' && Number.isFinite(value) ? Math.round(value) : fallback;
  return Math.min(max, Math.max(min, n));
}

/** `read(key)`: the value of `hostedReasoning.local.<key>`, or undefined. */
export function localRuntimeSettingsFrom(read: (key: string) => unknown, totalMemoryBytes: number): LocalRuntimeSettings {
  const memoryLimitMB = int(read('memoryLimitMB'), 0, 0, Number.MAX_SAFE_INTEGER);
  return {
    threads: int(read('threads'), 0, 0, 256),
    contextSize: int(read('contextSize'), 4096, 256, 131072),
    gpu: read('gpu') === 'off' ? 'off' : 'auto',
    idleSeconds: int(read('idleSeconds'), 300, 10, 86400),
    loadTimeoutSeconds: int(read('loadTimeoutSeconds'), 120, 5, 3600),
    memoryLimitMB: memoryLimitMB > 0 ? memoryLimitMB : Math.floor((totalMemoryBytes * 0.75) / (1024 * 1024)),
  };
}
