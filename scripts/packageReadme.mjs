// The README that ships in the .vsix. README.md shows screenshots from media/screenshots/ (relative paths: the
// repository renders them); vsce refuses relative images when package.json names no repository, and we name none
// until one exists. So the packaged copy leaves out the lines that are only a screenshot, and keeps every other line.
// Usage: node scripts/packageReadme.mjs [output file]  (default out/package/README.md). Plain JavaScript: it runs
// before anything is compiled.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const output = path.resolve(process.argv[2] ?? path.join(root, 'out', 'package', 'README.md'));
const screenshotLine = /^!\[[^\]]*\]\(media\/screenshots\/[\w.-]+\.png\)\s*$/;

const lines = fs.readFileSync(path.join(root, 'README.md'), 'utf8').split('\n');
const kept = lines.filter((line) => !screenshotLine.test(line));
fs.mkdirSync(path.dirname(output), { recursive: true });
fs.writeFileSync(output, kept.join('\n'));
console.log(`[package] README for the .vsix: ${lines.length - kept.length} screenshot lines left out (${path.relative(root, output)})`);
