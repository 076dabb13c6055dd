// `mcp`: the extension's tools over MCP (stdio), served by src/mcp/server.ts. Until that server is part of this
// build, the command says so and fails as bad input.
import type { CommandContext } from '../context';
import { CliError } from '../exitCodes';

export async function mcpCommand(_ctx: CommandContext): Promise<number> {
  throw new CliError('hosted-reasoning mcp is not available yet in this build.');
}
