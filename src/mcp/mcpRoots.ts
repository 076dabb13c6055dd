// The folders an MCP client shares (the protocol's roots, asked for at each call: a client may change them), as the
// workspace folders the tools resolve paths in (workspacePath.ts, realPlace.ts). Only file: roots: a path is read from
// this computer's disk. A client without the roots capability (Copilot CLI 1.0) gets the folders the person gave the
// server when starting it (`--root`), as the reference filesystem server does; a client with roots gets only its own.
// With neither, nothing is readable: a finetune or a comparison is refused.
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { WorkspaceRoot } from '../features/tools/workspacePath';

export const NO_ROOTS =
  'The MCP client shares no folders (roots) with this server, so no file can be read: open the folder that holds the files in the client (or add it as a root), then call again.';
export const NO_ROOTS_GIVEN =
  'The MCP client shares no folders (roots) with this server and none was given to it, so no file can be read: the person can restart the server with --root <folder> (the folder that holds the files).';

/** The client's file roots (else the server's own, `given`), or why there are none. */
export async function clientRoots(
  server: Server,
  given: readonly string[],
  signal: AbortSignal,
): Promise<WorkspaceRoot[] | { problem: string }> {
  if (!server.getClientCapabilities()?.roots) {
    return given.length > 0 ? given.map((full) => ({ name: path.basename(full), path: full })) : { problem: NO_ROOTS_GIVEN };
  }
  const { roots } = await server.listRoots(undefined, { signal });
  const found = roots
    .filter((r) => r.uri.startsWith('file:'))
    .map((r) => {
      const full = fileURLToPath(r.uri);
      return { name: r.name?.trim() || path.basename(full), path: full };
    });
  return found.length > 0 ? found : { problem: NO_ROOTS };
}
