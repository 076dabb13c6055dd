// The README that ships in the .vsix: the user half of README.md and nothing else.
// - Screenshots: README.md shows them from media/screenshots/ (relative paths: the repository renders them); vsce
//   refuses relative images when package.json names no repository, and we name none until one exists. So the packaged
//   copy replaces the screenshot lines with one sentence saying where to see them, and leaves no blank hole.
// - The section for contributors (`## Contributing`, to the next `## ` heading or the end) is left out: it is about
//   the source, which the person who installed the package does not have.
// Every other line ships. Usage: node scripts/packageReadme.mjs [output file]  (default out/package/README.md).
// Plain JavaScript: it runs before anything is compiled.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const output = path.resolve(process.argv[2] ?? path.join(root, 'out', 'package', 'README.md'));
const screenshotLine = /^!\[[^\]]*\]\(media\/screenshots\/[\w.-]+\.png\)\s*$/;
/** Headings of sections for contributors, not users. */
const developerHeading = /^## (Contributing|Development|Developing)\b/;

const SCREENSHOTS_NOTE =
  '_Screenshots of each step are in the README of the extension’s source (`media/screenshots/`); the Marketplace page ' +
  'cannot show them until the source is published._';

const lines = fs.readFileSync(path.join(root, 'README.md'), 'utf8').split('\n');
const kept = [];
let screenshots = 0;
let inDeveloperSection = false;
for (const line of lines) {
  if (/^## /.test(line)) inDeveloperSection = developerHeading.test(line);
  if (inDeveloperSection) continue;
  if (screenshotLine.test(line)) {
    if (screenshots++ === 0) kept.push(SCREENSHOTS_NOTE);
    continue;
  }
  // A blank line after a blank line (where a screenshot was) would leave a hole.
  if (line.trim() === '' && (kept.at(-1) ?? '').trim() === '') continue;
  kept.push(line);
}
while (kept.length > 0 && kept.at(-1).trim() === '') kept.pop();
kept.push('');
fs.mkdirSync(path.dirname(output), { recursive: true });
fs.writeFileSync(output, kept.join('\n'));
console.log(
  `[package] README for the .vsix: ${screenshots} screenshots replaced by a note, contributors' section left out (${path.relative(root, output)})`,
);
