// Text the extension did not write itself (the service's answers and errors, model and job names, file names, the
// workspace) is made inert here before it reaches a VS Code surface. Those surfaces are not plain text:
// - notifications (and progress notifications) turn `[label](command:…|file:…|https:…)` into links that run a
//   command or open a file when clicked; the extension's own commands are among the targets;
// - quick picks, tree labels and the status bar turn `$(name)` into icons;
// - hovers given a MarkdownString render markdown, where `<command:x>` is an autolink and `<tag>` is HTML.
// One function handles every surface, so a new call site cannot pick a weaker variant. Nothing is decoded here
// (no entities, no percent-encoding): an encoded bracket stays an inert character.
// The text stays readable: only the few characters that build a link or an icon are changed, with a visible space.
// Bare URLs stay as they are: notifications do not linkify them, and the extension shows untrusted text in
// hovers as plain strings only (never as a MarkdownString), where nothing is linkified.
// A model's answer, shown as markdown in Chat, has its own neutraliser: src/util/untrustedMarkdown.ts.

/** Bidi controls, zero-width characters and other invisible format characters: they can make text read otherwise. */
const FORMAT = /[\p{Cf}]/gu;
/** Control characters and line/paragraph separators: a notification or a row is one line. */
const BREAKS = /[\p{Cc}\p{Zl}\p{Zp}\s]+/gu;
const BREAKS_KEEP_NEWLINES = /[^\S\n]*[\p{Cc}\p{Zl}\p{Zp}][^\S\n]*|[^\S\n]+/gu;

/** Anything a pass below would change: link, tag or icon syntax, invisible or control characters, odd whitespace. */
const NEEDS_WORK = /[\]<$\p{Cc}\p{Cf}\p{Zl}\p{Zp}]|[^\S ]| {2}|^ | $/u;

export interface UntrustedTextOptions {
  /** Longest result in characters (an ellipsis marks a cut). Default 500. */
  maxChars?: number;
  /** Keep line breaks (a modal dialog's detail); other surfaces get one line. */
  multiline?: boolean;
  /**
   * The text is a path: a cut keeps the file's name (its last segment) whole and takes the folders out of the middle,
   * so `a/b/…/y/z/private-tax-return-2025.pdf` still says which file it is. A name longer than the bound alone keeps
   * its start and its end (the extension).
   */
  path?: boolean;
}

/** `text` with every link, autolink, HTML tag and icon syntax broken, invisible characters removed, bounded. */
export function untrustedText(text: string, { maxChars = 500, multiline = false, path = false }: UntrustedTextOptions = {}): string {
  // Most text (a model name, a plain message) has nothing to change: one test instead of the passes below, which
  // matters for a Models view of 10,000 rows (test/bench, figure 7).
  if (text.length <= maxChars && !NEEDS_WORK.test(text)) return text;
  let out = text.replace(/\r\n?/g, '\n').replace(FORMAT, '');
  out = multiline
    ? out.replace(BREAKS_KEEP_NEWLINES, (m) => (m.includes('\n') ? '\n' : ' ')).replace(/\n{3,}/g, '\n\n')
    : out.replace(BREAKS, ' ');
  out = out
    .trim()
    // `[label](target)`, `[label][ref]`, `[ref]: target`: every markdown link form needs `]` right before these.
    .replace(/\]([([:])/g, '] $1')
    // `<command:x>` (an autolink) and `<img …>` (HTML): `<` right before a letter, `/`, `!` or `?` opens both.
    .replace(/<(?=[\p{L}/!?])/gu, '< ')
    // `$(icon)`.
    .replace(/\$\(/g, '$ (');
  // Cut after the passes: the ellipsis sits between two pieces, so no link or icon syntax can form across a cut.
  return path ? cutPath(out, maxChars) : cut(out, maxChars);
}

function cut(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  return `${text.slice(0, keepWhole(text, Math.max(0, maxChars - 1)))}…`;
}

/** A path bounded in its middle (see UntrustedTextOptions.path). */
function cutPath(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const slash = Math.max(text.lastIndexOf('/'), text.lastIndexOf('\\'));
  const name = text.slice(slash + 1);
  // Room for the ellipsis and the name; else the name alone is cut in its middle.
  const room = maxChars - 1 - name.length;
  if (slash < 0 || room < 0) return cutMiddle(text, maxChars);
  const folders = text.slice(0, slash + 1);
  const head = Math.ceil(room / 2);
  return `${folders.slice(0, keepWhole(folders, head))}…${folders.slice(startWhole(folders, folders.length - (room - head)))}${name}`;
}

/** `text`'s start and end around an ellipsis, `maxChars` in all. */
function cutMiddle(text: string, maxChars: number): string {
  const room = Math.max(0, maxChars - 1);
  const head = Math.ceil(room / 2);
  return `${text.slice(0, keepWhole(text, head))}…${text.slice(startWhole(text, text.length - (room - head)))}`;
}

/** An end index that leaves no half of a surrogate pair before it. */
function keepWhole(text: string, end: number): number {
  return end > 0 && /[\uD800-\uDBFF]/.test(text.charAt(end - 1)) ? end - 1 : end;
}

/** A start index that leaves no half of a surrogate pair after it. */
function startWhole(text: string, start: number): number {
  return start < text.length && /[\uDC00-\uDFFF]/.test(text.charAt(start)) ? start + 1 : start;
}

/**
 * A short text (a model or job name, a status) shown inside markdown as exactly these characters: made inert and one
 * line as untrustedText makes it, then every ASCII punctuation character escaped, so nothing in it can start a link,
 * an emphasis, a heading, a code span or a tag.
 */
export function markdownLiteral(text: string, maxChars = 200, options: { path?: boolean } = {}): string {
  return untrustedText(text, { maxChars, ...options }).replace(/[!-/:-@[-`{-~]/g, (c) => `\\${c}`);
}
