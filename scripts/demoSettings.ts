// The user settings of the demo's own VS Code profile. The extension also gets the URL from the environment
// (HOSTED_REASONING_BASE_URL); the setting is written as well so the Settings UI shows where it points.
import { mkdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';

/** Writes `<userDataDir>/User/settings.json`, where both desktop VS Code and this server build read user settings. */
export async function writeDemoSettings(userDataDir: string, emulatorUrl: string): Promise<string> {
  const settings = {
    'hostedReasoning.baseUrl': emulatorUrl,
    // The demo workspace sits inside this repository: do not offer to open the parent repository on every start.
    'git.openRepositoryInParentFolders': 'never',
    'telemetry.telemetryLevel': 'off',
  };
  const file = path.join(userDataDir, 'User', 'settings.json');
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(settings, null, 2) + '\n');
  return file;
}
