// The playground's message protocol: the one set of types both sides import (the extension host and the webview
// bundle), so a message shape cannot drift between them. Webview -> host messages are untrusted input: the host
// accepts one only after `isWebviewMessage` has checked every field (types, lengths, ranges, no unknown keys).
// No `vscode` and no Node imports here: this module is bundled into the browser code too.

import type { ErrorKind } from '../../util/classifyError';

import { arrayOf, bool, isRecord, literal, messageProblem, num, exactFields, str, type Check } from '../../api/strictChecks';

export { PLAYGROUND_VIEW_TYPE } from '../../contributions';

/** Limits of the guard. They bound what the webview can make the host hold or send, not what the service accepts. */
export const LIMITS = {
  runIdPattern: /^[A-Za-z0-9_-]{1,64}$/,
  modelNameChars: 256,
  /** Larger than any prompt a person types or selects; the service has the final word on its own limit. */
  promptChars: 1_000_000,
  /** The form checks 0..2; the guard only rejects nonsense, so the service can still explain its own range. */
  temperatureAbs: 1_000,
  budgetMax: 1_000_000,
  copyChars: 5_000_000,
  urlChars: 8_192,
  presetNameChars: 60,
  presets: 50,
  exportRuns: 200,
  exportOutputChars: 5_000_000,
  errorChars: 10_000,
} as const;

/** What one run sends to the service (spec 4.2), as the form holds it. */
export interface RunSettings {
  modelName: string;
  prompt: string;
  /** The query part; absent means "the same as the prompt", the spec's documented usage. */
  queryOnly?: string;
  temperature: number;
  useRag: boolean;
  sequentialBudget: number;
  parallelBudget: number;
  stream: boolean;
}

/** A preset keeps the knobs, not the prompt: the same settings are reused on other prompts. */
export interface PresetSettings {
  modelName?: string;
  temperature: number;
  useRag: boolean;
  sequentialBudget: number;
  parallelBudget: number;
  stream: boolean;
}

export interface Preset {
  name: string;
  settings: PresetSettings;
}

export interface RunTiming {
  /** Time to the first text; absent when none arrived. */
  ttfbMs?: number;
  totalMs: number;
  /** Characters of the answer (UTF-16 code units, as JavaScript counts). */
  chars: number;
  /** Characters of reasoning, when the model wrote any apart from its answer. */
  reasoningChars?: number;
  /** Thinking time: from sending the request to the first answer text (or the end), when reasoning came. */
  thinkingMs?: number;
}

/** Commands an error can offer; the host maps each to a fixed command id (the webview never names a command). */
export type ErrorFix = 'setApiKey' | 'configureBaseUrl' | 'showLog' | 'openProxySettings' | 'chooseAnswerReading';
export const ERROR_FIXES: readonly ErrorFix[] = ['setApiKey', 'configureBaseUrl', 'showLog', 'openProxySettings', 'chooseAnswerReading'];

/** The service client's error kinds plus a missing URL or key and an unexpected failure (type-only: erased). */
export type RunErrorKind = ErrorKind;

export interface RunErrorInfo {
  /** Fit to show: the service's own words when it gave any. */
  message: string;
  kind: RunErrorKind;
  /** Trying the same request again may work (network, timeout, server, rate limit). */
  retryable: boolean;
  fix?: ErrorFix;
}

export type RunOutcome = 'done' | 'stopped' | 'error';

/** A finished run as the webview's history holds it; sent back for "export session". */
export interface ExportedRun {
  runId: string;
  /** Epoch milliseconds. */
  startedAt: number;
  settings: RunSettings;
  /** The answer only: what Copy copies. */
  output: string;
  /** The reasoning written before (or beside) the answer, kept apart from it. */
  reasoning?: string;
  outcome: RunOutcome;
  error?: string;
  timing?: RunTiming;
}

export interface ModelEntry {
  /** For a local model, its id (LOCAL_MODEL_ID): the host alone knows its file. */
  name: string;
  kind: 'base' | 'custom' | 'unknown' | 'local';
  /** A local model's name as shown (the downloaded model's, or the file's). */
  label?: string;
}

