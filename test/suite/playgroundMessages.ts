// What a playground panel posts to its page, as the in-editor tests read it: recorded from a point on, the text of a
// run, its end; a panel opened on a model.
import type { PlaygroundPanel } from '../../src/features/playground/host/playgroundPanel';
import type { ChunkMessage, DoneMessage, ErrorMessage, HostToWebview, RunSettings } from '../../src/features/playground/protocol';
import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import { COMMANDS } from '../../src/contributions';
import type { ExtensionApi } from '../../src/main';
import { waitFor, whenPanelReady } from './helpers';

/** Records what the panel posts to its webview, from now on. */
export function record(panel: PlaygroundPanel): { posted: HostToWebview[]; dispose(): void } {
  const posted: HostToWebview[] = [];
  const subscription = panel.onDidPostMessage((m) => posted.push(m));
  return {
    posted,
    dispose: () => {
      subscription.dispose();
    },
  };
}

export function chunks(posted: HostToWebview[], runId: string): ChunkMessage[] {
  return posted.filter((m): m is ChunkMessage => m.type === 'chunk' && m.runId === runId);
}

export function textOf(posted: HostToWebview[], runId: string): string {
  return chunks(posted, runId)
    .map((c) => c.text)
    .join('');
}

export function endOf(posted: HostToWebview[], runId: string): DoneMessage | ErrorMessage | undefined {
  return posted.find((m): m is DoneMessage | ErrorMessage => (m.type === 'done' || m.type === 'error') && m.runId === runId);
}

export async function waitForEnd(posted: HostToWebview[], runId: string, timeoutMs = 15_000): Promise<DoneMessage | ErrorMessage> {
  return waitFor(`run ${runId} to end`, () => endOf(posted, runId), {
    timeoutMs,
    describe: () => posted.filter((m) => 'runId' in m && m.runId === runId).slice(-3),
  });
}

/** A run's settings as the page sends them: a short prompt, no RAG, the smallest budgets, streamed; `over` wins. */
export function runSettings(modelName: string, over: Partial<RunSettings> = {}): RunSettings {
  return {
    modelName,
    prompt: 'Say hello.',
    temperature: 0.3,
    useRag: false,
    sequentialBudget: 1,
    parallelBudget: 1,
    stream: true,
    ...over,
  };
}

/** Sends a message as the webview would; asserts the panel's guard accepted it. */
export function send(panel: PlaygroundPanel, message: unknown): void {
  assert.equal(panel.handleMessage(message), true, `the panel refused ${JSON.stringify(message).slice(0, 200)}`);
}

/** Opens a playground on `modelName` through the command and waits for its page to say `ready`. */
export async function openPlaygroundOn(api: ExtensionApi, modelName: string): Promise<PlaygroundPanel> {
  const before = new Set(api.playground.panels);
  await vscode.commands.executeCommand(COMMANDS.openPlayground, { modelName });
  const panel = api.playground.panels.find((p) => !before.has(p));
  assert.ok(panel, 'the command opened no panel');
  return whenPanelReady(panel);
}
