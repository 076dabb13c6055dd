// Small helpers for the in-editor tests: waiting on a condition with a deadline (never a fixed sleep), recording the
// messages the extension shows, reading the Models view as the user sees it, and deactivating and activating the
// extension again as a window reload does.
import * as assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionExports } from '../../src/extension';
import type { ExtensionApi } from '../../src/main';
import type { PlaygroundPanel } from '../../src/features/playground/host/playgroundPanel';
import type { GroupNode, ModelNode, ModelsNode } from '../../src/features/models/modelsTree';
import { clockTime } from '../../src/util/serviceWaitText';
import { editGlobalState, UNCHANGED, type StoredState } from '../../src/globalStateEdit';

/**
 * Polls `probe` until it returns something other than undefined, or fails at the deadline saying what it waited
 * for and what it last saw. A probe that throws is retried; its last error is reported at the deadline.
 */
export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  { timeoutMs = 10_000, intervalMs = 50, describe }: { timeoutMs?: number; intervalMs?: number; describe?: () => unknown } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
      lastError = undefined;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const seen = describe ? `; last seen: ${safeJson(await describe())}` : '';
      const why = lastError ? `; last error: ${lastError instanceof Error ? lastError.message : safeJson(lastError)}` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${seen}${why}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

export interface ShownMessage {
  severity: 'error' | 'warning' | 'information';
  text: string;
  actions: string[];
  /** Asked as a modal dialog (`{ modal: true }`). */
  modal: boolean;
}

type MessageFn = 'showErrorMessage' | 'showWarningMessage' | 'showInformationMessage';
const SEVERITY: Record<MessageFn, ShownMessage['severity']> = {
  showErrorMessage: 'error',
  showWarningMessage: 'warning',
  showInformationMessage: 'information',
};

/**
 * Runs `body` while vscode.window's message functions record what they are asked to show and answer as a user
 * who dismisses the message (undefined), or, given `answer`, picks the action it names (an action the message does
 * not offer counts as dismissing). The real functions are put back afterwards, whatever happens. The extension host
 * hands the extension and its tests the same `vscode` API object, so the extension's calls land here.
 */
export async function recordingMessages<T>(
  body: (shown: ShownMessage[]) => Promise<T>,
  { answer }: { answer?: (message: ShownMessage) => string | undefined } = {},
): Promise<T> {
  const shown: ShownMessage[] = [];
  const window = vscode.window as unknown as Record<MessageFn, unknown>;
  const originals = new Map<MessageFn, unknown>();
  for (const fn of Object.keys(SEVERITY) as MessageFn[]) {
    originals.set(fn, window[fn]);
    window[fn] = (text: string, ...rest: unknown[]) => {
      const items = rest.filter((r) => typeof r === 'string' || (r && typeof r === 'object' && 'title' in r));
      const title = (item: unknown) => (typeof item === 'string' ? item : String((item as { title: unknown }).title));
      const modal = rest.some((r) => r && typeof r === 'object' && !('title' in r) && (r as vscode.MessageOptions).modal === true);
      const message: ShownMessage = { severity: SEVERITY[fn], text, actions: items.map(title), modal };
      shown.push(message);
      const picked = answer?.(message);
      // The API answers with the item itself: the string, or the MessageItem object.
      return Promise.resolve(picked === undefined ? undefined : items.find((item) => title(item) === picked));
    };
  }
  try {
    return await body(shown);
  } finally {
    for (const [fn, original] of originals) window[fn] = original;
  }
}

/** An input box as the test saw it: its options, and the errors it showed after each answer it refused. */
export type AskedBox = vscode.InputBoxOptions & { refusals?: string[] };

/**
 * Runs `body` while input boxes answer as a user who types each of `answers` in turn (undefined: presses Escape); the
 * boxes asked for (their title and prompt) are recorded. The commands take a key or a URL only from an input box, never
 * from their arguments, so this is how a test gives them one. Both kinds are answered: showInputBox, and a box from
 * createInputBox, which takes answers while it stays open after one (a refused key: its error is recorded in
 * `refusals`) and is closed as if by Escape when the answers run out.
 */
