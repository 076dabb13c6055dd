// `hosted-reasoning mcp`: the extension's language-model tools served to agents outside VS Code (Claude Code, Copilot
// CLI, Cursor) over stdio with the official MCP SDK. The tools' names, descriptions and input schemas are the
// extension's (toolDefinitions.ts, held equal to package.json), the paid ones with `confirm` added for clients that
// cannot ask their user (mcpConfirm.ts); their work is mcpTools.ts. No vscode: the command line's bundle carries it.
// Its jobs are the command line's, given to it (one store for both faces, the state file: mcpJobs.ts). One start of a
// paid job at a time per service, key and model: the extension's StartingJobs, its lock files under the state folder,
// where the command line keeps its own (so the server, other servers and command-line runs hold each other's starts);
// without a state folder, under a temporary folder of this server's own, which holds the starts of this process only.
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ServiceClient } from '../api/client';
import { LM_TOOLS, type LmToolName } from '../contributions';
import { StartingJobs } from '../jobs/startingJobs';
import { TOOL_DEFINITIONS, type ToolInputSchema } from '../features/tools/toolDefinitions';
import { ToolInputProblem } from '../features/tools/toolInput';
import { McpJobs, type McpJobStore } from './mcpJobs';
import { failureLines } from './mcpText';
import { MCP_TOOLS, PAID_TOOLS, type ToolContext } from './mcpTools';

export interface McpServerOptions {
  client: ServiceClient;
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
  /**
   * The one store of jobs, the command line's (its state file: `hosted-reasoning mcp` gives its run's JobFile); its
   * scope (`<base URL>#<key identity>`) is the service and key the server's jobs are kept under.
   */
  jobs: McpJobStore;
  /** Where the server keeps its start locks and comparisons (the command line's config folder); else a temporary one. */
  stateDir?: string;
  log?: (line: string) => void;
  /** Where hosted_download_model writes: the person's choice when starting the server; without it, it refuses. */
  downloadFolder?: string;
  /**
   * Ends the server (the command line's Ctrl+C): clients stop their servers by a signal too (Claude Code sends SIGINT,
   * then SIGTERM), not only by closing stdin.
   */
  signal?: AbortSignal;
  /**
   * The folders the person gave the server (`--root`): a finetune's or a comparison's files are read there when the
   * client shares no roots of its own (Copilot CLI 1.0 has none); a client's own roots always win.
   */
  roots?: readonly string[];
}

/** The `confirm` argument of a paid tool, for clients without elicitation. */
const CONFIRM_PROPERTY = {
  type: 'boolean',
  description:
    'true only once the person agreed to what it costs (the call without it says what it costs). Clients that can ask their user are asked directly instead.',
};

/**
 * The extension's words that are not true of the server, each with the server's: the tools' text is written once
 * (toolDefinitions.ts, held equal to package.json) and only these phrases are swapped (test/unit/mcpServer.test.ts
 * fails when one is no longer in that text). Jobs are the command line's store (mcpJobs.ts), defaults the settings'
 * own (mcpDefaults.ts), and the download folder the one the person gave the server.
 */
export const MCP_WORDS: readonly (readonly [editor: string, server: string])[] = [
  ['started from this editor', 'started through this server or by the hosted-reasoning command line'],
  ["default: the person's setting", "default: the server's"],
  ["into the person's download folder setting", 'into the folder the person gave this server (--download-folder)'],
];

/** A tool's text in the server's words. */
function inServerWords<T>(x: T): T {
  return JSON.parse(MCP_WORDS.reduce((text, [editor, server]) => text.split(editor).join(server), JSON.stringify(x))) as T;
}

/** The tools as the server lists them: the extension's definitions in its words, `confirm` added to the paid ones. */
export function mcpToolList(): Tool[] {
  return (Object.values(LM_TOOLS) as LmToolName[]).map((name) => {
    const { description, inputSchema } = inServerWords(TOOL_DEFINITIONS[name]);
    const schema: ToolInputSchema = PAID_TOOLS.includes(name)
      ? { ...inputSchema, properties: { ...inputSchema.properties, confirm: CONFIRM_PROPERTY } }
      : inputSchema;
    return { name, description, inputSchema: schema };
  });
}

