// What the service answers while a step takes one of README's pictures (readmeScreenshots.ts): answers a person would
// expect to the questions the steps ask, from the demo workspace's documents about Lumen Notes. The emulator's own
// answer is made to test the client (accents, an emoji, CJK, a code block split across chunks), which headless
// Chromium draws partly as empty boxes: fine for a test, strange on a product page. The steps still check what they
// check; the reset puts the emulator's own answers back.
import type { EmulatorOptions } from '../service/types';

/** The playground's question in step 8, its reasoning and its answer. */
export const RESTORE_NOTE = {
  prompt: 'How do I restore a deleted note?',
  options: {
    reasoning: 'event',
    // A moment of silence first, as a reasoning model has: the folded section then says how long it thought.
    thinkMs: 1_500,
    reasoningText:
      'The person wants a deleted note back. The support FAQ says deleted notes stay in the Trash for 30 days on every ' +
      'plan, and that Team and Enterprise administrators can restore them from the history for up to 90 days. Give ' +
      'the steps first, then the longer window.',
    responseText: [
      'Deleted notes go to the **Trash** and stay there for **30 days** on every plan.',
      '',
      '1. Open **Trash** in the sidebar.',
      '2. Select the note and choose **Restore**: it goes back to its notebook.',
      '',
      'After 30 days, an administrator of a Team or Enterprise plan can still restore it from the **history** for up ' + 'to 90 days.',
    ].join('\n'),
  },
} as const satisfies { prompt: string; options: Partial<EmulatorOptions> };

/** The hosted model's answer beside the local one in step 9 (the step checks that it names Lumen Notes). */
export const WHAT_IS_LUMEN = {
  prompt: 'What is Lumen Notes?',
  options: {
    responseText: [
      '**Lumen Notes** is a note-taking app for small teams.',
      '',
      '- Notes are written in Markdown and organised in notebooks.',
      '- They sync between the desktop app (Windows, macOS, Linux), the web app and the mobile apps.',
      '- Notebooks are shared by e-mail invitation, each person a Viewer, a Commenter or an Editor.',
    ].join('\n'),
  },
} as const satisfies { prompt: string; options: Partial<EmulatorOptions> };