export async function answeringInputBoxes<T>(answers: (string | undefined)[], body: (asked: AskedBox[]) => Promise<T>): Promise<T> {
  const window = vscode.window as unknown as { showInputBox: unknown; createInputBox: unknown };
  const original = { showInputBox: window.showInputBox, createInputBox: window.createInputBox };
  const asked: AskedBox[] = [];
  const queue = [...answers];
  window.showInputBox = (options: vscode.InputBoxOptions = {}) => {
    asked.push(options);
    if (queue.length === 0) throw new Error(`an unexpected input box: ${options.title ?? options.prompt ?? ''}`);
    return Promise.resolve(queue.shift());
  };
  window.createInputBox = () => answeringBox(queue, asked);
  try {
    return await body(asked);
  } finally {
    window.showInputBox = original.showInputBox;
    window.createInputBox = original.createInputBox;
  }
}

/** A stand-in for vscode.window.createInputBox's box, driven by `queue` from show() until it is hidden. */
function answeringBox(queue: (string | undefined)[], asked: AskedBox[]): vscode.InputBox {
  const accept = new vscode.EventEmitter<void>();
  const hide = new vscode.EventEmitter<void>();
  const change = new vscode.EventEmitter<string>();
  let hidden = false;
  const record: AskedBox = { refusals: [] };
  const box = {
    value: '',
    title: undefined as string | undefined,
    prompt: undefined as string | undefined,
    placeholder: undefined as string | undefined,
    password: false,
    ignoreFocusOut: false,
    busy: false,
    enabled: true,
    validationMessage: undefined as string | undefined,
    onDidAccept: accept.event,
    onDidHide: hide.event,
    onDidChangeValue: change.event,
    // A wizard's box has steps and a Back button (src/util/quickInputStep.ts); the answers never press it.
    step: undefined as number | undefined,
    totalSteps: undefined as number | undefined,
    buttons: [] as readonly vscode.QuickInputButton[],
    onDidTriggerButton: new vscode.EventEmitter<vscode.QuickInputButton>().event,
    hide() {
      if (hidden) return;
      hidden = true;
      hide.fire();
    },
    dispose() {
      box.hide();
    },
    show() {
      Object.assign(record, {
        title: box.title,
        prompt: box.prompt,
        placeHolder: box.placeholder,
        password: box.password,
        value: box.value,
      });
      asked.push(record);
      if (queue.length === 0) throw new Error(`an unexpected input box: ${box.title ?? box.prompt ?? ''}`);
      void answer();
    },
  };
  async function answer(): Promise<void> {
    while (!hidden) {
      const next = queue.shift();
      if (next === undefined) return box.hide();
      box.value = next;
      change.fire(next);
      accept.fire();
      // The box is busy while the command checks the answer; then it is closed, or still open with an error.
      while (!hidden && box.busy) await new Promise((r) => setTimeout(r, 20));
      if (hidden) return;
      record.refusals?.push(box.validationMessage ?? '');
    }
  }
  return box as unknown as vscode.InputBox;
}

/**
 * Runs `body` while every QuickPick the extension creates is also handed to it (the real one, shown as usual), so a
 * test can read the items a picker offers and hide it as a person pressing Escape would. Put back afterwards.
 */
export async function capturingQuickPicks<T>(body: (picks: vscode.QuickPick<vscode.QuickPickItem>[]) => Promise<T>): Promise<T> {
  const window = vscode.window as unknown as { createQuickPick: () => vscode.QuickPick<vscode.QuickPickItem> };
  const original = window.createQuickPick;
  const picks: vscode.QuickPick<vscode.QuickPickItem>[] = [];
  window.createQuickPick = () => {
    const pick = original.call(vscode.window);
    picks.push(pick);
    return pick;
  };
  try {
    return await body(picks);
  } finally {
    window.createQuickPick = original;
  }
}

/**
 * Accepts `item` of an open picker as a person pressing Enter on it. The accept is sent again only while the last one
 * is shown not taken (the item not selected, the picker still open): on a loaded machine an accept can reach the
 * workbench before the item is active there and be lost (a 1.104 run waited in vain for the next picker).
 */
