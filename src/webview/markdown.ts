// Model output -> HTML, treating the output as hostile. Raw HTML is escaped (markdown-it `html: false`), links must be
// http(s) or mailto (anything else stays text), images are never loaded (their alt text is shown), and code blocks get
// a Copy button. No DOM use: the same module runs in the webview bundle and under plain mocha.
import MarkdownIt from 'markdown-it';

export interface MarkdownRenderer {
  render(markdown: string): string;
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
    return `<span class="md-image" title="Images are not loaded">${escape(alt || 'image')}</span>`;
  };

  const codeBlock = (content: string, info: string): string => {
    const lang = (info.trim().split(/\s+/)[0] ?? '').replace(/[^\w+#.-]/g, '').slice(0, 32);
    const label = lang ? `<span class="code-lang">${escape(lang)}</span>` : '';
    const cls = lang ? ` class="language-${escape(lang)}"` : '';
    return (
      `<div class="code-block">${label}` +
      '<button type="button" class="copy-code" data-testid="copy-code" title="Copy code" aria-label="Copy code">' +
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

  return { render: (markdown) => md.render(markdown) };
}
