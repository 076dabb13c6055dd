// The folder `npm start` opens: real PDF and DOCX files (made with the emulator's fixture writers, so the emulator's
// extraction reads them back) about one made-up product, so finetuning, evaluation and the playground have something
// meaningful to work on. Written on every start: our files are refreshed, anything a person added is left alone.
import { mkdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { writeDocx, writePdf } from '../test/service/fixtures';

const HANDBOOK = [
  'Lumen Notes - Product Handbook',
  'Lumen Notes is a note-taking app for small teams. Notes are written in Markdown, organised in notebooks, and ' +
    'synchronised between the desktop app (Windows, macOS, Linux), the web app and the mobile apps (iOS, Android).',
  'Plans. Free: one notebook per person, 100 MB of attachments, history of the last 7 days. Team: unlimited ' +
    'notebooks, 10 GB of attachments per person, 90 days of history, shared notebooks and comments. Enterprise: ' +
    'everything in Team plus single sign-on (SAML and OIDC), audit logs, and a data residency choice of EU or US.',
  'Sharing. A notebook is shared by inviting people by e-mail. Each person is a Viewer, a Commenter or an Editor. ' +
    'Only the notebook owner can delete a notebook or transfer its ownership. Links to single notes can be public ' +
    'or restricted to the team; public links can be disabled by an administrator in Settings > Security.',
  'Offline use. The desktop and mobile apps keep every opened notebook available offline. Changes made offline ' +
    'are merged when the device reconnects; when two people edit the same paragraph, both versions are kept and ' +
    'the note shows a conflict banner until someone chooses one.',
  'Search. Full-text search covers note titles, bodies, attachments in PDF and DOCX format, and comments. ' +
    'Filters: notebook, author, tag, date range. The shortcut Ctrl+K (Cmd+K on macOS) opens quick search ' +
    'from anywhere in the app.',
  'Keyboard shortcuts. Ctrl+N creates a note, Ctrl+Shift+N creates a notebook, Ctrl+B and Ctrl+I toggle bold ' +
    'and italic, Ctrl+Enter toggles a checklist item, and Ctrl+/ shows the list of all shortcuts.',
  'Security. Data is encrypted in transit with TLS 1.3 and at rest with AES-256. Enterprise customers can ' +
    'bring their own encryption key. Sessions expire after 30 days of inactivity; administrators can shorten this.',
];

const FAQ = [
  'Lumen Notes - Support FAQ',
  'Q: How do I reset my password? A: On the sign-in page choose "Forgot password", enter your e-mail address, ' +
    'and follow the link we send. The link is valid for 60 minutes. Enterprise accounts that use single sign-on ' +
    'reset passwords with their identity provider instead.',
  'Q: Why does a note show a conflict banner? A: The note was changed on two devices while one of them was ' +
    'offline. Open the banner, compare both versions, and choose the one to keep; the other stays in the history.',
  'Q: How do I export my notes? A: Open Settings > Export and choose Markdown (a ZIP of .md files with ' +
    'attachments) or PDF. Exports of large notebooks are prepared in the background and e-mailed when ready.',
  'Q: Can I restore a deleted note? A: Yes. Deleted notes stay in the Trash for 30 days on every plan. After ' +
    'that, Team and Enterprise administrators can still restore them from the history for up to 90 days.',
  'Q: Which file types can I attach? A: Any file up to 250 MB. PDF and DOCX attachments are indexed for search; ' +
    'images show a preview; other files are stored as they are.',
  'Q: How do I move a notebook to another owner? A: The current owner opens the notebook menu, chooses ' +
    '"Transfer ownership", and picks a member of the same team. The new owner must accept within 7 days.',
  'Q: How do I contact support? A: Free plan: the community forum. Team: e-mail support@lumen-notes.example, ' +
    'answered within one business day. Enterprise: a dedicated support line with a 4-hour response time.',
];

const RELEASE_NOTES = [
  'Lumen Notes - Release Notes',
  'Version 3.2 (March). New: checklists can be reordered by dragging. New: quick search (Ctrl+K) now searches ' +
    'inside PDF and DOCX attachments. Fixed: the Android app no longer loses the cursor position after a sync. ' +
    'Fixed: exported PDFs keep the notebook cover image.',
  'Version 3.1 (January). New: comments on single paragraphs, with @-mentions that send an e-mail. New: ' +
    'administrators can disable public note links for the whole team. Changed: the history of the Free plan ' +
    'grows from 3 to 7 days. Fixed: offline edits made on iOS while the app was in the background are kept.',
  'Version 3.0 (October). New: the conflict banner replaces the old "conflicted copy" notes, keeping both ' +
    'versions in one place. New: data residency in the EU for Enterprise customers. Removed: the legacy ' +
    'Evernote importer; use the ENEX import in Settings > Import instead.',
  'Known issues. On Linux, the desktop app may need a restart after the system wakes from sleep before it syncs ' +
    'again. Very large checklists (more than 2,000 items) scroll slowly in the web app.',
];

const README = `# Hosted Reasoning demo workspace

Made by \`npm start\` for trying the extension against the local emulator (API key \`demo-key\`).

- This window already uses the emulator's key \`demo-key\` from the \`HOSTED_REASONING_API_KEY\` environment variable,
  so the walkthrough's first step (*Welcome → Get Started with Hosted Reasoning*) is done.
- \`product-handbook.pdf\`, \`support-faq.docx\`, \`release-notes.pdf\`: documents about one made-up product.
- Right-click one of them (or this folder) → **Create Finetuned Model…** to start a finetuning job: the
  walkthrough's last step, with documents to try.
- Evaluate a model on the dataset \`demo-qa\` (also \`arith-small\`, \`reasoning-hard\`).

\`npm start\` rewrites these files on every start; other files you add here are left alone.
`;

/** The files written, relative to the workspace. */
export const DEMO_FILES = ['product-handbook.pdf', 'support-faq.docx', 'release-notes.pdf', 'README.md'] as const;

/** Writes the demo documents into `dir` (created if needed). */
export async function writeDemoWorkspace(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await Promise.all([
    writePdf(path.join(dir, 'product-handbook.pdf'), HANDBOOK),
    writeDocx(path.join(dir, 'support-faq.docx'), FAQ),
    writePdf(path.join(dir, 'release-notes.pdf'), RELEASE_NOTES),
    writeFile(path.join(dir, 'README.md'), README),
  ]);
}
