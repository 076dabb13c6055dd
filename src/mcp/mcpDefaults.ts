// What the MCP server uses where the extension reads a setting: the settings' own defaults (package.json's
// contributes.configuration, held equal by test/unit/mcpServer.test.ts). The server has no settings of its own: an
// agent sets a request's knobs in its arguments, as a language-model tool's caller does.
import type { ChatKnobs } from '../features/chat/chatRequest';
import type { FileLimits } from '../features/finetune/finetuneFiles';
import { DEFAULT_COMPARE_CONCURRENCY } from '../features/evaluate/compare/compareRun';

export const MCP_DEFAULTS: {
  finetune: FileLimits & { numQs: number; mode: string; useCase: string };
  chat: ChatKnobs;
  compareConcurrency: number;
} = {
  finetune: { numQs: 50, mode: 'pretraining', useCase: '', maxFileBytes: 512 * 1024 * 1024, maxFiles: 100 },
  chat: { temperature: 0.7, sequentialBudget: 8, parallelBudget: 1, useRag: false },
  compareConcurrency: DEFAULT_COMPARE_CONCURRENCY,
};
