// Tests write only into temporary folders. A VS Code server, a browser or `npm start` started by a test writes "in the
// home folder" as well as where it is told: the server's CLI keeps its data in ~/.vscode-server-oss, its device id in
// ~/.cache/Microsoft, Chromium its crash reports in ~/.config/chromium and GTK's settings in ~/.cache/dconf, and the
// server's save dialog starts in the home folder (so an export typed there lands in it). Giving each of them a home
// inside the test's temporary folder keeps all of that in the folder the test removes.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** The folders the XDG base directory specification lets a program put under the home folder, by variable. */
const XDG_FOLDERS = {
  XDG_CONFIG_HOME: '.config',
  XDG_CACHE_HOME: '.cache',
  XDG_DATA_HOME: path.join('.local', 'share'),
  XDG_STATE_HOME: path.join('.local', 'state'),
} as const;

/**
 * `base` with HOME (and USERPROFILE, and the XDG folders) inside `home`, which is created. npm keeps the person's
 * cache and configuration (already exported by npm to the scripts it runs; set here when they are not), so nothing is
 * fetched again and a private registry still applies; npm writes only into its cache.
 */
export function withTemporaryHome(base: NodeJS.ProcessEnv, home: string): NodeJS.ProcessEnv {
  const realHome = os.homedir();
  const env: NodeJS.ProcessEnv = { ...base, HOME: home };
  if (process.platform === 'win32') env.USERPROFILE = home;
  for (const [variable, folder] of Object.entries(XDG_FOLDERS)) {
    env[variable] = path.join(home, folder);
    fs.mkdirSync(env[variable], { recursive: true });
  }
  env.npm_config_cache ??= path.join(realHome, '.npm');
  const npmrc = path.join(realHome, '.npmrc');
  if (env.npm_config_userconfig === undefined && fs.existsSync(npmrc)) env.npm_config_userconfig = npmrc;
  return env;
}
