// The benchmark's figures, in the order `npm run bench` runs them: cheap and CPU-bound first, the long idle polling
// window and the VS Code host last. Each name is a module in figures/ (run by figure.ts in a process of its own). The
// unit test test/unit/benchTiny.test.ts runs every one of them tiny (BENCH_TINY=1) and fails when a file in figures/
// is missing here, so a new figure cannot be left out of either.

export interface Figure {
  /** The module figures/<name>.ts. */
  name: string;
  number: number;
  title: string;
  /**
   * Measured in VS Code's server build: a tiny run checks its harness without VS Code (the files it hands to VS Code,
   * its emulator and workspace, its report), as starting a server and Chromium for it costs 15–90 s each.
   */
  vscode: boolean;
}

export const FIGURES: readonly Figure[] = [
  { name: 'largeList', number: 7, title: 'Large lists', vscode: false },
  { name: 'cliStart', number: 14, title: 'Command line cold start', vscode: false },
  { name: 'stream', number: 2, title: 'Stream decoding', vscode: false },
  { name: 'upload', number: 4, title: 'Upload', vscode: false },
  { name: 'download', number: 5, title: 'Download', vscode: false },
  { name: 'polling', number: 6, title: 'Polling', vscode: false },
  { name: 'connections', number: 10, title: 'Connection reuse', vscode: false },
  { name: 'compareRun', number: 15, title: 'Comparison run', vscode: false },
  { name: 'local', number: 8, title: 'Local runtime', vscode: false },
  { name: 'activation', number: 1, title: 'Activation', vscode: true },
  { name: 'latency', number: 3, title: 'Token latency in the playground', vscode: true },
  { name: 'chatLatency', number: 9, title: 'First token through vscode.lm', vscode: true },
  { name: 'reasoning', number: 11, title: 'Reasoning latency in the playground', vscode: true },
  { name: 'toolCalls', number: 13, title: 'Tool calls through vscode.lm.invokeTool', vscode: true },
  { name: 'preflight', number: 12, title: 'Pre-flight read of finetune sources', vscode: false },
];
