// The folders an MCP client shares (the protocol's roots, asked for at each call: a client may change them), as the
// workspace folders the tools resolve paths in (workspacePath.ts, realPlace.ts). Only file: roots: a path is read from
// this computer's disk. A client that shares none leaves nothing readable: a finetune or a comparison is refused.
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { WorkspaceRoot } from '../features/tools/workspacePath';

export const NO_ROOTS =
  'The MCP client shares no folders (roots) with this server, so no file can be read: open the folder that holds the files in the client (or add it as a root), then call again.';

/** The client's file roots, or why there are none. */
export async function clientRoots(server: Server, signal: AbortSignal): Promise<WorkspaceRoot[] | { problem: string }> {
  if (!server.getClientCapabilities()?.roots) return { problem: NO_ROOTS };
  const { roots } = await server.listRoots(undefined, { signal });
  const found = roots
    .filter((r) => r.uri.startsWith('file:'))
    .map((r) => {
      const full = fileURLToPath(r.uri);
      return { name: r.name?.trim() || path.basename(full), path: full };
    });
  return found.length > 0 ? found : { problem: NO_ROOTS };
}