/**
 * A local model's id as the page sends it back: a digest the host looks up in its own record, never a path. A
 * service model named like this is left out of the list: a run on it could not tell which one is meant.
 */
export const LOCAL_MODEL_ID = /^local:[0-9a-f]{16}$/;

export function isLocalModelId(name: string): boolean {
  return LOCAL_MODEL_ID.test(name);
}

/** What a new panel starts with (a model from the Models view; the editor selection as context, and a question). */
export interface Prefill {
  modelName?: string;
  /** Shown apart from the prompt, which becomes the question about it; the person can remove it. */
  context?: string;
  prompt?: string;
}

// ---- host -> webview -------------------------------------------------------------------------------------------

/**
 * A piece of a run's output. Chunks of one run share its runId and arrive with seq 0, 1, 2, ... A chunk is the
 * answer's text, or (`reasoning: true`) the model's reasoning, shown apart from the answer.
 */
export interface ChunkMessage {
  type: 'chunk';
  runId: string;
  seq: number;
  text: string;
  reasoning?: true;
  /** On the first chunk only: time from sending the request to the first text. */
  ttfbMs?: number;
}

/**
 * The service asked the run to wait (Retry-After) before its request goes again: the pane says so, with the clock
 * time, until the run's first chunk or its end. At most once per run (CallOptions.interactive).
 */
export interface WaitMessage {
  type: 'wait';
  runId: string;
  waitMs: number;
  /** When the request goes again (epoch ms). */
  until: number;
}

/** The run ended without error; `stopped` when the user stopped it. */
export interface DoneMessage {
  type: 'done';
  runId: string;
  stopped: boolean;
  timing: RunTiming;
}

export interface ErrorMessage {
  type: 'error';
  runId: string;
  error: RunErrorInfo;
  timing: RunTiming;
}

/** The host's view of a run, sent again after the webview was re-created (it is discarded while hidden). */
export interface RunSnapshot {
  runId: string;
  text: string;
  reasoning: string;
  /** Thinking time so far, when the answer has begun after reasoning. */
  thinkingMs?: number;
  /** Chunks posted so far: the next live chunk has this seq. */
  nextSeq: number;
  /** The wait the service asked for, while nothing has come since. */
  wait?: { waitMs: number; until: number };
  end?: DoneMessage | ErrorMessage;
}

export interface InitMessage {
  type: 'init';
  presets: Preset[];
  /** Only on a new panel's first `ready`: a restored panel keeps what its own state says. */
  prefill?: Prefill;
  /** Runs the host still knows of; a run the webview thinks is running but is not here was cut off (reload). */
  runs: RunSnapshot[];
  /** When the history was last cleared (epoch ms): the page drops the runs it keeps that started before. */
  historyClearedAt?: number;
}

/** The history was cleared from the palette (Clear Stored Records…): the page drops the runs that started before `at`. */
export interface ClearHistoryMessage {
  type: 'clearHistory';
  at: number;
}

export interface ModelsMessage {
  type: 'models';
  loading: boolean;
  models: ModelEntry[];
  error?: RunErrorInfo;
}

export interface PresetsMessage {
  type: 'presets';
  presets: Preset[];
}

export type HostToWebview =
  InitMessage | ModelsMessage | PresetsMessage | ChunkMessage | WaitMessage | DoneMessage | ErrorMessage | ClearHistoryMessage;

// ---- webview -> host -------------------------------------------------------------------------------------------

export type WebviewToHost =
  | { type: 'ready' }
  | { type: 'run'; runId: string; settings: RunSettings }
  | { type: 'stop'; runId: string }
  | { type: 'refreshModels' }
  | { type: 'copy'; text: string }
  | { type: 'openLink'; url: string }
  | { type: 'savePreset'; preset: Preset }
  | { type: 'deletePreset'; name: string }
  | { type: 'export'; runs: ExportedRun[] }
  | { type: 'fix'; fix: ErrorFix };

export type WebviewMessageType = WebviewToHost['type'];

