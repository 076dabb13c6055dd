// Shared by the tool-call figure (test/bench/figures/toolCalls.ts) and its probe in the extension host
// (toolCallsProbe.ts).

/** The probe writes its JSON result here. */
export const TOOL_RESULT_ENV = 'HR_BENCH_TOOL_RESULT';
/** Calls per operation and path. */
export const TOOL_RUNS_ENV = 'HR_BENCH_TOOL_RUNS';

/** The operations timed: hosted_list_models, and hosted_ask_model with a short prompt. */
export type ToolOperation = 'listModels' | 'askModel';
/**
 * invokeTool: `vscode.lm.invokeTool` (VS Code's tool service, to the workbench and back to our tool);
 * tool: our tool's own `invoke` called in the extension host (no VS Code plumbing);
 * direct: the same service calls the tool makes, without the tool (session.connect() and the client, or askModel).
 */
export type ToolPath = 'invokeTool' | 'tool' | 'direct';

export interface ToolRun {
  operation: ToolOperation;
  path: ToolPath;
  ms: number;
  /** The result's text (invokeTool, tool) or the answer / model count (direct) was what the warm-up gave. */
  sameResult: boolean;
}

export interface ToolCallsResult {
  vscodeVersion: string;
  /** Per call, in the order made (interleaved). */
  runs: ToolRun[];
  error?: string;
}
