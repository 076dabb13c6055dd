// Model output -> HTML, treating the output as hostile. Raw HTML is escaped (markdown-it `html: false`), links must be
// http(s) or mailto (anything else stays text), images are never loaded (their alt text is shown), and code blocks get
// a Copy button. A growing answer is rendered incrementally (finished blocks once, the open tail each frame) with the
// same result as a full render. No DOM use: the same module runs in the webview bundle and under plain mocha.
import { l10n } from '../../../l10n';
import MarkdownIt from 'markdown-it';

export interface MarkdownRenderer {
  render(markdown: string): string;
  /**
   * Where the finished blocks of `markdown` end: an offset ≥ `from` (itself such an offset, or 0) that no text added
   * after `markdown` can move, with render(text) === render(text.slice(0, cut)) + render(text.slice(cut)) for
   * every text that starts with `markdown`. 0 when no cut is safe (then render the whole).
   */
  stableEnd(markdown: string, from: number): number;
}

/** Which part of the text to render, frame by frame, while it grows (see IncrementalMarkdown). */
export interface MarkdownUpdate {
  /** Drop everything shown: the text is not a continuation of what was rendered. */
  reset: boolean;
  /** HTML of blocks that just finished: append it after the finished blocks; it never changes again. */
  finished: string;
  /** HTML of the last, still open blocks: it replaces the previous tail. */
  tail: string;
}

/**
 * Renders a growing text at a cost that follows the open part, not the whole: finished blocks are rendered once, only
 * the tail after the last cut (MarkdownRenderer.stableEnd) again. The concatenation of every `finished` since the last
 * reset and the latest `tail` is exactly render(text).
 */
export class IncrementalMarkdown {
  /** The text of the finished blocks, as rendered. */
  private finishedText = '';

  constructor(private readonly renderer: MarkdownRenderer) {}

  update(text: string): MarkdownUpdate {
    let reset = false;
    if (!text.startsWith(this.finishedText)) {
      this.finishedText = '';
      reset = true;
    }
    const from = this.finishedText.length;
    const cut = this.renderer.stableEnd(text, from);
    if (cut < from) {
      // Something later changes earlier blocks (a link reference definition): render the whole from now on.
      this.finishedText = '';
      return { reset: true, finished: '', tail: this.renderer.render(text) };
    }
    const finished = cut > from ? this.renderer.render(text.slice(from, cut)) : '';
    this.finishedText = text.slice(0, cut);
    return { reset, finished, tail: this.renderer.render(text.slice(cut)) };
  }
}

/** Checked on the URL as markdown-it normalized it (percent-encoded), so whitespace or entity tricks cannot pass. */
const SAFE_LINK = /^(https?:\/\/|mailto:)/i;

export function isSafeLink(url: string): boolean {
  return SAFE_LINK.test(url);
}

export function createMarkdownRenderer(): MarkdownRenderer {
  const md = new MarkdownIt({ html: false, linkify: true, typographer: false, breaks: false });
  md.validateLink = isSafeLink;
  const escape = md.utils.escapeHtml;

  // An image would be a network request (and a tracking pixel): show what it is instead.
  md.renderer.rules.image = (tokens, idx, options, env, self) => {
    const token = tokens[idx];
    const alt = token ? self.renderInlineAsText(token.children ?? [], options, env) : '';
    return `<span class="md-image" title="${escape(l10n.t('Images are not loaded'))}">${escape(alt || l10n.t('image'))}</span>`;
  };

  const codeBlock = (content: string, info: string): string => {
    const lang = (info.trim().split(/\s+/)[0] ?? '').replace(/[^\w+#.-]/g, '').slice(0, 32);
    const label = lang ? `<span class="code-lang">${escape(lang)}</span>` : '';
    const cls = lang ? ` class="language-${escape(lang)}"` : '';
    const copy = escape(l10n.t('Copy code'));
    return (
      `<div class="code-block">${label}` +
      `<button type="button" class="copy-code" data-testid="copy-code" title="${copy}" aria-label="${copy}">` +
      '<span class="codicon codicon-copy" aria-hidden="true"></span></button>' +
      `<pre><code${cls}>${escape(content)}</code></pre></div>\n`
    );
  };
  md.renderer.rules.fence = (tokens, idx) => {
    const token = tokens[idx];
    return token ? codeBlock(token.content, token.info) : '';
  };
  md.renderer.rules.code_block = (tokens, idx) => {
    const token = tokens[idx];
    return token ? codeBlock(token.content, '') : '';
  };

  const linkOpen = md.renderer.rules.link_open;
  md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
    // The webview never follows a link itself (a click asks the host), but a stray navigation must not leak a referrer.
    tokens[idx]?.attrSet('rel', 'noopener noreferrer');
    return linkOpen ? linkOpen(tokens, idx, options, env, self) : self.renderToken(tokens, idx, options);
  };

  // Table alignment arrives as a style attribute, which the page's policy forbids: turn it into a class.
  md.core.ruler.push('alignment_classes', (state) => {
    for (const token of state.tokens) {
      if (token.type !== 'th_open' && token.type !== 'td_open') continue;
      const style = token.attrGet('style');
      if (style === null) continue;
      token.attrs = (token.attrs ?? []).filter(([name]) => name !== 'style');
      const align = /text-align:\s*(left|right|center)/.exec(String(style))?.[1];
      if (align) token.attrJoin('class', `align-${align}`);
    }
  });

  return { render: (markdown) => md.render(markdown), stableEnd: (markdown, from) => stableEnd(md, markdown, from) };
}

const BLANK = /^[ \t]*$/;
/** Longest start of a list item line: nine digits, `.` or `)`, a space. */
const LONGEST_MARKER = 11;

/**
 * Whether a line (the last one may still grow) is known not to continue a list or an indented block: it is complete,
 * starts with a character no marker or indent starts with, or is longer than any marker.
 */
function decided(line: string, complete: boolean): boolean {
  return complete || /^[^\s\-*+\d]/.test(line) || line.length > LONGEST_MARKER;
}

/**
 * A cut is the start of a top-level block, as markdown-it's own block parser sees the text after `from`, that follows
 * a blank line. A blank line ends every block but lists and indented code (html blocks are off), and the parser has
 * judged those: a line that continues a list item or indented code is not a top-level block, and a fence is one block.
 * What the parser cannot judge yet is the last line, which may still grow into a list item or an indented line: it
 * counts only once it is known not to (decided()). Link reference definitions reach back to earlier blocks: with one
 * in sight, or a CR (markdown-it's render reads a lone CR as a line break, its block parser given raw text does not),
 * there is no cut.
 */
function stableEnd(md: MarkdownIt.MarkdownIt, markdown: string, from: number): number {
  const tail = markdown.slice(from);
  if (tail.includes('\r')) return 0;
  const env: MarkdownIt.Env = {};
  const tokens: MarkdownIt.Token[] = [];
  md.block.parse(tail, md, env, tokens);
  if (env.references && Object.keys(env.references).length > 0) return 0;
  const lines = tail.split('\n');
  for (let t = tokens.length - 1; t >= 0; t--) {
    const token = tokens[t] as MarkdownIt.Token;
    const line = token.map?.[0];
    if (token.level !== 0 || token.nesting === -1 || line === undefined || line === 0) continue;
    const text = lines[line] as string;
    if (!BLANK.test(lines[line - 1] as string) || !decided(text, line < lines.length - 1)) continue;
    let offset = from;
    for (let i = 0; i < line; i++) offset += (lines[i] as string).length + 1;
    return offset;
  }
  return from;
}
