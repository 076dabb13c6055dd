// The settings of the demo's own VS Code profile. The extension also gets the URL from the environment
// (HOSTED_REASONING_BASE_URL); the setting is written as well so the Settings UI shows where it points.
import { mkdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';

async function writeJson(file: string, value: object): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(value, null, 2) + '\n');
}

/**
 * Writes `<userDataDir>/User/settings.json`, where both desktop VS Code and the server build read user settings.
 * With `remote` (the server build), the URL also goes into `<userDataDir>/Machine/settings.json`: a browser window is
 * a remote window, and there the Settings UI lists a machine-overridable setting such as the base URL only under
 * its Remote tab, which shows the machine value (checked by hand: the User tab lists it not at all).
 */
export async function writeDemoSettings(userDataDir: string, emulatorUrl: string, remote: boolean): Promise<void> {
  await writeJson(path.join(userDataDir, 'User', 'settings.json'), {
    'hostedReasoning.baseUrl': emulatorUrl,
    // The demo workspace sits inside this repository: do not offer to open the parent repository on every start.
    'git.openRepositoryInParentFolders': 'never',
    'telemetry.telemetryLevel': 'off',
  });
  if (remote) {
    await writeJson(path.join(userDataDir, 'Machine', 'settings.json'), { 'hostedReasoning.baseUrl': emulatorUrl });
  }
}
