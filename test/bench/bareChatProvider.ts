// Loaded in the VS Code extension host by a helper extension the chat first-token figure installs beside the one under
// test (test/bench/figures/chatLatency.ts): a language-model provider with nothing behind it. Asked for a response,
// it reports its first text part at once, in the call (no HTTP, no key, no module to load), then the rest of the
// answer token by token at the emulator's pace, as the emulator writes it to ours. What a caller of `vscode.lm` then
// waits for the first piece is VS Code's own path (the calling extension host, the workbench, the provider's host and
// back, and VS Code's batching of a provider's parts): the floor of any provider in the same host.
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import { BARE_GLOBAL, BARE_MODEL, BARE_VENDOR, type BareChatSeam } from './chatLatencyShared';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function seam(): BareChatSeam | undefined {
  return (globalThis as { [BARE_GLOBAL]?: BareChatSeam })[BARE_GLOBAL];
}

export function activate(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.lm.registerLanguageModelChatProvider(BARE_VENDOR, {
      provideLanguageModelChatInformation: () => [
        {
          id: BARE_MODEL,
          name: 'Bare (benchmark)',
          family: BARE_MODEL,
          version: '1',
          maxInputTokens: 25_000,
          maxOutputTokens: 8_192,
          capabilities: {},
        },
      ],
      provideLanguageModelChatResponse: async (_model, _messages, _options, progress, token) => {
        const s = seam();
        const start = performance.now();
        if (s) s.calledAt = start;
        const parts = s?.parts ?? ['no answer was set'];
        progress.report(new vscode.LanguageModelTextPart(parts[0] ?? ''));
        if (s) s.firstReportAt = performance.now();
        const interval = s?.intervalMs ?? 1;
        for (let i = 1; i < parts.length; i++) {
          // Token i is due i intervals after the call, as the emulator schedules its writes.
          const wait = start + i * interval - performance.now();
          if (wait > 0) await sleep(wait);
          if (token.isCancellationRequested) return;
          progress.report(new vscode.LanguageModelTextPart(parts[i]!));
        }
      },
      provideTokenCount: (_model, text) => Promise.resolve(Math.ceil((typeof text === 'string' ? text.length : 100) / 4)),
    }),
  );
}

export function deactivate(): void {}
