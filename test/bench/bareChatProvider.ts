// Loaded in the VS Code extension host by a helper extension the chat first-token figure installs beside the one under
// test (test/bench/figures/chatLatency.ts): a language-model provider with nothing behind it. Asked for a response,
// it reports its first text part at once, in the call (no HTTP, no key, no module to load), then the rest of the
// answer a word per millisecond, as the emulator paces ours. What a caller of `vscode.lm` then waits for the first
// piece is VS Code's own path (the calling extension host, the workbench, the provider's host and back): the floor
// of any provider in the same host.
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
        if (s) s.calledAt = performance.now();
        const words = (s?.answer ?? 'no answer was set').split(/(?<=\s)/);
        progress.report(new vscode.LanguageModelTextPart(words[0] ?? ''));
        if (s) s.firstReportAt = performance.now();
        for (const word of words.slice(1)) {
          if (token.isCancellationRequested) return;
          await sleep(1);
          progress.report(new vscode.LanguageModelTextPart(word));
        }
      },
      provideTokenCount: (_model, text) => Promise.resolve(Math.ceil((typeof text === 'string' ? text.length : 100) / 4)),
    }),
  );
}

export function deactivate(): void {}
