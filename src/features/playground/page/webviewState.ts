// What the page keeps through VS Code's setState/getState: the form, the two output panes and the history. The page is
// discarded while hidden (the panel does not retain it) and after a window reload, so this is the panel's memory.
// Saving is throttled: a streaming run changes the state many times a second.
import type { ExportedRun, RunErrorInfo, RunSettings, RunTiming, WebviewToHost } from '../protocol';
import { DEFAULT_KNOBS, type Knobs, type PromptFields } from './formValidation';
import { vscodeApi } from './dom';

export type PaneId = 'a' | 'b';
export type PaneStatus = 'idle' | 'running' | 'done' | 'stopped' | 'error';

export interface PaneState {
  status: PaneStatus;
  runId?: string;
  settings?: RunSettings;
  startedAt?: number;
  /** The answer only. */
  text: string;
  /** The model's reasoning, shown apart in the Thinking section (absent in state saved before it existed). */
  reasoning?: string;
  /** Thinking time: from the start to the first answer text, once the answer began after reasoning. */
  thinkingMs?: number;
  /** The person opened or closed the Thinking section: it stays as they left it. */
  thinkingToggled?: boolean;
  /** The seq of the next chunk this pane expects. */
  nextSeq: number;
  /** The service asked the run to wait (until: epoch ms); cleared by the next chunk or the end. */
  wait?: { waitMs: number; until: number };
  ttfbMs?: number;
  timing?: RunTiming;
  error?: RunErrorInfo;
}

export interface FormState {
  prompt: PromptFields;
  a: Knobs;
  b: Knobs;
  compare: boolean;
}

export interface PlaygroundState {
  version: 1;
  form: FormState;
  panes: Record<PaneId, PaneState>;
  history: ExportedRun[];
}

/** The playground page's link to the extension (no network, no secrets: the host does the I/O). */
export const { post, loadState, saveState } = vscodeApi<WebviewToHost, PlaygroundState>();

export const HISTORY_LIMIT = 50;
/** Per history entry, in the saved state (the live pane keeps the whole text). */
export const HISTORY_OUTPUT_CHARS = 200_000;
const SAVE_INTERVAL_MS = 300;

/** The history without the runs that started at or before `clearedAt` (a clear from the palette). */
export function historyAfter(entries: readonly ExportedRun[], clearedAt: number | undefined): ExportedRun[] {
  return clearedAt === undefined ? [...entries] : entries.filter((e) => e.startedAt > clearedAt);
}

export function emptyPane(): PaneState {
  return { status: 'idle', text: '', nextSeq: 0 };
}

export function freshState(): PlaygroundState {
  return {
    version: 1,
    form: {
      prompt: { context: '', prompt: '', queryOnly: '', customQuery: false },
      a: { ...DEFAULT_KNOBS },
      b: { ...DEFAULT_KNOBS },
      compare: false,
    },
    panes: { a: emptyPane(), b: emptyPane() },
    history: [],
  };
}

/** The saved state when it is this version's, else a fresh one (`restored` tells the two apart). */
export function initialState(): { state: PlaygroundState; restored: boolean } {
  const saved = loadState();
  if (isState(saved)) {
    // Saved before the context existed: the prompt was all there was.
    const prompt = saved.form.prompt as Omit<PromptFields, 'context'> & { context?: unknown };
    if (typeof prompt.context !== 'string') saved.form.prompt.context = '';
    return { state: saved, restored: true };
  }
  return { state: freshState(), restored: false };
}

function isState(x: unknown): x is PlaygroundState {
  if (typeof x !== 'object' || x === null) return false;
  const s = x as Partial<PlaygroundState>;
  return s.version === 1 && typeof s.form === 'object' && typeof s.panes === 'object' && Array.isArray(s.history);
}

export class StateSaver {
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly current: () => PlaygroundState) {}

  /** Saves soon (coalescing bursts). */
  schedule(): void {
    this.timer ??= setTimeout(() => this.saveNow(), SAVE_INTERVAL_MS);
  }

  saveNow(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    saveState(this.current());
  }
}