export interface McpServerHandle {
  server: Server;
  /** Ends the server's own resources (not the transport). */
  dispose(): void;
}

/** The server with its tools, not yet connected to a transport. */
export async function createMcpServer(options: Omit<McpServerOptions, 'stdin' | 'stdout'>): Promise<McpServerHandle> {
  const log = options.log ?? (() => undefined);
  const scope = options.jobs.scope;
  const temporary = options.stateDir === undefined ? mkdtempSync(path.join(os.tmpdir(), 'hosted-reasoning-mcp-')) : undefined;
  const stateDir = options.stateDir ?? temporary!;
  const jobs = new McpJobs(options.jobs);
  const starting = new StartingJobs(path.join(stateDir, 'starting'), log, { face: 'mcp' });
  const server = new Server({ name: 'hosted-reasoning', version: '0.1.0' }, { capabilities: { tools: {} } });
  const names = new Set<string>(Object.values(LM_TOOLS));
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: mcpToolList() }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const name = request.params.name;
    if (!names.has(name)) return text([`No tool is named ${JSON.stringify(name.slice(0, 100))}.`], true);
    const ctx: ToolContext = {
      client: options.client,
      scope,
      jobs,
      starting,
      server,
      signal: extra.signal,
      downloadFolder: options.downloadFolder,
      roots: options.roots ?? [],
      comparisonsDir: path.join(stateDir, 'comparisons'),
      log,
    };
    const what = TOOL_WORDS[name as LmToolName];
    try {
      // What a command-line run or another server recorded since the last call.
      await jobs.reload();
      return text(await MCP_TOOLS[name as LmToolName](request.params.arguments ?? {}, ctx));
    } catch (error) {
      if (error instanceof ToolInputProblem) return text([`${what}: the input was not usable: ${error.message}`], true);
      log(`MCP: ${name} failed: ${error instanceof Error ? error.message : String(error)}`);
      return text(failureLines(what, error), true);
    }
  });
  return {
    server,
    dispose: () => {
      if (temporary) rmSync(temporary, { recursive: true, force: true });
    },
  };
}

/** What each tool does, as its failure names it (the extension's tools say the same). */
const TOOL_WORDS: Record<LmToolName, string> = {
  [LM_TOOLS.listModels]: 'Listing the models',
  [LM_TOOLS.listJobs]: 'Listing the jobs',
  [LM_TOOLS.getJob]: 'Reading the job',
  [LM_TOOLS.startFinetune]: 'Starting the finetune',
  [LM_TOOLS.startEvaluation]: 'Starting the evaluation',
  [LM_TOOLS.getEvaluationReport]: 'Reading the evaluation report',
  [LM_TOOLS.downloadModel]: 'Downloading the model',
  [LM_TOOLS.askModel]: 'Asking the model',
  [LM_TOOLS.compareModels]: 'Comparing the models',
};

function text(lines: readonly string[], isError = false) {
  return { content: [{ type: 'text' as const, text: lines.join('\n') }], ...(isError && { isError: true }) };
}

/** Serves the tools over stdio until the client closes its end (stdin ends), the transport closes or `signal` aborts. */
export async function runMcpServer(options: McpServerOptions): Promise<void> {
  const stdin = (options.stdin ?? process.stdin) as NodeJS.ReadableStream & import('node:stream').Readable;
  const stdout = (options.stdout ?? process.stdout) as NodeJS.WritableStream & import('node:stream').Writable;
  const handle = await createMcpServer(options);
  const transport = new StdioServerTransport(stdin, stdout);
  try {
    const closed = new Promise<void>((resolve) => {
      transport.onclose = resolve;
      stdin.once('end', resolve);
      stdin.once('close', resolve);
      if (options.signal?.aborted) resolve();
      options.signal?.addEventListener('abort', () => resolve(), { once: true });
    });
    await handle.server.connect(transport);
    await closed;
  } finally {
    await handle.server.close();
    handle.dispose();
  }
}
