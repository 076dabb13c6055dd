// Settings, read in one place. Environment variables serve headless use (CI, remote shells) when a setting is empty.
import * as os from 'node:os';
import * as vscode from 'vscode';

export const SECTION = 'hostedReasoning';
export const ENV_BASE_URL = 'HOSTED_REASONING_BASE_URL';

export interface FinetuneDefaults {
  numQs: number;
  mode: string;
  useCase: string;
  maxFileBytes: number;
  maxFiles: number;
}

export interface Settings {
  /** Undefined when neither the setting nor the environment names a service. */
  baseUrl: string | undefined;
  pollIntervalMs: number;
  /** Undefined: ask with a save dialog. */
  downloadFolder: string | undefined;
  requestTimeoutMs: number;
  /** How long an inference run may be silent (its first byte, a non-streamed answer): reasoning takes minutes. */
  answerWaitMs: number;
  finetune: FinetuneDefaults;
  /** The knobs of a request from Chat or `vscode.lm` when the caller's model options do not set them. */
  chat: ChatDefaults;
}

export interface ChatDefaults {
  temperature: number;
  sequentialBudget: number;
  parallelBudget: number;
  useRag: boolean;
}

export function readSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const c = vscode.workspace.getConfiguration(SECTION);
  const num = (key: string, fallback: number, min: number) => {
    const v = c.get<number>(key);
    return typeof v === 'number' && Number.isFinite(v) ? Math.max(min, v) : fallback;
  };
  const baseUrl = c.get<string>('baseUrl')?.trim() || env[ENV_BASE_URL]?.trim() || undefined;
  return {
    baseUrl,
    pollIntervalMs: num('pollIntervalSeconds', 5, 1) * 1000,
    downloadFolder: expandFolder(c.get<string>('downloadFolder')?.trim()),
    requestTimeoutMs: num('requestTimeoutSeconds', 30, 5) * 1000,
    answerWaitMs: num('answerWaitMinutes', 15, 1) * 60_000,
    finetune: {
      numQs: Math.round(num('finetune.numQs', 50, 1)),
      mode: c.get<string>('finetune.mode')?.trim() || 'pretraining',
      useCase: c.get<string>('finetune.useCase') ?? '',
      maxFileBytes: num('finetune.maxFileSizeMB', 512, 1) * 1024 * 1024,
      maxFiles: Math.round(num('finetune.maxFiles', 100, 1)),
    },
    // The playground's defaults.
    chat: {
      temperature: num('chat.temperature', 0.7, 0),
      sequentialBudget: Math.round(num('chat.sequentialBudget', 8, 1)),
      parallelBudget: Math.round(num('chat.parallelBudget', 1, 1)),
      useRag: c.get<boolean>('chat.useRag') === true,
    },
  };
}

function expandFolder(folder: string | undefined): string | undefined {
  if (!folder) return undefined;
  let f = folder;
  if (f === '~' || f.startsWith('~/')) f = os.homedir() + f.slice(1);
  const ws = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (ws) f = f.replace(/\$\{workspaceFolder\}/g, ws);
  return f;
}

/** Fires when any of this extension's settings changes. */
export function onDidChangeSettings(listener: () => void): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration(SECTION)) listener();
  });
}
