// src/local/localRuntime.ts
export interface LocalRuntimeSettings {
  threads: number;
  contextSize: number;
  gpu: 'off' | 'auto';
  idleSeconds: number;
  loadTimeoutSeconds: number;
  memoryLimitMB: number;
}
export interface LocalGenerateRequest {
  modelPath: string;
  prompt: string;
  temperature: number;
  maxTokens?: number;
}
export interface LocalGenerateResult {
  text: string;
  stopped: boolean;
  tokens: number;
  firstTokenMs?: number;
  totalMs: number;
}
export type LocalRuntimeErrorKind = 'unavailable' | 'load-failed' | 'load-timeout' | 'memory-limit' | 'crashed';
export class LocalRuntimeError extends Error {
  constructor(
    readonly kind: LocalRuntimeErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'LocalRuntimeError';
  }
}
export interface LocalRuntime {
  generate(req: LocalGenerateRequest, onChunk: (text: string) => void, signal: AbortSignal): Promise<LocalGenerateResult>;
  available(): Promise<boolean>;
  dispose(): void;
}

// A placeholder until the runtime package lands: this build has no local runtime, and says so.
export function createLocalRuntime(_settings: () => LocalRuntimeSettings, _log: (line: string) => void): LocalRuntime {
  return {
    generate: () => Promise.reject(new LocalRuntimeError('unavailable', 'This build of the extension has no local runtime.')),
    available: () => Promise.resolve(false),
    dispose: () => undefined,
  };
}
