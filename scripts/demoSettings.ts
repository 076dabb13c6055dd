// The settings of the demo's own VS Code profile. The extension also gets the URL from the environment
// (HOSTED_REASONING_BASE_URL); the setting is written as well so the Settings UI shows where it points.
import { mkdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';

/**
 * Chat ready for a person without Copilot (VS Code 1.139): Agent mode off, as the README tells them. A new chat opens
 * in Agent mode otherwise, whose picker hides models without tool calling (ours), so a first question to `@hosted` got
 * "Language model unavailable"; in Ask mode, the only one left, one of our models is picked and `@hosted` answers.
 * (`chat.newSession.defaultMode: "ask"` keeps Agent mode, but a chat opened after the key was given in the window
 * was still in Agent mode in the UI tests: not reliable.) The UI tests run with the same settings (test/e2e/run.ts),
 * so their Chat steps check what the demo opens; step 20 turns Agent mode on for its tool picker.
 */
export const CHAT_WITHOUT_COPILOT: Readonly<Record<string, unknown>> = {
  'chat.agent.enabled': false,
};

async function writeJson(file: string, value: object): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(value, null, 2) + '\n');
}

/**
 * Writes `<userDataDir>/User/settings.json`, where both desktop VS Code and the server build read user settings. The
 * base URL is an application setting (a workspace cannot set it), so the user settings are its only place, in a
 * browser (remote) window too.
 */
export async function writeDemoSettings(userDataDir: string, emulatorUrl: string): Promise<void> {
  await writeJson(path.join(userDataDir, 'User', 'settings.json'), {
    'hostedReasoning.baseUrl': emulatorUrl,
    // The demo workspace sits inside this repository: do not offer to open the parent repository on every start.
    'git.openRepositoryInParentFolders': 'never',
    'telemetry.telemetryLevel': 'off',
    ...CHAT_WITHOUT_COPILOT,
  });
}
