// The MCP server in its own process over real stdio, for mcpServer.test.ts's SDK client (StdioClientTransport):
// argv[2] the emulator's URL, argv[3] the state folder. The command line's `hosted-reasoning mcp` builds its client from
// the environment; this test entry builds one directly. It ends when the client closes its stdin.
import { ServiceClient } from '../../src/api/client';
import { runMcpServer } from '../../src/mcp/server';

const [, , baseUrl, stateDir] = process.argv;
void runMcpServer({
  client: new ServiceClient({ baseUrl: baseUrl!, apiKey: 'demo-key' }),
  stateDir,
  log: (line) => process.stderr.write(`${line}\n`),
}).then(() => process.exit(0));
