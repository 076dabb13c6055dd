// `mcp [--root <folder>]… [--download-folder <folder>]`: the extension's tools over MCP (stdio), served by src/mcp/server.ts with this
// command line's client, scope and state file (createClientFromEnvironment): the jobs it reads and records are this
// command line's. The server and its SDK load only here, so `models --json` and the other commands do not pay for them
// at start (bench figure 14).
import { statSync } from 'node:fs';
import * as path from 'node:path';
import type { CommandContext } from '../context';
import { CliError, EXIT } from '../exitCodes';
import { shellWord } from '../jsonOutput';

export async function mcpCommand(ctx: CommandContext, options: { roots: readonly string[]; downloadFolder?: string }): Promise<number> {
  // A mistyped --root would only show when a tool is called; refused here, the client says the server failed to start.
  for (const root of options.roots) {
    if (!statSync(root, { throwIfNoEntry: false })?.isDirectory()) throw new CliError(`mcp: --root ${shellWord(root)} is not a folder.`);
  }
  const { runMcpServer } = await import('../../mcp/server.js');
  await runMcpServer({
    client: ctx.connection.client,
    stdin: ctx.io.stdin,
    stdout: ctx.io.stdout,
    stateDir: path.dirname(ctx.connection.state.file),
    jobs: ctx.jobs,
    roots: options.roots,
    ...(options.downloadFolder !== undefined && { downloadFolder: options.downloadFolder }),
    log: (line) => ctx.out.note(line),
    signal: ctx.signal,
  });
  // Ended by Ctrl+C (a client's SIGINT) as every command is: 130; by the client closing its end: done.
  return ctx.signal.aborted ? EXIT.interrupted : EXIT.done;
}
