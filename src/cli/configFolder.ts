// Where the command line keeps what the extension keeps in globalState (the service profiles, the jobs it started):
// the user's config folder, as each platform names it. XDG_CONFIG_HOME (else ~/.config) on Linux and the other
// Unix-likes, Application Support on macOS, %APPDATA% on Windows.
import * as os from 'node:os';
import * as path from 'node:path';

export const CONFIG_FOLDER_NAME = 'hosted-reasoning';
/** The state file in that folder: the command line's and the MCP server's one store (fileState.ts). */
export const STATE_FILE_NAME = 'state.json';

export function configFolder(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home = os.homedir(),
): string {
  if (platform === 'win32') return path.join(env.APPDATA || path.join(home, 'AppData', 'Roaming'), CONFIG_FOLDER_NAME);
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', CONFIG_FOLDER_NAME);
  // The XDG spec ignores a relative XDG_CONFIG_HOME: a folder that moves with the working directory is no config folder.
  const xdg = env.XDG_CONFIG_HOME;
  return path.join(xdg && path.isAbsolute(xdg) ? xdg : path.join(home, '.config'), CONFIG_FOLDER_NAME);
}
