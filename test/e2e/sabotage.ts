// A check of the reset itself: `HR_E2E_FAIL_AFTER=5 npm run test:e2e` makes step 5, once done, leave behind all a
// failing step can leave (an unsaved editor, the palette open with text in it, a changed setting, a slowed emulator,
// a smaller window) and then fail. The run must then show that step failed and every other step passed: one failing
// step does not fail the next.
import * as fs from 'node:fs';
import type { Emulator } from '../service/emulator';
import type { Step } from './stepRunner';
import type { Workbench } from './workbench';

export const SABOTAGE_ENV = 'HR_E2E_FAIL_AFTER';

export interface Mess {
  readonly workbench: Workbench;
  readonly emu: Emulator;
  readonly userSettingsFile: string;
}

async function leaveMess({ workbench: wb, emu, userSettingsFile }: Mess): Promise<void> {
  const page = wb.page;
  const settings = JSON.parse(fs.readFileSync(userSettingsFile, 'utf8')) as Record<string, unknown>;
  fs.writeFileSync(userSettingsFile, JSON.stringify({ ...settings, 'hostedReasoning.downloadFolder': '' }, null, 2));
  emu.configure({ tokenIntervalMs: 400, renameTunedModels: true, responseText: 'left behind' });
  await page.setViewportSize({ width: 1000, height: 640 });
  await wb.runCommand('File: New Untitled Text File');
  await page.locator('.monaco-editor.focused').waitFor();
  await page.keyboard.insertText('unsaved text left behind');
  await page.keyboard.press('F1');
  await wb.quickInputBox.waitFor();
  await page.keyboard.insertText('left open');
}

/** The steps, with step `number` (from HR_E2E_FAIL_AFTER) made to leave a mess and fail; unchanged without it. */
export function sabotaged(steps: readonly Step[], mess: Mess): Step[] {
  const number = Number(process.env[SABOTAGE_ENV]);
  if (!(number > 0)) return [...steps];
  console.log(`[e2e] ${SABOTAGE_ENV}=${number}: step ${number} leaves a mess behind and fails on purpose`);
  return steps.map((step) =>
    step.number !== number
      ? step
      : {
          ...step,
          async run(context) {
            await step.run(context);
            await leaveMess(mess);
            throw new Error(
              `${SABOTAGE_ENV}: failed on purpose, leaving an unsaved editor, the palette, a setting, the emulator and the window changed`,
            );
          },
        },
  );
}
