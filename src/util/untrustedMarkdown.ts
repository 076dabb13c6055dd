// A model's answer (markdown the extension did not write) made safe for a surface that renders markdown: Chat.
// An answer may be steered by a prompt injection (a retrieved document), and an image in it is the known way such an
// injection sends data out (the image's address carries it); a link whose label the service chose can send the person
// anywhere. So what an answer may show is decided by parsing it as CommonMark (markdown-it, already shipped for the
// playground), not by patterns per line: a line-based guess of what is code differed from CommonMark's in five ways
// (issue 26, finding 2), and what it kept verbatim as "code" reached Chat as live links and images.
//
// The answer is parsed and written out again as markdown from markdown-it's tokens, so nothing that acts survives:
// - a link shows its label followed by its real target: an https target as an autolink (a link whose text is the
//   target itself), any other target (command:, file:, vscode:, http:, relative) as code, so it is never clickable;
//   a bare URL or an autolink is shown as its address by the same rule;
// - an image is never loaded: "[image: description]" followed by its address as code;
// - raw HTML is shown as text;
// - code stays code: fences and code spans are written with a fence longer than any run inside, their text as is;
// - everything else (headings, emphasis, lists, quotes, tables, line breaks) is kept; text is escaped where a
//   character could start markup (`\ ` * _ ~ [ ] < | &entity;`, and block markers at a line's start).
// Each output piece is closed in itself (no open code span or fence), so pieces can be passed on one after the other
// and their concatenation holds no live construct, whatever a later piece holds.
//
// Streaming: Chat appends each piece and cannot take one back, so a block is passed on once it is finished, which is
// known when the text after it starts a new top-level block after a blank line (the playground's rule,
// src/features/playground/page/markdown.ts) or a blank line ends a block that cannot go on past one. Only the open
// blocks are parsed again, at those lines only, and they are bounded (MAX_OPEN_CHARS): a longer open block is passed
// on as it stands (a fence goes on as code in a new fence with the same opening), so the work per piece never grows
// with the answer before it.
import MarkdownIt from 'markdown-it';
import { l10n } from '../l10n';

type Token = MarkdownIt.Token;

/** Most characters of open blocks held back before they are passed on as they stand. */
export const MAX_OPEN_CHARS = 8_000;

const md = new MarkdownIt({ html: true, linkify: true, typographer: false });
// Every link is recognised, whatever its scheme, so it is written out for what it is rather than left as text.
md.validateLink = () => true;

