// The README's screenshots come from the UI tests, so they show the extension as it is, not as it was once drawn.
// This table names, for each image README shows (media/screenshots/<name>), the UI-test screenshot it is copied from.
// A full UI run fails when one of them was not produced (a step renamed or dropped would otherwise leave README
// showing an old picture); `npm run screenshots` runs the UI tests and copies them over. test/unit/marketplaceManifest.test.ts
// keeps README, this table and the folder in step.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../runners/vscodeServerLayout';

export const README_SCREENSHOTS: Readonly<Record<string, string>> = {
  'finetune-wizard.png': '02-finetune-summary.png',
  'finetune-preflight.png': '21-finetune-preflight-review.png',
  'models-and-jobs.png': '03-evaluate-finished.png',
  'evaluation-report.png': '10-evaluation-report-verdict.png',
  'playground.png': '08-playground-layout-reasoning-open.png',
  'local-compare.png': '09-local-compare-side-by-side.png',
  'chat.png': '15-chat-participant-reasoning.png',
  'choose-how-to-read.png': '16-choose-how-to-read-choices.png',
  'jobs-time-left.png': '19-time-left-row.png',
  'chat-tools.png': '20-chat-tools-picker.png',
  'compare-questions.png': '23-compare-questions-table.png',
};

export const readmeScreenshotsDir = path.join(repoRoot, 'media', 'screenshots');

/** The README screenshots a full UI run did not produce (empty when all are there). */
export function missingReadmeScreenshots(outputDir: string): string[] {
  return Object.values(README_SCREENSHOTS).filter((shot) => !fs.existsSync(path.join(outputDir, shot)));
}

/** Copies the UI run's screenshots over README's. */
export function updateReadmeScreenshots(outputDir: string): void {
  fs.mkdirSync(readmeScreenshotsDir, { recursive: true });
  for (const [name, shot] of Object.entries(README_SCREENSHOTS)) {
    fs.copyFileSync(path.join(outputDir, shot), path.join(readmeScreenshotsDir, name));
  }
}