export async function acceptQuickPickItem(pick: vscode.QuickPick<vscode.QuickPickItem>, item: vscode.QuickPickItem): Promise<void> {
  let hidden = false;
  const listener = pick.onDidHide(() => (hidden = true));
  const taken = (): true | undefined => (hidden || pick.selectedItems.includes(item) ? true : undefined);
  try {
    for (let tries = 0; tries < 10; tries++) {
      if (taken()) return;
      pick.activeItems = [item];
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      await waitFor(`"${pick.title ?? ''}" to take ${item.label}`, taken, { timeoutMs: 3_000 }).catch(() => undefined);
    }
    if (!taken()) throw new Error(`"${pick.title ?? ''}" did not take ${item.label} in ten accepts`);
  } finally {
    listener.dispose();
  }
}

/** The Models view's rows as the view asks for them: roots, then each group's models. */
export async function modelsView(api: ExtensionApi): Promise<{ roots: ModelsNode[]; groups: GroupNode[]; models: ModelNode[] }> {
  const roots = await api.models.getChildren();
  const groups = roots.filter((n): n is GroupNode => n.type === 'group');
  const models: ModelNode[] = [];
  for (const group of groups) {
    for (const child of await api.models.getChildren(group)) if (child.type === 'model') models.push(child);
  }
  return { roots, groups, models };
}

/** The view's model node of that name (undefined when it is not listed). */
export async function modelNode(api: ExtensionApi, name: string): Promise<ModelNode | undefined> {
  return (await modelsView(api)).models.find((m) => m.model.name === name);
}

/** Waits for a playground panel's page to say `ready` (its script ran under the policy); returns the panel. */
export async function whenPanelReady(panel: PlaygroundPanel): Promise<PlaygroundPanel> {
  await waitFor(
    'the playground page to say ready',
    async () => {
      let ready = false;
      await Promise.race([panel.ready.then(() => (ready = true)), new Promise((r) => setTimeout(r, 100))]);
      return ready || undefined;
    },
    { timeoutMs: 20_000 },
  );
  return panel;
}

/** What VS Code does on deactivation, for this extension: every subscription disposed. */
export function deactivate(context: vscode.ExtensionContext): void {
  const problems: string[] = [];
  for (const d of context.subscriptions.splice(0)) {
    try {
      d.dispose();
    } catch (error) {
      problems.push(error instanceof Error ? error.message : String(error));
    }
  }
  assert.deepEqual(problems, [], 'disposing the subscriptions threw');
}

/** Activates the built entry module again on the same context, as a window reload does (after `deactivate`). */
export function activateAgain(extensionPath: string, context: vscode.ExtensionContext): ExtensionExports {
  const bundle = createRequire(__filename)(path.join(extensionPath, 'dist', 'extension.js')) as {
    activate(context: vscode.ExtensionContext): ExtensionExports;
  };
  return bundle.activate(context);
}

/**
 * Every clock time (as serviceWaitText writes it, in VS Code's display language) between `from` and `to` (epoch ms):
 * a wait's end is read by the extension's clock at a moment the test only brackets, so the text shown must be one of
 * these, whatever second the moment fell in.
 */
export function clockTimesBetween(from: number, to: number): Set<string> {
  const times = new Set<string>();
  for (let t = from; t < to + 1000; t += 1000) times.add(clockTime(Math.min(t, to), vscode.env.language));
  return times;
}

/** globalState as far as a store kept through editGlobalState needs it (ServiceProfiles), counting writes. */
export function countingState(initial: Record<string, unknown> = {}): StoredState & { writes: number } {
  const values = new Map(Object.entries(JSON.parse(JSON.stringify(initial)) as Record<string, unknown>));
  return {
    writes: 0,
    get: <T>(key: string) => values.get(key) as T | undefined,
    update(key: string, value: unknown) {
      this.writes++;
      values.set(key, JSON.parse(JSON.stringify(value)) as unknown);
      return Promise.resolve();
    },
  };
}

/** Resolves once every change already asked of `state` is done: editGlobalState runs them one at a time, in order. */
export function stateSettled(state: StoredState): Promise<boolean> {
  return editGlobalState(state, 'test.settled', () => UNCHANGED);
}
