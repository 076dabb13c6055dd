// What the playground says to a screen reader when a run ends: whose answer, how long, and how it begins, read from
// the answer's markdown with its marks taken out (the status line beside it says only "Done."). No DOM: plain mocha
// checks it (test/unit/runAnnouncement.test.ts).
import { l10n } from '../../../l10n';

/** How much of the answer's beginning is read out: a sentence or two, not the whole answer. */
export const OPENING_CHARS = 160;

/** The answer's text as read aloud: code blocks, heading, list and quote marks, emphasis and link targets left out. */
export function plainOpening(markdown: string, max = OPENING_CHARS): string {
  const text = markdown
    .replace(/<think>[\s\S]*?<\/think>/g, ' ')
    .replace(/```[\s\S]*?(```|$)/g, ' ')
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+[.)])\s+/gm, '')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/(\*\*|__|\*|_|`)/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

export function runAnnouncement(model: string, outcome: 'done' | 'stopped', answer: string): string {
  const chars = answer.length.toLocaleString('en-US');
  if (outcome === 'stopped') return l10n.t('{0} stopped, {1} characters of an answer.', model, chars);
  if (answer.trim() === '') return l10n.t('{0} answered with nothing.', model);
  const opening = plainOpening(answer);
  // An answer of code only has no words to begin with: its length says it came.
  return opening === ''
    ? l10n.t('{0} answered, {1} characters.', model, chars)
    : l10n.t('{0} answered, {1} characters: {2}', model, chars, opening);
}