// ---- guards ----------------------------------------------------------------------------------------------------

function nonBlank(max: number): Check {
  const base = str(1, max);
  return (v) => base(v) ?? ((v as string).trim() ? undefined : 'blank');
}

const runId = str(1, 64, LIMITS.runIdPattern);
const modelName = nonBlank(LIMITS.modelNameChars);
const temperature = num(-LIMITS.temperatureAbs, LIMITS.temperatureAbs);
const budget = num(1, LIMITS.budgetMax, true);

const settingsCheck = exactFields(
  {
    modelName,
    prompt: nonBlank(LIMITS.promptChars),
    temperature,
    useRag: bool,
    sequentialBudget: budget,
    parallelBudget: budget,
    stream: bool,
  },
  { queryOnly: str(0, LIMITS.promptChars) },
);

const presetCheck = exactFields({
  name: nonBlank(LIMITS.presetNameChars),
  settings: exactFields({ temperature, useRag: bool, sequentialBudget: budget, parallelBudget: budget, stream: bool }, { modelName }),
});

const timingCheck = exactFields(
  { totalMs: num(0, Number.MAX_SAFE_INTEGER), chars: num(0, Number.MAX_SAFE_INTEGER, true) },
  {
    ttfbMs: num(0, Number.MAX_SAFE_INTEGER),
    reasoningChars: num(0, Number.MAX_SAFE_INTEGER, true),
    thinkingMs: num(0, Number.MAX_SAFE_INTEGER),
  },
);

const exportedRunCheck = exactFields(
  {
    runId,
    startedAt: num(0, 8.64e15),
    settings: settingsCheck,
    output: str(0, LIMITS.exportOutputChars),
    outcome: literal('done', 'stopped', 'error'),
  },
  { error: str(0, LIMITS.errorChars), timing: timingCheck, reasoning: str(0, LIMITS.exportOutputChars) },
);

const typeIs = (...names: WebviewMessageType[]): Check => literal(...names);

const MESSAGE_CHECKS: { [K in WebviewMessageType]: Check } = {
  ready: exactFields({ type: typeIs('ready') }),
  run: exactFields({ type: typeIs('run'), runId, settings: settingsCheck }),
  stop: exactFields({ type: typeIs('stop'), runId }),
  refreshModels: exactFields({ type: typeIs('refreshModels') }),
  copy: exactFields({ type: typeIs('copy'), text: str(0, LIMITS.copyChars) }),
  openLink: exactFields({ type: typeIs('openLink'), url: str(1, LIMITS.urlChars) }),
  savePreset: exactFields({ type: typeIs('savePreset'), preset: presetCheck }),
  deletePreset: exactFields({ type: typeIs('deletePreset'), name: nonBlank(LIMITS.presetNameChars) }),
  export: exactFields({ type: typeIs('export'), runs: arrayOf(LIMITS.exportRuns, exportedRunCheck) }),
  fix: exactFields({ type: typeIs('fix'), fix: literal(...ERROR_FIXES) }),
};

/** Why `x` is not a valid webview -> host message (for the log), or undefined when it is valid. */
export function webviewMessageProblem(x: unknown): string | undefined {
  return messageProblem(MESSAGE_CHECKS, x);
}

export function isWebviewMessage(x: unknown): x is WebviewToHost {
  return webviewMessageProblem(x) === undefined;
}

/** Checks a preset read back from storage (globalState is shared with older versions of this extension). */
export function isPreset(x: unknown): x is Preset {
  return presetCheck(x) === undefined;
}

const HOST_TYPES: readonly HostToWebview['type'][] = ['init', 'models', 'presets', 'chunk', 'wait', 'done', 'error', 'clearHistory'];

/**
 * The webview's cheap check of what it receives: only the extension can post into its own webview, so this guards
 * against stray messages (a devtools console, a future protocol change), not an attacker.
 */
export function isHostMessage(x: unknown): x is HostToWebview {
  return isRecord(x) && typeof x.type === 'string' && (HOST_TYPES as readonly string[]).includes(x.type);
}
