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
}

/** `text` with every link, autolink, HTML tag and icon syntax broken, invisible characters removed, bounded. */
export function untrustedText(text: string, { maxChars = 500, multiline = false }: UntrustedTextOptions = {}): string {
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
  return cut(out, maxChars);
}

function cut(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let end = Math.max(0, maxChars - 1);
  // Never leave half of a surrogate pair.
  if (end > 0 && /[\uD800-\uDBFF]/.test(text.charAt(end - 1))) end -= 1;
  return `${text.slice(0, end)}…`;
}

/** `](`, `][`, `]:` (links), `<` before a letter, `/`, `!` or `?` (HTML, autolinks), `$(` (icons). */
function breakMarkup(text: string): string {
  return text
    .replace(/\]([([:])/g, '] $1')
    .replace(/<(?=[\p{L}/!?])/gu, '< ')
    .replace(/\$\(/g, '$ (');
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Markdown the extension did not write (a model's answer, its reasoning) for a surface that renders markdown, such as
 * Chat: what makes it readable is kept (headings, lists, emphasis, tables, line breaks, indentation), what makes it act
 * is broken as untrustedText breaks it (links, images, autolinks, HTML, icons), and invisible format characters go.
 * Code (fenced blocks and inline spans) is shown as written, so it is kept verbatim. Fed line by line, so an answer
 * can be passed on as it streams: `push` returns the complete lines neutralised, `end` the rest.
 */
export class UntrustedMarkdown {
  private pending = '';
  /** The open fence (its character repeated as long as it was), or undefined outside a fenced block. */
  private fence: string | undefined;

  push(text: string): string {
    this.pending += text;
    const cut = this.pending.lastIndexOf('\n');
    if (cut < 0) return '';
    const lines = this.pending.slice(0, cut + 1);
    this.pending = this.pending.slice(cut + 1);
    return this.lines(lines);
  }

  /** The rest; a fenced block still open is closed, so nothing written after it is swallowed as code. */
  end(): string {
    const rest = this.pending;
    this.pending = '';
    const out = rest ? this.lines(rest) : '';
    if (!this.fence) return out;
    const close = `${out && !out.endsWith('\n') ? '\n' : ''}${this.fence}\n`;
    this.fence = undefined;
    return out + close;
  }

  private lines(text: string): string {
    return text
      .replace(/\r\n?/g, '\n')
      .split('\n')
      .map((line) => this.line(line))
      .join('\n');
  }

  private line(raw: string): string {
    // Bidi and zero-width characters, and control characters other than a tab, go even in code: they hide what it says.
    // eslint-disable-next-line no-control-regex -- control characters are what this removes
    const line = raw.replace(FORMAT, '').replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/g, '');
    const fence = FENCE.exec(line)?.[1];
    if (this.fence) {
      if (fence && fence[0] === this.fence[0] && fence.length >= this.fence.length && line.trim() === fence) this.fence = undefined;
      return line;
    }
    if (fence) {
      this.fence = fence;
      // The info string after the fence is not code: it could hold markup in a renderer that shows it.
      const at = line.indexOf(fence) + fence.length;
      return line.slice(0, at) + breakMarkup(line.slice(at));
    }
    return outsideInlineCode(line, breakMarkup);
  }
}

/** `line` with `edit` applied to everything outside inline code spans (a backtick run closed by one as long). */
function outsideInlineCode(line: string, edit: (text: string) => string): string {
  let out = '';
  let at = 0;
  const runs = /`+/g;
  let open: RegExpExecArray | null;
  while ((open = runs.exec(line)) !== null) {
    const ticks = open[0];
    const close = new RegExp(`(?<!\`)${ticks}(?!\`)`, 'g');
    close.lastIndex = open.index + ticks.length;
    const end = close.exec(line);
    if (!end) break; // an unclosed run is literal text: the rest of the line is edited below
    out += edit(line.slice(at, open.index)) + line.slice(open.index, end.index + ticks.length);
    at = end.index + ticks.length;
    runs.lastIndex = at;
  }
  return out + edit(line.slice(at));
}

/** A whole text as UntrustedMarkdown passes it on. */
export function untrustedMarkdown(text: string): string {
  const m = new UntrustedMarkdown();
  return m.push(text) + m.end();
}

/**
 * A short text (a model or job name, a status) shown inside markdown as exactly these characters: made inert and one
 * line as untrustedText makes it, then every ASCII punctuation character escaped, so nothing in it can start a link,
 * an emphasis, a heading, a code span or a tag.
 */
export function markdownLiteral(text: string, maxChars = 200): string {
  return untrustedText(text, { maxChars }).replace(/[!-/:-@[-`{-~]/g, (c) => `\\${c}`);
}
