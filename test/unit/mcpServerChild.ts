// The MCP server in its own process over real stdio, for mcpServer.test.ts's SDK client (StdioClientTransport):
// argv[2] the emulator's URL, argv[3] the state folder. The command line's `hosted-reasoning mcp` builds its client from
// the environment and gives its run's job store; this test entry builds both directly (the store: state.json in that
// folder). It ends when the client closes its stdin.
import * as path from 'node:path';
import { ServiceClient } from '../../src/api/client';
import { FileState } from '../../src/cli/fileState';
import { JobFile } from '../../src/cli/jobFile';
import { runMcpServer } from '../../src/mcp/server';

const [, , baseUrl, stateDir] = process.argv;
const client = new ServiceClient({ baseUrl: baseUrl!, apiKey: 'demo-key' });
void (async () =>
  runMcpServer({
    client,
    jobs: new JobFile(await FileState.open(path.join(stateDir!, 'state.json')), client.baseUrl),
    stateDir,
    log: (line) => process.stderr.write(`${line}\n`),
  }))().then(() => process.exit(0));