/** An https address shown as a link to itself: no character that could end an autolink, start markup or a table cell. */
const BARE_HTTPS = /^https:\/\/[A-Za-z0-9\-._~:/?#@$&'*+,;=%!]+$/;
/** Bidi, zero-width and other invisible format characters, and control characters but tab, line feed, CR. */
// eslint-disable-next-line no-control-regex -- control characters are what this removes
const INVISIBLE = /[\p{Cf}\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029]/gu;
const BLANK = /^[ \t]*$/;
const FENCE_LINE = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;

/**
 * Neutralises an answer as it streams: `push` each piece as it arrives and pass on what it returns (finished blocks),
 * then `end` for the rest.
 */
export class UntrustedMarkdown {
  /** The line being received. */
  private line = '';
  /** The complete lines of the open blocks. */
  private open: string[] = [];
  private openChars = 0;
  /** The last piece ended with a CR: a LF starting the next one is the same line end. */
  private afterCr = false;

  push(text: string): string {
    let piece = text.replace(INVISIBLE, '');
    if (this.afterCr && piece.startsWith('\n')) piece = piece.slice(1);
    this.afterCr = piece.endsWith('\r');
    piece = piece.replace(/\r\n?/g, '\n');
    let out = '';
    let from = 0;
    for (let nl = piece.indexOf('\n'); nl >= 0; nl = piece.indexOf('\n', from)) {
      out += this.addLine(this.line + piece.slice(from, nl));
      this.line = '';
      from = nl + 1;
    }
    this.line += piece.slice(from);
    // A line longer than the bound is cut where it stands: its halves are shown as two lines.
    if (this.line.length > MAX_OPEN_CHARS) {
      out += this.addLine(this.line);
      this.line = '';
    }
    return out;
  }

  /** The rest; a code block still open is closed, so nothing after the answer is swallowed as code. */
  end(): string {
    if (this.line) this.open.push(this.line);
    this.line = '';
    const text = this.open.join('\n');
    this.open = [];
    this.openChars = 0;
    return text.trim() ? `${serialize(md.parse(text, {}))}\n` : '';
  }

  private addLine(line: string): string {
    const lines = this.open;
    lines.push(line);
    this.openChars += line.length + 1;
    const last = lines.length - 1;
    if (BLANK.test(line)) {
      if (last > 0 && !BLANK.test(lines[last - 1] as string)) return this.finishAtBlank();
    } else if (last > 0 && BLANK.test(lines[last - 1] as string)) {
      return this.finishBefore(last);
    }
    return this.openChars > MAX_OPEN_CHARS ? this.passOnAsItStands() : '';
  }

  /** A blank line ends every block but a list, indented code, an unclosed fence and a few HTML blocks. */
  private finishAtBlank(): string {
    // The line feed after the blank line makes the parser count it as a line: an unclosed fence then reaches past it.
    const tokens = md.parse(`${this.open.join('\n')}\n`, {});
    const blank = this.open.length - 1;
    const top = tokens.filter((t) => t.level === 0 && t.nesting >= 0);
    const lastBlock = top[top.length - 1];
    const ended = top.every((t) => (t.map?.[1] ?? Infinity) <= blank);
    if (!lastBlock || !ended || /^(bullet_list|ordered_list)_open$|^code_block$/.test(lastBlock.type)) return '';
    this.open = [];
    this.openChars = 0;
    return `${serialize(tokens)}\n\n`;
  }

  /** Whether line `at` (after a blank line) starts a top-level block: then everything before it is finished. */
  private finishBefore(at: number): string {
    const tokens = md.parse(this.open.join('\n'), {});
    const starts = tokens.findIndex((t) => t.level === 0 && t.nesting >= 0 && t.map?.[0] === at);
    if (starts <= 0) return this.openChars > MAX_OPEN_CHARS ? this.passOnAsItStands() : '';
    const rest = this.open.slice(at);
    this.open = rest;
    this.openChars = rest.reduce((n, l) => n + l.length + 1, 0);
    return `${serialize(tokens.slice(0, starts))}\n\n`;
  }

  /** Open blocks over the bound go as they stand; a top-level fence still open goes on in a fence opened alike. */
  private passOnAsItStands(): string {
    const tokens = md.parse(this.open.join('\n'), {});
    const lastTop = [...tokens].reverse().find((t) => t.level === 0 && t.nesting >= 0);
    const lastLine = this.open[this.open.length - 1] ?? '';
    const closing = FENCE_LINE.exec(lastLine)?.[1];
    const fenceOpen =
      lastTop?.type === 'fence' &&
      lastTop.map !== null &&
      !(closing && closing[0] === lastTop.markup[0] && closing.length >= lastTop.markup.length && lastTop.map[0] < this.open.length - 1);
    const opening = fenceOpen && lastTop.map ? (this.open[lastTop.map[0]] as string) : undefined;
    this.open = opening === undefined ? [] : [opening];
    this.openChars = opening === undefined ? 0 : opening.length + 1;
    return `${serialize(tokens)}\n\n`;
  }
}

/** A whole text as UntrustedMarkdown passes it on. */
export function untrustedMarkdown(text: string): string {
  const m = new UntrustedMarkdown();
  return m.push(text) + m.end();
}

// ------------------------------------------------------------------------------------------------ writing out

/** Top-level blocks of a token list, written out and separated by blank lines. */
function serialize(tokens: readonly Token[]): string {
  return blocks(tokens, 0, tokens.length).join('\n\n');
}

/** The index after the token that closes the one at `i` (the same level, nesting -1). */
function closing(tokens: readonly Token[], i: number): number {
  const open = tokens[i] as Token;
  for (let j = i + 1; j < tokens.length; j++) {
    const t = tokens[j] as Token;
    if (t.level === open.level && t.nesting === -1) return j;
  }
  return tokens.length - 1;
}

function blocks(tokens: readonly Token[], from: number, to: number): string[] {
  const out: string[] = [];
  for (let i = from; i < to; i++) {
    const t = tokens[i] as Token;
    switch (t.type) {
      case 'paragraph_open':
      case 'heading_open': {
        const inline = tokens[i + 1];
        const text = inline?.type === 'inline' ? inlines(inline.children ?? []) : '';
        out.push(t.type === 'heading_open' ? `${'#'.repeat(Number(t.tag.slice(1)) || 1)} ${text.replace(/\n/g, ' ')}` : text);
        i = closing(tokens, i);
        break;
      }
      case 'blockquote_open': {
        const end = closing(tokens, i);
        out.push(prefixLines(blocks(tokens, i + 1, end).join('\n\n'), '> ', '> '));
        i = end;
        break;
      }
      case 'bullet_list_open':
      case 'ordered_list_open': {
        const end = closing(tokens, i);
        out.push(list(tokens, i, end));
        i = end;
        break;
      }
      case 'fence':
        out.push(fence(t.content, t.info));
        break;
      case 'code_block':
        out.push(fence(t.content, ''));
        break;
      case 'hr':
        out.push('***');
        break;
      case 'html_block':
        out.push(htmlAsText(t.content));
        break;
      case 'table_open': {
        const end = closing(tokens, i);
        out.push(table(tokens, i, end));
        i = end;
        break;
      }
      default:
        if (t.nesting === 0 && t.content) out.push(escapeText(t.content));
    }
  }
  return out;
}

function list(tokens: readonly Token[], from: number, to: number): string {
  const items: string[] = [];
  // A tight list hides its paragraphs: its items' blocks go on consecutive lines.
  let tight = false;
  for (let i = from + 1; i < to; i++) {
    const t = tokens[i] as Token;
    if (t.type !== 'list_item_open') continue;
    const end = closing(tokens, i);
    tight ||= tokens.slice(i + 1, end).some((p) => p.type === 'paragraph_open' && p.hidden);
    const marker = t.info ? `${t.info}${t.markup}` : t.markup || '-';
    const body = blocks(tokens, i + 1, end).join(tight ? '\n' : '\n\n');
    items.push(body ? prefixLines(body, `${marker} `, ' '.repeat(marker.length + 1)) : marker);
    i = end;
  }
  return items.join(tight ? '\n' : '\n\n');
}

function table(tokens: readonly Token[], from: number, to: number): string {
  const rows: string[] = [];
  let aligns: string[] = [];
  let row: string[] = [];
  for (let i = from; i < to; i++) {
    const t = tokens[i] as Token;
    if (t.type === 'tr_open') row = [];
    else if (t.type === 'th_open' || t.type === 'td_open') {
      if (t.type === 'th_open') aligns.push(String(t.attrGet('style') ?? ''));
      const inline = tokens[i + 1];
      row.push(inline?.type === 'inline' ? inlines(inline.children ?? [], true).replace(/\n/g, ' ') : '');
    } else if (t.type === 'tr_close') {
      rows.push(`| ${row.join(' | ')} |`);
      if (rows.length === 1) {
        rows.push(
          `| ${aligns.map((a) => (/center/.test(a) ? ':-:' : /right/.test(a) ? '--:' : /left/.test(a) ? ':--' : '---')).join(' | ')} |`,
        );
        aligns = [];
      }
    }
  }
  return rows.join('\n');
}

/** Each line of `text` with a prefix: the first `first`, the others `rest` (blank lines get it without trailing spaces). */
function prefixLines(text: string, first: string, rest: string): string {
  return text
    .split('\n')
    .map((line, i) => (line === '' ? (i === 0 ? first : rest).trimEnd() : (i === 0 ? first : rest) + line))
    .join('\n');
}

/** Code as written, in a fence no line of it can close; the info string only as a plain language name. */
function fence(content: string, info: string): string {
  const runs = content.match(/`+/g) ?? [];
  const ticks = '`'.repeat(Math.max(3, ...runs.map((r) => r.length + 1)));
  const language = (info.trim().split(/\s+/)[0] ?? '').replace(/[^\w+#.-]/g, '').slice(0, 32);
  const body = content.endsWith('\n') || content === '' ? content : `${content}\n`;
  return `${ticks}${language}\n${body}${ticks}`;
}

/** A code span no backtick inside can end, padded when the code starts or ends with a backtick or a space. */
function codeSpan(content: string, inTable = false): string {
  if (content === '') return '';
  const runs = content.match(/`+/g) ?? [];
  const ticks = '`'.repeat(Math.max(1, ...runs.map((r) => r.length + 1)));
  const pad = /^[` ]|[` ]$/.test(content) && content.trim() !== '' ? ' ' : '';
  const code = inTable ? content.replace(/\|/g, '\\|') : content;
  return `${ticks}${pad}${code}${pad}${ticks}`;
}

/** HTML the answer holds, shown as its text: its lines kept as lines. */
function htmlAsText(content: string): string {
  return content
    .replace(/\n+$/, '')
    .split(/\n[ \t]*\n/)
    .map((para) =>
      para
        .split('\n')
        .map((l) => escapeText(l.trim()))
        .join('\\\n'),
    )
    .join('\n\n');
}

/**
 * A link's target as the answer may show it: an https address as an autolink (a link whose text is its target; the
 * angle brackets end it exactly, where a bare address would run on into an escaped character after it), anything
 * else as code.
 */
function target(href: string): string {
  return BARE_HTTPS.test(href) ? `<${href}>` : codeSpan(href);
}

function inlines(tokens: readonly Token[], inTable = false): string {
  let out = '';
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as Token;
    switch (t.type) {
      case 'text':
      case 'text_special':
        out += escapeText(t.content);
        break;
      case 'softbreak':
        out += '\n';
        break;
      case 'hardbreak':
        out += '\\\n';
        break;
      case 'code_inline':
        out += codeSpan(t.content, inTable);
        break;
      case 'em_open':
      case 'em_close':
        out += '*';
        break;
      case 'strong_open':
      case 'strong_close':
        out += '**';
        break;
      case 's_open':
      case 's_close':
        out += '~~';
        break;
      case 'link_open': {
        let end = i + 1;
        while (end < tokens.length && tokens[end]?.type !== 'link_close') end++;
        const href = String(t.attrGet('href') ?? '');
        if (t.markup === 'autolink' || t.markup === 'linkify') {
          // Shown as the address it is (an https one as a link, any other scheme as code: Chat would link a bare
          // http:// address again); one the text names without a scheme (www.…, an email) stays that text.
          const shown = tokens
            .slice(i + 1, end)
            .map((c) => c.content)
            .join('');
          out += t.markup === 'linkify' && !/^[a-z][\w+.-]*:/i.test(shown) ? escapeText(shown) : target(href);
        } else {
          const label = inlines(tokens.slice(i + 1, end), inTable).trim();
          out += label ? `${label} (${target(href)})` : target(href);
        }
        i = end;
        break;
      }
      case 'image': {
        const alt = (t.children ?? [])
          .map((c) => c.content)
          .join('')
          .trim();
        const name = alt ? l10n.t('image: {0}', alt) : l10n.t('image');
        out += `${escapeText(`[${name}]`)} (${codeSpan(String(t.attrGet('src') ?? ''))})`;
        break;
      }
      default:
        // html_inline and anything else: its source as text.
        if (t.nesting === 0) out += escapeText(t.content);
    }
  }
  return escapeLineStarts(out);
}

/** Text with every character that could start markup here escaped (a backslash before ASCII punctuation shows it). */
function escapeText(text: string): string {
  return text.replace(/[\\`*_~[\]<|]/g, '\\$&').replace(/&(?=#?\w+;)/g, '\\&');
}

/** A line of text that would start a block (a heading, a quote, a list item, a setext underline): its marker escaped. */
function escapeLineStarts(text: string): string {
  return text.replace(/^([#>+=-])|^(\d+)([.)])/gm, (_, marker: string | undefined, digits: string, dot: string) =>
    marker ? `\\${marker}` : `${digits}\\${dot}`,
  );
}
