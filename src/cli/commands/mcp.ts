// `mcp [--download-folder <folder>]`: the extension's tools over MCP (stdio), served by src/mcp/server.ts with this
// command line's client, scope and state folder (createClientFromEnvironment). Until that server is part of this
// build, the command says so and fails as bad input; the wiring is one call:
//   (await import('../../mcp/server.js')).runMcpServer({ client, stdin, stdout, stateDir, scope, downloadFolder, log })
import type { CommandContext } from '../context';
import { CliError } from '../exitCodes';

export async function mcpCommand(_ctx: CommandContext, _options: { downloadFolder?: string }): Promise<number> {
  throw new CliError('hosted-reasoning mcp is not available yet in this build.');
}
